"""The tactical AI in the fight kernel with a gun or crossbow listed before its melee weapon (ATK-2).

A marksman's kit, ``[hunting-rifle, combat-knife]``: the AI's first way to attack is the rifle (five rounds, a
1-action reload, G-31; Aim first under edition 1, E-05), then the knife swung (and thrown). The kernel holds the knife
in its first-option slots and the rifle as its first further option (``kernel_option_slots``), weighed before the knife
at every square, so that of two equally good plans at one square the rifle's wins as the AI keeps the first of equals
(``_best_candidates``). The sets: a rifleman with a knife against a brute that walks up through mud (edition 1), a
rifleman with a sword against a tripping brawler (both editions; under edition 2 a shot in reach provokes, E-18) and
the shipped darkness fight's soldier and Krel with the lights on (edition 1; edition 2 in
test_kernel_ai_throws_beside_guns_edition_2). Every step equals the reference's, the
decisions equal ``TacticalPolicy.choose``, a target immune to both weapons makes every plan tie (the rifle must win),
and kernels that weigh the knife first or never shoot diverge; what is not covered is named.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from ashfall.ai.profile import attack_options
from ashfall.kernel import ai as kai
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_option_slots import kernel_options, leads
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    knife_first,
    plays_like_the_reference,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import checked_decisions

RIFLE_KNIFE = ENCOUNTERS / "ai-rifleman-and-knife-against-a-brute.yaml"
RIFLE_SWORD = ENCOUNTERS / "ai-rifleman-and-sword-against-a-tripping-brawler.yaml"
STOREROOM = ENCOUNTERS / "ai-soldier-and-krel-in-a-lit-storeroom.yaml"
SETS = [(RIFLE_KNIFE, "ashfall-1"), (RIFLE_SWORD, "ashfall-1"), (RIFLE_SWORD, "ashfall-2"), (STOREROOM, "ashfall-1")]
IMMUNE = ("      speeds: {walk: 10}\n", "      speeds: {walk: 10}\n      immunities: [piercing]\n")
"""The brute immune to the rifle's and the knife's piercing damage: every plan is worth nothing, so all tie."""


def _rifleman(setup: FightSetup) -> tuple[int, str]:
    """The roster index and id of the creature whose first weapon is a gun (the AI's)."""
    fight = setup.build_fight(0)
    roster = list(fight.engine.state.combatants.values())
    return next((i, c.id) for i, c in enumerate(roster) if c.weapons[0].id == "hunting-rifle")


def _attacks_by_weapon(setup: FightSetup, who: str, n: int) -> Counter[str]:
    """``who``'s attacks by weapon (``:thrown`` for a knife thrown), Aims, Reloads and the Attacks of Opportunity its
    enemy makes, in ``n`` reference fights."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled" and e.actor == who:
                thrown = e.weapon == "combat-knife" and any(m.rule == "ATK-2" for m in e.roll.modifiers)
                found[e.weapon + (":thrown" if thrown else "")] += 1
            elif kind == "attack-rolled" and "pportunity" in e.label:
                found["attacks of opportunity"] += 1
            elif kind == "actions-spent" and e.actor == who and e.label in ("aim", "reload"):
                found[e.label] += 1
    return found


@pytest.mark.rule("ATK-2", "G-31", "E-05", "E-18", "AMOD-7", "TRP-1")
@pytest.mark.parametrize(("path", "edition"), SETS, ids=[f"{p.stem}-{e}" for p, e in SETS])
def test_kernel_ai_with_a_gun_first__plays_every_step_as_the_reference(path: Path, edition: str) -> None:
    plays_like_the_reference(setup_of(path, edition), 40)


@pytest.mark.rule("ATK-2", "G-31", "E-05", "E-18", "AMOD-7")
def test_kernel_ai_with_a_gun_first__the_sets_shoot_reload_aim_and_swing() -> None:
    """The reference fights do what the sets are for: shots, Reloads, Aims (edition 1) and the melee weapon."""
    knife = _attacks_by_weapon(setup_of(RIFLE_KNIFE, "ashfall-1"), "kernel-ai-rifleman", 30)
    assert knife["hunting-rifle"] > 100 and knife["reload"] > 0 and knife["aim"] > 0 and knife["combat-knife"] > 100
    sword = _attacks_by_weapon(setup_of(RIFLE_SWORD, "ashfall-2"), "kernel-ai-rifleman", 30)
    assert sword["hunting-rifle"] > 100 and sword["reload"] > 0 and sword["salvaged-sword"] > 100
    soldier = _attacks_by_weapon(setup_of(STOREROOM, "ashfall-1"), "soldier", 30)
    assert soldier["hunting-rifle"] > 50 and soldier["combat-knife"] > 0


@pytest.mark.rule("ATK-2", "G-31", "E-05")
@pytest.mark.parametrize("path", [RIFLE_KNIFE, STOREROOM], ids=["rifle-and-knife", "storeroom"])
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_rifle_before_a_knife(path: Path) -> None:
    """Every decision of 8 fights (shots, Reloads, Aims and knife swings), compared one by one."""
    setup = setup_of(path, "ashfall-1")
    seen = checked_decisions(setup, seeds(8, sweep=31))
    assert any(isinstance(e, tuple) and e[0] == "attack" and len(e) == 3 for e in seen)  # the rifle, its first
    assert any(isinstance(e, tuple) and len(e) == 5 and e[3] == "combat-knife" for e in seen)


@pytest.mark.rule("ATK-2")
def test_kernel_slots__hold_the_melee_option_first_and_weigh_the_gun_before_it() -> None:
    setup = setup_of(RIFLE_KNIFE, "ashfall-1")
    fight = setup.build_fight(0)
    state = fight.engine.state
    i, cid = _rifleman(setup)
    c = state.get(cid)
    ai_order = attack_options(c, state)
    assert [o.weapon_id for o in ai_order] == ["hunting-rifle", "combat-knife", "combat-knife"]
    slots = kernel_options(c, state)
    assert (slots[0].weapon_id, slots[0].ranged) == ("combat-knife", False)
    assert [o.index for o in slots[1:]] == [0, 2]  # the rifle, then the knife thrown: the AI's order
    assert leads(c, state) == 1
    lo = KernelSetup(setup).lowered
    assert lo.ai.config[i, kai.CFG_LEAD] == 1.0 and lo.ai.config[1 - i, kai.CFG_LEAD] == 0.0
    assert lo.ai.options.ranged[i, 0] == 1 and lo.ai.ranged.slots[i, 0] >= 0  # the rifle's rounds are counted
    assert lo.reach_ft[i] == 5  # the knife's reach: its routes and its Attacks of Opportunity (``best_melee``)


class _Wrong:
    """The kernel broken on purpose: ``knife-first`` weighs the melee option before the gun (the lead column cleared,
    so a tie at one square goes to the knife); ``never-shoots`` has no plan for the gun (its further option 0)."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        ai = lo.ai
        if broken == "knife-first":
            ai = knife_first(ai)
        else:
            first = ai.options.first.copy()
            first[:, 0] = -1
            ai = dataclasses.replace(ai, options=dataclasses.replace(ai.options, first=first))
        self.kernel.lowered = dataclasses.replace(lo, ai=ai)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("ATK-2", "RVI-3")
def test_kernel_ai_with_a_gun_first__a_tie_at_one_square_goes_to_the_gun(tmp_path: Path) -> None:
    """Against a brute immune to piercing every plan is worth nothing: the rifle listed first must win each tie."""
    setup = variant(tmp_path, RIFLE_KNIFE, *IMMUNE, "ashfall-1")
    plays_like_the_reference(setup, 10)
    wrong_kernel_diverges(setup, _Wrong(setup, "knife-first"), 10, 10)


@pytest.mark.rule("ATK-2", "G-31")
def test_compare_engines__a_kernel_that_never_shoots_its_gun_first_diverges() -> None:
    setup = setup_of(RIFLE_KNIFE, "ashfall-1")
    wrong_kernel_diverges(setup, _Wrong(setup, "never-shoots"), 20, 15)


@pytest.mark.rule("ATK-2", "E-18", "E-37")
@pytest.mark.parametrize(("change", "edition", "named"), [
    # the rifle alone beside the unarmed strike is played (``test_kernel_ai_fists_beside_a_gun``), and two guns
    # beside it (``test_kernel_ai_two_guns``); two guns beside the knife are not
    (("weapons: [hunting-rifle, combat-knife]", "weapons: [hunting-rifle, pistol, combat-knife]"), "ashfall-1",
     "the tactical AI with two guns beside a melee weapon or a throw"),
    # a scripted creature's plan tries its weapons in order: its rifle first is not mirrored
    (("weapons: [greataxe]", "weapons: [crossbow, greataxe]"), "ashfall-1", "ranged and thrown weapons"),
    # under edition 2 the rifleman would open with a Feint against the dull brute with a rifle beside its knife (E-37;
    # its knife's throw beside the rifle is played: test_kernel_ai_throws_beside_guns_edition_2)
    (("ruleset: ashfall-1", "ruleset: ashfall-2"), None, "feint beside further ways to attack"),
])
def test_kernel_ai_with_a_gun_first__what_it_does_not_cover_is_named(tmp_path: Path, change: tuple[str, str],
                                                                     edition: str | None, named: str) -> None:
    problem = check(variant(tmp_path, RIFLE_KNIFE, *change, edition))
    assert problem is not None and named in problem


def test_shipped_darkness__is_named_for_its_darkness_under_both_editions() -> None:
    """The first problem was its soldier's rifle listed first, then (edition 2) the knife's throw beside the rifle
    among the openers; now it is the darkness itself under both editions."""
    darkness = Path(__file__).resolve().parents[2] / "encounters" / "darkness.yaml"
    one = check(EncounterSetup(darkness, "ashfall-1"))
    two = check(EncounterSetup(darkness, "ashfall-2"))
    assert one is not None and "light and obscurement" in one
    assert two is not None and "light and obscurement" in two
