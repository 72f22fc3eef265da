"""Float odds of one attack and of a turn of attacks: the exact path's own counts, divided and convolved in floats.

:func:`ashfall.odds.attack.attack_counts` counts an attack's outcomes in whole numbers with the rules' own
functions (``judge``, the damage ledger's steps, ``map_modifier``); :func:`~ashfall.odds.attack.attack_odds`
divides those counts into Fractions, this module into floats (Python's integer true division, correctly
rounded: each probability is the float nearest the exact one). A turn's total then comes from ``numpy.convolve``
instead of a Fraction convolution, which is what made exact turns slow (a 3-Strike turn: about 8 ms exact, a
fraction of a millisecond here). There is no second copy of a rule: only the arithmetic differs, and the tests
hold both paths within 1e-9 of each other.

Use this where a float is enough (a table's many odds at once, a kernel's tables); ``ashfall odds`` and its JSON
keep the exact Fractions. The tactical AI reads the same floats without numpy
(:meth:`~ashfall.odds.attack.AttackCounts.float_distribution`), so simulator processes do not import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ashfall.core.dice import DiceExpr
from ashfall.core.modifiers import Advantage
from ashfall.core.rule_ids import RuleId
from ashfall.odds.attack import AttackCounts, attack_counts
from ashfall.odds.turn import AttackSpec, spec_counts, turn_rules
from ashfall.ruleset import Ruleset, preset

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class FloatAttackOdds:
    """One attack's odds as floats.

    Attributes:
        counts: The whole-number counts they come from (expressions, modifiers, steps and rules included).
        p_hit: Probability of a hit, crits included.
        p_crit: Probability of a critical hit.
        expected_damage: Mean damage dealt, misses counting 0.
        distribution: Probability by damage dealt (index = damage), a miss counting as 0.
    """

    counts: AttackCounts
    p_hit: float
    p_crit: float
    expected_damage: float
    distribution: FloatArray


@dataclass(frozen=True, slots=True)
class FloatTurnOdds:
    """A turn of attacks against one target, as floats (the fields of :class:`~ashfall.odds.turn.TurnOdds`).

    Attributes:
        specs: The attacks, in order.
        attacks: The odds of each attack.
        distribution: Probability by total damage (index = damage).
        expected_damage: Mean total damage.
        target_hp: The target's HP, if given.
        p_drop: Probability the total damage reaches ``target_hp`` (0 HP: DEATH-1), or None.
        rules: Rules behind the turn's structure (actions, MAP, dropping at 0 HP).
    """

    specs: tuple[AttackSpec, ...]
    attacks: tuple[FloatAttackOdds, ...]
    distribution: FloatArray
    expected_damage: float
    target_hp: int | None
    p_drop: float | None
    rules: tuple[RuleId, ...]


def float_odds(counts: AttackCounts) -> FloatAttackOdds:
    """Divide an attack's counts into floats, each the float nearest its exact probability."""
    return FloatAttackOdds(
        counts=counts, p_hit=counts.hits / counts.d20_total, p_crit=counts.crits / counts.d20_total,
        expected_damage=counts.damage_numerator / counts.denominator,
        distribution=np.array(counts.float_distribution()),
    )


def attack_odds_float(
    bonus: int,
    dv: int,
    damage: str | DiceExpr,
    *,
    ruleset: Ruleset | None = None,
    advantage: Advantage = Advantage.NORMAL,
    attack_number: int = 1,
    map_rule: RuleId | None = None,
    power_strike: bool = False,
    dr: int = 0,
    resist: bool = False,
    vulnerable: bool = False,
    immune: bool = False,
    crit_damage: str | DiceExpr | None = None,
) -> FloatAttackOdds:
    """Float odds of one attack: the arguments and rules of :func:`ashfall.odds.attack.attack_odds`."""
    return float_odds(attack_counts(
        bonus, dv, damage, ruleset=ruleset, advantage=advantage, attack_number=attack_number, map_rule=map_rule,
        power_strike=power_strike, dr=dr, resist=resist, vulnerable=vulnerable, immune=immune,
        crit_damage=crit_damage,
    ))


def _spec_odds(spec: AttackSpec, ruleset: Ruleset) -> FloatAttackOdds:
    return float_odds(spec_counts(spec, ruleset))


def turn_odds_float(
    attacks: Sequence[AttackSpec], target_hp: int | None = None, *, ruleset: Ruleset | None = None
) -> FloatTurnOdds:
    """Float total-damage odds of several independent attacks: :func:`ashfall.odds.turn.turn_odds` in floats.

    Args:
        attacks: The attacks, each with its own MAP position.
        target_hp: The target's current HP; ``p_drop`` is the chance the total reaches it.
        ruleset: The rules in force (default: the current edition).

    Returns:
        The per-attack odds, the total distribution, the mean and the drop chance.
    """
    rs = ruleset or preset()
    odds = tuple(_spec_odds(spec, rs) for spec in attacks)
    total: FloatArray = np.ones(1)
    for o in odds:
        total = np.convolve(total, o.distribution)
    expected = float(sum(o.expected_damage for o in odds))
    p_drop = None if target_hp is None else float(total[max(target_hp, 0):].sum())
    return FloatTurnOdds(tuple(attacks), odds, total, expected, target_hp, p_drop, turn_rules(attacks, target_hp))


__all__ = ["FloatAttackOdds", "FloatTurnOdds", "attack_odds_float", "float_odds", "turn_odds_float"]
