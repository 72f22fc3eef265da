"""Contest helpers for maneuvers (DIS-2, E-08, G-45, CON-2, CON-5, X-09, E-06).

Disarm's attack roll against a check; Search against a recorded total.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.modifiers import Modifier, ModifierKind, adv
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Skill
from ashfall.rules.checks import (
    ContestSide,
    Degree,
    attack_contest,
    contest_recorded,
    maneuver_stats,
    stat_modifier,
)
from ashfall.ruleset import preset
from tests.rules.attack_kit import creature

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
DEFENDER = creature("d", MIG=1, AGI=3, proficiency=2, skill_proficiencies=frozenset({Skill.ATHLETICS}))
ATTACK = (Modifier(5, ModifierKind.ABILITY, rule("ATK-1"), "MIG + proficiency"),)


@pytest.mark.rule("DIS-2", "X-09", "CON-2")
@pytest.mark.parametrize(("attack", "defence", "wins", "degree"), [
    pytest.param(10, 5, True, Degree.SUCCESS, id="15 vs 8"),
    pytest.param(3, 5, False, Degree.FAILURE, id="8 vs 8: a tie keeps the status quo"),
    pytest.param(20, 2, True, Degree.CRITICAL_SUCCESS, id="25 vs 5"),
])
def test_dis_2__attack_roll_against_the_better_of_athletics_and_acrobatics(
        attack: int, defence: int, wins: bool, degree: Degree) -> None:
    with ScriptedRng([attack, defence]) as rng:
        result = attack_contest(ATTACK, (), ContestSide(DEFENDER, ()), rng, ED2)
    assert result.defender_stat is Skill.ATHLETICS  # +3 each: the first on a tie of modifiers
    assert (result.initiator_wins, result.degree) == (wins, degree)
    assert result.reasons[-1] == "DIS-2"


@pytest.mark.rule("E-08", "E-06")
def test_e_08__edition_1_defends_with_raw_mig_or_agi() -> None:
    with ScriptedRng([4, 10, 10]) as rng:  # the attack has advantage (a Feint): 4 and 10, keep 10
        result = attack_contest(ATTACK, (adv(rule("FNT-3"), "feint"),), ContestSide(DEFENDER, (), Skill.ACROBATICS),
                                rng, ED1)
    assert result.attack_roll.total == 15 and result.reasons[-1] == "E-08"
    assert result.defender_stat is Attribute.AGI and result.defender_roll.total == 13
    assert maneuver_stats(ED1) == (Attribute.MIG, Attribute.AGI)
    assert maneuver_stats(ED2) == (Skill.ATHLETICS, Skill.ACROBATICS)


@pytest.mark.rule("G-45", "CON-2")
@given(st.integers(1, 20), st.lists(st.integers(0, 30), min_size=0, max_size=4))
def test_g_45__a_recorded_total_is_beaten_only_by_a_higher_total(face: int, recorded: list[int]) -> None:
    searcher = creature("s", WIS=2, proficiency=2, skill_proficiencies=frozenset({Skill.PERCEPTION}))
    with ScriptedRng([face]) as rng:
        result = contest_recorded(ContestSide(searcher, (Skill.PERCEPTION,)), recorded, rng)
    assert result.beats == tuple(face + 4 > r for r in recorded)
    assert stat_modifier(searcher, Skill.PERCEPTION) == 4
