"""Suppressive Fire (SUP-1..10) and the Covering Fire talent's reaction (SUP-11).

**Suppressive Fire** (2 actions, ``attack.suppressive_actions``) needs a drawn ranged weapon with
ammunition, not a thrown one and not a single-shot weapon with a 2-action reload (SUP-1); it needs
and spends ``attack.suppressive_ammo`` loaded rounds (SUP-2). It covers a 15-ft cone or a 15 × 5-ft
line from the shooter toward a chosen square (SUP-3, :mod:`ashfall.grid.areas`; squares a wall shuts
off are left out). It is not an attack roll (no MAP, G-41) and does not provoke.

The zone is not a reaction: it lives in ``state.zones`` and acts through a movement hook, so a Step
does not avoid it (ACT-3). A creature
whose step starts or ends in the zone, or that stands up in it, makes a Reflex save against DC 8 + the
shooter's AGI + proficiency (SUP-5), at most once per zone per turn (SUP-6); a creature that does not
move is never affected (SUP-7). On a failure it takes the weapon's dice alone (no modifier, SUP-5)
and its movement ends (SUP-8; it may still act, and may move again: it makes no second save that
turn); on a success it moves on (SUP-9). The zone ends at the start of the shooter's next turn (SUP-4).

**Covering Fire** (talent ``covering-fire``, SUP-11, reference-only, kept simple): when an enemy the
talented creature can see and can shoot declares an attack, it may spend its reaction and
``attack.covering_fire_ammo`` round(s): that enemy has disadvantage on all its attacks (the
triggering one included) until the start of the shooter's next turn, and the first time it moves
before then the shooter gets one free ranged attack at it (no reaction, no MAP, one round).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from ashfall.content import names
from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.dice import parse
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import deal_damage
from ashfall.engine.lasting import Zone
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackPlan, perform_attack
from ashfall.families.attacks.engine_common import weapon_of
from ashfall.families.attacks.moves_gear import require_in_hand, stowed
from ashfall.families.attacks.moves_strike import check_ammo, check_attack_reach, spend_ammo
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.reactions.moves_defensive import save_logged
from ashfall.families.senses.engine import can_see
from ashfall.grid.areas import clip, cone, line
from ashfall.grid.board import Square, footprint
from ashfall.rules.condition_durations import Duration, TurnBoundary, TurnEdge, advance
from ashfall.rules.damage import roll_damage
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import formula_dc

SUP_1, SUP_2, SUP_3, SUP_4, SUP_5 = rule("SUP-1"), rule("SUP-2"), rule("SUP-3"), rule("SUP-4"), rule("SUP-5")
SUP_6, SUP_8, SUP_11 = rule("SUP-6"), rule("SUP-8"), rule("SUP-11")
COVERING_FIRE = names.COVERING_FIRE


@dataclass(frozen=True, slots=True)
class SuppressiveFire:
    """Lay down suppressive fire in a cone or a line aimed at a square (SUP-1..3).

    Attributes:
        actor: The shooter.
        toward: The square the cone or line points at.
        shape: ``"cone"`` (15 ft) or ``"line"`` (15 × 5 ft).
        weapon: The weapon id (None: its first weapon).
    """

    actor: str
    toward: Square
    shape: Literal["cone", "line"] = "cone"
    weapon: str | None = None


def _weapon(state: EncounterState, intent: SuppressiveFire) -> Weapon:
    c = state.get(intent.actor)
    w = weapon_of(c, intent.weapon)
    if w is None or w.kind is not WeaponKind.RANGED or w.ammo_capacity is None:
        raise refuse("SUP-1", "Suppressive Fire needs a ranged weapon that uses ammunition")
    if w.has(WeaponProperty.THROWN):
        raise refuse("SUP-1", f"{w.name} is thrown: it cannot lay down suppressive fire")
    if w.has(WeaponProperty.SINGLE_SHOT) and w.reload_actions >= state.ruleset.attack.suppressive_actions:
        raise refuse("SUP-1", f"{w.name} is single-shot with a {w.reload_actions}-action reload")
    return w


def zone_squares(state: EncounterState, shooter: Combatant, toward: Square, shape: str) -> tuple[Square, ...]:
    """The squares a cone or line from the shooter toward ``toward`` covers (SUP-3), sorted."""
    a = state.ruleset.attack
    space = shooter.space
    if shape == "cone":
        squares = cone(space, toward, a.suppressive_length_ft)
    else:
        squares = line(space, toward, a.suppressive_length_ft, a.suppressive_line_width_ft)
    if state.board is not None:
        squares = clip(state.board, space, squares)
    return tuple(sorted(squares))


def _check(state: EncounterState, intent: SuppressiveFire) -> None:
    if not state.ruleset.attack.suppressive_fire_available:
        raise refuse("E-11", "this ruleset has no Suppressive Fire (edition 1)")
    c = state.get(intent.actor)
    w = _weapon(state, intent)
    require_in_hand(c, w)
    if intent.shape not in ("cone", "line"):
        raise refuse("SUP-3", "the zone is a cone or a line")
    if state.board is None or not c.space:
        raise refuse("POS-2", "Suppressive Fire needs a map (the GM narrates it in theater of mind)")
    if intent.toward in c.space:
        raise refuse("SUP-3", "aim the cone or line at a square outside your space")
    try:
        check_ammo(c, w, AttackMode.RANGED, state.ruleset.attack.suppressive_ammo)
    except Refused as err:
        raise refuse("SUP-2", err.reason) from None


def _resolve(ctx: Context, intent: SuppressiveFire) -> None:
    state = ctx.state
    c = state.get(intent.actor)
    w = _weapon(state, intent)
    spend_ammo(ctx, c, w, AttackMode.RANGED, state.ruleset.attack.suppressive_ammo)
    dc = formula_dc(SUP_5, "AGI", c.creature.attributes.AGI, c.creature.proficiency, ctx.ruleset)
    zone = Zone(f"suppression:{c.id}:{len(ctx.log)}", c.id, zone_squares(state, c, intent.toward, intent.shape),
                dc.total, w.damage, w.damage_type.value, w.id, "SUP-3", Duration.start_of_next_turn(c.id))
    ctx.emit(ev.ZoneCreated(zone, SUP_3))


def _candidates(state: EncounterState, actor: str) -> Iterable[SuppressiveFire]:
    c = state.get(actor)
    if not c.space:
        return []
    return [SuppressiveFire(actor, e.position, "cone") for e in state.enemies_of(actor)
            if e.position is not None and e.is_active and e.position not in c.space]


def _cost(state: EncounterState, intent: SuppressiveFire) -> int:
    return state.ruleset.attack.suppressive_actions


# ----- the zone as a movement hook -----


def _in_zone(zone: Zone, c: Combatant, *squares: Square | None) -> bool:
    inside = set(zone.squares)
    side = c.creature.size.squares
    for sq in squares:
        space = c.space if sq is None else footprint(sq, side)
        if inside.intersection(space):
            return True
    return False


def _zone_hook(ctx: Context, mover_id: str, frm: Square | None, to: Square | None) -> RuleId | None:
    """SUP-5..9: each zone the mover moves in asks for one Reflex save per turn; a failure stops it."""
    state = ctx.state
    mover = state.get(mover_id)
    turn_of = state.active_id or mover_id
    halt: RuleId | None = None
    for zone in state.zones:
        if zone.owner == mover_id or not mover.is_active or not _in_zone(zone, mover, frm, to):
            continue
        if (mover_id, state.round, turn_of) in zone.triggered:
            continue  # SUP-6: once per turn
        ctx.emit(ev.ZoneTriggered(zone.key, mover_id, state.round, turn_of, SUP_6))
        if _zone_save(ctx, zone, mover):
            continue  # SUP-9
        part = DamagePart(DamageType(zone.damage_type), SUP_5, "Suppressive Fire (weapon dice only)",
                          parse(zone.damage), weapon_dice=True)
        deal_damage(ctx, mover_id, roll_damage((part,), ctx.rng, ctx.ruleset, critical=False), source=zone.owner,
                    label="suppressive-fire")
        halt = halt or SUP_8
    return halt


def _zone_save(ctx: Context, zone: Zone, mover: Combatant) -> bool:
    owner = ctx.state.get(zone.owner)
    dc = formula_dc(SUP_5, "AGI", owner.creature.attributes.AGI, owner.creature.proficiency, ctx.ruleset)
    return save_logged(ctx, mover, Save.REFLEX, dc, "Reflex save vs Suppressive Fire", SUP_5)


def _zones_end(ctx: Context, cid: str) -> None:
    """SUP-4: zones end at the start of their owner's next turn."""
    boundary = TurnBoundary(cid, TurnEdge.START, ctx.state.round)
    for zone in ctx.state.zones:
        if advance(zone.duration, boundary) is None:
            ctx.emit(ev.ZoneEnded(zone.key, SUP_4))


