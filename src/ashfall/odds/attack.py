"""Exact odds of one attack: hit, crit and the full damage distribution after DR and resistances.

The model is the engine's own :func:`ashfall.families.attacks.rules.judge`, evaluated over every d20 face instead of
one roll: a natural 20 hits and crits (CRIT-1), a natural 1 misses (CRIT-3), otherwise the total meets or
exceeds DV (ATK-4). A crit doubles every die of the expression (all of it counts as weapon dice) and adds
flat modifiers once (CRIT-2, G-40). Damage then goes through the minimum (G-42), DR (DR-1, before
resistance: DR-3), and resistance / vulnerability / immunity (RVI-1..3, G-43), as the damage ledger does.
All numbers are exact :class:`~fractions.Fraction` values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache

import icepool

from ashfall.core.dice import DiceExpr, parse
from ashfall.core.modifiers import Advantage, Modifier, ModifierKind, Stacked, stack
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType
from ashfall.families.attacks.rules import Outcome, judge
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.odds.dice import to_die
from ashfall.rules.damage_ledger import (
    after_reduction,
    at_least_minimum,
    made_vulnerable,
    resistance_cancels,
    resisted,
)
from ashfall.ruleset import Ruleset, preset

ATK_4 = rule("ATK-4")
CRIT_1 = rule("CRIT-1")
CRIT_2 = rule("CRIT-2")
CRIT_3 = rule("CRIT-3")
MAA_5 = rule("MAA-5")
G_21 = rule("G-21")
G_40 = rule("G-40")
G_42 = rule("G-42")
G_43 = rule("G-43")
DR_1 = rule("DR-1")
DR_3 = rule("DR-3")
RVI_1 = rule("RVI-1")
RVI_2 = rule("RVI-2")
RVI_3 = rule("RVI-3")

NORMAL = Advantage.NORMAL


class DamageStepKind(Enum):
    """One transformation of rolled damage on its way to the target, in the order applied."""

    MINIMUM = "minimum"
    DR = "dr"
    RESISTANCE = "resistance"
    VULNERABILITY = "vulnerability"
    CANCELLED = "cancelled"
    IMMUNITY = "immunity"


@dataclass(frozen=True, slots=True)
class DamageStep:
    """A step applied to every hit's damage.

    Attributes:
        kind: What the step does.
        rule: The rule that requires it.
        amount: The DR or minimum amount, the resistance divisor or the vulnerability multiplier (else 0).
    """

    kind: DamageStepKind
    rule: RuleId
    amount: int = 0


_STEP_FN: dict[DamageStepKind, Callable[[int, int], int]] = {
    DamageStepKind.MINIMUM: at_least_minimum,
    DamageStepKind.DR: after_reduction,
    DamageStepKind.RESISTANCE: resisted,
    DamageStepKind.VULNERABILITY: made_vulnerable,
    DamageStepKind.CANCELLED: lambda dmg, _: dmg,
    DamageStepKind.IMMUNITY: lambda dmg, _: 0,
}
"""Each step's arithmetic: the damage ledger's own functions (:mod:`ashfall.rules.damage_ledger`)."""


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact outcome distribution of one attack roll and its damage.

    Attributes:
        bonus: The attack bonus before MAP and activity modifiers.
        dv: The target's Defense Value.
        damage: The damage expression on a normal hit (Power Strike's bonus included).
        crit_damage: The damage expression on a crit (dice doubled, flat parts once).
        advantage: The net advantage state of the d20 (G-21).
        attack_modifiers: MAP and activity modifiers added to ``bonus``.
        damage_modifiers: Flat damage added once (Power Strike +4).
        damage_steps: What happens to each hit's damage, in order.
        rules: The rules that decide hit, miss and crit.
        p_hit: Probability of a hit, crits included.
        p_crit: Probability of a critical hit.
        expected_damage: Mean damage dealt, misses counting 0.
        distribution: Damage dealt -> probability, ascending, a miss counting as 0.
    """

    bonus: int
    dv: int
    damage: DiceExpr
    crit_damage: DiceExpr
    advantage: Advantage
    attack_modifiers: Stacked
    damage_modifiers: tuple[Modifier, ...]
    damage_steps: tuple[DamageStep, ...]
    rules: tuple[RuleId, ...]
    p_hit: Fraction
    p_crit: Fraction
    expected_damage: Fraction
    distribution: Mapping[int, Fraction]

    @property
    def total_bonus(self) -> int:
        """The bonus actually added to the d20."""
        return self.bonus + self.attack_modifiers.total

    @property
    def p_miss(self) -> Fraction:
        """Probability of a miss."""
        return 1 - self.p_hit


