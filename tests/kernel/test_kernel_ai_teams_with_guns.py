"""The tactical AI with allies and a gun in the fight kernel (edition 1): shots, reloads, Return Fire, Intercept.

A creature the AI plays with allies may carry, besides one melee weapon, a gun or crossbow with ammunition (G-31):
it weighs shots beside the flanking its partner gives its swings (POS-1), the enemies' guns weigh in the fire a
square invites and in its withdrawal (DOD-1: each enemy's turn of shots from where it stands, ``incoming``), a hit
sets off Return Fire (RX-29..31) and, under edition 1, a shot may be Intercepted (E-19, RX-26: the AI weighing the
attacker's gun at any distance). Among several enemies a Full Auto Burst could take further targets (MAA-2, G-35):
played under edition 1 (``test_kernel_ai_burst_decisions.py``). Under edition 2 a shot in reach provokes (E-18): named.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from ashfall.sim import kernel_allies_lower as kall
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.runner import play
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, STOPPED, log_counts, seeds, setup_of, stops_at_the_dodge

BRUTE = ENCOUNTERS / "ai-pistol-and-crossbow-pair-against-a-brute.yaml"
LONE = ENCOUNTERS / "ai-pistol-pair-against-a-lone-gunner.yaml"
SHIELD = ENCOUNTERS / "ai-gunner-intercepts-for-a-scripted-partner.yaml"
WITHDRAW = STOPPED / "ai-pistol-teams-withdraw.yaml"
"""Two AI pairs with pistols: a hurt creature often withdraws, the kernel stops there (not a set of the harness)."""


@pytest.mark.rule("G-31", "E-05", "POS-1", "RX-26", "DOD-1")
def test_kernel_ai_pistol_pair__plays_every_step_of_the_reference_fight_against_a_brute() -> None:
    setup = setup_of(BRUTE, "ashfall-1")
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(60), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    counts = log_counts(setup, 20)
    assert counts["shots"] > 0 and counts["flanked"] > 0
    for seed in seeds(5, sweep=9):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("G-31", "RX-29", "RX-30", "RX-31", "E-20", "POS-1", "RX-26", "E-19", "MAA-2")
def test_kernel_ai_pistol_pair__trades_fire_with_a_lone_gunner_as_the_reference_does() -> None:
    setup = setup_of(LONE, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(40), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    counts = log_counts(setup, 20)
    assert counts["shots"] > 0 and counts["return fire"] > 0 and counts["flanked"] > 0


@pytest.mark.rule("E-19", "RX-26", "RX-27")
def test_kernel_ai_gunner__intercepts_shots_and_swings_at_its_frail_partner_as_the_reference_does() -> None:
    setup = setup_of(SHIELD, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    assert kernel.lowered.ai.ranged.intercepts[0] == 1  # edition 1 intercepts any attack (E-19)
    report = compare_engines(setup, seeds(30), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    assert log_counts(setup, 20)["intercepts"] > 0


@pytest.mark.rule("DOD-1", "DOD-2", "RX-29", "E-19")
def test_kernel_ai_pistol_teams__withdrawal_weighs_the_enemies_guns_and_stops_at_the_references_dodge() -> None:
    setup = setup_of(WITHDRAW, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    withdraw = kernel.lowered.ai.withdraw  # every enemy's pistol reaches across the yard
    assert (np.where(withdraw.way_melee == 0, withdraw.way_ft, -1).max(axis=1) > 0).all()
    assert stops_at_the_dodge(setup, 12) >= 3


class _Broken:
    """The kernel with one table of the AI's guns among allies broken on purpose: the harness must catch it."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        ai = lo.ai
        if broken == "withdrawal-ignores-the-enemies-guns":  # ``incoming`` without the shots (DOD-1)
            shots = ai.withdraw.way_mean.copy()
            for e, way in zip(*np.nonzero(ai.withdraw.way_melee == 0), strict=True):  # every ranged way a pistol
                shots[e, :, way] = 0.0
            withdraw = dataclasses.replace(ai.withdraw, way_mean=shots)
            ai = dataclasses.replace(ai, withdraw=withdraw)
        elif broken == "shots-never-intercepted":  # as under edition 2 (E-19)
            ai = dataclasses.replace(ai, ranged=dataclasses.replace(ai.ranged, intercepts=np.zeros(1, np.int64)))
        elif broken == "intercept-blind-to-the-gun":  # the attacker's gun left out of the AI's judgement (RX-26)
            self.kernel.lowered = lo = dataclasses.replace(lo, guard_shot=np.zeros_like(lo.guard_shot))
        elif broken == "nobody-fires-back":  # no Return Fire (RX-29)
            ranged = dataclasses.replace(ai.ranged, fire_back=np.full_like(ai.ranged.fire_back, -1))
            ai = dataclasses.replace(ai, ranged=ranged)
        else:  # "flanking-ignored-beside-a-gun": its swings valued as if no partner ever flanked (POS-1)
            frac, drop, first = ai.plan_frac.copy(), ai.plan_drop.copy(), ai.plan_first.copy()
            for table in (frac, drop, first):
                table[:, :, 1::2] = table[:, :, 0::2]
            ai = dataclasses.replace(ai, plan_frac=frac, plan_drop=drop, plan_first=first)
        self.kernel.lowered = dataclasses.replace(lo, ai=ai)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("withdrawal-ignores-the-enemies-guns", WITHDRAW, 2),
                                                    ("shots-never-intercepted", SHIELD, 1),
                                                    ("intercept-blind-to-the-gun", SHIELD, 1),
                                                    ("nobody-fires-back", LONE, 2),
                                                    ("flanking-ignored-beside-a-gun", LONE, 3)])
