"""The tactical AI with a gun and no melee weapon in the fight kernel: its unarmed strike as its first option (RX-24).

``attack_options`` gives a creature with no melee weapon drawn its unarmed strike (1d4 + MIG, G-23, natural reach,
NAT-6) after its weapons, and the engine's Attacks of Opportunity use it (``best_melee`` is None, RX-24, E-18). The
kernel's first option is now that strike (``kernel_lower._first_weapon`` None, ``_first_mode`` unarmed: every table of
the first option asked of ``resolve_attack`` in that mode), the gun its first further option weighed before it (ATK-2,
the lead column). Held here for one gun beside the fists, alone on its side: the set plays step for step, the
reference logs show fists and shots, and a kernel whose fists hit as a d6 diverges; beside a partner too (edition 1:
its Intercept weighing and flanking read the fists at natural reach). Two guns beside the fists are played alone on
a side (``test_kernel_ai_two_guns``) and among allies (a crossbow and a pistol here; the Gunslinger's kit,
``test_kernel_ai_two_guns_among_allies``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

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

FISTS = ENCOUNTERS / "ai-crossbow-and-fists-against-a-raider.yaml"
TEAM = ENCOUNTERS / "ai-crossbow-and-fists-beside-a-partner-against-a-raider.yaml"
CROSSBOWMAN = "kernel-ai-fists-crossbowman"
EDITIONS = ["ashfall-1", "ashfall-2"]
ALONE = [  # earlier sets with the melee weapon taken away: the fists beside the gun, alone on its side
    (ENCOUNTERS / "ai-crossbow-against-a-brute.yaml", "weapons: [salvaged-sword, crossbow]", "weapons: [crossbow]"),
    (ENCOUNTERS / "ai-rifleman-and-knife-against-a-brute.yaml", "weapons: [hunting-rifle, combat-knife]",
     "weapons: [hunting-rifle]"),
]


@pytest.mark.rule("RX-24", "E-18", "G-23", "NAT-6", "ATK-2", "G-31", "E-37", "TRP-1")
@pytest.mark.parametrize("edition", EDITIONS)
def test_kernel_ai__swings_its_fists_beside_a_crossbow_like_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(FISTS, edition), 100)  # CI's share of the 1,000 seeds


@pytest.mark.rule("RX-24", "ATK-2", "G-31")
@pytest.mark.parametrize(("path", "old", "new"), ALONE, ids=["crossbow-bandit", "rifleman"])
def test_kernel_ai__a_gun_alone_beside_the_fists_plays_like_the_reference(tmp_path: Path, path: Path, old: str,
                                                                          new: str) -> None:
    plays_like_the_reference(variant(tmp_path, path, old, new, "ashfall-1"), 30)


def _counts(setup: FightSetup, n: int) -> Counter[str]:
    found: Counter[str] = Counter()
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled" and e.actor == CROSSBOWMAN:
                found[e.weapon] += 1
            elif kind == "actions-spent" and e.actor == CROSSBOWMAN:
                found[e.label.lower()] += 1
            elif kind == "attack-rolled" and "Return Fire" in e.label:
                found["return fire"] += 1
    return found


@pytest.mark.rule("RX-24", "G-23", "G-31", "RX-29", "TRP-1")
@pytest.mark.parametrize(("edition", "trips"), [("ashfall-1", 0), ("ashfall-2", 1)])
def test_reference_logs__the_crossbowman_swings_its_fists_shoots_and_reloads(edition: str, trips: int) -> None:
    found = _counts(setup_of(FISTS, edition), 40)
    assert found["unarmed"] >= 100 and found["crossbow"] >= 40 and found["reload"] >= 20, found
    assert (found["return fire"] >= 1) == (not trips), found  # the raider's pistol answering a bolt (edition 1)
    assert (found["trip"] >= 1) == bool(trips), found  # edition 2: a Trip with its fists (E-37, TRP-1)


def _fists_as_a_d6(lo: Lowered) -> Lowered:
    """The crossbowman's unarmed strike rolls a d6 (wrong: 1d4 + MIG, G-23)."""
    i = lo.ids.index(CROSSBOWMAN)
    dice = lo.dice.copy()
    dice[i, :, :, 0, 1] = (dice[i, :, :, 0, 1] > 0) * 6
    return dataclasses.replace(lo, dice=dice)


@pytest.mark.rule("G-23", "RX-24")
@pytest.mark.parametrize(("path", "least"), [(FISTS, 10), (TEAM, 5)], ids=["alone", "beside-a-partner"])
def test_compare_engines__a_kernel_whose_fists_hit_as_a_d6_diverges(path: Path, least: int) -> None:
    setup = setup_of(path, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, _fists_as_a_d6), 20, least)


@pytest.mark.rule("RX-24", "RX-26", "POS-1", "E-19", "DOD-1")
def test_kernel_ai__swings_its_fists_beside_a_partner_like_the_reference() -> None:
    """Among allies (edition 1): its Intercept and flanking read its fists at their natural reach (``_guard_problem``,
    ``_ways``); under edition 2 AI teams with guns stay named (E-18)."""
    plays_like_the_reference(setup_of(TEAM, "ashfall-1"), 100)
    problem = check(setup_of(TEAM, "ashfall-2"))
    assert problem is not None and problem.startswith("Return Fire from within a shooter's reach (E-18"), problem
    found = _counts(setup_of(TEAM, "ashfall-1"), 40)
    assert found["unarmed"] >= 50 and found["crossbow"] >= 20, found


@pytest.mark.rule("RX-24", "E-18", "ATK-2", "G-31", "RX-31")
def test_kernel_ai__a_crossbow_and_a_pistol_beside_the_fists_among_allies_play_like_the_reference(
        tmp_path: Path) -> None:
    """Two guns beside the unarmed strike among allies are not the Gunslinger's alone (its kit among allies:
    ``test_kernel_ai_two_guns_among_allies``): a bolt and twelve rounds, each counted and reloaded (G-31)."""
    pair = variant(tmp_path, TEAM, "weapons: [crossbow]", "weapons: [crossbow, pistol]", "ashfall-1")
    assert check(pair) is None
    plays_like_the_reference(pair, 20)


@pytest.mark.rule("RX-24", "E-18")
def test_check__a_machine_without_a_melee_weapon_stays_named(tmp_path: Path) -> None:
    machine = check(variant(tmp_path, FISTS, "      kind: pc\n", "      kind: pc\n      machine: true\n", "ashfall-1"))
    assert machine is not None and "no melee weapon" in machine, machine
    assert check(EncounterSetup(FISTS, "ashfall-1")) is None


@pytest.mark.rule("THP-5", "HEAL-5", "E-30")
def test_lowering__further_options_span_the_hp_a_second_wind_grants_under_edition_2() -> None:
    """The crossbowman (a PC) may Second Wind to temporary HP above its maximum (THP-5); the raider's pistol plans
    must be valued that high, as its sword's are. Before the two shared one axis, 20 of 1,000 fights of the set
    diverged under edition 2 (the raider's pistol plans read past their table's last HP)."""
    lo = KernelSetup(setup_of(FISTS, "ashfall-2")).lowered
    assert lo.ai.options.frac.shape[-1] == lo.ai.plan_frac.shape[-1]
    crossbowman = lo.ids.index(CROSSBOWMAN)
    assert lo.ai.plan_frac.shape[-1] - 1 > lo.max_hp[crossbowman]  # its grant reaches past its maximum HP