@cache
def natural_d20(advantage: Advantage) -> dict[int, Fraction]:
    """The kept natural face: one d20, or the higher/lower of two (G-21)."""
    return die_fractions(_D20[advantage])


_D20 = {Advantage.NORMAL: icepool.d20, Advantage.ADVANTAGE: icepool.d20.highest(2, 1),
        Advantage.DISADVANTAGE: icepool.d20.lowest(2, 1)}
"""The kept natural face of one d20, or the higher / lower of two (G-21)."""


@cache
def _natural_counts(advantage: Advantage) -> tuple[tuple[tuple[int, int], ...], int]:
    """The kept natural face's outcomes with their counts, and the total count (:func:`natural_d20` in integers)."""
    die = _D20[advantage]
    return tuple((int(face), int(count)) for face, count in die.items()), int(die.denominator())


@lru_cache(maxsize=4096)
def _counts(expr: DiceExpr) -> tuple[tuple[tuple[int, int], ...], int]:
    """An expression's totals with their counts, and the total count (:func:`to_die` in integers, cached)."""
    die = to_die(expr)
    return tuple((int(outcome), int(count)) for outcome, count in die.items()), int(die.denominator())


def die_fractions(die: icepool.Die) -> dict[int, Fraction]:
    """An icepool Die as outcome -> exact probability."""
    denominator = die.denominator()
    return {int(outcome): Fraction(quantity, denominator) for outcome, quantity in die.items()}



def damage_steps(
    dr: int, *, resist: bool, vulnerable: bool, immune: bool, ruleset: Ruleset
) -> tuple[DamageStep, ...]:
    """The ordered steps a hit's damage goes through: minimum, DR, then resistance/vulnerability/immunity.

    Raises:
        ValueError: For negative DR.
    """
    if dr < 0:
        raise ValueError(f"DR cannot be negative (got {dr})")
    steps = [DamageStep(DamageStepKind.MINIMUM, G_42, ruleset.damage.minimum_damage)]
    if dr:
        steps.append(DamageStep(DamageStepKind.DR, DR_1, dr))
    if immune:
        steps.append(DamageStep(DamageStepKind.IMMUNITY, RVI_3))
    elif resistance_cancels(resist, vulnerable, ruleset):
        steps.append(DamageStep(DamageStepKind.CANCELLED, G_43))
    else:
        if resist:
            steps.append(DamageStep(DamageStepKind.RESISTANCE, RVI_1, ruleset.damage.resistance_divisor))
        if vulnerable:
            steps.append(DamageStep(DamageStepKind.VULNERABILITY, RVI_2, ruleset.damage.vulnerability_multiplier))
    return tuple(steps)


def apply_steps(damage: int, steps: Iterable[DamageStep]) -> int:
    """Rolled damage after every step, in order (DR before resistance: DR-3)."""
    for step in steps:
        damage = _STEP_FN[step.kind](damage, step.amount)
    return damage


def applies_to(damage_tag: str | None, type_names: Iterable[str]) -> bool:
    """Whether a resistance/vulnerability/immunity to any of ``type_names`` applies to damage tagged ``damage_tag``.

    Untyped damage (no tag) is treated as matching any named type, so ``--resist fire`` on a bare ``1d10+3``
    applies. Type names accept the aliases of :meth:`DamageType.parse` (G-27).

    Raises:
        ValueError: For a name that is not a damage type.
    """
    wanted = set()
    for name in type_names:
        try:
            wanted.add(DamageType.parse(name))
        except ValueError:
            choices = ", ".join(t.value for t in DamageType)
            raise ValueError(f"unknown damage type {name!r} (choose from {choices})") from None
    if not wanted:
        return False
    if damage_tag is None:
        return True
    try:
        return DamageType.parse(damage_tag) in wanted
    except ValueError:
        return False


def _map_modifier(attack_number: int, ruleset: Ruleset, map_rule: RuleId | None) -> tuple[Modifier, ...]:
    if attack_number < 1:
        raise ValueError(f"attack_number counts from 1 (got {attack_number})")
    mod = map_modifier(attack_number - 1, ruleset)
    if mod is None:
        return ()
    return (replace(mod, rule=map_rule) if map_rule else mod,)


