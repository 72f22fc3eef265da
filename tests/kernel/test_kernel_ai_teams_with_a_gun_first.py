"""The tactical AI with allies and a gun or crossbow listed before its melee weapon in the fight kernel (edition 1).

The shipped raider marksman's kit, ``[hunting-rifle, combat-knife]``, on an AI team: the AI weighs the rifle first
(ATK-2), so of two equally good plans at one square the rifle's wins (``kernel_option_slots``: the kernel holds the
knife first and the rifle as its first further option, ``AiTables.config``'s lead column). Everything the allies'
slice reads of a creature's options reads them in the kernel's slots, the melee option first, and takes the best of
them, so the order changes nothing there: the flanking its knife gives and takes (POS-1), the withdrawal (DOD-1:
each enemy's swing where it could walk up, its shots from where it stands, ``incoming``; its own best plan, the
rifle's where it ties), its Medicine check on a dying partner (E-31), focus fire, and the Intercept an enemy weighs
against its rifle at any distance and its knife within reach (RX-26, E-19). Under edition 2 AI teams with guns stay
named (E-18, E-37).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ashfall.kernel import ai as kai
from ashfall.sim.kernel_allies_lower import allies_problem
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from tests.kernel.kit import (
    ENCOUNTERS,
    OWN,
    STOPPED,
    Rewired,
    knife_first,
    log_counts,
    played_alike,
    seeds,
    setup_of,
    stops_at_the_dodge,
    variant,
    wrong_kernel_diverges,
)

DOCK = ENCOUNTERS / "ai-marksman-and-axeman-against-a-gunman-and-a-plated-brute.yaml"
COVER = ENCOUNTERS / "ai-marksman-behind-cover-saves-a-fallen-partner.yaml"
WITHDRAW = STOPPED / "ai-marksman-teams-withdraw.yaml"
"""Two AI pairs, one with the marksman: a hurt creature often withdraws, the kernel stops there (not a set)."""
SKIRMISH = Path(__file__).resolve().parents[2] / "encounters" / "skirmish.yaml"


def _index(setup: FightSetup, cid: str) -> int:
    return next(i for i, c in enumerate(setup.build_fight(0).engine.state.combatants.values()) if c.id == cid)


@pytest.mark.rule("ATK-2", "G-31", "E-05", "POS-1", "POS-4", "COV-1", "RX-29")
def test_kernel_ai_marksman_on_a_dock__plays_every_step_as_the_reference_with_its_ties_going_to_the_rifle() -> None:
    setup = setup_of(DOCK, OWN)
    kernel = played_alike(setup, 40)
    assert kernel.lowered.ai.config[_index(setup, "kernel-ai-marksman"), kai.CFG_LEAD] == 1.0
    counts = log_counts(setup, 10)  # the rifle at the plated brute ties with the knife: it must be shot
    assert counts["shots"] > 100 and counts["reloads"] > 10 and counts["flanked"] > 0


@pytest.mark.rule("ATK-2", "G-31", "E-31", "DEATH-17", "COV-2", "AMOD-7", "RX-26", "RX-29")
def test_kernel_ai_marksman_behind_cover__shoots_stabs_and_saves_its_partner_as_the_reference_does() -> None:
    setup = setup_of(COVER, OWN)
    kernel = played_alike(setup, 40)
    medicine = sum("medicine" in step.action for seed in seeds(40) for step in kernel.signature(seed).steps)
    assert medicine > 0  # the marksman beside its dying partner tries its Medicine check first (E-31)
    counts = log_counts(setup, 10)
    assert counts["shots"] > 50 and counts["throws"] > 0 and counts["return fire"] > 0


@pytest.mark.rule("DOD-1", "DOD-2", "ATK-2")
def test_kernel_ai_marksman_teams__withdrawal_weighs_the_rifle_and_the_knife_and_stops_at_the_references_dodge(
) -> None:
    setup = setup_of(WITHDRAW, OWN)
    assert check(setup) is None
    kernel = KernelSetup(setup)
    marksman = _index(setup, "kernel-ai-marksman")
    withdraw = kernel.lowered.ai.withdraw
    # its knife where it could walk up (5 ft + 30 ft), its rifle from where it stands (long range, ATK-2), its
    # knife's throw (the kernel's slots: the melee option first, then the AI's order)
    assert withdraw.way_ft[marksman].tolist() == [35, 600, 60]
    assert withdraw.way_melee[marksman].tolist() == [1, 0, 0]
    assert stops_at_the_dodge(setup, 12) >= 3


def _intercept_blind_to_the_rifle(lo: Lowered) -> Lowered:
    """The Intercept the marksman's enemies weigh without its rifle (RX-26: ``_worth_intercepting``'s shots)."""
    guard_shot = lo.guard_shot.copy()
    guard_shot[_index(setup_of(COVER, OWN), "kernel-ai-hero-marksman")] = 0.0
    return dataclasses.replace(lo, guard_shot=guard_shot)


@pytest.mark.rule("ATK-2")
def test_compare_engines__a_kernel_that_weighs_the_marksmans_knife_first_diverges() -> None:
    setup = setup_of(DOCK, OWN)
    # the lead column cleared: a tie at one square goes to the knife
    wrong_kernel_diverges(setup, Rewired(setup, lambda lo: dataclasses.replace(lo, ai=knife_first(lo.ai))), 10, 5)


@pytest.mark.rule("RX-26", "E-19", "ATK-2")
def test_compare_engines__a_kernel_whose_intercept_is_blind_to_the_rifle_listed_first_diverges() -> None:
    setup = setup_of(COVER, OWN)
    wrong_kernel_diverges(setup, Rewired(setup, _intercept_blind_to_the_rifle), 20, 1)


@pytest.mark.rule("ATK-2", "E-18", "E-37")
@pytest.mark.parametrize(("old", "new", "named"), [
    # the rifle beside the unarmed strike is played among allies (``test_kernel_ai_fists_beside_a_gun``), but its
    # free hand could Deflect, which the kernel does not play
    ("weapons: [hunting-rifle, combat-knife]", "weapons: [hunting-rifle]",
     "Deflect against ranged attacks (RX-6, combatant kernel-ai-marksman has a free hand)"),
    ("weapons: [hunting-rifle, combat-knife]", "weapons: [hunting-rifle, pistol, combat-knife]",
     "the tactical AI with allies and several ways to attack"),
    # under edition 2 AI teams with guns stay named (E-18, E-37): here the gunman's Return Fire, which among several
    # enemies could be made in a shooter's reach (its answers for an ally are played, E-20; the rifle's burst among
    # several enemies beside the openers is played, ``kernel_burst_lower``)
    ("ruleset: ashfall-1", "ruleset: ashfall-2",
     "Return Fire from within a shooter's reach (E-18, combatant kernel-ai-gunman"),
])
def test_kernel_ai_teams_with_a_gun_first__what_is_not_played_is_named(tmp_path: Path, old: str, new: str,
                                                                      named: str) -> None:
    problem = check(variant(tmp_path, DOCK, old, new))
    assert problem is not None and named in problem


def test_shipped_skirmish__its_marksman_is_no_longer_named_under_edition_1() -> None:
    """The marksman's own kit passes, and its withdrawal weighs every enemy's ways (the Warrior's javelin too)."""
    fight = EncounterSetup(SKIRMISH, "ashfall-1").build_fight(0)
    marksman = fight.engine.state.get("raider-marksman")
    assert allies_problem(fight, marksman) is None