# ----- Covering Fire (SUP-11) -----


def covering_weapon(state: EncounterState, shooter: Combatant, target: Combatant) -> Weapon | None:
    """A drawn ranged weapon loaded with enough rounds that can shoot the target now."""
    need = state.ruleset.attack.covering_fire_ammo
    for w in shooter.weapons:
        if w.kind is not WeaponKind.RANGED or stowed(shooter, w.id):
            continue
        try:
            check_ammo(shooter, w, AttackMode.RANGED, need)
            check_attack_reach(state, shooter, target, w, AttackMode.RANGED)
        except Refused:
            continue
        return w
    return None


def _covering_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    enemy = state.combatants.get(trigger.actor)
    if COVERING_FIRE not in reactor.creature.talents or enemy is None or enemy.side == reactor.side:
        return False
    if any(e.source == reactor.id for e in state.effects_on(enemy.id, EffectKind.SUPPRESSED)):
        return False
    return can_see(state, reactor, enemy) and covering_weapon(state, reactor, enemy) is not None


def _covering(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    enemy = ctx.state.get(trigger.actor)
    weapon = covering_weapon(ctx.state, reactor, enemy)
    spend_ammo(ctx, reactor, weapon, AttackMode.RANGED, ctx.ruleset.attack.covering_fire_ammo)
    effect = TimedEffect(f"covering-fire:{reactor.id}:{len(ctx.log)}", EffectKind.SUPPRESSED, enemy.id, "SUP-11",
                         Duration.start_of_next_turn(reactor.id), used_up=False, source=reactor.id)
    ctx.emit(ev.EffectAdded(effect, SUP_11))
    return NO_EFFECT


def _covering_hook(ctx: Context, mover_id: str, frm: Square | None, to: Square | None) -> RuleId | None:
    """The free attack when a creature pinned by Covering Fire moves (once per Covering Fire)."""
    if to is None:
        return None
    for e in ctx.state.effects_on(mover_id, EffectKind.SUPPRESSED):
        shooter = ctx.state.combatants.get(e.source or "")
        mover = ctx.state.get(mover_id)
        if e.amount or shooter is None or not shooter.is_active or not mover.is_active:
            continue
        weapon = covering_weapon(ctx.state, shooter, mover)
        if weapon is None:
            continue
        ctx.emit(ev.EffectRemoved(e.key, SUP_11))
        ctx.emit(ev.EffectAdded(replace(e, amount=1), SUP_11))  # amount 1: the free attack is spent
        spend_ammo(ctx, shooter, weapon, AttackMode.RANGED)
        perform_attack(ctx, AttackPlan(shooter.id, mover_id, weapon, AttackMode.RANGED, Activity.READIED,
                                       label="Covering Fire"))
    return None


def install(book: RulebookDraft) -> None:
    """Add Suppressive Fire and its zones' hooks to a rulebook (SUP-1..10)."""
    book.action(SuppressiveFire, ActionDef("suppressive-fire", SUP_1, _cost, _resolve, _check, _candidates))
    book.movement_hook("suppressive-fire", _zone_hook)
    book.start_of_turn("suppressive-fire", _zones_end)


def install_covering_fire(book: RulebookDraft) -> None:
    """Add the Covering Fire talent's reaction and its free attack on a move (SUP-11)."""
    book.reaction(ReactionDef("covering-fire", "Covering Fire", SUP_11, frozenset({TriggerKind.ATTACKED}),
                              _covering_ok, _covering))
    book.movement_hook("covering-fire", _covering_hook)
