"""The shipped Gunslinger in the fight kernel: what its talent and its two guns change, and their names in the check.

Covering Fire (SUP-11, ``suppression.moves``): the talent's reaction is offered on every attack an enemy it can see and
shoot declares (``attack_declared``), and the AI takes it whenever nothing it prefers is offered
(``reactions.ai.PREFERENCE``): a round spent, the attacker at disadvantage on all its attacks until the slinger's next
turn starts (``suppressed``), and one free shot at it the first time it moves. Nothing of that needs Suppressive Fire;
it changes an AI fight on almost every enemy turn. The kernel plays it for one gun alone on its side against scripted
melee enemies (``test_kernel_covering_fire``) and names the rest (``_combatant_problem``, ``covering_problem``).

Two guns and no melee weapon (``[Submachine Gun, Pistol]``): the AI weighs each gun and its unarmed strike
(``attack_options``), counts and reloads each gun's rounds (G-31) and fires back with the first gun loaded and within
normal range (``return_fire_weapon``, RX-31); its Attacks of Opportunity are unarmed strikes (``best_melee`` is None,
RX-24, E-18). The kernel's first option is a melee weapon's and it counts one gun's rounds a creature: named
(``kernel_ranged_lower.two_guns_problem``), alone on its side and among allies, and an enemy's Return Fire with either
gun. The pending set ``tests/kernel/pending/ai-two-guns-against-a-raider.yaml`` holds what a kernel playing it must
meet, counted here from the reference logs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ashfall.sim import kernel_lower as kl
from ashfall.sim.kernel_lower import check
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import seeds, variant

ROOT = Path(__file__).resolve().parents[2]
TWO_GUNS = Path(__file__).resolve().parent / "pending" / "ai-two-guns-against-a-raider.yaml"
SLINGER = "kernel-ai-two-gun-slinger"
EDITIONS = ["ashfall-1", "ashfall-2"]
NAMED = ("the tactical AI with two guns and no melee weapon (rounds per gun, G-31; Return Fire with the first loaded "
         "in normal range, RX-31; its unarmed strike, E-18; combatant {})")
TALENT = ("the Covering Fire talent (SUP-11, combatant {}: a round on an enemy's attack, disadvantage until its next "
          "turn, a free shot when it moves; {})")
"""``kernel_covering_lower.covering_problem``: played for one gun alone on its side against scripted melee enemies."""
WITH_TALENT = ("      uses_death_saves: true\n", "      uses_death_saves: true\n      talents: [covering-fire]\n")


def _counts(setup: FightSetup, n: int) -> Counter[str]:
    """Per-gun shots, reloads and Return Fire, unarmed strikes and Covering Fire in ``n`` reference fights."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled":
                who = "slinger" if e.actor == SLINGER else "raider"
                found[f"{who} {e.label} {e.weapon or 'unarmed'}"] += 1
                found["suppressed attacks"] += "Covering Fire" in repr(e.roll)
            elif kind == "actions-spent" and "reload" in e.label.lower():
                found[f"reload {e.actor}"] += 1
            elif kind == "reaction-spent" and e.label == "Covering Fire":
                found["covering fire"] += 1
    return found


@pytest.mark.rule("SUP-11")
def test_reference_logs__the_ai_takes_covering_fire_on_the_raiders_attacks(tmp_path: Path) -> None:
    """With the talent the slinger pins the raider on its shots (a round spent, every attack of the raider's turn at
    disadvantage) and, its reaction spent before the hit, never fires back; without it, none of that."""
    talented = variant(tmp_path, TWO_GUNS, *WITH_TALENT, "ashfall-1")
    found = _counts(talented, 10)
    assert found["covering fire"] >= 100 and found["suppressed attacks"] >= 200, found
    assert found["slinger Return Fire submachine-gun"] == 0, found
    plain = _counts(EncounterSetup(TWO_GUNS, "ashfall-1"), 10)
    assert plain["covering fire"] == plain["suppressed attacks"] == 0, plain
    assert plain["slinger Return Fire submachine-gun"] >= 20, plain


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize("edition", EDITIONS)
def test_check__the_covering_fire_talent_is_named(tmp_path: Path, edition: str) -> None:
    fight = variant(tmp_path, TWO_GUNS, *WITH_TALENT, edition).build_fight(1)
    slinger = fight.engine.state.get(SLINGER)
    assert kl._combatant_problem(fight, slinger) == TALENT.format(SLINGER, "with other than one ranged weapon")


@pytest.mark.rule("G-31", "RX-31", "E-18", "ATK-2")
@pytest.mark.parametrize("edition", EDITIONS)
def test_check__two_guns_and_no_melee_weapon_are_named_alone_on_its_side(edition: str) -> None:
    assert check(EncounterSetup(TWO_GUNS, edition)) == NAMED.format(SLINGER)


@pytest.mark.rule("G-31", "RX-31")
def test_reference_logs__two_guns_each_shot_the_first_reloaded_and_fired_back_with() -> None:
    """What a kernel playing the pending set must meet: both guns fired (the pistol where its plan outvalues the
    submachine gun's), the submachine gun reloaded, Return Fire with it at the raider's pistol shots."""
    found = _counts(EncounterSetup(TWO_GUNS, "ashfall-1"), 20)
    assert found["slinger Strike submachine-gun"] + found["slinger Power Strike submachine-gun"] >= 500, found
    assert found["slinger Strike pistol"] + found["slinger Power Strike pistol"] >= 1, found
    assert found["slinger Return Fire submachine-gun"] >= 100, found
    assert found[f"reload {SLINGER}"] >= 10, found


@pytest.mark.rule("G-31", "RX-29", "RX-31", "SUP-11")
@pytest.mark.parametrize("name", ["skirmish", "bandit-band"])
def test_shipped_gunslinger__named_for_its_talent_and_its_two_guns_among_allies(name: str) -> None:
    fight = EncounterSetup(ROOT / "encounters" / f"{name}.yaml", "ashfall-1").build_fight(1)
    slinger = fight.engine.state.get("gunslinger")
    assert kl._combatant_problem(fight, slinger) == TALENT.format("gunslinger", "among allies")
    assert kl._plan_problem(fight, slinger) == NAMED.format("gunslinger")
    enemy = next(e for e in fight.engine.state.enemies_of("gunslinger") if not e.creature.leader)
    problem = kl._plan_problem(fight, enemy)
    assert problem is not None and problem.startswith("Return Fire (RX-29, RX-31, combatant gunslinger"), problem
