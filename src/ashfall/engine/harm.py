"""Applying damage and conditions to combatants, with the ledger logged and follow-ups run.

Every damage event in a fight goes through :func:`deal_damage`: it builds the target's defenses,
runs the rules core's ledger (G-39), logs it, applies what dropping to 0 HP brings (DEATH-1), and
ends conditions that harm ends (Charmed, C-CHA). The rulebook's ``after_damage`` hooks run last
(morale triggers plug in there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.rules.condition_durations import AppliedCondition, Duration, EndEvent, add_condition, end_on
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import DamageAdjuster, DamageResult, DamageRoll, apply_damage
from ashfall.rules.damage_defenses import Defenses

_DMG_1, _C_CHA, _C_GRA = rule("DMG-1"), rule("C-CHA"), rule("C-GRA")  # looked up once, not per damage

AfterDamage = Callable[[Context, str, str, DamageResult], None]
"""Hooks run after every damage event: (ctx, target id, source id, result)."""
DamageEnvironment = Callable[[Context, str, str, DamageRoll | Mapping[DamageType, int]], Sequence[DamageAdjuster]]
"""Hooks giving a damage event's attack-side environment adjusters (G-39 step 2): (ctx, target id, source id,
damage) -> adjusters. Underwater fire halved and thunder +1d6 plug in here (UW-20, UW-23)."""
AfterCondition = Callable[[Context, str, AppliedCondition, frozenset[Condition]], None]
"""Hooks run after a condition takes hold: (ctx, target id, the condition, its conditions before); morale's
Fear Effect and Leader Down triggers plug in here (MOR-8, MOR-10)."""


def add(ctx: Context, target: str, applied: AppliedCondition) -> bool:
    """Apply a condition unless the target is immune (C-PET …); returns whether it took hold."""
    c = ctx.state.get(target)
    before = c.condition_set
    result = add_condition(c.conditions, applied, ctx.ruleset)
    if result.refused is not None:
        return False
    for old in c.conditions:
        if old not in result.conditions:
            ctx.emit(ev.ConditionRemoved(target, old, applied.rule))
    for new in result.conditions:
        if new not in c.conditions:
            ctx.emit(ev.ConditionAdded(target, new, applied.rule))
    for hook in ctx.state.rulebook.after_condition:
        hook(ctx, target, applied, before)
    return True


def end_conditions(ctx: Context, target: str, event: EndEvent, rule_id: RuleId) -> None:
    """End the target's conditions that this event ends."""
    c = ctx.state.get(target)
    _, ended = end_on(c.conditions, event)
    for a in ended:
        ctx.emit(ev.ConditionRemoved(target, a, rule_id))


def deal_damage(
    ctx: Context,
    target: str,
    damage: DamageRoll | Mapping[DamageType, int],
    *,
    source: str,
    label: str,
    critical: bool = False,
    deflect: int = 0,
    ignore_armor_dr: bool = False,
    magical: bool = False,
) -> DamageResult:
    """Run damage through the target's defenses and apply it (G-39); ``magical``: from a magic weapon (NAT-7)."""
    c = ctx.state.get(target)
    defenses = Defenses.of_creature(c.creature, c.armor, c.condition_set, magical_weapon=magical)
    hooks = ctx.state.rulebook.damage_environment
    environment = tuple(a for hook in hooks for a in hook(ctx, target, source, damage)) if hooks else ()
    result = apply_damage(c.health, damage, defenses, ctx.ruleset, critical=critical, deflect=deflect,
                          ignore_armor_dr=ignore_armor_dr, environment=environment, source=source)
    rows = tuple(
        ev.LedgerLine(r.step.value, r.type.value, r.before, r.after, r.rule, r.label) for r in result.rows
    )
    ctx.emit(ev.DamageTaken(target, source, result.total_to_temp + result.total_to_hp, rows, result.health_after,
                            critical, result.killed or result.status_rule or _DMG_1))
    for condition, why in result.conditions_gained:
        if condition is Condition.PRONE and not c.has(Condition.PRONE):
            add(ctx, target, AppliedCondition(Condition.PRONE, why))
    attacker = ctx.state.combatants.get(source)
    if attacker is not None and result.total > 0 and ctx.state.get(target).conditions:  # none: no allies set needed
        allies = frozenset(a.id for a in ctx.state.allies_of(source))
        end_conditions(ctx, target, EndEvent(EndTrigger.HARMED_BY_SOURCE_SIDE, source, allies), _C_CHA)
    if result.health_after.is_down and not result.health_before.is_down:
        # a grappler that drops lets go of everyone it grappled (C-GRA)
        for other in ctx.state.combatants.values():
            end_conditions(ctx, other.id, EndEvent(EndTrigger.SOURCE_INCAPACITATED, target), _C_GRA)
    for hook in ctx.state.rulebook.after_damage:
        hook(ctx, target, source, result)
    return result


def timed(condition: Condition, rule_id: RuleId, source: str | None, duration: Duration) -> AppliedCondition:
    """An applied condition with a duration."""
    return AppliedCondition(condition, rule_id, source, duration)
