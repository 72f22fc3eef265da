"""Covering Fire from two guns in the fight kernel (SUP-11, G-31; ``kernel_covering_lower``, ``kernel.covering``).

The set: the shipped Gunslinger's kit (tactical AI; a Submachine Gun, a Pistol and its fists) with the Covering Fire
talent behind a scripted partner with a greataxe, against two brutes in plate the AI plays, under edition 1. The
reaction and the free shot on a pinned mover take the first gun, as its weapons are listed, loaded with the rounds
Covering Fire needs and able to reach the enemy (``covering_weapon``), and spend that gun's rounds: the Submachine Gun
until it runs dry, then the Pistol. Every step equals the reference's, the features happen, and a kernel that covers
with the first gun only (never the Pistol) diverges.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from ashfall.sim.kernel_lower import Lowered
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import ENCOUNTERS, Rewired, plays_like_the_reference, seeds, setup_of, wrong_kernel_diverges

SET = ENCOUNTERS / "ai-covering-two-guns-beside-a-partner-against-two-brutes.yaml"


def _happened(setup: FightSetup, n: int) -> Counter[str]:
    """In ``n`` reference fights: Covering Fire by the gun whose round it spent, free shots by gun, reloads."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        covering, last = False, ""
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "reaction-spent":
                covering = e.label == "Covering Fire"
            elif kind == "resource-used" and e.resource.startswith("ammo:") and e.delta < 0:
                gun = e.resource.removeprefix("ammo:")
                if covering:
                    found[f"covering with the {gun}"] += 1
                covering = False
                last = gun
            elif kind == "resource-used" and e.resource.startswith("ammo:"):
                found[f"loads of the {e.resource.removeprefix('ammo:')}"] += 1  # its first use or a Reload
            elif kind == "attack-rolled" and e.label == "Covering Fire":
                found[f"free shots with the {last}"] += 1
    return found


@pytest.mark.rule("SUP-11", "G-31", "RX-26", "E-19", "AE-2", "DOD-1")
def test_covering_two_guns_beside_a_partner__plays_every_step_as_the_reference() -> None:
    plays_like_the_reference(setup_of(SET, "ashfall-1"), 100)


@pytest.mark.rule("SUP-11", "G-31")
def test_covering_two_guns_beside_a_partner__covers_with_the_pistol_once_the_submachine_gun_runs_dry() -> None:
    """The Submachine Gun covers while loaded, the Pistol once it is empty; the free shot takes either; it reloads."""
    found = _happened(setup_of(SET, "ashfall-1"), 20)
    assert found["covering with the submachine-gun"] >= 200
    assert found["covering with the pistol"] >= 3
    assert found["loads of the submachine-gun"] >= 30  # 20 first uses and reloads
    assert found["free shots with the submachine-gun"] + found["free shots with the pistol"] >= 3


def _first_gun_only(lo: Lowered) -> Lowered:
    """Covering Fire from the first gun alone (never the Pistol, as if it had one gun)."""
    assert lo.covering is not None
    talent = lo.covering.talent.copy()
    talent[:, 1:] = 0
    return dataclasses.replace(lo, covering=dataclasses.replace(lo.covering, talent=talent))


def _pistol_first(lo: Lowered) -> Lowered:
    """Covering Fire trying the Pistol before the Submachine Gun (its weapons in the other order)."""
    cov = lo.covering
    assert cov is not None
    swap = [1, 0]
    return dataclasses.replace(lo, covering=dataclasses.replace(
        cov, talent=cov.talent[:, swap], ok=cov.ok[:, swap], free=cov.free[:, swap], outcome=cov.outcome[:, :, swap],
        draws=cov.draws[:, :, swap], dice=cov.dice[:, swap], flat=cov.flat[:, swap], dealt=cov.dealt[:, swap]))


@pytest.mark.rule("SUP-11", "G-31")
@pytest.mark.parametrize("change", [_first_gun_only, _pistol_first], ids=["first-gun-only", "pistol-first"])
def test_compare_engines__a_kernel_covering_with_the_wrong_gun_diverges(change: object) -> None:
    setup = setup_of(SET, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, change), 40, 2)  # type: ignore[arg-type]
