"""The Covering Fire talent among allies in the fight kernel (SUP-11; ``kernel_covering_lower``, ``kernel.covering``).

The set: the covering gunner (tactical AI, a submachine gun and its fists) behind a frail scripted recruit, against two
scripted brutes that Strike at the nearest, under edition 1. Covering Fire is offered on every attack an enemy
declares, whoever it is made at (``_covering_ok`` reads the attacker alone): the brutes' swings at the recruit are
pinned too. A brute that drops the recruit and walks on towards the gunner while pinned sets off the gunner's free shot
(``_covering_hook``), which the other brute may Intercept (E-19). The AI's Intercept and withdrawal weigh a pinned
attacker's hits at disadvantage (``base_for`` reads the effect: ``pinned_guard``, ``pinned_plans``). A second set
has the pair against one brute the AI plays: pinned, it plans, picks its target and moves weighing its own
disadvantage (the plan tables' pinned half), and its Steps and Strides while pinned draw the free shot. Every step
equals the reference's, the decisions equal ``TacticalPolicy.choose``, the features happen, kernels without them
diverge; what is not played is named.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.sim.kernel_lower import Lowered, check
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
from tests.kernel.test_kernel_ai import checked_decisions

PARTNER = ENCOUNTERS / "ai-covering-gunner-beside-a-partner-against-two-brutes.yaml"
AI_BRUTE = ENCOUNTERS / "ai-covering-gunner-and-a-partner-against-an-ai-brute.yaml"
RECRUIT = "kernel-covered-recruit"


def _happened(setup: FightSetup, n: int) -> Counter[str]:
    """In ``n`` reference fights: pinned attacks by target, free shots (and the fights with one), Intercepts."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        shot = False
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "reaction-spent":
                found[e.label] += 1
            elif kind == "attack-rolled" and e.label == "Covering Fire":
                found["free shots"] += 1
                shot = True
            elif kind == "attack-rolled" and "suppressed by Covering Fire" in repr(e.roll):
                found["pinned attacks at the recruit" if e.target == RECRUIT else "pinned attacks at the gunner"] += 1
        found["fights with a free shot"] += shot
    return found


@pytest.mark.rule("SUP-11", "RX-21", "RX-26", "E-19", "AE-2", "DOD-1")
def test_covering_gunner_beside_a_partner__plays_every_step_as_the_reference() -> None:
    plays_like_the_reference(setup_of(PARTNER, "ashfall-1"), 150)


@pytest.mark.rule("SUP-11")
def test_covering_gunner_beside_a_partner__pins_attacks_at_the_partner_and_shoots_a_pinned_mover() -> None:
    """Attacks at the recruit pinned as well as at the gunner, and the free shot on a pinned brute's Stride."""
    found = _happened(setup_of(PARTNER, "ashfall-1"), 40)
    assert found["Covering Fire"] >= 100
    assert found["pinned attacks at the recruit"] >= 40 and found["pinned attacks at the gunner"] >= 40
    assert found["free shots"] >= 5 and found["fights with a free shot"] >= 5


@pytest.mark.rule("SUP-11", "RX-26", "DOD-1")
def test_kernel_ai_decide__equals_tactical_policy_choose_beside_a_partner_and_a_pinned_enemy() -> None:
    seen = checked_decisions(setup_of(PARTNER, "ashfall-1"), seeds(8, sweep=37))
    assert any(isinstance(e, tuple) and e[0] == "attack" for e in seen)


def _no_free_shot(lo: Lowered) -> Lowered:
    assert lo.covering is not None
    return dataclasses.replace(lo, covering=dataclasses.replace(lo.covering, free=lo.covering.free * 0))


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize("change", [_no_free_shot], ids=["no-free-shot"])
def test_compare_engines__a_kernel_without_covering_fire_among_allies_diverges(change: object) -> None:
    setup = setup_of(PARTNER, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, change), 40, 2)  # type: ignore[arg-type]


