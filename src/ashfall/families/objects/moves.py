"""Striking an object (OBJ-1, G-25, IEA-3, IEA-5) and area effects on the objects in them (OBJ-6).

* **Strike an object** (:class:`StrikeObject`): one attack (a Strike, ACT-7) against the object's DV
  (10 unless stated, G-25), with MAP, ammunition and the AoO a ranged attack in reach provokes; a hit
  deals the weapon's damage through the object's ledger (:func:`~ashfall.families.objects.engine.
  damage_object`), then the rulebook's ``on_object_hit`` hooks run (a
  chandelier falls, IEA-5). Cutting a rope or chain is this (IEA-3). The candidates offer the
  chain-reaction elements and hanging objects in reach.
* **Area effects** (the rulebook's ``area_damage`` hooks): every object in the area
  fails its Reflex save and takes the damage (OBJ-6).

Kept apart from :mod:`.engine` because it needs the action modules (``moves``), which import the
chain reactions, which import :mod:`.engine`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.core.modifiers import Modifier, ModifierKind, stack
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.environment import MapObject
from ashfall.engine.harm import end_conditions
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import damage_rolled, hostile_within_5ft, is_ranged_attack, suppressed
from ashfall.families.attacks.engine_common import mode_for
from ashfall.families.attacks.engine_cover import board_with_objects
from ashfall.families.attacks.moves_gear import require_in_hand
from ashfall.families.attacks.moves_strike import check_ammo, chosen_weapon, spend_ammo
from ashfall.families.attacks.rules import AttackContext, resolve_attack
from ashfall.families.attacks.rules_activities import Activity, takes_map
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.families.objects.engine import (
    damage_object,
    damage_objects_in_area,
    enabled,
    objects_in,
)
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.grid.geometry import cover_between, space_distance_ft
from ashfall.rules.condition_durations import EndEvent
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import DamageRoll, roll_damage
from ashfall.rules.defense import DefenseBreakdown
from ashfall.rules.reach import attack_limit_ft

OBJ_1, G_25, G_20, ACT_7 = rule("OBJ-1"), rule("G-25"), rule("G-20"), rule("ACT-7")


def _area_objects(ctx: Context, source: str, squares: frozenset[Square], damage: DamageRoll, label: str) -> None:
    damage_objects_in_area(ctx, source, squares, damage, label)


# ----- Strike an object (OBJ-1, G-25) -----


@dataclass(frozen=True, slots=True)
class StrikeObject:
    """Make one attack at an object (a Strike, ACT-7, against the object's DV, OBJ-1, G-25).

    Attributes:
        actor: The attacker.
        object: The object's id.
        weapon: A weapon id of the attacker's (None: its first weapon, or unarmed).
        thrown: Throw a thrown weapon.
        unarmed: Strike unarmed.
    """

    actor: str
    object: str
    weapon: str | None = None
    thrown: bool = False
    unarmed: bool = False


def object_dv(obj: MapObject, state: EncounterState) -> DefenseBreakdown:
    """An object's DV as a breakdown: its stated DV, or the default (G-25)."""
    why = G_25 if obj.dv == state.ruleset.objects.object_dv else OBJ_1
    parts = stack((Modifier(obj.dv, ModifierKind.DV_BASE, why, f"{obj.name} DV"),))
    return DefenseBreakdown(parts.total, parts)


def _target_object(state: EncounterState, obj_id: str) -> MapObject:
    if not enabled(state):
        raise refuse("E-36", "objects do not take part in the fight in this ruleset")
    obj = state.environment.objects.get(obj_id)
    if obj is None or obj.broken:
        raise refuse("OBJ-1", f"no intact object {obj_id!r} here")
    return obj


def _check(state: EncounterState, intent: StrikeObject) -> None:
    c = state.get(intent.actor)
    obj = _target_object(state, intent.object)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    require_in_hand(c, weapon)
    check_ammo(c, weapon, mode)
    if not c.space or state.board is None:
        return
    dist = space_distance_ft(c.space, obj.squares)
    ranged = is_ranged_attack(weapon, mode)
    limit = attack_limit_ft(weapon, ranged, state.ruleset.attack.natural_reach)
    if dist > limit:
        if ranged:
            raise refuse("ATK-2", f"{obj.name} is {dist} ft away; it reaches {limit} ft")
        raise refuse("ATK-1", f"{obj.name} is {dist} ft away; reach is {limit} ft")
    board = board_with_objects(state.board, state.environment, c.space)
    if cover_between(board, c.space, obj.squares)[0] is CoverLevel.TOTAL:
        raise refuse("COV-3", f"{obj.name} is behind total cover")


def _context(state: EncounterState, c: Combatant, obj: MapObject, ranged: bool) -> tuple[AttackContext, bool]:
    counts = takes_map(Activity.STRIKE, state.ruleset)
    mod = map_modifier(c.turn.attack_rolls, state.ruleset, strike_actions_before=c.turn.strike_actions)
    near = space_distance_ft(c.space, obj.squares) <= SQUARE_FT if c.space else not ranged
    return AttackContext(
        activity=Activity.STRIKE, map_modifier=mod if counts else None, hostile_within_5ft=hostile_within_5ft(
            state, c), within_5ft=near, attacker_conditions=c.condition_set, extra_sources=suppressed(state, c),
    ), counts


def strike_object(ctx: Context, c: Combatant, obj: MapObject, intent: StrikeObject) -> None:
    """Roll the attack against the object's DV and, on a hit, deal the damage through its ledger."""
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    ranged = is_ranged_attack(weapon, mode)
    spend_ammo(ctx, c, weapon, mode)
    if ranged:
        effects = offer(ctx, Trigger(TriggerKind.RANGED_ATTACK_IN_REACH, c.id, obj.id))
        if not c.is_active or combine(effects).cancelled:
            return
    dv = object_dv(obj, ctx.state)
    context, counts = _context(ctx.state, c, obj, ranged)
    result = resolve_attack(c.creature, weapon, mode, dv, context, ctx.rng, ctx.ruleset)
    ctx.emit(ev.AttackRolled(
        c.id, obj.id, result.weapon.id if result.weapon else mode.value, f"Strike ({obj.name})",
        ev.RollRecord.of(result.roll), dv.total, ev.parts(dv.modifiers.applied), result.outcome.value,
        tuple(result.reasons), counts and result.counts_for_map,
    ))
    if c.has(Condition.HIDDEN):
        end_conditions(ctx, c.id, EndEvent(EndTrigger.ATTACKS), G_20)
    if not result.hit:
        return
    damage = roll_damage(result.damage_parts, ctx.rng, ctx.ruleset, critical=result.crit)
    ctx.emit(damage_rolled(c.id, obj.id, damage))
    damage_object(ctx, obj.id, damage, source=c.id, label=f"{c.name}'s Strike", critical=result.crit)
    for hook in ctx.state.rulebook.on_object_hit:
        hook(ctx, ctx.state.environment.objects[obj.id], c.id)


def _resolve(ctx: Context, intent: StrikeObject) -> None:
    c = ctx.state.get(intent.actor)
    strike_object(ctx, c, ctx.state.environment.objects[intent.object], intent)
    ctx.emit(ev.ResourceUsed(c.id, "strike-action", 1, ACT_7))


WORTH_STRIKING = frozenset({"fuel", "electrical", "support"})
"""Chain-reaction elements: the objects the candidates offer (an AI has reason to shoot them)."""


def _candidates(state: EncounterState, actor: str) -> Iterable[StrikeObject]:
    if not enabled(state):
        return
    c = state.get(actor)
    weapons: list[str | None] = [w.id for w in c.weapons] or [None]
    for obj in objects_in(state, (sq for o in state.environment.objects.values() for sq in o.squares)):
        if obj.chain in WORTH_STRIKING or "hanging" in obj.tags:
            for w in weapons:
                yield StrikeObject(actor, obj.id, w)


__all__ = ["StrikeObject", "object_dv", "strike_object"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.area_damage(_area_objects)
    book.action(StrikeObject, ActionDef("strike-object", ACT_7, fixed(1), _resolve, _check, _candidates))
