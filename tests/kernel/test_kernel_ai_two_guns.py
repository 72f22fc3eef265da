"""The shipped Gunslinger's two guns in the fight kernel: rounds per gun, a Reload of the gun used, Return Fire.

Two guns and no melee weapon (``[Submachine Gun, Pistol]``): the AI weighs each gun and its unarmed strike
(``attack_options``), counts and reloads each gun's rounds (G-31) and fires back with the first gun loaded and within
normal range (``return_fire_weapon``, RX-31); its Attacks of Opportunity are unarmed strikes (``best_melee`` is None,
RX-24, E-18). The kernel holds the strike as its first option and the guns as its first two further options, weighed
before it (ATK-2, the lead column), counts rounds per creature and further option slot (``RangedTables.ammo[i, xo]``),
reloads the gun the plan or the idle turn names, and answers a ranged hit with the first of its guns loaded and in
range (``fire_back[i, g]``, ``fire_slot``); the raider weighs each of the slinger's guns while it is loaded
(``threat_slot``). Played alone on its side under edition 1 (``ai-two-guns-against-a-raider.yaml``) and among allies
(``test_kernel_ai_two_guns_among_allies``).

Covering Fire (SUP-11, ``suppression.moves``): the talent's reaction is offered on every attack an enemy it can see and
shoot declares (``attack_declared``), and the AI takes it whenever nothing it prefers is offered
(``reactions.ai.PREFERENCE``): a round spent, the attacker at disadvantage on all its attacks until the slinger's next
turn starts (``suppressed``), and one free shot at it the first time it moves. Nothing of that needs Suppressive Fire;
it changes an AI fight on almost every enemy turn. The kernel plays it for one gun alone on its side against scripted
melee enemies (``test_kernel_covering_fire``) and names the rest (``_combatant_problem``, ``covering_problem``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import Choice
from ashfall.core.types import Condition
from ashfall.engine import Engine, SecondWind, Stand
from ashfall.kernel import ai as kai
from ashfall.sim import kernel_lower as kl
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    Rewired,
    played_alike,
    plays_like_the_reference,
    seeds,
    variant,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import _Checked, _expected, _kernel_choice, checked_decisions

ROOT = Path(__file__).resolve().parents[2]
TWO_GUNS = ENCOUNTERS / "ai-two-guns-against-a-raider.yaml"
SLINGER = "kernel-ai-two-gun-slinger"
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


@pytest.mark.rule("G-31", "RX-29", "RX-30", "RX-31", "RX-24", "E-18", "ATK-2", "E-05")
def test_kernel_ai_two_guns__shoots_reloads_and_fires_back_with_each_gun_as_the_reference_does() -> None:
    kernel = played_alike(EncounterSetup(TWO_GUNS, "ashfall-1"), 200)
    r = kernel.lowered.ai.ranged
    i = kernel.lowered.ids.index(SLINGER)
    assert r.ammo[i, :2].tolist() == [30, 12] and r.capacity[i, :2].tolist() == [30, 12]  # a magazine each (G-31)
    assert r.fire_back[i].tolist() == [80, 50] and r.fire_slot[i].tolist() == [0, 1]  # the SMG first (RX-31)
    assert kernel.lowered.ai.config[i, kai.CFG_LEAD] == 2  # both guns weighed before the fists (ATK-2)
    raider = kernel.lowered.ids.index("kernel-ai-raider-gunner")  # its pistol's rounds in its one gun's slot
    assert (r.ammo[raider] >= 0).sum() == 1 and r.threat_slot[raider].tolist() == [0, -1]
    assert r.threat_slot[i].tolist() == [0, 1]  # the raider weighs each of the slinger's guns while loaded


@pytest.mark.rule("G-31", "RX-29", "RX-31")
def test_reference_logs__two_guns_each_shot_the_first_reloaded_and_fired_back_with() -> None:
    """What the set exercises: the submachine gun fired and reloaded, Return Fire with it at the raider's shots, the
    pistol where its plan outvalues the submachine gun's."""
    found = _counts(EncounterSetup(TWO_GUNS, "ashfall-1"), 20)
    assert found["slinger Strike submachine-gun"] + found["slinger Power Strike submachine-gun"] >= 500, found
    assert found["slinger Strike pistol"] + found["slinger Power Strike pistol"] >= 1, found
    assert found["slinger Return Fire submachine-gun"] >= 100, found
    assert found[f"reload {SLINGER}"] >= 10, found


def _one_magazine(lo: Lowered) -> Lowered:
    """Wrong: the submachine gun's rounds counted as the pistol's (one magazine of twelve for both, G-31)."""
    i = lo.ids.index(SLINGER)
    r = lo.ai.ranged
    ammo, capacity = r.ammo.copy(), r.capacity.copy()
    ammo[i, 0], capacity[i, 0] = ammo[i, 1], capacity[i, 1]
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=dataclasses.replace(
        r, ammo=ammo, capacity=capacity)))


