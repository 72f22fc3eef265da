"""One attack roll against several targets: Sweeping Strike (SWP-1..3, G-09) and Full Auto Burst (MAA-2, G-35).

Sweeping Strike: one roll at -2 plus the current MAP compared with up to 3 DVs; the first target takes
weapon dice + MIG, other targets hit take weapon dice only; a natural 20 crits every target and a natural 1
misses them all (``attack.sweeping_single_roll`` switches to one roll per target); it counts as one
attack for MAP. Full Auto Burst: one roll at -2 against up to 3 targets
within 10 ft of one another (X-12), each taking full damage; ``attack.full_auto_single_roll`` switches to
one roll per target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ashfall.content.schema import Creature, Weapon
from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.families.attacks.rules import (
    AttackContext,
    Outcome,
    auto_crit_rule,
    build_damage_parts,
    check_target,
    judge,
    prepare_attack,
)
from ashfall.families.attacks.rules_activities import Activity, AttackMode, counts_for_map
from ashfall.families.attacks.rules_called_shots import CS_0
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import DefenseBreakdown
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import AttackSection

G_09 = rule("G-09")
G_35 = rule("G-35")
X_12 = rule("X-12")
SWP_3 = rule("SWP-3")


@dataclass(frozen=True, slots=True)
class MultiTargetRule:
    """How many targets an activity allows and whether later targets take dice only."""

    rule: RuleId
    max_targets: Callable[[AttackSection], int]
    later_targets_dice_only: bool
    single_roll: Callable[[AttackSection], bool]


MULTI_TARGET: Mapping[Activity, MultiTargetRule] = MappingProxyType({
    Activity.SWEEPING: MultiTargetRule(
        rule("SWP-1"), lambda a: a.sweeping_targets, True, lambda a: a.sweeping_single_roll
    ),
    Activity.FULL_AUTO: MultiTargetRule(
        rule("MAA-2"), lambda a: a.full_auto_targets, False, lambda a: a.full_auto_single_roll
    ),
})
"""The activities that attack several targets, by activity."""


@dataclass(frozen=True, slots=True)
class Target:
    """One target of a multi-target attack.

    Attributes:
        defense: Its DV against this attack.
        conditions: Its conditions (for automatic crits, CRIT-5).
        within_5ft: The attacker is within 5 ft of it.
    """

    defense: DefenseBreakdown
    conditions: frozenset[Condition] = frozenset()
    within_5ft: bool = True


@dataclass(frozen=True, slots=True)
class TargetOutcome:
    """The attack's result against one target."""

    target: Target
    roll: D20Roll
    outcome: Outcome
    reasons: tuple[RuleId, ...]
    damage_parts: tuple[DamagePart, ...]

    @property
    def hit(self) -> bool:
        """A hit or a crit."""
        return self.outcome is not Outcome.MISS


@dataclass(frozen=True, slots=True)
class MultiAttackResult:
    """A resolved multi-target attack.

    Attributes:
        activity: Sweeping Strike or Full Auto Burst.
        rolls: The d20 roll(s): one (G-09, G-35) unless the ruleset rolls per target.
        targets: The result against each target, in the order chosen (the first is the primary, SWP-3).
        counts_for_map: It counts as one attack for MAP (G-09, G-35, G-41).
        reasons: Rules that shaped the resolution.
    """

    activity: Activity
    rolls: tuple[D20Roll, ...]
    targets: tuple[TargetOutcome, ...]
    counts_for_map: bool
    reasons: tuple[RuleId, ...]


def _validate(
    activity: Activity, targets: Sequence[Target], context: AttackContext, ruleset: Ruleset, spread_ft: int | None
) -> MultiTargetRule:
    spec = MULTI_TARGET.get(activity)
    if spec is None:
        raise RuleViolation(G_09, f"{activity.value} attacks one target")
    limit = spec.max_targets(ruleset.attack)
    if not 1 <= len(targets) <= limit:
        raise RuleViolation(spec.rule, f"{activity.value} attacks 1 to {limit} targets, not {len(targets)}")
    if context.called_shot is not None:
        raise RuleViolation(CS_0, "a called shot is declared against a single target")
    if activity is Activity.FULL_AUTO and spread_ft is not None and spread_ft > ruleset.attack.full_auto_spread_ft:
        raise RuleViolation(X_12, "Full Auto Burst targets must be within range of one another")
    return spec


def resolve_multi_target(
    attacker: Creature,
    weapon: Weapon | None,
    mode: AttackMode,
    targets: Sequence[Target],
    context: AttackContext,
    rng: Rng,
    ruleset: Ruleset,
    *,
    spread_ft: int | None = None,
) -> MultiAttackResult:
    """Resolve a Sweeping Strike or Full Auto Burst against each target's DV.

    Args:
        attacker: The attacker.
        weapon: Its weapon (melee for Sweeping Strike, ranged for Full Auto Burst).
        mode: The attack mode.
        targets: Up to 3 targets; the first is the primary target of a Sweeping Strike (SWP-3).
        context: ``context.activity`` must be SWEEPING or FULL_AUTO; its MAP applies once (G-41).
        rng: Supplies the d20(s).
        ruleset: Supplies every number.
        spread_ft: For Full Auto Burst, the greatest distance between two targets (X-12); None = checked.

    Raises:
        RuleViolation: Before rolling: too many targets, a target behind total cover, targets too far apart,
            a called shot, or an activity the ruleset lacks (Sweeping Strike in edition 1, E-10).
    """
    spec = _validate(context.activity, targets, context, ruleset, spread_ft)
    prepared = prepare_attack(attacker, weapon, mode, ruleset, context)
    for target in targets:
        check_target(target.defense, prepared)
    single = spec.single_roll(ruleset.attack)
    shared = roll_d20(rng, prepared.modifiers, prepared.sources) if single else None
    full = build_damage_parts(attacker, prepared, context, ruleset)
    dice_only = build_damage_parts(attacker, prepared, context, ruleset, dice_only=True)
    results: list[TargetOutcome] = []
    for index, target in enumerate(targets):
        roll = shared or roll_d20(rng, prepared.modifiers, prepared.sources)
        crit_rule = auto_crit_rule(prepared, target.conditions, target.within_5ft)
        outcome, reasons = judge(roll.natural, roll.total, target.defense.total, crit_rule, ruleset)
        later = index > 0 and spec.later_targets_dice_only
        parts = (dice_only if later else full) if outcome is not Outcome.MISS else ()
        results.append(TargetOutcome(target, roll, outcome, (*reasons, SWP_3) if later else reasons, parts))
    rolls = (shared,) if shared is not None else tuple(r.roll for r in results)
    return MultiAttackResult(
        context.activity, rolls, tuple(results), counts_for_map(context.activity, ruleset),
        (spec.rule, G_09 if context.activity is Activity.SWEEPING else G_35),
    )
