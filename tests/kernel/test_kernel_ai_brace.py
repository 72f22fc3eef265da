"""Brace in the fight kernel (RX-12..15, X-20): a halberdier the tactical AI plays braces against charging raiders.

A creature that ends a Stride having walked at least 20 ft in a straight line, every step closer, within the reach of
a halberd (reach, polearm, braceable: RX-15) sets off its wielder's Brace: one attack with +1d6 (RX-13), and on a hit
a Fortitude save against 8 + proficiency + MIG or the charger cannot move again this turn (RX-14, X-20). Held here:
the set meets the case often, the kernel plays it step for step, the switch of X-20 is read, and kernels wrong about
the charge, the save or the stop diverge; beside edition 2's Trip a reactor lying prone Braces at disadvantage (C-PRO).
What is still named: two creatures that could Brace and a thrown bracing weapon (a Spear:
``test_kernel_ai_teams_with_throws_and_guns``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import Choice
from ashfall.engine import Engine
from ashfall.engine.effects import EffectKind
from ashfall.kernel import brace as kbr
from ashfall.sim import kernel_brace_lower as kbl
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    Rewired,
    plays_like_the_reference,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import _Checked

CHARGE = ENCOUNTERS / "ai-halberdier-braces-charging-raiders.yaml"
FREE_FOR_ALL = ENCOUNTERS / "ai-halberdiers-in-a-free-for-all.yaml"
AI_CHARGER = ENCOUNTERS / "ai-raider-charges-an-ai-halberdier.yaml"
HOUSE = ("ruleset: {base: ashfall-1, name: a Brace ends only the move, "
         "options: {turn: {brace_stops_turn_movement: false}}}\n")


@pytest.mark.rule("RX-12", "RX-13", "RX-14", "X-20")
@pytest.mark.parametrize("path", [CHARGE, AI_CHARGER], ids=lambda p: p.stem)
def test_brace_sets__play_like_the_reference(path: Path) -> None:
    plays_like_the_reference(setup_of(path, "ashfall-1"), 150)


@pytest.mark.rule("RX-12", "RX-13", "E-37", "TRP-3", "C-PRO")
def test_ai_raider_charges_an_ai_halberdier__plays_like_the_reference_beside_edition_2_trip() -> None:
    """Under edition 2 both AI creatures also Trip (E-37): the raider's charges are Braced, each trips the other."""
    plays_like_the_reference(setup_of(AI_CHARGER, "ashfall-2"), 100)


@pytest.mark.rule("RX-13", "C-PRO", "E-37")
def test_brace_tables__hold_a_prone_reactors_brace_at_disadvantage_beside_edition_2_trip() -> None:
    """Beside edition 2's Trip a reactor may lie prone when a charge ends (tripped before its turn came): its Brace,
    asked of ``resolve_attack`` with it prone, rolls two d20s and keeps the lower (C-PRO); under edition 1 it has
    no such row."""
    from ashfall.sim.kernel_maneuvers import ATTACKER_PRONE

    brace = KernelSetup(setup_of(AI_CHARGER, "ashfall-2")).lowered.brace
    assert brace is not None
    reactor = int(np.flatnonzero(brace.reach >= 0)[0])
    charger = 1 - reactor
    beside = 2  # the situation code of an attack from beside the charger, in the open
    assert brace.draws[reactor, charger, 0, 0, 0, beside] == 1
    assert brace.draws[reactor, charger, 0, 0, ATTACKER_PRONE, beside] == 2
    upright = brace.outcome[reactor, charger, 0, 0, 0, beside, :, 0]
    lying = brace.outcome[reactor, charger, 0, 0, ATTACKER_PRONE, beside]
    faces = np.arange(20)
    assert (lying == upright[np.minimum.outer(faces, faces)]).all()
    edition_1 = KernelSetup(setup_of(AI_CHARGER, "ashfall-1")).lowered.brace
    assert edition_1 is not None and edition_1.draws.shape[4] == 1


class _StoppedChecked(_Checked):
    """The tactical AI with the kernel's decision compared at every choice, counting those made after a Brace's stop."""

    __slots__ = ("stopped",)

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__(kernel)
        self.stopped = 0

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        choice = super().choose(engine, actor)  # compared with ``decide`` on the same state, the stop's bit set
        if engine.state.active_id == actor and engine.state.effects_on(actor, EffectKind.CANNOT_MOVE):
            self.stopped += 1
        return choice


@pytest.mark.rule("RX-14", "X-20")
def test_ai_raider_charges_an_ai_halberdier__decide_equals_choose_after_a_stop() -> None:
    """Every decision of 40 fights equals the AI's, the charging raider's after a Brace stopped it among them."""
    setup = setup_of(AI_CHARGER, "ashfall-1")
    kernel = KernelSetup(setup)
    stopped = 0
    for seed in seeds(40, sweep=setup.load_spec().seed or 0):
        fight = setup.build_fight(seed)
        checked = _StoppedChecked(kernel)
        policies = {cid: checked if isinstance(p, TacticalPolicy) else p for cid, p in fight.policies.items()}
        run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
        for expected, got in checked.seen:
            assert got == expected, (seed, expected, got)
        stopped += checked.stopped
    assert stopped >= 3


