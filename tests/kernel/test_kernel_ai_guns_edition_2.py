"""Edition 2's tactical AI with guns and crossbows in the fight kernel: shots in reach provoke, beside Trip.

Under ``ashfall-2`` a shot from within an enemy's melee reach provokes its Attack of Opportunity first (E-18, RX-21,
RX-22), the round already spent (``spend_ammo`` before ``perform_attack``, G-31); the AI weighs it as it weighs a
throw's. Edition 2's Trip opens the plans of each melee option where the AI stands (E-37), so the plan tables hold
each number of rounds loaded twice, against a target up and lying prone (C-PRO). Return Fire (RX-29, RX-30 at the
ruleset's penalty, E-20) never answers a shot from within the reactor's own reach (its Attack of Opportunity spent
the one reaction a round); where its own answer could provoke, the fight is named. The shotgun and crossbow sets
run under edition 2 and the shooter sets of edition 1 run there too; the crossbow's tables hold the AI's own plans
for each load against a target up and prone; kernels that let a shot provoke nothing or plan as if always loaded
beside Trip must diverge.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ashfall.ai import TacticalPolicy
from ashfall.ai.plans import Block, Setting
from ashfall.ai.profile import attack_options
from ashfall.ai.sight import situation_code, situation_of
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition
from ashfall.engine.events import ActionsSpent, AttackRolled
from ashfall.sim.fight import trial_seed
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_maneuvers import with_conditions
from ashfall.sim.kernel_ranged_lower import _answer_provokes
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.kernel_weapons_lower import FIRST, MODES, PLAIN, PRONE
from ashfall.sim.runner import play
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import (
    ENCOUNTERS,
    plays_like_the_reference_or_is_named,
    seeds,
    setup_of,
    under_edition_2,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import _Mixed, checked_decisions
from tests.kernel.test_kernel_ai_openers_with_several_ways_to_attack import _CheckedUp
from tests.kernel.test_kernel_ranged_weapons import CROSSBOW, PISTOL, PISTOLS, _WrongRanged, shooter_fights

SHOTGUN = ENCOUNTERS / "ai-shotgun-in-reach-provokes.yaml"
CROSSBOW_TRIPS = ENCOUNTERS / "ai-crossbow-trips-and-shoots.yaml"
FIRE_BACK_2 = ENCOUNTERS / "ai-pistol-and-shotgun-fire-back-at-a-penalty.yaml"
EDITION_2_SETS = [SHOTGUN, CROSSBOW_TRIPS, FIRE_BACK_2, CROSSBOW, PISTOL, PISTOLS]
GUNS = ("pistol", "shotgun", "crossbow")


@pytest.mark.rule("E-18", "E-37", "RX-21", "RX-22", "G-31", "C-PRO", "TRP-1")
@pytest.mark.parametrize("path", EDITION_2_SETS, ids=[p.stem for p in EDITION_2_SETS])
def test_kernel_ai_guns_edition_2__plays_every_step_of_the_reference_fight(path: Path) -> None:
    report = compare_engines(setup_of(path, "ashfall-2"), seeds(100), reference_signature, kernel_signature)
    assert report.identical, report.first


def _events(path: Path, n: int) -> Counter[str]:
    """What happens in the reference fights of trials 0 .. n-1 of the set's own sweep (its ``seed``)."""
    setup = EncounterSetup(path, "ashfall-2")
    sweep = setup.load_spec().seed or 0
    found: Counter[str] = Counter()
    for i in range(n):
        log = list(play(setup, trial_seed(sweep, i), record_log=True).log or ())
        for k, e in enumerate(log):
            if isinstance(e, ActionsSpent):
                found[e.label] += 1
            if isinstance(e, AttackRolled) and e.weapon in GUNS:
                found["return fire" if e.label == "Return Fire" else "shot"] += 1
            if isinstance(e, AttackRolled) and e.label == "Attack of Opportunity":
                after = next((f for f in log[k + 1:] if isinstance(f, (AttackRolled, ActionsSpent))), None)
                if isinstance(after, AttackRolled) and after.actor == e.target and after.weapon in GUNS:
                    found["shot in reach"] += 1
    return found


