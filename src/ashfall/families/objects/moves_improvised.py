"""Improvised environmental actions and environmental weapons (IEA-1..6, ENVW-1..3, X-05, G-25).

* **Kick over a brazier or lantern** (IEA-1, :class:`KickOver`): a free action next to an object tagged
  ``ignites``; it goes over and one square (its own or one next to it) catches fire (hazards layer).
* **Push a heavy object off a ledge** (IEA-2, X-05, :class:`PushOff`): 1 action next to an object with a
  push DC (12-15 by weight, set on the object); a MIG check against it. On a success the object drops
  to the chosen lower square: ``objects.push_damage`` (1d6 bludgeoning) per ``objects.fall_step_ft``
  fallen to every creature there, Reflex DC 12 for half.
* **Cut a rope or chain** (IEA-3): a Strike at the object (:class:`~ashfall.families.objects.engine.
  StrikeObject`, DV 10; rope 5 HP, chain 10 HP, Hardness 3). When it breaks, what it ``holds`` falls.
* **Flip a table** (IEA-4, :class:`FlipTable`): 1 action next to a ``flippable`` object: it gives
  partial cover, light cover, only against attackers on the side it faces (10 HP, Hardness 0).
* **Shoot down a chandelier** (IEA-5, G-25): any hit on a ``hanging`` object (DV 12) brings it down, as
  does breaking it or what holds it: ``objects.chandelier_damage`` (2d6 bludgeoning) to the creatures
  below, Reflex DC 12 for half; its squares become difficult terrain (debris).
* **Environmental weapons** (:class:`ImprovisedAttack`): throw a ``throwable`` object next to you
  (ENVW-1, the library's ``thrown-barrel``, 1d6), swing a hanging object next to you into a creature in
  reach (ENVW-2, ``swung-chandelier``, 1d8), or drop a heavy object onto a creature below (ENVW-3,
  X-05: an attack roll, ``objects.drop_damage`` 1d10 per ``fall_step_ft`` fallen). Improvised weapons
  attack at disadvantage without the proficiency (IMP-2, the rules core). A thrown or dropped object
  lands in the target's square.
* The GM's "yes, here's how" (IEA-6) is the GM's: anything else is narrated with Use Object.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from ashfall.content.loader import default_library
from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.dice import parse
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.environment import MapObject
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackPlan, perform_attack
from ashfall.families.attacks.engine_area import area_damage, caught
from ashfall.families.attacks.engine_common import require_target
from ashfall.families.attacks.engine_cover import HANGING
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.hazards.engine_fire import ignite
from ashfall.families.objects.engine import (
    ObjectHarm,
    destroy_object,
    enabled,
    place_object,
)
from ashfall.grid.areas import adjacent_to
from ashfall.grid.board import SQUARE_FT, Square
from ashfall.grid.geometry import centre, space_distance_ft
from ashfall.rules.checks import ability_check, saving_throw
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import fixed_dc

IEA_1, IEA_2, IEA_3, IEA_4, IEA_5 = rule("IEA-1"), rule("IEA-2"), rule("IEA-3"), rule("IEA-4"), rule("IEA-5")
ENVW_1, ENVW_2, ENVW_3, X_05 = rule("ENVW-1"), rule("ENVW-2"), rule("ENVW-3"), rule("X-05")
IGNITES, FLIPPABLE, THROWABLE = "ignites", "flippable", "throwable"
THROWN_WEAPON, SWUNG_WEAPON = "thrown-barrel", "swung-chandelier"
"""The library's environmental weapons (ENVW-1, ENVW-2)."""


def _object(state: EncounterState, obj_id: str, rule_id: str) -> MapObject:
    if not enabled(state):
        raise refuse("E-36", "improvised environmental actions are not used in this ruleset")
    obj = state.environment.objects.get(obj_id)
    if obj is None or obj.broken:
        raise refuse(rule_id, f"no intact object {obj_id!r} here")
    return obj


def _next_to(state: EncounterState, c: Combatant, obj: MapObject, rule_id: str) -> None:
    if c.space and space_distance_ft(c.space, obj.squares) > SQUARE_FT:
        raise refuse(rule_id, f"{c.name} is not next to the {obj.name}")