def test_compare_engines__a_kernel_wrong_about_guns_among_allies_diverges(broken: str, path: Path,
                                                                          least: int) -> None:
    setup = setup_of(path, OWN)
    report = compare_engines(setup, seeds(12), reference_signature, _Broken(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


def _variant(tmp_path: Path, old: str, new: str, edition: str | None = None) -> EncounterSetup:
    text = LONE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return EncounterSetup(path, edition)


@pytest.mark.rule("MAA-2", "G-35", "E-18")
def test_kernel_ai_teams_with_guns__what_is_not_played_is_named(tmp_path: Path) -> None:
    # a burst that may take further targets among several enemies (the rules' default of three, MAA-2) is played
    # under edition 1 (tests/kernel/test_kernel_ai_burst_decisions.py)
    assert check(setup_of(LONE, "ashfall-1")) is None
    # under edition 2 a shot in reach provokes (E-18, played), but a Return Fire among several enemies could itself
    # be made in reach, which is named
    problem = check(setup_of(LONE, "ashfall-2"))
    assert problem is not None and problem.startswith("Return Fire from within a shooter's reach (E-18")
    # a thrown melee weapon beside the gun is played (tests/kernel/test_kernel_ai_teams_with_throws_and_guns.py); a
    # second melee weapon beside it, or a thrown weapon without a gun, is named
    knives = _variant(tmp_path, "weapons: [greataxe, pistol]", "weapons: [combat-knife, pistol]")
    fight = knives.build_fight(0)
    assert kall.allies_problem(fight, fight.engine.state.get("kernel-ai-warden-sword")) is None
    two = _variant(tmp_path, "weapons: [greataxe, pistol]", "weapons: [greataxe, combat-knife, pistol]")
    fight = two.build_fight(0)
    assert kall.allies_problem(fight, fight.engine.state.get("kernel-ai-warden-sword")) == (
        "the tactical AI with allies and several ways to attack (combatant kernel-ai-warden-sword)")
    thrown = _variant(tmp_path, "weapons: [greataxe, pistol]", "weapons: [spear]")
    fight = thrown.build_fight(0)
    assert kall.allies_problem(fight, fight.engine.state.get("kernel-ai-warden-sword")) == (
        "the tactical AI with allies and several ways to attack: a thrown weapon (combatant kernel-ai-warden-sword)")
