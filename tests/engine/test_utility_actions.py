"""Utility actions in the engine: Dodge, Help, Hide, Search, medicine, Second Wind, stims, objects, free actions.

Scenario tests with scripted dice (DOD, HLP, HID, SRCH, UOB, FA, ACT-11..14, MAA-6, HEAL-5, G-20, G-31,
G-45, G-57, X-23, E-12, E-29..31, E-38).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.core.types import Attribute, Condition, Skill
from ashfall.engine import (
    Combatant,
    Dodge,
    DropItem,
    EmergencyFieldMedicine,
    Engine,
    FallProne,
    FirstOption,
    Help,
    Hide,
    Identify,
    PickUp,
    Refused,
    Search,
    SecondWind,
    Speak,
    StabiliseWithMedicine,
    Stride,
    Strike,
    UseItem,
    UseObject,
    UseSkill,
    UseStim,
    legal_intents,
)
from ashfall.engine import events as ev
from ashfall.engine.effects import EffectKind
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.rules.health import Vitality
from ashfall.ruleset import Ruleset
from tests.engine.maneuver_helpers import ED1, ED2, checks, fighter, next_turn, of_type, script, started


def refused_rule(engine: Engine, intent: object) -> str:
    with pytest.raises(Refused) as err:
        engine.submit(intent)
    return err.value.rule


def hurt(c: Combatant, hp: int, vitality: Vitality = Vitality.ALIVE) -> Combatant:
    return replace(c, health=c.health.evolve(hp=hp, vitality=vitality))


# ----- Dodge (DOD-1, DOD-2) -----


@pytest.mark.rule("DOD-1")
def test_dodge__attacks_against_you_have_disadvantage() -> None:
    eng = started([fighter("d", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")])
    events = eng.submit(Dodge("d"))
    assert of_type(events, ev.ConditionAdded)[0].applied.condition is Condition.DODGING
    next_turn(eng)
    with script(eng, [15, 3]):  # disadvantage: keep 3 -> a miss
        attack = of_type(eng.submit(Strike("r", "d", "spear")), ev.AttackRolled)[0]
    assert attack.roll.advantage == "disadvantage" and any(s.rule == "DOD-1" for s in attack.roll.sources)
    next_turn(eng)  # the start of the dodger's next turn ends it
    assert not eng.state.get("d").has(Condition.DODGING)


@pytest.mark.rule("DOD-1", "DOD-2", "RX-21")
@pytest.mark.parametrize(("dodge", "faces", "offered"), [
    pytest.param(False, [1], True, id="without Dodge the raider takes its AoO"),
    pytest.param(True, [], False, id="Dodge: withdrawal provokes no AoO"),
])
def test_dodge__withdrawal_provokes_no_attack_of_opportunity(dodge: bool, faces: list[int], offered: bool) -> None:
    eng = started([fighter("d", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")],
                  controllers={"r": FirstOption()})
    if dodge:
        eng.submit(Dodge("d"))
    with script(eng, faces):
        events = eng.submit(Stride("d", ((0, 1),)))
    assert bool(of_type(events, ev.ReactionSpent)) is offered
    assert eng.state.get("d").position == (0, 1)


# ----- Help (HLP-1, HLP-2, E-38) -----


def helpers(rs: Ruleset = ED2, ally_pos: tuple[int, int] = (1, 2)) -> Engine:
    return started([fighter("h", "party", (1, 1), ruleset=rs), fighter("a", "party", ally_pos, "operative",
                                                                        ruleset=rs),
                    fighter("r", "raiders", (2, 1), "raider", ruleset=rs)], ruleset=rs)


@pytest.mark.rule("HLP-2")
def test_help_with_an_attack__dc_10_check_then_the_ally_attacks_with_advantage() -> None:
    eng = helpers()
    with script(eng, [5]):  # Athletics 5+7 = 12 meets DC 10
        events = eng.submit(Help("h", "a", attack=True))
    assert (checks(events)[0].against, checks(events)[0].success) == (10, True)
    next_turn(eng)
    with script(eng, [3, 14, 2]):
        attack = of_type(eng.submit(Strike("a", "r", "combat-knife")), ev.AttackRolled)[0]
    assert attack.roll.advantage == "advantage" and any(s.rule == "HLP-2" for s in attack.roll.sources)


@pytest.mark.rule("HLP-2")
def test_hlp_2__a_failed_check_gives_nothing() -> None:
    eng = helpers()
    with script(eng, [1]):  # 8 < 10
        eng.submit(Help("h", "a", attack=True, skill=Skill.ATHLETICS))
    assert not eng.state.effects


@pytest.mark.rule("HLP-1", "ACT-11")
def test_hlp_1__help_with_a_check_needs_no_roll_and_lasts_until_your_next_turn() -> None:
    eng = helpers()
    with script(eng, []):
        eng.submit(Help("h", "a"))
    next_turn(eng)
    with script(eng, [4, 17]):
        events = eng.submit(UseSkill("a", Skill.ACROBATICS, 15, "vault the barricade"))
    check = checks(events)[0]
    assert check.roll.advantage == "advantage" and check.success and check.rule == "ACT-11"
    eng2 = helpers()
    eng2.submit(Help("h", "a"))
    next_turn(eng2)
    next_turn(eng2)
    next_turn(eng2)  # the helper's next turn starts: the unused advantage is gone
    assert not eng2.state.effects_on("a", EffectKind.ADVANTAGE_NEXT_CHECK)


@pytest.mark.rule("HLP-1")
def test_hlp_1__the_ally_must_be_within_5_ft() -> None:
    eng = helpers(ally_pos=(4, 4))
    with script(eng, []):
        assert refused_rule(eng, Help("h", "a")) == "HLP-1"
        assert refused_rule(eng, Help("h", "r")) == "HLP-1"


@pytest.mark.rule("E-38", "HLP-2")
def test_e_38__edition_1_help_grants_attack_advantage_without_a_check() -> None:
    eng = helpers(ED1)
    with script(eng, []):
        eng.submit(Help("h", "a", attack=True))
    assert eng.state.effects_on("a", EffectKind.ADVANTAGE_NEXT_ATTACK)[0].rule == "E-38"


# ----- Hide and Search (HID-1..3, ACT-12, SRCH-1, G-20, G-45) -----


def hiding(obscured_only: bool = False) -> Engine:
    cover = {} if obscured_only else {(3, 1): CoverObject(CoverLevel.PARTIAL, name="crate")}
    return started([fighter("o", "party", (1, 1), "operative"), fighter("s", "raiders", (5, 1), "raider-scout")],
                   Board(10, 5, cover=cover))


@pytest.mark.rule("HID-1", "HID-2", "HID-3", "ACT-12", "SRCH-1", "G-20", "G-45", "G-24")
def test_hide_then_search__a_tie_keeps_the_hider_hidden() -> None:
    eng = hiding()
    with script(eng, [10]):  # Stealth 10+5 = 15 vs the scout's passive Perception 13
        events = eng.submit(Hide("o"))
    assert (checks(events)[0].against, checks(events)[0].success) == (13, True)
    assert eng.state.get("o").has(Condition.HIDDEN) and eng.state.get("o").uses["stealth-total"] == 15
    next_turn(eng)
    with script(eng, [12]):  # Perception 12+3 = 15: a tie, the hider stays hidden (G-45)
        events = eng.submit(Search("s"))
    assert (checks(events)[0].against, checks(events)[0].success) == (15, False)
    assert eng.state.get("o").has(Condition.HIDDEN)
    with script(eng, [13]):  # 16 beats 15: found
        eng.submit(Search("s"))
    assert not eng.state.get("o").has(Condition.HIDDEN)


@pytest.mark.rule("HID-1", "HID-2")
def test_hid_1__no_cover_no_hiding__heavy_obscurement_is_enough() -> None:
    eng = hiding(obscured_only=True)
    with script(eng, []):
        assert refused_rule(eng, Hide("o")) == "HID-1"
    with script(eng, [5]):  # 10 < 13: seen
        eng.submit(Hide("o", obscured=True))
    assert not eng.state.get("o").has(Condition.HIDDEN)


@pytest.mark.rule("SRCH-1")
def test_srch_1__search_with_investigation_not_athletics() -> None:
    eng = hiding()
    with script(eng, [10]):
        eng.submit(Search("o", Skill.INVESTIGATION))
        assert refused_rule(eng, Search("o", Skill.ATHLETICS)) == "SRCH-1"


@pytest.mark.rule("FA-1", "G-20")
def test_fa_1__speaking_is_free__a_shout_ends_hidden() -> None:
    eng = hiding()
    with script(eng, [10]):
        eng.submit(Hide("o"))
    events = eng.submit(Speak("o", "psst"))
    assert not of_type(events, ev.ActionsSpent) and eng.state.get("o").has(Condition.HIDDEN)
    eng.submit(Speak("o", "over here!", loud=True))
    assert not eng.state.get("o").has(Condition.HIDDEN)
    next_turn(eng)
    eng.submit(Speak("o", "ow"))  # off its own turn


# ----- Emergency Field Medicine (MAA-6, X-23, G-57, E-12) -----


def ward(rs: Ruleset = ED2, kit: int = 2) -> Engine:
    medic = fighter("g", "party", (1, 1), "gunslinger", uses={"medicine-kit": kit}, ruleset=rs)
    dying = hurt(fighter("w", "party", (1, 2), ruleset=rs), 0, Vitality.DYING)
    return started([medic, dying, fighter("r", "raiders", (8, 8), "raider", ruleset=rs)], ruleset=rs)


@pytest.mark.rule("MAA-6", "X-23", "G-57", "DEATH-13")
def test_efm__stabilises_a_dying_ally_in_combat_at_dc_20() -> None:
    eng = ward()
    with script(eng, [18, 3, 4]):  # Medicine 18+2 = 20 meets DC 20; 2d6 3+4 + WIS 2 = 9
        events = eng.submit(EmergencyFieldMedicine("g", "w"))
    check = checks(events)[0]
    assert (check.against, check.success, check.rule) == (20, True, "X-23")
    w = eng.state.get("w")
    assert (w.health.hp, w.health.vitality) == (9, Vitality.ALIVE)
    assert eng.state.get("g").turn.actions_left == 1 and eng.state.get("g").uses["medicine-kit"] == 1


@pytest.mark.rule("MAA-6", "E-12")
@pytest.mark.parametrize(("rs", "retry"), [
    pytest.param(ED2, None, id="edition 2: retry next turn"),
    pytest.param(ED1, "E-12", id="edition 1: locked out 8 hours"),
])
def test_e_12__failure_lockout_only_in_edition_1(rs: Ruleset, retry: str | None) -> None:
    eng = ward(rs, kit=3)
    with script(eng, [17]):  # 19 < 20
        eng.submit(EmergencyFieldMedicine("g", "w"))
    assert eng.state.get("w").health.is_dying
    eng.state.get("g").turn.actions_left = 3
    if retry is None:
        eng.check(EmergencyFieldMedicine("g", "w"))
    else:
        with script(eng, []):
            assert refused_rule(eng, EmergencyFieldMedicine("g", "w")) == retry


@pytest.mark.rule("MAA-6")
def test_maa_6__no_medicine_kit_is_refused() -> None:
    eng = ward(kit=0)
    with script(eng, []):
        assert refused_rule(eng, EmergencyFieldMedicine("g", "w")) == "MAA-6"


# ----- edition 1 Medicine stabilise (E-31, DEATH-17) -----


@pytest.mark.rule("E-31", "DEATH-17", "DEATH-14")
def test_e_31__edition_1_stabilises_with_a_dc_10_medicine_check() -> None:
    eng = ward(ED1)
    with script(eng, [8]):  # 8+2 = 10 meets DC 10
        events = eng.submit(StabiliseWithMedicine("g", "w"))
    assert checks(events)[0].against == 10
    assert eng.state.get("w").health.vitality is Vitality.STABILIZED
    assert eng.state.get("g").turn.actions_left == 2
    new = ward(ED2)
    with script(new, []):
        assert refused_rule(new, StabiliseWithMedicine("g", "w")) == "DEATH-17"


# ----- Second Wind (HEAL-5, E-30) and stims (G-31, E-29) -----


@pytest.mark.rule("HEAL-5", "E-30", "THP-5")
@pytest.mark.parametrize(("rs", "faces", "hp", "temp"), [
    pytest.param(ED2, [4, 6], 20 + 4 + 6 + 5, 5, id="edition 2: 2d10 + level, temp HP = level"),
    pytest.param(ED1, [4], 20 + 4 + 3, 0, id="edition 1: 1d10 + END"),
])
def test_second_wind__once_per_short_rest(rs: Ruleset, faces: list[int], hp: int, temp: int) -> None:
    eng = started([hurt(fighter("w", "party", (1, 1), ruleset=rs), 20), fighter("r", "raiders", (8, 8), "raider",
                                                                              ruleset=rs)], ruleset=rs)
    with script(eng, faces):
        eng.submit(SecondWind("w"))
    health = eng.state.get("w").health
    assert (health.hp, health.temp_hp) == (hp, temp)
    with script(eng, []):
        assert refused_rule(eng, SecondWind("w")) == "HEAL-5"


@pytest.mark.rule("G-31", "E-29", "ACT-14")
def test_stims__self_or_adjacent_ally_at_most_two_a_day() -> None:
    medic = fighter("g", "party", (1, 1), "gunslinger", uses={"stim:1": 3})
    eng = started([medic, hurt(fighter("w", "party", (1, 2)), 10), fighter("f", "party", (5, 5)),
                   fighter("r", "raiders", (8, 8), "raider")])
    with script(eng, [5, 1]):  # 1d8+2
        eng.submit(UseStim("g", "w"))
        eng.submit(UseStim("g", "w"))
    assert eng.state.get("w").health.hp == 10 + 7 + 3
    eng.state.get("g").turn.actions_left = 3
    with script(eng, []):
        assert refused_rule(eng, UseStim("g", "w")) == "E-29"  # the body builds tolerance
        assert refused_rule(eng, UseStim("g", "f")) == "G-31"  # not adjacent
        assert refused_rule(eng, UseStim("g", "g", tier=2)) == "G-31"  # carries none
        assert refused_rule(eng, UseStim("g", "r")) == "G-31"


# ----- objects, items, skills (UOB, ACT-11..14, FA) -----


@pytest.mark.rule("UOB-1", "UOB-2", "FA-7", "FA-8", "AE-3")
def test_use_object__simple_interactions_are_free_complex_cost_an_action() -> None:
    eng = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (8, 8), "raider")])
    events = eng.submit(UseObject("w", "kick over the brazier", simple=True))  # FA-7
    assert not of_type(events, ev.ActionsSpent) and eng.state.get("w").turn.free_actions == 1
    events = eng.submit(UseObject("w", "hack the door panel"))
    assert of_type(events, ev.ActionsSpent)[0].count == 1
    eng.submit(Speak("w"))
    eng.submit(FallProne("w"))  # FA-3
    assert refused_rule(eng, UseObject("w", "pull a lever", simple=True)) == "AE-3"


@pytest.mark.rule("FA-2", "FA-3", "UOB-1")
def test_fa_2__drop_then_pick_up_the_item() -> None:
    eng = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (8, 8), "raider")])
    eng.submit(DropItem("w", "javelin"))
    assert [w.id for w in eng.state.get("w").weapons] == ["greataxe"]
    eng.submit(PickUp("w", "javelin"))
    assert [w.id for w in eng.state.get("w").weapons] == ["greataxe", "javelin"] and not eng.state.ground
    eng.submit(FallProne("w"))
    assert eng.state.get("w").has(Condition.PRONE)
    assert refused_rule(eng, FallProne("w")) == "FA-3"
    assert refused_rule(eng, DropItem("w", "rifle")) == "FA-2"


@pytest.mark.rule("ACT-13", "ACT-11", "ACT-14")
def test_act_13__identify_is_an_int_or_wis_check_against_the_gms_dc() -> None:
    eng = started([fighter("p", "party", (1, 1), "psion"), fighter("r", "raiders", (8, 8), "raider")])
    with script(eng, [11]):
        events = eng.submit(Identify("p", "the raider's sigil", 12, Attribute.INT))
    assert (checks(events)[0].roll.total, checks(events)[0].against, checks(events)[0].success) == (12, 12, True)
    assert refused_rule(eng, Identify("p", "it", 12, Attribute.AGI)) == "ACT-13"
    events = eng.submit(UseItem("p", "detonator"))
    assert of_type(events, ev.ActionNoted)[0].rule == "ACT-14"


def test_candidates__utility_actions_offered_to_the_ai_are_legal() -> None:
    eng = helpers()
    names = {type(i).__name__ for i in legal_intents(eng, "h")}
    assert {"Dodge", "Help"} <= names and "Hide" not in names and "Search" not in names
