"""Surprise in the fight kernel (SUR-1..4; ``kernel_surprise_lower``, ``ashfall.kernel.surprise``).

The sets: three scripted raiders ambush three wardens on a grid (``scripted-ambush-on-a-grid.yaml``), and three
hunters the tactical AI plays ambush a lone scripted brute (``ai-pack-ambushes-a-lone-brute.yaml``). The ambushers'
Stealth is rolled right after initiative from the same stream; a creature whose passive Perception the lowest total
meets is surprised: no turn and no reaction in round 1. Every step equals the reference's, surprise happens often and
not always, and kernels with a wrong threshold (nobody surprised, a tie not surprising, everyone surprised) or a
Stealth one lower diverge. What the kernel does not play (a surprised creature flat-footed to any effect) is named.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ashfall.kernel import surprise as ksur
from ashfall.sim import kernel_surprise_lower as lsur
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
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

SCRIPTED = ENCOUNTERS / "scripted-ambush-on-a-grid.yaml"
AI_PACK = ENCOUNTERS / "ai-pack-ambushes-a-lone-brute.yaml"
SHIPPED = Path(__file__).resolve().parents[2] / "encounters" / "bandit-band.yaml"


def _happened(setup: FightSetup, n: int) -> Counter[str]:
    """In ``n`` reference fights: Stealth rolls, creatures surprised or not, round-1 turns skipped, fights with both."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        surprised, ambushers, rnd = set(), set(), 0
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "round-started":
                rnd = e.round
            elif kind == "check-rolled" and e.label == "Stealth (ambush)":
                found["stealth rolls"] += 1
                ambushers.add(e.actor)
            elif kind == "surprise":
                found["surprised" if e.surprised else "not surprised"] += 1
                found["ties"] += e.stealth == e.passive
                if e.surprised:
                    surprised.add(e.actor)
            elif kind == "turn-skipped" and e.reason == "surprised":
                found["turns skipped"] += 1
            elif kind == "reaction-spent" and e.actor in surprised:
                found["reactions of the surprised"] += 1  # from round 2 (SUR-3)
            elif kind == "reaction-spent" and rnd == 1 and e.actor not in ambushers:
                found["round-1 reactions of those not surprised"] += 1
        found["fights with a surprise"] += bool(surprised)
    return found


@pytest.mark.rule("SUR-1", "SUR-2", "SUR-3", "G-24", "G-45", "RX-21", "RX-26", "POS-1")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_scripted_ambush_on_a_grid__plays_every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(SCRIPTED, edition), 150)


@pytest.mark.rule("SUR-1", "SUR-2", "SUR-3", "G-24", "G-45", "RX-21", "POS-1")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_ai_pack_ambushes_a_lone_brute__plays_every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(AI_PACK, edition), 150)


@pytest.mark.rule("SUR-1", "SUR-2", "SUR-3", "RX-21", "RX-26")
@pytest.mark.parametrize(("path", "least", "reactions"), [(SCRIPTED, 40, 2), (AI_PACK, 15, 0)])
def test_ambush__surprises_often_but_not_always(path: Path, least: int, reactions: int) -> None:
    """Of 40 reference fights: creatures surprised and not, turns skipped; in the brawl, reactions in round 1 of
    those not surprised (what a surprised creature may not make) and from round 2 of those surprised."""
    found = _happened(setup_of(path, "ashfall-1"), 40)
    assert found["stealth rolls"] == 3 * 40  # every ambusher, every fight (SUR-1)
    assert found["surprised"] >= least
    assert found["not surprised"] >= 5
    assert found["ties"] >= 2  # a tie surprises (G-45)
    assert found["turns skipped"] >= least // 2  # some drop before their turn comes
    assert 5 <= found["fights with a surprise"] < 40
    assert found["round-1 reactions of those not surprised"] >= reactions
    assert found["reactions of the surprised"] >= 5 * reactions