@pytest.mark.rule("E-18", "RX-21", "G-31", "TRP-1", "E-37", "RX-29")
@pytest.mark.parametrize(("path", "wanted"), [(SHOTGUN, ("shot in reach", "reload", "trip", "stand")),
                                              (CROSSBOW_TRIPS, ("shot", "reload", "trip", "stand")),
                                              (FIRE_BACK_2, ("shot", "return fire", "reload"))],
                         ids=["shotgun", "crossbow-trips", "fire-back"])
def test_edition_2_gun_sets__the_features_happen_in_the_reference_fights(path: Path, wanted: tuple[str, ...]) -> None:
    found = _events(path, 30)
    assert all(found[w] >= 3 for w in wanted), found


@pytest.mark.rule("E-18", "RX-21", "G-31", "E-37", "TRP-1")
@pytest.mark.parametrize("path", [SHOTGUN, CROSSBOW_TRIPS], ids=["shotgun", "crossbow-trips"])
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_gun_under_edition_2(path: Path) -> None:
    """Every decision of 8 fights: shots (in reach, for the shotgun), Reloads, Trips and swings among them."""
    seen = checked_decisions(setup_of(path, "ashfall-2"), seeds(8, sweep=31), _CheckedUp)
    attacks = [e for e in seen if isinstance(e, tuple) and len(e) == 5]
    assert any(e[3] in GUNS for e in attacks)  # it shot
    assert any(e[0] == "reload" for e in seen if isinstance(e, tuple))


@pytest.mark.rule("G-31", "E-37", "C-PRO", "TRP-3")
@pytest.mark.parametrize("prone", [False, True], ids=["target-up", "target-prone"])
def test_kernel_ai_crossbow_tables__hold_each_load_against_a_target_up_and_prone(prone: bool) -> None:
    """The crossbow's plans with the bolt spent or loaded, the brute up or lying prone: the AI's own best plans, at
    ``2 * MODES * rounds + setting (+ PRONE)``; with the bolt spent a plan reloads first (G-31)."""
    setup = setup_of(CROSSBOW_TRIPS, "ashfall-2")
    lo = KernelSetup(setup).lowered
    options, ranged = lo.ai.options, lo.ai.ranged
    fight = setup.build_fight(0)
    state = fight.engine.state
    roster = list(state.combatants.values())
    i, c = next((k, x) for k, x in enumerate(roster) if x.id == "kernel-ai-crossbow-tripper")
    j, t = next((k, x) for k, x in enumerate(roster) if x.side != c.side)
    policy = fight.policies[c.id]
    assert isinstance(policy, TacticalPolicy)
    xo = next(k for k, o in enumerate(attack_options(c, state)[1:]) if o.ranged)
    assert ranged.slots[i, xo] == 1 and options.frac.shape[2] == 2 * MODES * 2  # two loads, up and prone
    code = situation_code(dataclasses.replace(situation_of(0), hostile_within_5ft=False, within_5ft=False))
    reloads = 0
    with with_conditions(t, *((Condition.PRONE,) if prone else ())):
        view = TurnView(fight.engine, c, (t,))
        option = view.options[xo + 1]
        base = view._base_in(t, option, code, False)
        assert base is not None
        for ammo in (0, 1):
            for left in range(1, options.frac.shape[6]):
                for hp in (1, 9, hp_left(t)):
                    setting = Setting(option, {t.id: base}, {}, {t.id: hp}, {}, 0, ammo, view.available(option), {})
                    plan = view.best_plan(t.id, setting, left, full=True, openers=True,
                                          drop_step=policy.config.drop_step)
                    at = (i, xo, 2 * MODES * ammo + PLAIN + (PRONE if prone else 0), j, 0, 0, left, hp)
                    if plan is None:  # a spent bolt and one action: a Reload and no shot
                        assert options.first[at] == -1
                        continue
                    assert options.frac[at] == plan.frac
                    assert options.drop[at] == plan.p_drop
                    assert options.first[at] == FIRST[plan.blocks[0]]
                    reloads += plan.blocks[0] is Block.RELOAD
    assert reloads


