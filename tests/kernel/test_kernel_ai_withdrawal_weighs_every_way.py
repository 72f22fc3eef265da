"""The tactical AI's withdrawal in the fight kernel weighing enemies with several ways to attack (DOD-1, DOD-2).

``outmatched.incoming`` takes each enemy's best turn of Strikes among all its ways that reach: a melee way within its
limit plus the enemy's walking speed, a ranged one (a gun, a thrown weapon) within its long range from where it
stands. The kernel lowers one turn per way (``WithdrawTables.way_mean``, ``way_ft``) and takes the best that reaches,
so an enemy with a greataxe and a javelin (the Warrior's kit), a gun beside a melee weapon and a throw, two guns or a
gun alone is weighed as the reference weighs it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import ashfall.ai.tactical as tactical
from ashfall.ai.turn import hp_left
from ashfall.sim import kernel_allies_lower as kall
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import BAILED_STEP, KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import reference_fight, reference_signature
from tests.kernel.kit import (
    ENCOUNTERS,
    STOPPED,
    Rewired,
    log_counts,
    plays_like_the_reference,
    seeds,
    setup_of,
    stops_at_the_dodge,
    wrong_kernel_diverges,
)

ROOT = Path(__file__).resolve().parents[2]
THROWER = STOPPED / "ai-pair-withdraws-from-a-javelin-thrower.yaml"
"""A slow pair crossing a yard toward a rooted javelin brute: a hurt warden often withdraws, the kernel stops there."""
PLATED = ENCOUNTERS / "ai-plated-pair-weighs-withdrawing-from-a-javelin-brute.yaml"
"""A plated pair against the javelin brute: they weigh withdrawing and stay; every fight is played to its end."""
BRUTE = "kernel-ai-javelin-brute"


def _weighings(monkeypatch: pytest.MonkeyPatch, setup: FightSetup, n: int) -> Counter[str]:
    """How often the reference AI weighs withdrawing in ``n`` fights, up to each fight's first withdrawal.

    ``incoming`` is called once the creature is hurt enough, with an ally up and no even chance to drop its target;
    ``reaches`` counts the times the enemies' turn reached its HP left (it withdraws: a Dodge first).
    """
    found: Counter[str] = Counter()
    original = tactical.incoming
    stopped = [False]

    def counting(view: tactical.TurnView) -> float:
        value = original(view)
        if not stopped[0]:
            found["weighed"] += 1
            if value >= hp_left(view.c):
                found["reaches"] += 1
                stopped[0] = True
        return value

    monkeypatch.setattr(tactical, "incoming", counting)
    for seed in seeds(n):
        stopped[0] = False
        reference_fight(setup, seed)
    return found


def _way(lo: Lowered, who: str, ranged: bool) -> int:
    """The index of ``who``'s first melee or ranged way among its withdrawal ways."""
    i = lo.ids.index(who)
    melee = lo.ai.withdraw.way_melee[i]
    return next(w for w in range(len(melee)) if lo.ai.withdraw.way_ft[i, w] >= 0 and bool(melee[w]) != ranged)


def _blind_to_the_throw(lo: Lowered) -> Lowered:
    """The withdrawal broken on purpose: the brute's javelin throw weighs nothing (only its swings count)."""
    way = _way(lo, BRUTE, True)
    mean = lo.ai.withdraw.way_mean.copy()
    mean[lo.ids.index(BRUTE), :, way] = 0.0
    withdraw = dataclasses.replace(lo.ai.withdraw, way_mean=mean)
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, withdraw=withdraw))


def _walks_to_throw(lo: Lowered) -> Lowered:
    """The withdrawal broken on purpose: the throw read as a swing, reaching only where the brute walks up."""
    way = _way(lo, BRUTE, True)
    ft = lo.ai.withdraw.way_ft.copy()
    ft[lo.ids.index(BRUTE), way] = ft[lo.ids.index(BRUTE), _way(lo, BRUTE, False)]
    withdraw = dataclasses.replace(lo.ai.withdraw, way_ft=ft)
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, withdraw=withdraw))


def _fivefold(lo: Lowered) -> Lowered:
    """The withdrawal broken on purpose: every enemy's turn valued five times over (the judgement far too eager)."""
    withdraw = dataclasses.replace(lo.ai.withdraw, way_mean=lo.ai.withdraw.way_mean * 5.0)
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, withdraw=withdraw))


def _stops_elsewhere(setup: FightSetup, change: object, n: int) -> int:
    """Of the first ``n`` fights, how many a broken kernel plays otherwise than the kernel, which matches the reference
    step for step up to the reference's Dodge (``stops_at_the_dodge``)."""
    right = KernelSetup(setup)
    wrong = Rewired(setup, change)  # type: ignore[arg-type]
    return sum(wrong(setup, seed).steps != right.signature(seed).steps for seed in seeds(n))


@pytest.mark.rule("DOD-1", "DOD-2", "ATK-2")
def test_kernel_ai_withdrawal__weighs_a_javelin_throw_and_stops_at_the_references_dodge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    setup = setup_of(THROWER, "ashfall-1")
    assert check(setup) is None
    lo = KernelSetup(setup).lowered
    brute = lo.ids.index(BRUTE)
    # the axe and the javelin in hand reach 5 ft (no walking speed), the javelin's throw its long range (ATK-2)
    assert lo.ai.withdraw.way_ft[brute].tolist() == [5, 5, 120]
    assert lo.ai.withdraw.way_melee[brute].tolist() == [1, 1, 0]
    assert stops_at_the_dodge(setup, 30) >= 10
    counts = _weighings(monkeypatch, setup, 30)
    assert counts["reaches"] >= 10 and counts["weighed"] > counts["reaches"]
    thrown = log_counts(setup, 20)  # the brute throws, and a warden may take a throw for its partner (RX-26, E-19)
    assert thrown["throws"] > 0 and thrown["intercepts"] > 0


