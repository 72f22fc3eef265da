"""Exact odds of a dying creature's death saves: stabilised, dead or revived, as a Markov chain.

Each save is a plain d20 with no modifiers and no advantage (DEATH-4, G-21): a natural 20 regains HP
and ends dying (DEATH-7), a natural 1 marks ``natural_1_failures`` failures (DEATH-8), faces from
``save_success_min`` to 19 mark a success (DEATH-5) and the rest a failure (DEATH-6). Enough successes
stabilise and enough failures kill (DEATH-3). Thresholds come from ``ruleset.dying``. Outside damage and
healing (DEATH-10..13) are not part of this chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ashfall.core.modifiers import Advantage
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.attacks.rules import NATURAL_MAX, NATURAL_MIN
from ashfall.odds.attack import natural_d20
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import DyingSection

RULES: tuple[RuleId, ...] = tuple(rule(f"DEATH-{n}") for n in range(2, 10))


@dataclass(frozen=True, slots=True)
class DeathOdds:
    """Where a run of death saves ends.

    Attributes:
        successes: Successes already marked.
        failures: Failures already marked.
        p_stabilized: Probability of reaching the success threshold first (DEATH-3).
        p_dead: Probability of reaching the failure threshold first (DEATH-3).
        p_revived: Probability a natural 20 ends it first (DEATH-7).
        expected_saves: Mean number of saves still to roll.
        rules: The rules applied.
    """

    successes: int
    failures: int
    p_stabilized: Fraction
    p_dead: Fraction
    p_revived: Fraction
    expected_saves: Fraction
    rules: tuple[RuleId, ...]


_Vector = tuple[Fraction, Fraction, Fraction, Fraction]  # stabilized, dead, revived, expected saves


def _transitions(dying: DyingSection) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """P(natural 20), P(natural 1), P(success), P(other failure) for one save."""
    faces = natural_d20(Advantage.NORMAL)
    p20, p1 = faces[NATURAL_MAX], faces[NATURAL_MIN]
    success = sum((p for f, p in faces.items() if dying.save_success_min <= f < NATURAL_MAX), Fraction(0))
    return p20, p1, success, 1 - p20 - p1 - success


@cache
def _solve(successes: int, failures: int, dying: DyingSection) -> _Vector:
    zero = Fraction(0)
    if failures >= dying.failures_to_die:
        return zero, Fraction(1), zero, zero
    if successes >= dying.successes_to_stabilise:
        return Fraction(1), zero, zero, zero
    p20, p1, p_succ, p_fail = _transitions(dying)
    moves = ((p1, (successes, failures + dying.natural_1_failures)), (p_succ, (successes + 1, failures)),
             (p_fail, (successes, failures + 1)))
    stay = sum((p for p, state in moves if state == (successes, failures)), zero)  # a rule that marks nothing
    branches = [(p / (1 - stay), _solve(*state, dying)) for p, state in moves if p and state != (successes, failures)]
    stab = sum((p * v[0] for p, v in branches), zero)
    dead = sum((p * v[1] for p, v in branches), zero)
    revived = p20 / (1 - stay) + sum((p * v[2] for p, v in branches), zero)
    saves = 1 / (1 - stay) + sum((p * v[3] for p, v in branches), zero)
    return stab, dead, revived, saves


def death_save_odds(successes: int = 0, failures: int = 0, ruleset: Ruleset | None = None) -> DeathOdds:
    """Exact odds that death saves from this state end stabilised, dead or revived.

    Args:
        successes: Successes already marked.
        failures: Failures already marked.
        ruleset: The rules in force (default: the current edition).

    Raises:
        ValueError: For negative counts.
    """
    if successes < 0 or failures < 0:
        raise ValueError("successes and failures cannot be negative")
    dying = (ruleset or preset()).dying
    stab, dead, revived, saves = _solve(successes, failures, dying)
    return DeathOdds(successes, failures, stab, dead, revived, saves, RULES)


__all__ = ["DeathOdds", "death_save_odds"]