def _pistol_fires_back(lo: Lowered) -> Lowered:
    """Wrong: Return Fire never with the submachine gun, only the pistol (RX-31: the first loaded one in range)."""
    i = lo.ids.index(SLINGER)
    r = lo.ai.ranged
    fire_back = r.fire_back.copy()
    fire_back[i, 0] = -1
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=dataclasses.replace(r, fire_back=fire_back)))


@pytest.mark.rule("G-31", "RX-31")
@pytest.mark.parametrize("wrong", [_one_magazine, _pistol_fires_back], ids=["one-magazine", "pistol-fires-back"])
def test_compare_engines__a_kernel_with_the_guns_mixed_up_diverges(wrong: object) -> None:
    setup = EncounterSetup(TWO_GUNS, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 20, 5)  # type: ignore[arg-type]


class _CheckedAttacks(_Checked):
    """:class:`_Checked` on the states the compiled turn asks ``decide`` about: not where the slinger (a PC) catches
    its breath (HEAL-5: the turn spends Second Wind before it asks) nor stands up from prone (ACT-5)."""

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        choice = TacticalPolicy.choose(self, engine, actor)
        state = engine.state
        before = choice is not None and isinstance(choice.intent, (SecondWind, Stand))
        if state.active_id == actor and not state.ended and not before and not state.get(actor).has(Condition.PRONE):
            self.seen.append((_expected(choice), _kernel_choice(self.kernel, engine, actor)))
        return choice


@pytest.mark.rule("G-31", "RX-29", "RX-31", "ATK-2")
def test_kernel_ai_rifle_and_pistol__two_other_guns_beside_the_fists_play_like_the_reference(tmp_path: Path) -> None:
    """The rifleman's knife swapped for a pistol: a hunting rifle and a pistol beside its unarmed strike, against a
    brute; the kit is not the Gunslinger's alone."""
    rifle = ENCOUNTERS / "ai-rifleman-and-knife-against-a-brute.yaml"
    plays_like_the_reference(variant(tmp_path, rifle, "weapons: [hunting-rifle, combat-knife]",
                                     "weapons: [hunting-rifle, pistol]", "ashfall-1"), 30)


@pytest.mark.rule("G-31", "RX-24", "ATK-2")
def test_kernel_ai_decide__equals_tactical_policy_choose_with_two_guns() -> None:
    """Every choice of both AIs in the reference fights (shots with each gun, reloads of each, the fists, Steps), the
    compiled ``decide`` on the same state makes the same."""
    seen = checked_decisions(EncounterSetup(TWO_GUNS, "ashfall-1"), seeds(8, sweep=41), _CheckedAttacks)
    assert len(seen) > 100
    assert any(s[0] == "reload" for s in seen if isinstance(s, tuple))


@pytest.mark.rule("FNT-5", "E-37")
def test_check__under_edition_2_the_raiders_feint_is_named() -> None:
    """Under edition 2 the raider would Feint the slinger, whose choices weigh its answer (FNT-5): named first."""
    assert check(EncounterSetup(TWO_GUNS, "ashfall-2")) == (
        "the tactical AI's feint on a creature whose choices weigh its answer (FNT-5, combatant "
        "kernel-ai-raider-gunner)")


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
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_check__the_covering_fire_talent_is_named(tmp_path: Path, edition: str) -> None:
    fight = variant(tmp_path, TWO_GUNS, *WITH_TALENT, edition).build_fight(1)
    slinger = fight.engine.state.get(SLINGER)
    # its two guns are played (``test_kernel_covering_fire_two_guns``); the raider's sword and pistol are not
    assert kl._combatant_problem(fight, slinger) == TALENT.format(
        SLINGER, "pinning a creature with other than one melee weapon, combatant kernel-ai-raider-gunner")


@pytest.mark.rule("G-31", "RX-29", "RX-31", "SUP-11")
@pytest.mark.parametrize(("name", "enemy"), [("skirmish", "raider-warlord"), ("bandit-band", "bandit-leader")])
def test_shipped_gunslinger__named_for_its_talent_alone_among_allies(name: str, enemy: str) -> None:
    """Among allies the kit is played (``test_kernel_ai_two_guns_among_allies``) and so is Covering Fire from its two
    guns (``test_kernel_covering_fire_two_guns``); an enemy's shot at it is not named for the Return Fire with either
    gun (RX-31): only the talent pinning an enemy with a sword and a gun is."""
    fight = EncounterSetup(ROOT / "encounters" / f"{name}.yaml", "ashfall-1").build_fight(1)
    slinger = fight.engine.state.get("gunslinger")
    assert kl._combatant_problem(fight, slinger) == TALENT.format(
        "gunslinger", f"pinning a creature with other than one melee weapon, combatant {enemy}")
    assert kl._plan_problem(fight, slinger) is None
    for enemy in fight.engine.state.enemies_of("gunslinger"):
        problem = kl._plan_problem(fight, enemy)
        assert problem is None or "Return Fire" not in problem, problem
