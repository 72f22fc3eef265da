"""The kernel's decision weighs the AI's Full Auto Burst among several enemies (G-35, MAA-2, X-12, G-31).

At every choice the tactical AI makes in reference fights of tests/kernel/pending/ai-gunner-bursts-a-bandit-trio.yaml
(a gunner with a sword and a pistol against three scripted bandits, edition 1 with Power Strike for melee only,
G-36), ``ashfall.kernel.ai.decide`` on the same state, with the lowered burst tables (``kernel_burst_lower``), must
choose the same: a burst with the same targets in the same order, a single shot, Aim, a reload, a swing or a move.
Kernels with a burst table broken on purpose choose otherwise. The compiled fight does not play the burst's one roll
against several targets yet (``ranged_problem`` still names the set), so the set is lowered here past that name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.kernel import ai as kai
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_burst_lower import BURST, D_FIRST, BurstTables
from ashfall.sim.kernel_lower import Lowering, check, lower, remember
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup
from tests.kernel.kit import seeds
from tests.kernel.test_kernel_ai import _Checked, checked_decisions

SET = Path(__file__).resolve().parent / "pending" / "ai-gunner-bursts-a-bandit-trio.yaml"
FIGHTS = 6


def _past_the_name(wrong: Callable[[BurstTables], BurstTables] | None = None) -> EncounterSetup:
    """The set with its lowering made directly (``lower``: past ``ranged_problem``'s name, no disk cache)."""
    setup = EncounterSetup(SET)
    fight = setup.build_fight(0)
    lowered = lower(fight, fight.round_limit or 0)
    if wrong is not None:
        ai = lowered.ai
        lowered = dataclasses.replace(lowered, ai=dataclasses.replace(
            ai, options=dataclasses.replace(ai.options, burst=wrong(ai.options.burst))))
    remember(setup, Lowering(lowered, None, fight.round_limit))
    return setup


def _differing(setup: EncounterSetup, trial_seeds: list[int]) -> int:
    """How many of the AI's choices in the reference fights the kernel's decision differs from."""
    kernel = KernelSetup(setup)
    differs = 0
    for seed in trial_seeds:
        fight = setup.build_fight(seed)
        checked = _Checked(kernel)
        policies = {cid: checked if isinstance(p, TacticalPolicy) else p for cid, p in fight.policies.items()}
        run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
        differs += sum(got != expected for expected, got in checked.seen)
    return differs


@pytest.mark.rule("G-35", "MAA-2")
def test_g_35__the_burst_codes_agree_and_the_set_is_still_named_for_its_fight() -> None:
    assert kai.BURST == BURST
    problem = check(EncounterSetup(SET))
    assert problem is not None and "G-35" in problem


@pytest.mark.rule("G-35", "MAA-2", "X-12", "MAP-1", "G-31")
def test_g_35__kernel_decisions_with_bursts_among_several_enemies_are_the_ais() -> None:
    seen: list[Any] = checked_decisions(_past_the_name(), seeds(FIGHTS))
    bursts = [s for s in seen if s[0] == "burst"]
    assert len(seen) > 100
    assert any(len(s[1]) == 2 for s in bursts) and any(len(s[1]) == 3 for s in bursts)
    assert any(s[0] == "attack" for s in seen)


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
def test_g_35__wrong_burst_tables_decide_otherwise(wrong: Callable[[BurstTables], BurstTables]) -> None:
    assert _differing(_past_the_name(wrong), seeds(FIGHTS)) > 0