class _WrongGuns:
    """The kernel with edition 2's shots in reach or its loads beside Trip broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o, r = lo.ai.options, lo.ai.ranged
        stride = 2 * MODES
        if broken == "shots-provoke-nothing":  # no Attack of Opportunity on a shot in reach, none feared (E-18)
            o = dataclasses.replace(o, shot=np.zeros_like(o.shot))
        else:
            frac, drop, first = o.frac.copy(), o.drop.copy(), o.first.copy()
            for i, xo in zip(*np.nonzero(r.slots >= 0), strict=True):
                for k in range(r.slots[i, xo] + 1):
                    for table in (frac, drop, first):  # every load planned as a full one (G-31)
                        full = stride * int(r.slots[i, xo])
                        table[i, xo, stride * k:stride * k + stride] = table[i, xo, full:full + stride]
            o = dataclasses.replace(o, frac=frac, drop=drop, first=first)
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("E-18", "G-31", "E-37")
@pytest.mark.parametrize(("broken", "path", "least"), [("shots-provoke-nothing", SHOTGUN, 5),
                                                    ("ammo-ignored-beside-trip", CROSSBOW_TRIPS, 5)])
def test_compare_engines__a_kernel_wrong_about_guns_under_edition_2_diverges(broken: str, path: Path,
                                                                           least: int) -> None:
    setup = setup_of(path, "ashfall-2")
    wrong_kernel_diverges(setup, _WrongGuns(setup, broken), 60, least)


@pytest.mark.rule("E-20", "RX-29", "RX-30")
def test_compare_engines__a_kernel_that_never_fires_back_under_edition_2_diverges() -> None:
    setup = setup_of(FIRE_BACK_2, "ashfall-2")
    wrong_kernel_diverges(setup, _WrongRanged(setup, "never-fires-back"), 40, 10)


@pytest.mark.rule("E-18", "E-20", "RX-29", "RX-21")
def test_kernel_ai_guns_edition_2__return_fire_that_could_provoke_is_told_apart(tmp_path: Path) -> None:
    """One against one, a Return Fire is never made from within the shooter's reach (the reactor's own Attack of
    Opportunity spent its reaction first): played. A lone gunner against two could answer one in the other's reach
    (E-18): the lowering names it."""
    duel = setup_of(FIRE_BACK_2, "ashfall-2")
    assert check(duel) is None
    state = duel.build_fight(0).engine.state
    assert not any(_answer_provokes(state, c) for c in state.combatants.values())
    text = FIRE_BACK_2.read_text(encoding="utf-8")
    marker, row = "victory:", "    ......\n"
    assert row in text
    second = text[text.index("  - side: gunners"):text.index(marker)].replace("kernel-ai-shotgunner",
                                                                               "kernel-ai-second-shotgunner")
    path = tmp_path / "two-shotgunners.yaml"
    path.write_text(text.replace(marker, second + marker, 1).replace(row, "    .....B\n", 1), encoding="utf-8")
    state = EncounterSetup(path, "ashfall-2").build_fight(0).engine.state
    assert _answer_provokes(state, state.get("kernel-ai-pistolero"))
    assert check(EncounterSetup(path, "ashfall-2")) is not None


@pytest.mark.rule("G-31", "ATK-2", "E-18", "E-37", "C-PRO")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shooter_fights())
def test_random_shooter_fights_edition_2__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    """The shooter fights of edition 1's test, under edition 2: shots that provoke, Trip, prone targets."""
    ed2 = under_edition_2(setup)
    plays_like_the_reference_or_is_named(ed2, 5, (ed2.inline, ed2.ai))