@pytest.mark.rule("RX-26", "E-19")
def test_kernel_ai__a_swing_with_a_second_melee_weapon_is_intercepted_as_the_reference_does() -> None:
    # trial 627 of the sweep: the brute swings its Javelin in hand at the axe warden, down to 2 HP, and the hammer
    # warden takes the swing for its partner (the compiled further-option swing once offered no Intercept); the axe
    # warden withdraws later, where the kernel stops, every step before it the reference's
    setup = setup_of(THROWER, "ashfall-1")
    seed = seeds(628)[627]
    log = reference_fight(setup, seed).log
    assert any(getattr(e, "type", "") == "reaction-spent" and e.label == "Intercept" for e in log)
    ours, theirs = KernelSetup(setup).signature(seed), reference_signature(setup, seed)
    stop = len(ours.steps) - 1
    assert ours.steps[stop].action == BAILED_STEP and theirs.steps[stop].action == "actions-spent:dodge"
    assert ours.steps[:stop] == theirs.steps[:stop]
    swing = next(i for i, step in enumerate(theirs.steps) if step.actor == BRUTE and step.target ==
                 "kernel-ai-warden-hammer")
    assert swing < stop  # the intercepted swing, played alike


@pytest.mark.rule("DOD-1", "DOD-2", "ATK-2")
@pytest.mark.parametrize("change", [_blind_to_the_throw, _walks_to_throw])
def test_kernel_ai_withdrawal__a_kernel_wrong_about_the_throw_misses_the_references_dodge(change: object) -> None:
    setup = setup_of(THROWER, "ashfall-1")
    # the kernel stops at the reference's Dodge in these fights (above); a wrong one plays on past it
    assert _stops_elsewhere(setup, change, 30) >= 3


@pytest.mark.rule("DOD-1", "DOD-2", "RX-26", "ATK-2")
def test_kernel_ai_plated_pair__plays_every_fight_against_a_javelin_brute_to_its_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    setup = setup_of(PLATED, "ashfall-1")
    plays_like_the_reference(setup, 40)
    counts = log_counts(setup, 20)
    assert counts["throws"] > 0 and counts["melee"] > 0
    weighed = _weighings(monkeypatch, setup, 100)
    assert weighed["weighed"] > 0 and weighed["reaches"] == 0  # it weighs withdrawing and stays (never stopped)


@pytest.mark.rule("DOD-1", "DOD-2")
def test_compare_engines__a_kernel_too_eager_to_withdraw_diverges_against_the_plated_pair() -> None:
    # the wardens weigh withdrawing a few times in 100 fights, the brute's turn far short of their HP left
    setup = setup_of(PLATED, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, _fivefold), 100, 1)


@pytest.mark.rule("DOD-1")
def test_kernel_ai_withdrawal__weighs_the_shipped_enemies_every_way() -> None:
    # the skirmish's raiders weigh the Warrior's greataxe and javelin, the Vanguard's halberd and pistol, the
    # Gunslinger's two guns and its unarmed strike; the basement's party a drone's hunting rifle and nothing else
    for name, who in (("skirmish", "raider-reaver"), ("flooding-basement", "psion")):
        fight = EncounterSetup(ROOT / "encounters" / f"{name}.yaml", "ashfall-1").build_fight(0)
        assert kall.allies_problem(fight, fight.engine.state.get(who)) is None
    # its own two guns beside its unarmed strike are played among allies too (``test_kernel_ai_two_guns_among_allies``)
    fight = EncounterSetup(ROOT / "encounters" / "skirmish.yaml", "ashfall-1").build_fight(0)
    assert kall.allies_problem(fight, fight.engine.state.get("gunslinger")) is None


@pytest.mark.rule("DOD-1", "ATK-2")
def test_withdraw_tables__hold_a_gun_alone_and_two_guns_beside_the_unarmed_strike() -> None:
    # each way's reach as ``incoming`` tests it: a ranged way's long range, a melee way's limit plus the walk
    for name, who, target, ft, melee in (
            ("flooding-basement", "lab-security-drone-1", "psion", [600], [0]),  # a machine: no unarmed strike
            ("skirmish", "gunslinger", "raider-reaver", [5, 240, 150], [1, 0, 0])):
        fight = EncounterSetup(ROOT / "encounters" / f"{name}.yaml", "ashfall-1").build_fight(0)
        roster = list(fight.engine.state.combatants.values())
        ids = [c.id for c in roster]
        tables = kall.lower_withdrawing(fight, roster, [0])
        e, c = ids.index(who), ids.index(target)
        ft = [f + (roster[e].creature.speeds.walk if m else 0) for f, m in zip(ft, melee, strict=True)]
        width = len(ft)
        assert tables.way_ft[e, :width].tolist() == ft and tables.way_melee[e, :width].tolist() == melee
        assert np.all(tables.way_ft[e, width:] == -1)
        assert all(tables.way_mean[e, c, w].max() > 0.0 for w in range(width))