def _fall_steps(state: EncounterState, top: Iterable[Square], bottom: Iterable[Square]) -> tuple[int, int]:
    """Feet fallen from ``top`` to ``bottom`` and how many fall steps of damage that is (X-05)."""
    assert state.board is not None
    board = state.board
    feet = max(board.height_at(s) for s in top) - max(board.height_at(s) for s in bottom)
    return feet, max(0, feet) // state.ruleset.objects.fall_step_ft


def _parts(text: str, times: int, rule_id: RuleId, label: str) -> tuple[DamagePart, ...]:
    """``times`` copies of a damage expression such as ``1d6 bludgeoning`` (one per fall step)."""
    expr = parse(text)
    dice = replace(expr, tag=None)
    return (DamagePart(DamageType.parse(expr.tag or "bludgeoning"), rule_id, label, dice),) * times


def falls_on(ctx: Context, obj: MapObject, squares: Iterable[Square], parts: tuple[DamagePart, ...], dc_value: int,
             rule_id: RuleId, label: str) -> None:
    """A falling object on the creatures in ``squares``: Reflex saves for half, damage rolled once."""
    if not parts:
        return
    dc = fixed_dc(dc_value, rule_id, label)
    saved: dict[str, bool] = {}
    for c in caught(ctx.state, frozenset(squares)):
        roller = ctx.roller(c.id, "save", dc.rule, source=Save.REFLEX.value)
        result = saving_throw(c.creature, Save.REFLEX, dc, roller, ctx.ruleset, conditions=c.condition_set)
        ctx.emit(ev.CheckRolled(c.id, f"Reflex save vs {label}", ev.RollRecord.of(result.roll) if result.roll else
                                None, dc.total, result.success, rule_id, result.auto_fail or ""))
        saved[c.id] = result.success
    area_damage(ctx, obj.id, saved, parts, half_on_save=True, label=label)


# ----- a hanging object comes down (IEA-5, IEA-3) -----


def bring_down(ctx: Context, obj_id: str, rule_id: RuleId = IEA_5) -> None:
    """A hanging object falls on the creatures below and strews its squares with debris (IEA-5)."""
    obj = ctx.state.environment.objects[obj_id]
    if HANGING not in obj.tags:
        return
    o = ctx.ruleset.objects
    place_object(ctx, replace(obj, tags=obj.tags - {HANGING}, broken=True), "falls", rule_id)
    falls_on(ctx, obj, obj.squares, _parts(o.chandelier_damage, 1, IEA_5, f"falling {obj.name}"),
             o.chandelier_save_dc, IEA_5, f"falling {obj.name}")
    ctx.emit(ev.DebrisFell(obj.squares, IEA_5))


def _hit(ctx: Context, obj: MapObject, attacker: str) -> None:
    """A hit brings a hanging object down (IEA-5, G-25)."""
    if enabled(ctx.state):
        bring_down(ctx, obj.id)


def _harmed(ctx: Context, obj: MapObject, harm: ObjectHarm) -> None:
    """A broken rope or chain lets what it holds fall (IEA-3); a broken hanging object falls (IEA-5)."""
    if not harm.destroyed or not enabled(ctx.state):
        return
    bring_down(ctx, obj.id)
    held = ctx.state.environment.objects.get(obj.holds) if obj.holds else None
    if held is not None:
        bring_down(ctx, held.id, IEA_3)


# ----- Kick over a brazier or lantern (IEA-1) -----


@dataclass(frozen=True, slots=True)
class KickOver:
    """Kick over a brazier or lantern next to you (a free action, IEA-1).

    ``square``: where it spills (default: its own square).
    """

    actor: str
    object: str
    square: Square | None = None


def _kick_check(state: EncounterState, intent: KickOver) -> None:
    c = state.get(intent.actor)
    obj = _object(state, intent.object, "IEA-1")
    if IGNITES not in obj.tags:
        raise refuse("IEA-1", f"the {obj.name} cannot be kicked over to start a fire")
    _next_to(state, c, obj, "IEA-1")
    if intent.square is not None and intent.square not in obj.squares and intent.square not in adjacent_to(
            obj.squares):
        raise refuse("IEA-1", f"the {obj.name} spills into its own square or one next to it")


def _kick(ctx: Context, intent: KickOver) -> None:
    obj = ctx.state.environment.objects[intent.object]
    destroy_object(ctx, obj.id, "kicked over", IEA_1)
    ignite(ctx, (intent.square or obj.squares[0],), IEA_1)


# ----- Push a heavy object off a ledge (IEA-2, X-05) -----


