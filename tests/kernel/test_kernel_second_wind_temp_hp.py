"""Edition 2's Second Wind in the fight kernel: the AI's PC heals 2d10 + level and gains temporary HP (HEAL-5, THP-5).

The numbers come from the rules' own ``second_wind`` (the roll, and the temporary HP it grants: its level, E-30);
the kernel keeps the higher of the grant and what the creature has (THP-2: never stacked) and spends temporary HP
before HP on every hit, after DR and resistance (THP-1, G-39), as ``apply_damage`` does. The set's own ruleset is
edition 2 without Feint, Trip and Sweeping Strike (E-37, E-10), which the kernel's AI does not weigh yet.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ashfall.kernel import ai as kai
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, seeds, setup_of

BREATH_TEMP = ENCOUNTERS / "ai-pc-catches-its-breath-with-temporary-hp.yaml"


@pytest.mark.rule("HEAL-5", "THP-5", "E-30")
def test_second_wind_edition_2__lowers_the_rules_roll_and_temporary_hp() -> None:
    lo = KernelSetup(setup_of(BREATH_TEMP, OWN)).lowered
    hero = lo.ids.index("kernel-ai-hero")
    # on, one use, one action, 2d10 + level 3, and temporary HP equal to its level
    assert lo.ai.wind[hero].tolist() == [1, 1, 1, 2, 10, 3, 3]
    assert lo.ai.wind[1 - hero, kai.WIND_ON] == 0


@pytest.mark.rule("HEAL-5", "E-30")
def test_second_wind_edition_1__grants_no_temporary_hp() -> None:
    lo = KernelSetup(setup_of(BREATH_TEMP, "ashfall-1")).lowered
    assert lo.ai.wind[lo.ids.index("kernel-ai-hero")].tolist() == [1, 1, 1, 1, 10, 2, 0]  # 1d10 + END 2


@pytest.mark.rule("HEAL-5", "THP-5")
def test_second_wind_edition_2__the_ais_pc_catches_its_breath_in_many_fights() -> None:
    """The differential run is in test_kernel_matches_reference.py; here: the set does exercise Second Wind."""
    setup = setup_of(BREATH_TEMP, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    used = sum(any(s.action == "actions-spent:second-wind" for s in kernel.signature(seed).steps)
               for seed in seeds(40))
    assert used >= 10


class _NoTempHp:
    """The kernel with Second Wind's temporary HP left out (wrong under edition 2)."""

    def __init__(self, setup: FightSetup) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        wind = lo.ai.wind.copy()
        wind[:, kai.WIND_TEMP] = 0
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, wind=wind))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


def test_compare_engines__a_kernel_without_second_winds_temporary_hp_diverges() -> None:
    setup = setup_of(BREATH_TEMP, OWN)
    report = compare_engines(setup, seeds(60), reference_signature, _NoTempHp(setup))
    assert len(report.divergences) >= 10
    assert report.divergences[0].explanation


@pytest.mark.rule("HEAL-5", "THP-5", "E-37", "TRP-1")
@pytest.mark.parametrize("path", [BREATH_TEMP, ENCOUNTERS / "ai-pc-catches-its-breath.yaml"],
                         ids=["temporary-hp", "catches-its-breath"])
def test_second_wind_edition_2__plays_with_the_ais_trip_every_step_of_the_reference_fight(path: Path) -> None:
    """Under edition 2 itself the AI Trips and its PC gains temporary HP: both families on the kernel together."""
    setup = setup_of(path, "ashfall-2")
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(60), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
