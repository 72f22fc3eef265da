"""Exact contest odds follow the rules core's tie rule: a tie keeps the status quo, or is rerolled (CON-2, G-45)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Attribute
from ashfall.odds.contest import contest_odds
from ashfall.rules.checks import ContestSide, contest
from ashfall.ruleset import preset
from ashfall.ruleset.sections import ContestTie
from tests.rules.attack_kit import creature


@pytest.mark.rule("CON-2", "G-45")
@pytest.mark.parametrize(("mine", "theirs", "tie", "expected"), [
    (0, 0, ContestTie.STATUS_QUO, Fraction(190, 400)),
    (0, 0, ContestTie.REROLL, Fraction(1, 2)),
    (5, 0, ContestTie.STATUS_QUO, Fraction(280, 400)),
    (5, 0, ContestTie.REROLL, Fraction(280, 385)),
    (0, 25, ContestTie.STATUS_QUO, Fraction(0)),
])
def test_con_2__contest_odds_by_tie_rule(mine: int, theirs: int, tie: ContestTie, expected: Fraction) -> None:
    assert contest_odds(mine, theirs, tie) == expected


@pytest.mark.rule("CON-2", "G-45")
def test_con_2__contest_odds_count_exactly_the_pairs_the_rules_core_lets_the_initiator_win() -> None:
    rs = preset()
    a = ContestSide(creature("a", MIG=3), (Attribute.MIG,))
    b = ContestSide(creature("b", MIG=1), (Attribute.MIG,))
    wins = 0
    for x in range(1, 21):
        for y in range(1, 21):
            with ScriptedRng([x, y]) as rng:
                wins += contest(a, b, rng, rs).initiator_wins
    assert contest_odds(3, 1, rs.checks.contest_tie) == Fraction(wins, 400)