@dataclass(frozen=True, slots=True)
class PushOff:
    """Push a heavy object next to you off a ledge (1 action, MIG check, IEA-2).

    ``to``: where its first square lands.
    """

    actor: str
    object: str
    to: Square


def _landing(obj: MapObject, to: Square) -> tuple[Square, ...]:
    dx, dy = to[0] - obj.squares[0][0], to[1] - obj.squares[0][1]
    return tuple((x + dx, y + dy) for x, y in obj.squares)


def _push_check(state: EncounterState, intent: PushOff) -> None:
    c = state.get(intent.actor)
    obj = _object(state, intent.object, "IEA-2")
    if obj.push_dc <= 0:
        raise refuse("IEA-2", f"the {obj.name} cannot be pushed off a ledge")
    _next_to(state, c, obj, "IEA-2")
    if state.board is None:
        raise refuse("IEA-2", "pushing an object off a ledge needs a map")
    landing = _landing(obj, intent.to)
    if intent.to not in adjacent_to(obj.squares[:1]) or not all(state.board.in_bounds(s) for s in landing):
        raise refuse("IEA-2", f"the {obj.name} can only go over an edge next to it")
    feet, steps = _fall_steps(state, obj.squares, landing)
    if steps < 1:
        raise refuse("IEA-2", f"a drop of {feet} ft is not a ledge ({state.ruleset.objects.fall_step_ft} ft or more)")


def _push(ctx: Context, intent: PushOff) -> None:
    c = ctx.state.get(intent.actor)
    obj = ctx.state.environment.objects[intent.object]
    dc = fixed_dc(obj.push_dc, IEA_2, f"push the {obj.name}")
    roller = ctx.roller(c.id, "check", dc.rule)
    result = ability_check(c.creature, Attribute.MIG, dc, roller, ctx.ruleset, conditions=c.condition_set)
    ctx.emit(ev.CheckRolled(c.id, f"MIG check to push the {obj.name} off the ledge", ev.RollRecord.of(result.roll),
                            dc.total, result.success, IEA_2))
    if not result.success:
        return
    landing = _landing(obj, intent.to)
    _, steps = _fall_steps(ctx.state, obj.squares, landing)
    place_object(ctx, replace(obj, squares=landing), "pushed off the ledge", IEA_2)
    o = ctx.ruleset.objects
    falls_on(ctx, obj, landing, _parts(o.push_damage, steps, X_05, f"falling {obj.name}"), o.push_save_dc, IEA_2,
             f"falling {obj.name}")


# ----- Flip a table (IEA-4) -----


@dataclass(frozen=True, slots=True)
class FlipTable:
    """Flip a table next to you for partial cover facing ``toward`` (1 action, IEA-4)."""

    actor: str
    object: str
    toward: Square


def _facing(obj: MapObject, toward: Square) -> tuple[int, int]:
    ox, oy = centre(obj.squares)
    dx, dy = toward[0] + 0.5 - ox, toward[1] + 0.5 - oy
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


def _flip_check(state: EncounterState, intent: FlipTable) -> None:
    c = state.get(intent.actor)
    obj = _object(state, intent.object, "IEA-4")
    if FLIPPABLE not in obj.tags:
        raise refuse("IEA-4", f"the {obj.name} cannot be flipped for cover")
    _next_to(state, c, obj, "IEA-4")
    if intent.toward in obj.squares:
        raise refuse("IEA-4", "name a square the cover faces, outside the table")


def _flip(ctx: Context, intent: FlipTable) -> None:
    obj = ctx.state.environment.objects[intent.object]
    flipped = replace(obj, cover="partial", light_cover=True, facing=_facing(obj, intent.toward),
                      tags=obj.tags - {FLIPPABLE})
    place_object(ctx, flipped, "flipped for cover", IEA_4)


# ----- Environmental weapons (ENVW-1..3, X-05) -----

How = Literal["throw", "swing", "drop"]


@dataclass(frozen=True, slots=True)
class ImprovisedAttack:
    """Attack with the environment (1 action, a Strike).

    ``how``: ``throw`` a barrel, ``swing`` a chandelier or ``drop`` a heavy object.
    """

    actor: str
    target: str
    object: str
    how: How