@pytest.mark.rule("SUP-11", "RX-26", "DOD-1", "G-21")
def test_covering_tables__intercept_and_withdrawal_weigh_a_pinned_attacker_lower() -> None:
    """The AI's Intercept's mean hit (on a hit: expected over hit chance) and the withdrawal's turn of a pinned brute
    are the reference's own values with the effect in place, lower than the plain turn wherever that is worth
    anything."""
    lo = Rewired(setup_of(PARTNER, "ashfall-1"), lambda x: x).kernel.lowered
    half = lo.guard_hit.shape[2] // 2
    assert lo.guard_hit.shape[2] == 2 * half and (lo.guard_hit[:, :, half:] > 0).any()
    way = lo.ai.withdraw.way_mean
    assert way.shape[4] == 4
    plain, pinned = way[..., 0], way[..., 2]
    worth = plain > 0
    assert worth.any() and (pinned[worth] <= plain[worth]).all() and (pinned[worth] < plain[worth]).any()
    assert not np.array_equal(lo.guard_hit[:, :, :half], lo.guard_hit[:, :, half:])


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize(("change", "named"), [
    # two shooters could pin one enemy twice, each with its own free shot
    (("      weapons: [greataxe]\n", "      weapons: [greataxe]\n      talents: [covering-fire]\n"),
     "beside another creature with the talent"),
])
def test_covering_gunner_beside_a_partner__what_it_does_not_cover_is_named(tmp_path: Path, change: tuple[str, str],
                                                                           named: str) -> None:
    problem = check(variant(tmp_path, PARTNER, *change, "ashfall-1"))
    assert problem is not None and named in problem


@pytest.mark.rule("SUP-11", "AE-2", "E-19", "RX-26", "POS-1", "DOD-1")
def test_covering_gunner_and_a_partner_against_an_ai_brute__plays_every_step_as_the_reference() -> None:
    plays_like_the_reference(setup_of(AI_BRUTE, "ashfall-1"), 100)


@pytest.mark.rule("SUP-11", "ACT-3")
def test_covering_gunner_and_a_partner_against_an_ai_brute__the_pinned_brute_moves_into_the_free_shot() -> None:
    """The brute the AI plays is pinned on attacks at either of the pair, and Steps or Strides while pinned."""
    found = _happened(setup_of(AI_BRUTE, "ashfall-1"), 20)
    assert found["pinned attacks at the recruit"] >= 40 and found["pinned attacks at the gunner"] >= 40
    assert found["free shots"] >= 8 and found["fights with a free shot"] >= 8


@pytest.mark.rule("SUP-11", "RX-26", "DOD-1")
def test_kernel_ai_decide__equals_tactical_policy_choose_for_a_pinned_creature() -> None:
    """The brute's decisions while pinned (its plans at disadvantage) equal the AI's, as do the gunner's."""
    seen = checked_decisions(setup_of(AI_BRUTE, "ashfall-1"), seeds(8, sweep=41))
    assert any(isinstance(e, tuple) and e[0] == "attack" for e in seen)


def _plans_unpinned(lo: Lowered) -> Lowered:
    """A pinned creature's plans read as if it were not pinned (the plan tables' second half a copy of the first)."""
    half = lo.ai.plan_frac.shape[2] // 2
    ai = lo.ai
    frac, drop, first = ai.plan_frac.copy(), ai.plan_drop.copy(), ai.plan_first.copy()
    for table in (frac, drop, first):
        table[:, :, half:] = table[:, :, :half]
    return dataclasses.replace(lo, ai=dataclasses.replace(ai, plan_frac=frac, plan_drop=drop, plan_first=first))


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize("change", [_plans_unpinned, _no_free_shot], ids=["plans-unpinned", "no-free-shot"])
def test_compare_engines__a_kernel_blind_to_a_pinned_ai_creature_diverges(change: object) -> None:
    setup = setup_of(AI_BRUTE, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, change), 40, 2)  # type: ignore[arg-type]
