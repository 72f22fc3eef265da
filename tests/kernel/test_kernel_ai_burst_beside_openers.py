"""The kernel plays the AI's Full Auto Burst among several enemies beside edition 2's openers (E-37, G-35, E-18).

tests/kernel/encounters/ai-gunner-bursts-three-brawling-bandits-beside-trips.yaml: a tough gunner with a pistol and
its fists, played by the tactical AI, among three scripted bandits each on a side of its own who brawl among
themselves, edition 2 with Power Strike for melee only (G-36) and no Sweeping Strike (E-10). The AI weighs its burst
where it stands beside its fists' Trip and Feint (E-37; the burst tables read each target standing and lying prone,
C-PRO) and net of the Attacks of Opportunity a shot in reach provokes (E-18). At every choice of its reference fights
``ashfall.kernel.ai.decide`` chooses the same; the compiled fight plays the same fights. Kernels with a burst table
broken on purpose decide otherwise or diverge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from ashfall.engine.events import ActionsSpent, AttackRolled
from ashfall.sim.kernel_burst_lower import BurstTables
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_fight, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import checked_decisions
from tests.kernel.test_kernel_ai_burst_decisions import _broken, _differing

SET = ENCOUNTERS / "ai-gunner-bursts-three-brawling-bandits-beside-trips.yaml"

Wrong = Callable[[BurstTables], BurstTables]


def _counts(n: int) -> tuple[int, int, int]:
    """Burst actions, their attack rolls (one per target), and the gunner's Trips in ``n`` reference fights."""
    bursts = rolls = trips = 0
    for seed in seeds(n):
        for e in reference_fight(setup_of(SET, OWN), seed).log:
            if isinstance(e, ActionsSpent) and "gunner" in e.actor:
                bursts += "burst" in e.label.lower()
                trips += e.label.lower() == "trip"
            elif isinstance(e, AttackRolled) and e.label == "Full Auto Burst":
                rolls += 1
    return bursts, rolls, trips


@pytest.mark.rule("G-35", "MAA-2", "E-37", "TRP-3")
def test_g_35__the_gunner_bursts_several_bandits_beside_its_trips() -> None:
    bursts, rolls, trips = _counts(30)
    assert bursts >= 10 and rolls >= 2 * bursts and trips >= 10


@pytest.mark.rule("G-35", "MAA-2", "X-12", "E-37", "C-PRO", "E-18", "RX-21")
def test_kernel_burst_beside_openers__plays_every_step_of_the_reference_fight() -> None:
    setup = setup_of(SET, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(150), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


@pytest.mark.rule("G-35", "E-37", "X-12")
def test_g_35__kernel_decisions_beside_the_openers_are_the_ais() -> None:
    seen = checked_decisions(setup_of(SET, OWN), seeds(4))
    assert any(s[0] == "burst" for s in seen)  # type: ignore[index]
    assert any(s[0] == "attack" and s[2] == "trip" for s in seen)  # type: ignore[index]


def _never_bursts(b: BurstTables) -> BurstTables:
    return dataclasses.replace(b, on=np.zeros_like(b.on))


@pytest.mark.rule("G-35", "E-37")
@pytest.mark.parametrize("wrong", [_never_bursts], ids=["never-bursts"])
def test_g_35__wrong_burst_tables_beside_the_openers_decide_otherwise(wrong: Wrong) -> None:
    setup = setup_of(SET, OWN)
    assert _differing(setup, _broken(setup, wrong), seeds(6)) > 0


def _every_further_target_misses(b: BurstTables) -> BurstTables:
    outcome = b.roll_outcome.copy()
    for j0 in range(outcome.shape[1]):
        for j in range(outcome.shape[2]):
            if j != j0:
                outcome[:, j0, j] = 0
    return dataclasses.replace(b, roll_outcome=outcome)


class _Wrong:
    def __init__(self, setup: FightSetup, wrong: Wrong) -> None:
        self.kernel = _broken(setup, wrong)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("G-35", "MAA-2")
def test_compare_engines__a_kernel_whose_bursts_miss_every_further_target_diverges() -> None:
    setup = setup_of(SET, OWN)
    wrong_kernel_diverges(setup, _Wrong(setup, _every_further_target_misses), 20, 1)