@cache
def _drop_weapon(text: str, feet: int) -> Weapon:
    expr = parse(text)
    dice = str(replace(expr, tag=None))
    return Weapon(id="dropped-object", name="Dropped Object", kind=WeaponKind.RANGED, damage=dice,
                  damage_type=DamageType.parse(expr.tag or "bludgeoning"), properties=frozenset({
                      WeaponProperty.IMPROVISED}), range_normal=max(feet, SQUARE_FT))


def _weapon(state: EncounterState, c: Combatant, obj: MapObject, target: Combatant,
            how: How) -> tuple[Weapon, AttackMode, tuple[DamagePart, ...], RuleId]:
    """The weapon, mode and extra fall-step damage of an environmental attack (refusing an impossible one)."""
    if how == "throw":
        if THROWABLE not in obj.tags:
            raise refuse("ENVW-1", f"the {obj.name} cannot be thrown")
        weapon = default_library().weapon(THROWN_WEAPON)
        reach = weapon.range_long or weapon.range_normal or 0
        if c.space and target.space and space_distance_ft(c.space, target.space) > reach:
            raise refuse("ATK-2", f"{target.name} is beyond the {reach} ft a {obj.name} can be thrown")
        return weapon, AttackMode.THROWN, (), ENVW_1
    if how == "swing":
        if HANGING not in obj.tags:
            raise refuse("ENVW-2", f"the {obj.name} does not hang where it can be swung")
        if c.space and target.space and space_distance_ft(c.space, target.space) > SQUARE_FT:
            raise refuse("ATK-1", f"{target.name} is out of reach")
        return default_library().weapon(SWUNG_WEAPON), AttackMode.MELEE, (), ENVW_2
    if obj.push_dc <= 0 and THROWABLE not in obj.tags:
        raise refuse("ENVW-3", f"the {obj.name} cannot be dropped")
    if state.board is None or not target.space:
        raise refuse("ENVW-3", "dropping an object from height needs a map")
    if space_distance_ft(obj.squares, target.space) > SQUARE_FT:
        raise refuse("ENVW-3", f"{target.name} is not below the {obj.name}")
    feet, steps = _fall_steps(state, obj.squares, target.space)
    if steps < 1:
        raise refuse("ENVW-3", f"a drop of {feet} ft deals nothing ({state.ruleset.objects.fall_step_ft} ft per die)")
    text = state.ruleset.objects.drop_damage
    extra = _parts(text, steps - 1, X_05, f"{obj.name} falling")
    return _drop_weapon(text, feet), AttackMode.RANGED, extra, ENVW_3


def _attack_check(state: EncounterState, intent: ImprovisedAttack) -> None:
    c = state.get(intent.actor)
    target = require_target(state, c, intent.target)
    obj = state.environment.objects.get(intent.object)
    if obj is None or obj.broken:
        raise refuse("ENVW-1", f"no intact object {intent.object!r} here")
    _next_to(state, c, obj, {"throw": "ENVW-1", "swing": "ENVW-2", "drop": "ENVW-3"}[intent.how])
    _weapon(state, c, obj, target, intent.how)


def _attack(ctx: Context, intent: ImprovisedAttack) -> None:
    c = ctx.state.get(intent.actor)
    target = ctx.state.get(intent.target)
    obj = ctx.state.environment.objects[intent.object]
    weapon, mode, extra, why = _weapon(ctx.state, c, obj, target, intent.how)
    landing = target.space[:1]
    perform_attack(ctx, AttackPlan(c.id, target.id, weapon, mode, Activity.STRIKE, label=f"{intent.how} {obj.name}",
                                   extra_damage=extra))
    if intent.how != "swing" and landing:
        place_object(ctx, replace(obj, squares=landing), "thrown" if intent.how == "throw" else "dropped", why)
    ctx.emit(ev.ResourceUsed(c.id, "strike-action", 1, rule("ACT-7")))


__all__ = ["FlipTable", "ImprovisedAttack", "KickOver", "PushOff", "bring_down", "falls_on"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.on_object_hit(_hit)
    book.after_object_damage(_harmed)
    book.action(KickOver, ActionDef("kick-over", IEA_1, fixed(0), _kick, _kick_check, free=True))
    book.action(PushOff, ActionDef("push-off", IEA_2, fixed(1), _push, _push_check))
    book.action(FlipTable, ActionDef("flip-table", IEA_4, fixed(1), _flip, _flip_check))
    book.action(ImprovisedAttack, ActionDef("improvised-attack", ENVW_1, fixed(1), _attack, _attack_check))
