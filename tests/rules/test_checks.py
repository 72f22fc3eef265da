"""Saving throws, ability checks, contests and passive Perception (CON, G-22, G-24, G-44, G-45, E-06)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.modifiers import Advantage, Modifier, ModifierKind
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Condition, Save, Skill
from ashfall.rules.checks import (
    ContestResult,
    ContestSide,
    Degree,
    ability_check,
    contest,
    maneuver_contest,
    passive_perception,
    saving_throw,
)
from ashfall.rules.dc import fixed_dc
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import ContestTie
from tests.rules.attack_kit import creature

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
DC_15 = fixed_dc(15, rule("G-45"), "DC")
HERO = creature("hero", MIG=3, AGI=2, END=1, WIS=2, proficiency=2,
                save_proficiencies=frozenset({Save.FORTITUDE}),
                skill_proficiencies=frozenset({Skill.ATHLETICS, Skill.PERCEPTION}))


# ----- saves -----


@pytest.mark.rule("G-22")
@pytest.mark.parametrize(("save", "bonus"), [(Save.FORTITUDE, 1 + 2), (Save.REFLEX, 2), (Save.WILL, 2),
                                             (Save.MIG, 3)])
def test_g_22__save_modifiers_map_to_attributes(save: Save, bonus: int) -> None:
    with ScriptedRng([10]) as rng:
        result = saving_throw(HERO, save, DC_15, rng, ED2)
    assert result.roll is not None and result.roll.total == 10 + bonus


@pytest.mark.rule("G-45", "G-44")
@pytest.mark.parametrize(
    ("face", "dc", "success"),
    [
        pytest.param(12, 15, True, id="12+3 meets 15"),
        pytest.param(11, 15, False, id="11+3 misses 15"),
        pytest.param(20, 25, False, id="natural 20 is not an automatic success"),
        pytest.param(1, 3, True, id="natural 1 is not an automatic failure"),
    ],
)
def test_g_45__saves_meet_or_exceed_and_naturals_decide_nothing(face: int, dc: int, success: bool) -> None:
    with ScriptedRng([face]) as rng:
        result = saving_throw(HERO, Save.FORTITUDE, fixed_dc(dc, rule("G-45"), "DC"), rng, ED2)
    assert result.success is success and result.reasons == ("G-45",)


@pytest.mark.rule("G-44")
@pytest.mark.parametrize(("face", "dc", "success"), [(20, 40, True), (1, 2, False)])
def test_g_44__option_makes_naturals_decide_saves(face: int, dc: int, success: bool) -> None:
    rs = ED2.with_options(checks={"natural_rules_on_saves": True})
    with ScriptedRng([face]) as rng:
        result = saving_throw(HERO, Save.FORTITUDE, fixed_dc(dc, rule("G-44"), "DC"), rng, rs)
    assert result.success is success and "G-44" in result.reasons


@pytest.mark.rule("C-PAR", "C-UNC", "C-STU", "G-22")
@pytest.mark.parametrize(
    ("condition", "save", "auto"),
    [(Condition.PARALYZED, Save.REFLEX, True), (Condition.UNCONSCIOUS, Save.MIG, True),
     (Condition.STUNNED, Save.REFLEX, True), (Condition.PARALYZED, Save.FORTITUDE, False)],
)
def test_save_auto_fail__before_rolling(condition: Condition, save: Save, auto: bool) -> None:
    with ScriptedRng([] if auto else [20]) as rng:
        result = saving_throw(HERO, save, DC_15, rng, ED2, conditions={condition})
    assert (result.roll is None) is auto and (result.auto_fail is not None) is auto
    if auto:
        assert not result.success


@pytest.mark.rule("C-RES", "COV-1")
def test_saves__conditions_give_disadvantage_and_cover_adds_to_reflex() -> None:
    cover = Modifier(2, ModifierKind.COVER, rule("COV-1"), "partial cover")
    with ScriptedRng([15, 4]) as rng:
        result = saving_throw(HERO, Save.REFLEX, DC_15, rng, ED2, conditions={Condition.RESTRAINED},
                              modifiers=[cover])
    assert result.roll is not None and result.roll.advantage is Advantage.DISADVANTAGE
    assert result.roll.total == 4 + 2 + 2 and not result.success


# ----- checks -----


@pytest.mark.rule("G-45", "G-44")
@pytest.mark.parametrize(
    ("stat", "face", "total"),
    [(Skill.ATHLETICS, 10, 15), (Skill.ACROBATICS, 10, 12), (Attribute.MIG, 12, 15), (Skill.PERCEPTION, 11, 15)],
)
def test_ability_check__skill_or_attribute_meets_the_dc(stat: Skill | Attribute, face: int, total: int) -> None:
    with ScriptedRng([face]) as rng:
        result = ability_check(HERO, stat, DC_15, rng, ED2)
    assert result.roll.total == total and result.success is (total >= 15)


@pytest.mark.rule("C-POI")
def test_ability_check__poisoned_has_disadvantage() -> None:
    with ScriptedRng([18, 3]) as rng:
        result = ability_check(HERO, Skill.ATHLETICS, DC_15, rng, ED2, conditions={Condition.POISONED})
    assert result.roll.natural == 3 and not result.success


# ----- contests -----


def run(i_face: int, d_face: int, i: ContestSide, d: ContestSide, rs: Ruleset = ED2) -> ContestResult:
    with ScriptedRng([i_face, d_face]) as rng:
        return contest(i, d, rng, rs)


GRAPPLER = ContestSide(HERO, (Skill.ATHLETICS,))
DEFENDER = creature("rogue", MIG=0, AGI=4, skill_proficiencies=frozenset({Skill.ACROBATICS}))


@pytest.mark.rule("CON-1", "CON-2", "CON-4", "CON-5", "G-45")
@pytest.mark.parametrize(
    ("i_face", "d_face", "wins", "degree"),
    [
        pytest.param(10, 5, True, Degree.SUCCESS, id="CON-2 higher total wins"),
        pytest.param(9, 8, False, Degree.FAILURE, id="CON-2 tie keeps status quo: initiator fails"),
        pytest.param(20, 4, True, Degree.CRITICAL_SUCCESS, id="CON-5 win by 10+"),
        pytest.param(4, 13, False, Degree.CRITICAL_FAILURE, id="CON-5 lose by 10+"),
        pytest.param(18, 9, True, Degree.SUCCESS, id="win by 9 is not critical"),
    ],
)
def test_con__athletics_against_acrobatics(i_face: int, d_face: int, wins: bool, degree: Degree) -> None:
    # hero Athletics +5; rogue Acrobatics +6 (defender's best option)
    result = run(i_face, d_face, GRAPPLER, ContestSide(DEFENDER, (Skill.ATHLETICS, Skill.ACROBATICS)))
    assert result.defender_stat is Skill.ACROBATICS
    assert result.initiator_roll.total == i_face + 5 and result.defender_roll.total == d_face + 6
    assert (result.initiator_wins, result.degree) == (wins, degree)


@pytest.mark.rule("CON-4", "X-09")
def test_con_4__the_defender_may_choose_a_worse_option() -> None:
    result = run(10, 10, GRAPPLER, ContestSide(DEFENDER, (Skill.ATHLETICS, Skill.ACROBATICS), Skill.ATHLETICS))
    assert result.defender_stat is Skill.ATHLETICS and result.defender_roll.total == 10


@pytest.mark.rule("CON-3")
def test_con_3__a_contested_mig_check_is_1d20_plus_mig() -> None:
    result = run(10, 10, ContestSide(HERO, (Attribute.MIG,)), ContestSide(DEFENDER, (Attribute.MIG,)))
    assert (result.initiator_roll.total, result.defender_roll.total) == (13, 10) and result.initiator_wins


@pytest.mark.rule("CON-2", "G-45")
def test_con_2__reroll_option_rolls_ties_again() -> None:
    rs = ED2.with_options(checks={"contest_tie": ContestTie.REROLL})
    side = ContestSide(HERO, (Attribute.MIG,))
    with ScriptedRng([7, 7, 9, 3]) as rng:
        result = contest(side, side, rng, rs)
    assert result.rerolls == 1 and result.initiator_wins


@pytest.mark.rule("CON-1", "CON-2")
@given(i=st.integers(1, 20), d=st.integers(1, 20))
def test_con_1__initiator_wins_iff_strictly_higher(i: int, d: int) -> None:
    result = run(i, d, GRAPPLER, ContestSide(DEFENDER, (Skill.ACROBATICS,)))
    assert result.initiator_wins is (i + 5 > d + 6)
    assert result.margin == (i + 5) - (d + 6)


@pytest.mark.rule("E-06", "X-09")
def test_e_06__maneuver_contests_use_skills_in_edition_2_and_raw_attributes_in_edition_1() -> None:
    i, d = ContestSide(HERO, ()), ContestSide(DEFENDER, ())
    with ScriptedRng([10, 10]) as rng:
        ed2 = maneuver_contest(i, d, rng, ED2)
    with ScriptedRng([10, 10]) as rng:
        ed1 = maneuver_contest(i, d, rng, ED1)
    assert (ed2.initiator_stat, ed2.defender_stat) == (Skill.ATHLETICS, Skill.ACROBATICS)
    assert (ed2.initiator_roll.total, ed2.defender_roll.total) == (15, 16) and not ed2.initiator_wins
    assert (ed1.initiator_stat, ed1.defender_stat) == (Attribute.MIG, Attribute.AGI)
    assert (ed1.initiator_roll.total, ed1.defender_roll.total) == (13, 14)
    with ScriptedRng([10, 10]) as rng:
        chose = maneuver_contest(i, ContestSide(DEFENDER, (), Skill.ATHLETICS), rng, ED1)
    assert chose.defender_stat is Attribute.MIG


# ----- passive Perception -----


@pytest.mark.rule("G-24", "C-BLI", "C-DEA")
@pytest.mark.parametrize(
    ("conditions", "expected"),
    [(set(), 14), ({Condition.BLINDED}, 4), ({Condition.DEAFENED}, 4), ({Condition.BLINDED, Condition.DEAFENED}, -6)],
)
def test_g_24__passive_perception(conditions: set[Condition], expected: int) -> None:
    assert passive_perception(HERO, conditions, ED2).total == expected