@dataclass(frozen=True, slots=True)
class AttackCounts:
    """One attack's outcomes counted in whole numbers over one common denominator: the core both odds paths share.

    The exact path (:func:`attack_odds`) divides these into Fractions, the float path
    (:mod:`ashfall.odds.fast`) into floats; neither has its own copy of a rule.

    Attributes:
        bonus: The attack bonus before MAP and activity modifiers.
        dv: The target's Defense Value.
        damage: The damage expression on a normal hit (Power Strike's bonus included).
        crit_damage: The damage expression on a crit.
        advantage: The net advantage state of the d20 (G-21).
        attack_modifiers: MAP and activity modifiers added to ``bonus``.
        damage_modifiers: Flat damage added once (Power Strike +4).
        damage_steps: What happens to each hit's damage, in order.
        rules: The rules that decide hit, miss and crit.
        hits: Kept-d20 outcomes (out of ``d20_total``) that hit, crits included.
        crits: Kept-d20 outcomes that crit.
        d20_total: The count of kept-d20 outcomes (20, or 400 with advantage or disadvantage).
        numerators: Damage dealt -> count over ``denominator``, ascending, zero counts left out, a miss as 0.
        denominator: The common denominator of ``numerators``.
    """

    bonus: int
    dv: int
    damage: DiceExpr
    crit_damage: DiceExpr
    advantage: Advantage
    attack_modifiers: Stacked
    damage_modifiers: tuple[Modifier, ...]
    damage_steps: tuple[DamageStep, ...]
    rules: tuple[RuleId, ...]
    hits: int
    crits: int
    d20_total: int
    numerators: Mapping[int, int]
    denominator: int

    @property
    def damage_numerator(self) -> int:
        """The sum of damage dealt times its count: the mean damage times ``denominator``."""
        return sum(k * n for k, n in self.numerators.items())

    def float_distribution(self) -> tuple[float, ...]:
        """Probability by damage dealt (index = damage) as floats, each the float nearest the exact value.

        Python's integer true division is correctly rounded, so each entry equals ``float`` of the exact Fraction.
        """
        dist = [0.0] * (max(self.numerators) + 1)
        for dealt, n in self.numerators.items():
            dist[dealt] = n / self.denominator
        return tuple(dist)


def attack_counts(
    bonus: int,
    dv: int,
    damage: str | DiceExpr,
    *,
    ruleset: Ruleset | None = None,
    advantage: Advantage = NORMAL,
    attack_number: int = 1,
    map_rule: RuleId | None = None,
    power_strike: bool = False,
    dr: int = 0,
    resist: bool = False,
    vulnerable: bool = False,
    immune: bool = False,
    crit_damage: str | DiceExpr | None = None,
) -> AttackCounts:
    """One attack's outcomes in whole-number counts: the arguments and rules of :func:`attack_odds`.

    Returns:
        Hit and crit counts over the kept d20's outcomes, and damage dealt -> count over a common denominator.
    """
    rs = ruleset or preset()
    section = rs.attack
    expr = parse(damage) if isinstance(damage, str) else damage
    mods = list(_map_modifier(attack_number, rs, map_rule))
    dmg_mods: tuple[Modifier, ...] = ()
    if power_strike:
        mods.append(Modifier(section.power_strike_attack, ModifierKind.ACTIVITY, MAA_5, "Power Strike"))
        dmg_mods = (Modifier(section.power_strike_damage, ModifierKind.ACTIVITY, MAA_5, "Power Strike"),)
    stacked = stack(mods)
    flat = sum(m.value for m in dmg_mods)
    if crit_damage is None:
        crit = expr.doubled()
    else:
        crit = parse(crit_damage) if isinstance(crit_damage, str) else crit_damage
    hit_expr, crit_expr = expr.plus(flat), crit.plus(flat)
    steps = damage_steps(dr, resist=resist, vulnerable=vulnerable, immune=immune, ruleset=rs)

    # Counted in whole numbers over one common denominator, then made Fractions once per damage value: the
    # same exact numbers as summing Fractions term by term, without a gcd per term (the AI asks for thousands).
    faces, d20_total = _natural_counts(advantage)
    hits = crits = 0
    for natural, count in faces:
        outcome, _ = judge(natural, natural + bonus + stacked.total, dv, None, rs)
        hits += count if outcome is not Outcome.MISS else 0
        crits += count if outcome is Outcome.CRIT else 0
    hit_counts, hit_total = _counts(hit_expr)
    crit_counts, crit_total = _counts(crit_expr)
    scale = hit_total * crit_total
    numerators: dict[int, int] = {0: (d20_total - hits) * scale}
    for weight, counts, other_total in ((hits - crits, hit_counts, crit_total), (crits, crit_counts, hit_total)):
        if not weight:
            continue
        for raw, count in counts:
            dealt = apply_steps(raw, steps)
            numerators[dealt] = numerators.get(dealt, 0) + weight * count * other_total
    rules = [ATK_4, *((CRIT_1,) if section.natural_20_hits else ()), *((CRIT_3,) if section.natural_1_misses else ()),
             CRIT_2, G_40]
    if advantage is not NORMAL:
        rules.append(G_21)
    if dr and any(s.kind in (DamageStepKind.RESISTANCE, DamageStepKind.VULNERABILITY) for s in steps):
        rules.append(DR_3)
    return AttackCounts(
        bonus=bonus, dv=dv, damage=hit_expr, crit_damage=crit_expr, advantage=advantage,
        attack_modifiers=stacked, damage_modifiers=dmg_mods, damage_steps=steps, rules=tuple(rules),
        hits=hits, crits=crits, d20_total=d20_total,
        numerators={k: n for k, n in sorted(numerators.items()) if n}, denominator=d20_total * scale,
    )


