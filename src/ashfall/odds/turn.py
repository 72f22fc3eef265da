"""Exact odds of a turn of several attacks: the total-damage distribution and the chance to drop a target.

Each attack is an :class:`AttackSpec`; the rolls are independent, so the turn's damage is the
convolution of the attacks' distributions. Helpers build the standard turns: three Strikes at
0/−3/−6 (MAP-1), Power Strike then Strike (the Power Strike takes MAP 0 and counts as one attack, so
the Strike is at −3: G-41, MAA-5) and All-Out Attack at 0/−3/−6 (MAA-7, MAP-5). MAP itself comes
from :func:`ashfall.families.attacks.rules_map.map_modifier` (per attack roll; per Strike action in edition 1, E-01).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ashfall.core.dice import DiceExpr
from ashfall.core.modifiers import Advantage
from ashfall.core.rule_ids import RuleId, rule
from ashfall.odds.attack import AttackCounts, AttackOdds, attack_counts, exact_odds
from ashfall.ruleset import Ruleset, preset

AE_1 = rule("AE-1")
MAA_5 = rule("MAA-5")
MAA_7 = rule("MAA-7")
MAP_1 = rule("MAP-1")
MAP_5 = rule("MAP-5")
G_41 = rule("G-41")
DEATH_1 = rule("DEATH-1")



@dataclass(frozen=True, slots=True)
class AttackSpec:
    """One attack of a turn, as :func:`~ashfall.odds.attack.attack_odds` takes it.

    Attributes:
        bonus: Attack bonus before MAP and Power Strike.
        dv: The target's Defense Value.
        damage: Damage on a hit (text or parsed).
        label: A short name for presenters ("Strike", "Power Strike").
        rule: The rule for the action this attack belongs to.
        advantage: Net advantage state (G-21).
        attack_number: The attack's place among the turn's attack rolls (MAP).
        map_rule: The rule to cite for its MAP modifier (None: the engine's, MAP-1 or E-01).
        power_strike: Whether this attack is a Power Strike (MAA-5).
        dr: Target DR against this damage.
        resist: Target resists this damage.
        vulnerable: Target is vulnerable to this damage.
        immune: Target is immune to this damage.
    """

    bonus: int
    dv: int
    damage: str | DiceExpr
    label: str = "Strike"
    rule: RuleId = MAP_1
    advantage: Advantage = Advantage.NORMAL
    attack_number: int = 1
    map_rule: RuleId | None = None
    power_strike: bool = False
    dr: int = 0
    resist: bool = False
    vulnerable: bool = False
    immune: bool = False


@dataclass(frozen=True, slots=True)
class TurnOdds:
    """Exact odds of a turn of attacks against one target.

    Attributes:
        specs: The attacks, in order.
        attacks: The odds of each attack.
        distribution: Total damage -> probability, ascending.
        expected_damage: Mean total damage.
        target_hp: The target's HP, if given.
        p_drop: Probability the total damage reaches ``target_hp`` (0 HP: DEATH-1), or None.
        rules: Rules behind the turn's structure (actions, MAP, dropping at 0 HP).
    """

    specs: tuple[AttackSpec, ...]
    attacks: tuple[AttackOdds, ...]
    distribution: Mapping[int, Fraction]
    expected_damage: Fraction
    target_hp: int | None
    p_drop: Fraction | None
    rules: tuple[RuleId, ...]


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def spec_counts(spec: AttackSpec, ruleset: Ruleset) -> AttackCounts:
    """One attack of a turn in whole-number counts (the exact and the float paths divide the same counts)."""
    return attack_counts(
        spec.bonus, spec.dv, spec.damage, ruleset=ruleset, advantage=spec.advantage,
        attack_number=spec.attack_number, map_rule=spec.map_rule, power_strike=spec.power_strike,
        dr=spec.dr, resist=spec.resist, vulnerable=spec.vulnerable, immune=spec.immune,
    )


def _odds(spec: AttackSpec, ruleset: Ruleset) -> AttackOdds:
    return exact_odds(spec_counts(spec, ruleset))


def turn_odds(
    attacks: Sequence[AttackSpec], target_hp: int | None = None, *, ruleset: Ruleset | None = None
) -> TurnOdds:
    """Exact total-damage odds of several independent attacks against one target.

    Args:
        attacks: The attacks, each with its own MAP position.
        target_hp: The target's current HP; ``p_drop`` is the chance the total reaches it.
        ruleset: The rules in force (default: the current edition).

    Returns:
        The per-attack odds, the total distribution, the mean and the drop chance.
    """
    rs = ruleset or preset()
    odds = tuple(_odds(spec, rs) for spec in attacks)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for o in odds:
        total = _convolve(total, o.distribution)
    expected = sum((o.expected_damage for o in odds), Fraction(0))
    p_drop = None
    if target_hp is not None:
        p_drop = sum((p for dmg, p in total.items() if dmg >= target_hp), Fraction(0))
    return TurnOdds(tuple(attacks), odds, total, expected, target_hp, p_drop, turn_rules(attacks, target_hp))


def turn_rules(attacks: Sequence[AttackSpec], target_hp: int | None) -> tuple[RuleId, ...]:
    """The rules behind a turn's structure: each attack's action and MAP rule, and DEATH-1 with a target's HP."""
    rules = dict.fromkeys(r for spec in attacks for r in (spec.rule, spec.map_rule) if r is not None)
    if target_hp is not None:
        rules[DEATH_1] = None
    return tuple(rules)


def strikes(base: AttackSpec, count: int | None = None, *, ruleset: Ruleset | None = None) -> tuple[AttackSpec, ...]:
    """``count`` Strikes at 0, −3, −6 ... (MAP-1), one action each; by default one per action of the turn (AE-1).

    Raises:
        ValueError: If the Strikes need more actions than a turn has (AE-1).
    """
    rs = ruleset or preset()
    count = rs.turn.actions_per_turn if count is None else count
    if not 1 <= count <= rs.turn.actions_per_turn:
        raise ValueError(f"{AE_1}: a turn has {rs.turn.actions_per_turn} actions, so 1 to "
                         f"{rs.turn.actions_per_turn} Strikes (got {count})")
    return tuple(replace(base, label="Strike", rule=MAP_1, attack_number=n, map_rule=None, power_strike=False)
                 for n in range(1, count + 1))


def power_strike_then_strike(base: AttackSpec) -> tuple[AttackSpec, ...]:
    """Power Strike at MAP 0 (MAA-5), then a Strike at the second MAP step: the Power Strike counts (G-41)."""
    return (
        replace(base, label="Power Strike", rule=MAA_5, attack_number=1, map_rule=G_41, power_strike=True),
        replace(base, label="Strike", rule=MAP_1, attack_number=2, map_rule=G_41, power_strike=False),
    )


def all_out_attack(base: AttackSpec, *, ruleset: Ruleset | None = None) -> tuple[AttackSpec, ...]:
    """All-Out Attack: ``attack.all_out_attacks`` attacks at 0/−3/−6 (MAA-7, MAP-5), in both editions."""
    rs = ruleset or preset()
    return tuple(replace(base, label="All-Out Attack", rule=MAA_7, attack_number=n, map_rule=MAP_5,
                         power_strike=False) for n in range(1, rs.attack.all_out_attacks + 1))


__all__ = ["AttackSpec", "TurnOdds", "all_out_attack", "power_strike_then_strike", "spec_counts", "strikes",
           "turn_odds", "turn_rules"]