@pytest.mark.rule("SUR-1", "G-24", "G-45")
def test_ambush__thresholds_are_the_reference_surprise() -> None:
    """``lowest >= SUR_FROM`` is the reference's verdict for every surprise event of 30 fights (ties included)."""
    setup = setup_of(SCRIPTED, "ashfall-2")
    table = KernelSetup(setup).lowered.surprise
    ids = KernelSetup(setup).lowered.ids
    ties = 0
    for seed in seeds(30):
        for e in reference_fight(setup, seed).log:
            if getattr(e, "type", "") == "surprise":
                assert (e.stealth >= table[ids.index(e.actor), lsur.SUR_FROM]) == e.surprised
                ties += e.stealth == e.passive
    assert ties >= 1


def test_surprise__table_columns_are_the_kernels() -> None:
    assert (ksur.SUR_DRAWS, ksur.SUR_FROM, ksur.SUR_TOTALS) == (lsur.SUR_DRAWS, lsur.SUR_FROM, lsur.SUR_TOTALS)


def _with(change: Callable[[np.ndarray], None]) -> Callable[[Lowered], Lowered]:
    def rewire(lowered: Lowered) -> Lowered:
        table = lowered.surprise.copy()
        change(table)
        return dataclasses.replace(lowered, surprise=table)
    return rewire


def _nobody(t: np.ndarray) -> None:
    t[:, lsur.SUR_FROM] = lsur.NEVER


def _tie_not(t: np.ndarray) -> None:
    t[t[:, lsur.SUR_DRAWS] == 0, lsur.SUR_FROM] += 1


def _everyone(t: np.ndarray) -> None:
    t[t[:, lsur.SUR_DRAWS] == 0, lsur.SUR_FROM] = -lsur.NEVER


def _clumsier(t: np.ndarray) -> None:
    t[t[:, lsur.SUR_DRAWS] > 0, lsur.SUR_TOTALS:] -= 1


@pytest.mark.rule("SUR-1", "SUR-2", "G-45")
@pytest.mark.parametrize(("path", "edition", "change", "least"), [
    (SCRIPTED, "ashfall-2", _nobody, 20), (SCRIPTED, "ashfall-2", _everyone, 10), (SCRIPTED, "ashfall-2", _tie_not, 5),
    (SCRIPTED, "ashfall-1", _clumsier, 5), (AI_PACK, "ashfall-1", _nobody, 10), (AI_PACK, "ashfall-1", _tie_not, 1)],
    ids=["nobody-surprised", "everyone-surprised", "a-tie-does-not-surprise", "stealth-one-lower", "ai-nobody",
         "ai-a-tie-does-not-surprise"])
def test_ambush__a_wrong_kernel_diverges(path: Path, edition: str, change: Callable[[np.ndarray], None],
                                        least: int) -> None:
    setup = setup_of(path, edition)
    wrong_kernel_diverges(setup, Rewired(setup, _with(change)), 60, least)


@pytest.mark.rule("SUR-4", "FF-1", "G-11")
def test_ambush__a_surprised_creature_flat_footed_to_any_effect_is_named(tmp_path: Path) -> None:
    """A warden with a positive AGI would lose it from its DV in round 1: the attack tables hold one DV."""
    setup = variant(tmp_path, SCRIPTED, "attributes: {MIG: 3, AGI: 0, END: 2}\n      weapons: [greataxe]",
                    "attributes: {MIG: 3, AGI: 2, END: 2}\n      weapons: [greataxe]", "ashfall-2")
    problem = check(setup)
    assert problem is not None
    assert "SUR-4" in problem
    assert "kernel-axeman" in problem


@pytest.mark.rule("SUR-2", "DEATH-7", "C-PRO")
def test_ambush__a_surprised_pc_that_may_rise_prone_is_named(tmp_path: Path) -> None:
    """A PC that falls dying in round 1 and rolls a natural 20 is back up, prone, and its skipped turn leaves it
    lying prone into round 2 (seen in 1 of 1,000 fights): the tables hold no prone target up without Trip."""
    setup = variant(tmp_path, SCRIPTED, "name: Warden\n", "name: Warden\n      kind: pc\n", "ashfall-1")
    problem = check(setup)
    assert problem is not None and "DEATH-7" in problem and "kernel-slow-warden" in problem


def test_ambush__the_shipped_bandit_band_is_named() -> None:
    for edition in ("ashfall-1", "ashfall-2"):
        problem = check(EncounterSetup(SHIPPED, edition))
        assert problem is not None
        assert problem.strip()
