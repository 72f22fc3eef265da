"""The kernel plays the AI's Full Auto Burst among several enemies (G-35, MAA-2, X-12, G-31, G-41, E-19).

tests/kernel/encounters/ai-gunner-bursts-a-bandit-trio.yaml: a gunner with a sword it is untrained with and a pistol,
against three scripted bandits who Intercept for each other, edition 1 with Power Strike for melee only (G-36). At
every choice the tactical AI makes in its reference fights ``ashfall.kernel.ai.decide`` on the same state (the
lowered burst tables, ``kernel_burst_lower``) chooses the same, a burst with the same targets in the same order; the
compiled fight plays the same fights (one d20 against each target's DV, ``kernel_burst_rolls``). Kernels with a burst
table broken on purpose decide otherwise or diverge; what is not played stays named.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.kernel import ai as kai
from ashfall.kernel import fight as kf
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_burst_lower import BURST, D_FIRST, BurstTables
from ashfall.sim.kernel_burst_rolls import BURST_LABEL
from ashfall.sim.kernel_lower import ATTACK_LABELS, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, log_counts, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import _Checked, checked_decisions

SET = ENCOUNTERS / "ai-gunner-bursts-a-bandit-trio.yaml"
FIGHTS = 6

Wrong = Callable[[BurstTables], BurstTables]


def _broken(setup: FightSetup, wrong: Wrong) -> KernelSetup:
    """The set's kernel with its burst tables broken by ``wrong``."""
    kernel = KernelSetup(setup)
    lo = kernel.lowered
    o = lo.ai.options
    kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(
        lo.ai, options=dataclasses.replace(o, burst=wrong(o.burst))))
    return kernel


def _differing(setup: FightSetup, kernel: KernelSetup, trial_seeds: list[int]) -> int:
    """How many of the AI's choices in the reference fights the kernel's decision differs from."""
    differs = 0
    for seed in trial_seeds:
        fight = setup.build_fight(seed)
        checked = _Checked(kernel)
        policies = {cid: checked if isinstance(p, TacticalPolicy) else p for cid, p in fight.policies.items()}
        run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
        differs += sum(got != expected for expected, got in checked.seen)
    return differs


@pytest.mark.rule("G-35", "MAA-2")
def test_g_35__the_burst_codes_agree_and_the_set_is_played() -> None:
    assert kai.BURST == BURST and kf.BURST_LABEL == BURST_LABEL == ATTACK_LABELS.index("Full Auto Burst")
    assert check(EncounterSetup(SET)) is None


@pytest.mark.rule("G-35", "MAA-2", "X-12", "MAP-1", "G-31")
def test_g_35__kernel_decisions_with_bursts_among_several_enemies_are_the_ais() -> None:
    seen: list[Any] = checked_decisions(setup_of(SET, OWN), seeds(FIGHTS))
    bursts = [s for s in seen if s[0] == "burst"]
    assert len(seen) > 50
    assert any(len(s[1]) == 2 for s in bursts) and any(len(s[1]) == 3 for s in bursts)


@pytest.mark.rule("G-35", "MAA-2", "X-12", "G-41", "E-19", "RX-26")
def test_g_35__the_kernel_plays_the_bursts_as_the_reference_does() -> None:
    setup = setup_of(SET, OWN)
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(30), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    counts = log_counts(setup, 10)
    assert counts["shots"] > 0 and counts["intercepts"] > 0


def _first_target_only(b: BurstTables) -> BurstTables:
    return dataclasses.replace(b, further=np.zeros_like(b.further))


def _two_targets_at_most(b: BurstTables) -> BurstTables:
    return dataclasses.replace(b, ints=np.array([2, b.ints[1]], np.int64))


def _never_bursts(b: BurstTables) -> BurstTables:
    return dataclasses.replace(b, on=np.zeros_like(b.on))


def _spread_5_ft(b: BurstTables) -> BurstTables:
    return dataclasses.replace(b, ints=np.array([b.ints[0], 5], np.int64))


def _burst_read_as_a_strike(b: BurstTables) -> BurstTables:
    drafts = b.drafts.copy()
    drafts[drafts[:, D_FIRST] == BURST, D_FIRST] = 0
    return dataclasses.replace(b, drafts=drafts)


@pytest.mark.rule("G-35", "MAA-2", "X-12")
@pytest.mark.parametrize("wrong", [_first_target_only, _two_targets_at_most, _never_bursts, _spread_5_ft,
                                   _burst_read_as_a_strike],
                         ids=["first-target-only", "two-targets-at-most", "never-bursts", "spread-5-ft",
                              "burst-read-as-a-strike"])
def test_g_35__wrong_burst_tables_decide_otherwise(wrong: Wrong) -> None:
    setup = setup_of(SET, OWN)
    assert _differing(setup, _broken(setup, wrong), seeds(FIGHTS)) > 0


def _every_target_misses(b: BurstTables) -> BurstTables:
    """The one roll judged against the first target only: the further targets always missed."""
    outcome = b.roll_outcome.copy()
    for j0 in range(outcome.shape[1]):
        for j in range(outcome.shape[2]):
            if j != j0:
                outcome[:, j0, j] = 0
    return dataclasses.replace(b, roll_outcome=outcome)


def _three_rounds_per_target(b: BurstTables) -> BurstTables:
    rules = b.rules.copy()
    rules[1] = 3  # the magazine runs dry sooner than the reference's (G-31, G-35: a round per target)
    return dataclasses.replace(b, rules=rules)


class _Wrong:
    def __init__(self, setup: FightSetup, wrong: Wrong) -> None:
        self.kernel = _broken(setup, wrong)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("G-35", "MAA-2", "G-31")
@pytest.mark.parametrize("wrong", [_every_target_misses, _three_rounds_per_target],
                         ids=["further-targets-never-hit", "three-rounds-per-target"])
def test_compare_engines__a_kernel_wrong_about_the_bursts_roll_diverges(wrong: Wrong) -> None:
    setup = setup_of(SET, OWN)
    wrong_kernel_diverges(setup, _Wrong(setup, wrong), 12, 1)


@pytest.mark.rule("G-35", "E-37", "SWP-3")
def test_g_35__under_edition_2_the_gunners_sweeping_strike_is_named() -> None:
    """Its bursts beside the openers are played (``test_kernel_ai_burst_beside_openers``); its sword's sweep is not."""
    problem = check(setup_of(SET, "ashfall-2"))
    assert problem is not None and "Sweeping Strike" in problem