def attack_odds(
    bonus: int,
    dv: int,
    damage: str | DiceExpr,
    *,
    ruleset: Ruleset | None = None,
    advantage: Advantage = NORMAL,
    attack_number: int = 1,
    map_rule: RuleId | None = None,
    power_strike: bool = False,
    dr: int = 0,
    resist: bool = False,
    vulnerable: bool = False,
    immune: bool = False,
    crit_damage: str | DiceExpr | None = None,
) -> AttackOdds:
    """Exact odds of one attack roll against a DV and the damage it deals.

    Args:
        bonus: Attack bonus before MAP and Power Strike.
        dv: The target's Defense Value.
        damage: Damage on a hit, e.g. ``"1d10+3"`` or ``"1d10+3 slashing"``.
        ruleset: The rules in force (default: the current edition).
        advantage: Net advantage state (G-21).
        attack_number: This attack's place among the turn's attack rolls; takes ``map_step`` per earlier one.
        map_rule: The rule to cite for the MAP modifier instead of the engine's (MAP-1, or E-01 in edition 1),
            e.g. MAP-5 for All-Out Attack or G-41 after a Power Strike.
        power_strike: Power Strike: ``power_strike_attack`` to hit, ``power_strike_damage`` flat (MAA-5).
        dr: The target's Damage Reduction against this damage.
        resist: The target resists this damage.
        vulnerable: The target is vulnerable to this damage.
        immune: The target is immune to this damage.
        crit_damage: The damage on a critical hit, when not every die of ``damage`` doubles: build both with
            :func:`ashfall.rules.damage_ledger.damage_expression`, which follows ``attack.crit_dice``
            (G-40).
            Default: every die of ``damage`` doubled (all of it counts as the weapon's dice), flat parts once.

    Returns:
        The exact probabilities, expected damage and damage distribution with every modifier and rule.
    """
    return exact_odds(attack_counts(
        bonus, dv, damage, ruleset=ruleset, advantage=advantage, attack_number=attack_number, map_rule=map_rule,
        power_strike=power_strike, dr=dr, resist=resist, vulnerable=vulnerable, immune=immune,
        crit_damage=crit_damage,
    ))


def exact_odds(c: AttackCounts) -> AttackOdds:
    """One attack's counts divided into exact Fractions (what :func:`attack_odds` returns)."""
    return AttackOdds(
        bonus=c.bonus, dv=c.dv, damage=c.damage, crit_damage=c.crit_damage, advantage=c.advantage,
        attack_modifiers=c.attack_modifiers, damage_modifiers=c.damage_modifiers, damage_steps=c.damage_steps,
        rules=c.rules, p_hit=Fraction(c.hits, c.d20_total), p_crit=Fraction(c.crits, c.d20_total),
        expected_damage=Fraction(c.damage_numerator, c.denominator),
        distribution={k: Fraction(n, c.denominator) for k, n in c.numerators.items()},
    )


__all__ = [
    "AttackCounts", "AttackOdds", "DamageStep", "DamageStepKind", "applies_to", "apply_steps", "attack_counts",
    "attack_odds", "damage_steps", "die_fractions", "exact_odds", "natural_d20",
]
