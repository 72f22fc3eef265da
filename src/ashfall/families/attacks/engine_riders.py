"""Applying a called shot's riders to the target after a hit (CS-1..4, G-53).

Riders come from the rules core as data. A save negates a rider when it has one; its DC is the
damage the hit dealt (CS-1). The Leg shot's speed loss has no save (CS-4) and lasts until the end
of the target's next turn.
"""

from __future__ import annotations

from collections.abc import Callable

from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import add
from ashfall.engine.records import Tally, use_name
from ashfall.engine.state import Combatant
from ashfall.families.attacks.rules_called_shots import Rider, RiderDuration, RiderEffect
from ashfall.rules.checks import saving_throw
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.rules.dc import fixed_dc


def _negated(ctx: Context, target: Combatant, rider: Rider, dealt: int) -> bool:
    if rider.save is None:
        return False
    dc = fixed_dc(dealt, rule("CS-1"), "damage dealt") if rider.dc_is_damage_dealt else fixed_dc(10, rider.rule, "DC")
    roller = ctx.roller(target.id, "save", dc.rule, source=rider.save.value)
    result = saving_throw(target.creature, rider.save, dc, roller, ctx.ruleset, conditions=target.condition_set)
    ctx.emit(ev.CheckRolled(target.id, f"{rider.save.value} save vs {rider.effect.value}",
                            ev.RollRecord.of(result.roll) if result.roll else None, dc.total, result.success,
                            rider.rule, result.auto_fail or ""))
    return result.success


def _duration(target: Combatant, rider: Rider) -> Duration:
    if rider.duration is RiderDuration.UNTIL_END_OF_TARGETS_NEXT_TURN:
        return Duration.end_of_next_turn(target.id)
    return Duration.until_removed()


def _condition(ctx: Context, attacker: Combatant, target: Combatant, rider: Rider, dealt: int) -> None:
    if rider.condition is not None and not _negated(ctx, target, rider, dealt):
        add(ctx, target.id, AppliedCondition(rider.condition, rider.rule, attacker.id, _duration(target, rider)))


def _speed(ctx: Context, attacker: Combatant, target: Combatant, rider: Rider, dealt: int) -> None:
    key = f"speed:{target.id}:{len(ctx.log)}"
    ctx.emit(ev.EffectAdded(TimedEffect(key, EffectKind.SPEED_CHANGE, target.id, rider.rule,
                                        _duration(target, rider), amount=rider.amount, used_up=False,
                                        source=attacker.id), rider.rule))


def _drop(ctx: Context, attacker: Combatant, target: Combatant, rider: Rider, dealt: int) -> None:
    if not _negated(ctx, target, rider, dealt):
        ctx.emit(ev.ResourceUsed(target.id, use_name(Tally.DISARMED), 1, rider.rule))


def _nothing(ctx: Context, attacker: Combatant, target: Combatant, rider: Rider, dealt: int) -> None:
    """Riders already applied by the rules core (Weak Point's armor DR)."""


RIDERS: dict[RiderEffect, Callable[[Context, Combatant, Combatant, Rider, int], None]] = {
    RiderEffect.DAZED: _condition,
    RiderEffect.SPEED_CHANGE: _speed,
    RiderEffect.DROP_ITEM: _drop,
    RiderEffect.IGNORE_ARMOR_DR: _nothing,
}


def apply_rider(ctx: Context, attacker: Combatant, target: Combatant, rider: object, dealt: int) -> None:
    """Apply one rider of a hit."""
    assert isinstance(rider, Rider)
    RIDERS[rider.effect](ctx, attacker, target, rider, dealt)
