"""Exact odds of an opposed d20 check (a contest): d20 + one side's stat against d20 + the other's (CON-1..5).

Every pair of faces is judged by the rules core's own tie rule (:func:`ashfall.rules.checks.contest_settled`,
:func:`~ashfall.rules.checks.initiator_wins`): a pair that is not settled (a tie under ``checks.contest_tie =
reroll``) is rolled again, so the odds are those of the settled pairs.
"""

from __future__ import annotations

from fractions import Fraction

from ashfall.rules.checks import NATURAL_MAX, NATURAL_MIN, contest_settled, initiator_wins
from ashfall.ruleset.sections import ContestTie


def contest_odds(initiator: int, defender: int, tie: ContestTie) -> Fraction:
    """The exact chance that d20 + ``initiator`` wins against d20 + ``defender`` (CON-2, G-45)."""
    wins = settled = 0
    faces = range(NATURAL_MIN, NATURAL_MAX + 1)
    for a in faces:
        for b in faces:
            margin = a + initiator - b - defender
            if contest_settled(margin, tie):
                settled += 1
                wins += initiator_wins(margin)
    return Fraction(wins, settled) if settled else Fraction(0)


__all__ = ["contest_odds"]
