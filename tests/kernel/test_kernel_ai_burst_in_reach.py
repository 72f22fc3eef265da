"""The kernel plays the AI's Full Auto Burst from within enemies' reach where a shot provokes (E-18, RX-21, G-35).

tests/kernel/encounters/ai-gunner-bursts-a-bandit-trio-in-reach.yaml: the bandit trio of the burst set under edition 1
with edition 2's Attacks of Opportunity on a ranged attack in reach (E-18's switch). The reference offers a burst
once (``perform_multi_attack``): after the bandits' Intercept (E-19), every bandit whose reach holds the gunner is
asked for its Attack of Opportunity in reactor order, even after an earlier one dropped it (RX-22, X-16), and a
gunner that fell makes no burst. The AI weighs the burst net of those attacks as any shot from its square. The kernel
decides and plays the same; a kernel whose shots provoke nothing diverges.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from ashfall.engine.events import ActionsSpent, AttackRolled
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_fight, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import checked_decisions

IN_REACH = ENCOUNTERS / "ai-gunner-bursts-a-bandit-trio-in-reach.yaml"


def _provoked_bursts(path: Path, n: int) -> tuple[int, int]:
    """Bursts in ``n`` reference fights, and those an Attack of Opportunity answered before the roll (E-18)."""
    bursts = provoked = 0
    for seed in seeds(n):
        inside, answered = False, 0
        for e in reference_fight(setup_of(path, OWN), seed).log:
            if isinstance(e, ActionsSpent):
                inside, answered = "burst" in e.label.lower(), 0
            elif isinstance(e, AttackRolled) and inside and e.label == "Attack of Opportunity":
                answered += 1
            elif isinstance(e, AttackRolled) and inside and e.label == "Full Auto Burst":
                bursts += 1
                provoked += answered > 0
                inside = False
    return bursts, provoked


@pytest.mark.rule("E-18", "RX-21", "G-35", "MAA-2")
def test_burst_in_reach__the_gunner_bursts_from_within_the_bandits_reach_and_provokes() -> None:
    bursts, provoked = _provoked_bursts(IN_REACH, 40)
    assert provoked >= 40 and bursts > provoked


@pytest.mark.rule("E-18", "RX-21", "RX-22", "X-16", "E-19", "RX-26", "G-35", "MAA-2")
def test_kernel_burst_in_reach__plays_every_step_of_the_reference_fight() -> None:
    setup = setup_of(IN_REACH, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(150), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


@pytest.mark.rule("E-18", "RX-21", "G-35", "X-12")
def test_burst_in_reach__kernel_decisions_are_the_ais() -> None:
    seen = checked_decisions(setup_of(IN_REACH, OWN), seeds(4))
    assert any(s[0] == "burst" for s in seen)  # type: ignore[index]


class _ShotsProvokeNothing:
    """The set's kernel with E-18's switch read as off: no Attack of Opportunity on a shot or a burst."""

    def __init__(self, setup: FightSetup) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(
            lo.ai, options=dataclasses.replace(o, shot=np.zeros_like(o.shot))))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("E-18", "RX-21")
def test_compare_engines__a_kernel_whose_bursts_provoke_nothing_diverges() -> None:
    setup = setup_of(IN_REACH, OWN)
    wrong_kernel_diverges(setup, _ShotsProvokeNothing(setup), 20, 3)