@pytest.mark.rule("X-20")
def test_ai_halberdier_braces_charging_raiders__a_brace_that_ends_only_the_move_plays_like_the_reference(
        tmp_path: Path) -> None:
    """X-20's alternative (``turn.brace_stops_turn_movement`` off): a failed save ends only the move already over."""
    plays_like_the_reference(variant(tmp_path, CHARGE, "name: Kernel AI", HOUSE + "name: Kernel AI"), 60)


def _brace_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Braces, their hits, the saves and the stops in ``n`` reference fights; stopped chargers that had actions left."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        stopped: str | None = None
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "reaction-spent" and e.label == "Brace":
                found["braces"] += 1
            elif kind == "attack-rolled" and e.label == "Brace":
                found["brace hits"] += e.outcome != "miss"
            elif kind == "check-rolled" and "Brace" in e.label:
                found["saves"] += 1
                found["failed saves"] += not e.success
            elif kind == "movement-stopped" and e.rule == "RX-14":
                found["stops"] += 1
                stopped = e.actor
            elif kind == "turn-ended" and stopped is not None and e.actor == stopped:
                stopped = None
            elif kind == "actions-spent" and stopped is not None and e.actor == stopped:
                found["acts after a stop"] += 1
    return found


@pytest.mark.rule("RX-12", "RX-13", "RX-14", "X-20")
def test_charging_raiders__brace_is_set_off_hits_and_stops_chargers() -> None:
    """In 40 reference fights the raiders' charges are braced, the braces hit, chargers fail their saves and are
    stopped with actions left."""
    found = _brace_counts(setup_of(CHARGE, "ashfall-1"), 40)
    assert found["braces"] >= 20 and found["brace hits"] >= 10, found
    assert found["failed saves"] >= 5 and found["stops"] == found["failed saves"], found


def _off(lo: Lowered) -> Lowered:
    """Brace never offered (wrong): the kernel before this family."""
    assert lo.brace is not None
    ints = lo.brace.ints.copy()
    ints[kbr.BR_ON] = 0
    return dataclasses.replace(lo, brace=dataclasses.replace(lo.brace, ints=ints))


def _saves_always(lo: Lowered) -> Lowered:
    """Every save against Brace succeeds (wrong): nobody is stopped."""
    assert lo.brace is not None
    return dataclasses.replace(lo, brace=dataclasses.replace(lo.brace, save_ok=np.ones_like(lo.brace.save_ok)))


def _never_stops(lo: Lowered) -> Lowered:
    """X-20 read the other way (wrong): a failed save ends only the move, the charger may move again."""
    assert lo.brace is not None
    ints = lo.brace.ints.copy()
    ints[kbr.BR_STOPS] = 0
    return dataclasses.replace(lo, brace=dataclasses.replace(lo.brace, ints=ints))


def _shorter_charge(lo: Lowered) -> Lowered:
    """Any straight run a charge (wrong): a Stride ending with one step closer, within reach, sets Brace off."""
    assert lo.brace is not None
    ints = lo.brace.ints.copy()
    ints[kbr.BR_CHARGE] = ints[kbr.BR_STEP]
    return dataclasses.replace(lo, brace=dataclasses.replace(lo.brace, ints=ints))


def _longer_charge(lo: Lowered) -> Lowered:
    """A charge 10 ft longer needed (wrong): straight runs of 20 and 25 ft no longer set Brace off."""
    assert lo.brace is not None
    ints = lo.brace.ints.copy()
    ints[kbr.BR_CHARGE] += 10
    return dataclasses.replace(lo, brace=dataclasses.replace(lo.brace, ints=ints))


@pytest.mark.rule("RX-12", "RX-14", "X-20")
@pytest.mark.parametrize(("wrong", "least"), [(_off, 5), (_saves_always, 2), (_never_stops, 1), (_shorter_charge, 5),
                                             (_longer_charge, 1)],
                         ids=["no-brace", "saves-always", "never-stops", "shorter-charge", "longer-charge"])
def test_compare_engines__a_kernel_wrong_about_brace_diverges(wrong: Callable[[Lowered], Lowered], least: int) -> None:
    setup = setup_of(CHARGE, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 30, least)


def test_brace_tables__slots_agree_with_the_kernel() -> None:
    assert (kbl.BR_ON, kbl.BR_CHARGE, kbl.BR_STEP, kbl.BR_STOPS, kbl.BR_LOW) == (
        kbr.BR_ON, kbr.BR_CHARGE, kbr.BR_STEP, kbr.BR_STOPS, kbr.BR_LOW)
    assert kbl.BRACE_LABEL == kbr.BRACE_LABEL


@pytest.mark.rule("RX-12", "RX-15", "E-37")
@pytest.mark.parametrize(("base", "old", "new", "edition", "named"), [
    (FREE_FOR_ALL, "walk: 15", "walk: 30", "ashfall-1",
     "Brace by two creatures (a second Brace on a charger the first dropped, RX-12, combatant kernel-ai-hookman)"),
], ids=["two-bracers"])
def test_check__what_brace_does_not_cover_is_named(tmp_path: Path, base: Path, old: str, new: str, edition: str,
                                                   named: str) -> None:
    assert check(variant(tmp_path, base, old, new, edition)) == named


@pytest.mark.rule("E-37", "SWP-3")
def test_check__the_charge_under_edition_2_is_named() -> None:
    """Under edition 2 the AI's Sweeping Strike among the two raiders is named first, as for the other reach sets."""
    assert check(setup_of(CHARGE, "ashfall-2")) == (
        "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant kernel-ai-halberdier)")
