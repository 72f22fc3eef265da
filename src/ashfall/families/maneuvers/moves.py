"""Grappling and the body-to-body maneuvers: Grapple, Escape, Drag, Constriction, Release, Shove and Trip.

Grapple (GRP-1..5): 1 action, a target within reach, one free hand (natural weapons need none), no
more than one size larger (G-47); Athletics against the target's Athletics or Acrobatics, its choice
(X-09); a tie keeps the status quo (CON-2, G-45). Several creatures may hold one target, each by its
own contest (MGR-1); the target escapes each separately, at disadvantage while held by two or more
(MGR-2..4, C-GRA). A grappler drags at half speed (GRP-4), constricts for 1 action with unarmed or
natural damage and no attack roll (CNS-1, no MAP G-41), and lets go as a free action (FA-4).
Shove works only at natural reach (SHV-1); Trip works at weapon reach and knocks prone, a win by 10
also Dazes (TRP-1..4). None of these are attack rolls: they neither take nor add MAP (G-41).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.content.schema import WeaponKind, WeaponProperty
from ashfall.core.modifiers import RollSource, dis
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.harm import add, deal_damage, end_conditions
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import distance
from ashfall.families.attacks.engine_common import melee_reach, require_target, speed_ft, weapon_of
from ashfall.families.attacks.rules import AttackContext, build_damage_parts, prepare_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.maneuvers.engine import (
    as_stat,
    away_square,
    can_stand,
    defense_choice,
    grapple_reach,
    grapple_reach_check,
    grapplers_of,
    has_free_hand,
    log_contest,
    push,
    side,
    sizes_larger,
    too_large,
    within,
)
from ashfall.families.movement.moves import path_cost, provokes, space_step_cost
from ashfall.grid.board import Square, footprint
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.checks import Degree, contest, maneuver_contest
from ashfall.rules.condition_durations import AppliedCondition, EndEvent, until_end_of_next_turn
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import roll_damage

GRP_1, GRP_3, GRP_4, CNS_1, MGR_1, MGR_2, MGR_3 = (
    rule("GRP-1"), rule("GRP-3"), rule("GRP-4"), rule("CNS-1"), rule("MGR-1"), rule("MGR-2"), rule("MGR-3"))
SHV_1, SHV_3, TRP_1, TRP_3, TRP_4, FA_4, C_GRA, E_37 = (
    rule("SHV-1"), rule("SHV-3"), rule("TRP-1"), rule("TRP-3"), rule("TRP-4"), rule("FA-4"), rule("C-GRA"),
    rule("E-37"))


def require_new_maneuvers(state: EncounterState, name: str) -> None:
    """Refuse edition 2's new maneuvers in a ruleset without them (E-37)."""
    if not state.ruleset.checks.new_maneuvers:
        raise refuse("E-37", f"{name} does not exist in this ruleset")


# ----- Grapple (GRP-1..3, MGR-1, G-47) -----


@dataclass(frozen=True, slots=True)
class Grapple:
    """Grab a creature within reach (GRP-1)."""

    actor: str
    target: str


def _check_grapple(state: EncounterState, intent: Grapple) -> None:
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    reach = grapple_reach(c, state)
    if not within(state, c, t, reach):
        raise refuse("GRP-1", f"{t.name} is {distance(state, c, t)} ft away; you can grab at {reach} ft")
    if not has_free_hand(c, state):
        raise refuse("GRP-1", f"{c.name} has no free hand (drop an item first, FA-2)")
    if state.ruleset.checks.grapple_shove_size_limit and too_large(state, c, t):
        raise refuse("G-47", f"{t.name} is {sizes_larger(c, t)} sizes larger")
    if c.id in grapplers_of(t):
        raise refuse("MGR-1", f"{c.name} already grapples {t.name}")


def _grapple_shove_defense(ctx: Context, t: Combatant, c: Combatant, what: str) -> Skill:
    """The defender's choice of Athletics or Acrobatics (X-09), or Athletics only (the contest summary, 265)."""
    if ctx.ruleset.checks.grapple_shove_defender_chooses:
        return defense_choice(ctx, t, c, what)
    return Skill.ATHLETICS


def _resolve_grapple(ctx: Context, intent: Grapple) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    choice = _grapple_shove_defense(ctx, t, c, "grapple")
    result = maneuver_contest(side(ctx, c, (Skill.ATHLETICS,)), side(ctx, t, (choice,), choice), ctx.rng, ctx.ruleset)
    log_contest(ctx, c, t, result, "Grapple", GRP_1)
    if result.initiator_wins:
        add(ctx, t.id, AppliedCondition(Condition.GRAPPLED, GRP_3, c.id))


# ----- Escape (C-GRA, MGR-2..4) -----


@dataclass(frozen=True, slots=True)
class Escape:
    """Try to break one grappler's hold (C-GRA); ``grappler`` None means the first one (MGR-2)."""

    actor: str
    grappler: str | None = None
    skill: Skill | None = None


def _escape_from(state: EncounterState, intent: Escape) -> str:
    held = grapplers_of(state.get(intent.actor))
    if not held:
        raise refuse("C-GRA", "you are not grappled")
    if intent.grappler is None:
        return held[0]
    if intent.grappler not in held:
        raise refuse("MGR-2", f"{intent.grappler} does not grapple you")
    return intent.grappler


def _check_escape(state: EncounterState, intent: Escape) -> None:
    _escape_from(state, intent)
    if intent.skill not in (None, Skill.ATHLETICS, Skill.ACROBATICS):
        raise refuse("C-GRA", "escape with Athletics or Acrobatics")


def _resolve_escape(ctx: Context, intent: Escape) -> None:
    c = ctx.state.get(intent.actor)
    g = ctx.state.get(_escape_from(ctx.state, intent))
    athletics, acrobatics = as_stat(Skill.ATHLETICS, ctx), as_stat(Skill.ACROBATICS, ctx)
    holds = len(set(grapplers_of(c)))
    sources: tuple[RollSource, ...] = ()
    if holds >= 2 and ctx.ruleset.checks.new_maneuvers:
        sources = (dis(MGR_3, f"grappled by {holds}"),)
    choice = as_stat(intent.skill, ctx) if intent.skill is not None else None
    result = contest(side(ctx, c, (athletics, acrobatics), choice, sources), side(ctx, g, (athletics,)), ctx.rng,
                     ctx.ruleset)
    log_contest(ctx, c, g, result, "Escape", MGR_2)
    if result.initiator_wins:
        end_conditions(ctx, c.id, EndEvent(EndTrigger.ESCAPED, g.id), C_GRA)


def _escape_cost(state: EncounterState, intent: Escape) -> int:
    return state.ruleset.conditions.grapple_escape_actions


# ----- Drag (GRP-4) -----


@dataclass(frozen=True, slots=True)
class Drag:
    """Move along ``path`` at half speed, taking a creature you grapple with you (GRP-4)."""

    actor: str
    target: str
    path: tuple[Square, ...]


def _drag_steps(state: EncounterState, c: Combatant, t: Combatant, path: tuple[Square, ...]) -> list[Square]:
    """The target's square after each step: it moves as the grappler does, square for square."""
    assert c.position is not None and t.position is not None
    out, here = [], c.position
    tx, ty = t.position
    for sq in path:
        tx, ty = tx + sq[0] - here[0], ty + sq[1] - here[1]
        out.append((tx, ty))
        here = sq
    return out


def _check_drag(state: EncounterState, intent: Drag) -> None:
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    if c.id not in grapplers_of(t):
        raise refuse("GRP-4", f"{c.name} does not grapple {t.name}")
    if c.has(Condition.PRONE):
        raise refuse("ACT-4", "stand up first")
    cost = path_cost(state, c, intent.path)
    speed = speed_ft(c, state) // state.ruleset.checks.grapple_drag_divisor
    if cost > speed:
        raise refuse("GRP-4", f"the path costs {cost} ft; dragging, you move {speed} ft")
    if not all(can_stand(state, t, sq, frozenset({c.id})) for sq in _drag_steps(state, c, t, intent.path)):
        raise refuse("GRP-4", f"{t.name} cannot follow that path")


def _leaving(state: EncounterState, mover: Combatant, dragged: str, frm: Square, to: Square) -> list[str]:
    """Enemies (not the dragged creature, which comes along) whose reach the mover leaves (RX-21)."""
    size = mover.creature.size.squares
    a, b = footprint(frm, size), footprint(to, size)
    return [e.id for e in state.enemies_of(mover.id) if e.id != dragged and e.space and e.is_active
            and space_distance_ft(e.space, a) <= melee_reach(e, state) < space_distance_ft(e.space, b)]


def _resolve_drag(ctx: Context, intent: Drag) -> None:
    state = ctx.state
    c, t = state.get(intent.actor), state.get(intent.target)
    ctx.emit(ev.ResourceUsed(c.id, "movement", speed_ft(c, state) // state.ruleset.checks.grapple_drag_divisor,
                             GRP_4))
    diagonals = 0
    for sq, t_sq in zip(intent.path, _drag_steps(state, c, t, intent.path), strict=True):
        here = c.position
        assert here is not None
        leaving = _leaving(state, c, t.id, here, sq) if provokes(state, c) else []
        if leaving and combine(offer(ctx, Trigger(TriggerKind.LEAVES_REACH, c.id, None, (("from", here), ("to", sq)),
                                                  only=frozenset(leaving)))).stop_movement:
            ctx.emit(ev.MovementStopped(c.id, rule("RX-23")))
            return
        if not c.is_active or t.position is None or c.id not in grapplers_of(t):
            return
        cost = space_step_cost(state, here, sq, c.creature.size.squares, diagonals)
        diagonals += here[0] != sq[0] and here[1] != sq[1]
        ctx.emit(ev.Moved(c.id, here, sq, cost, "drag", GRP_4))
        ctx.emit(ev.Moved(t.id, t.position, t_sq, 0, "dragged", GRP_4, forced=True))
        offer(ctx, Trigger(TriggerKind.MOVED, c.id, None, (("from", here), ("to", sq))))


# ----- Constriction (CNS-1, G-41) -----


@dataclass(frozen=True, slots=True)
class Constrict:
    """Crush a creature you grapple: unarmed or natural weapon damage, no attack roll (CNS-1)."""

    actor: str
    target: str
    weapon: str | None = None


def _constrict_weapon(c: Combatant, weapon: str | None) -> tuple[AttackMode, str | None]:
    natural = [w for w in c.weapons if w.has(WeaponProperty.NATURAL)]
    if weapon is None:
        return (AttackMode.NATURAL, natural[0].id) if natural else (AttackMode.UNARMED, None)
    chosen = weapon_of(c, weapon)
    if chosen is None or not chosen.has(WeaponProperty.NATURAL):
        raise refuse("CNS-1", "constriction deals unarmed or natural weapon damage")
    return AttackMode.NATURAL, weapon


def _check_constrict(state: EncounterState, intent: Constrict) -> None:
    require_new_maneuvers(state, "Constriction")
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    if c.id not in grapplers_of(t):
        raise refuse("CNS-1", f"{c.name} does not grapple {t.name}")
    _constrict_weapon(c, intent.weapon)


def _resolve_constrict(ctx: Context, intent: Constrict) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    mode, weapon_id = _constrict_weapon(c, intent.weapon)
    weapon = weapon_of(c, weapon_id) if weapon_id else None
    context = AttackContext(activity=Activity.CONSTRICTION, target_conditions=t.condition_set,
                            attacker_conditions=c.condition_set)
    prepared = prepare_attack(c.creature, weapon, mode, ctx.ruleset, context)
    parts = build_damage_parts(c.creature, prepared, context, ctx.ruleset)
    deal_damage(ctx, t.id, roll_damage(parts, ctx.rng, ctx.ruleset, critical=False), source=c.id,
                label=Activity.CONSTRICTION.value)


# ----- Release (FA-4) -----


@dataclass(frozen=True, slots=True)
class ReleaseGrapple:
    """Let go of a creature you grapple: a free action (FA-4)."""

    actor: str
    target: str


def _check_release(state: EncounterState, intent: ReleaseGrapple) -> None:
    if intent.target not in state.combatants or intent.actor not in grapplers_of(state.get(intent.target)):
        raise refuse("FA-4", f"{intent.actor} does not grapple {intent.target}")


def _resolve_release(ctx: Context, intent: ReleaseGrapple) -> None:
    t = ctx.state.get(intent.target)
    for a in t.conditions:
        if a.condition is Condition.GRAPPLED and a.source == intent.actor:
            ctx.emit(ev.ConditionRemoved(t.id, a, FA_4))


# ----- Shove (SHV-1..3, E-07, G-47) -----


@dataclass(frozen=True, slots=True)
class Shove:
    """Push a creature 5 ft away, or knock it prone (``prone``), attacker's choice (SHV-3).

    ``to``: the square it is pushed to (default: straight away from you).
    """

    actor: str
    target: str
    prone: bool = False
    to: Square | None = None


def _shove_square(state: EncounterState, c: Combatant, t: Combatant, to: Square | None) -> Square | None:
    if to is None:
        return away_square(state, c, t)
    assert t.position is not None
    dx, dy = to[0] - t.position[0], to[1] - t.position[1]
    if max(abs(dx), abs(dy)) != 1 or not can_stand(state, t, to):
        raise refuse("SHV-3", f"{t.name} cannot be pushed to {to}")
    if distance(state, c, t) >= within_after(state, c, t, to):
        raise refuse("SHV-3", "a Shove pushes the target away from you")
    return to


def within_after(state: EncounterState, c: Combatant, t: Combatant, to: Square) -> int:
    """The distance from ``c`` if ``t`` stood at ``to``."""
    return space_distance_ft(c.space, footprint(to, t.creature.size.squares))


def _check_shove(state: EncounterState, intent: Shove) -> None:
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    natural_only = state.ruleset.checks.shove_natural_reach_only
    reach = state.ruleset.attack.natural_reach if natural_only else melee_reach(c, state)
    if not within(state, c, t, reach):
        why = "SHV-1" if natural_only else "E-07"
        raise refuse(why, f"{t.name} is {distance(state, c, t)} ft away; Shove reaches {reach} ft")
    if state.ruleset.checks.grapple_shove_size_limit and too_large(state, c, t):
        raise refuse("G-47", f"{t.name} is {sizes_larger(c, t)} sizes larger")
    pushes = not intent.prone and state.board is not None and t.position is not None
    if pushes and _shove_square(state, c, t, intent.to) is None:
        raise refuse("SHV-3", f"there is no room to push {t.name} away")


def _resolve_shove(ctx: Context, intent: Shove) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    choice = _grapple_shove_defense(ctx, t, c, "shove")
    result = maneuver_contest(side(ctx, c, (Skill.ATHLETICS,)), side(ctx, t, (choice,), choice), ctx.rng, ctx.ruleset)
    log_contest(ctx, c, t, result, "Shove", SHV_1)
    if not result.initiator_wins:
        return
    if intent.prone:
        add(ctx, t.id, AppliedCondition(Condition.PRONE, SHV_3, c.id))
        return
    dest = _shove_square(ctx.state, c, t, intent.to) if ctx.state.board is not None else None
    if dest is not None:
        push(ctx, t.id, dest, SHV_3)


# ----- Trip (TRP-1..4) -----


@dataclass(frozen=True, slots=True)
class Trip:
    """Knock a creature prone, at weapon reach (TRP-1); roll Athletics or Acrobatics, your choice (TRP-2)."""

    actor: str
    target: str
    weapon: str | None = None
    skill: Skill | None = None


def _trip_reach(state: EncounterState, c: Combatant, weapon: str | None) -> int:
    if weapon is None:
        return melee_reach(c, state)
    w = weapon_of(c, weapon)
    if w is None or w.kind is not WeaponKind.MELEE:
        raise refuse("TRP-1", "Trip uses your melee reach")
    return w.reach


def _check_trip(state: EncounterState, intent: Trip) -> None:
    require_new_maneuvers(state, "Trip")
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    reach = _trip_reach(state, c, intent.weapon)
    if not within(state, c, t, reach):
        raise refuse("TRP-1", f"{t.name} is {distance(state, c, t)} ft away; your reach is {reach} ft")
    if too_large(state, c, t):
        raise refuse("TRP-1", f"{t.name} is {sizes_larger(c, t)} sizes larger")
    if intent.skill not in (None, Skill.ATHLETICS, Skill.ACROBATICS):
        raise refuse("TRP-2", "Trip rolls MIG (Athletics) or AGI (Acrobatics)")


def _resolve_trip(ctx: Context, intent: Trip) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    choice = defense_choice(ctx, t, c, "trip")
    mine = (as_stat(Skill.ATHLETICS, ctx), as_stat(Skill.ACROBATICS, ctx))
    pick = as_stat(intent.skill, ctx) if intent.skill is not None else None
    result = contest(side(ctx, c, mine, pick), side(ctx, t, mine, as_stat(choice, ctx)), ctx.rng, ctx.ruleset)
    log_contest(ctx, c, t, result, "Trip", rule("TRP-2"))
    if not result.initiator_wins:
        return
    add(ctx, t.id, AppliedCondition(Condition.PRONE, TRP_3, c.id))
    if result.degree is Degree.CRITICAL_SUCCESS:
        add(ctx, t.id, until_end_of_next_turn(Condition.DAZED, t.id, TRP_4, c.id))


# ----- candidates and registration -----


def _enemies(state: EncounterState, actor: str) -> list[Combatant]:
    return [e for e in state.enemies_of(actor) if e.is_active]


def _grapple_candidates(state: EncounterState, actor: str) -> Iterable[Grapple]:
    return [Grapple(actor, e.id) for e in _enemies(state, actor)]


def _escape_candidates(state: EncounterState, actor: str) -> Iterable[Escape]:
    return [Escape(actor, g) for g in dict.fromkeys(grapplers_of(state.get(actor)))]


def _constrict_candidates(state: EncounterState, actor: str) -> Iterable[Constrict]:
    return [Constrict(actor, e.id) for e in _enemies(state, actor) if actor in grapplers_of(e)]


def _shove_candidates(state: EncounterState, actor: str) -> Iterable[Shove]:
    return [Shove(actor, e.id, prone=p) for e in _enemies(state, actor) for p in (True, False)]


def _trip_candidates(state: EncounterState, actor: str) -> Iterable[Trip]:
    return [Trip(actor, e.id) for e in _enemies(state, actor)]


__all__ = ["Constrict", "Drag", "Escape", "Grapple", "ReleaseGrapple", "Shove", "Trip"]


def _grapple_follows_movement(ctx: Context, mover: str, frm: Square | None, to: Square | None) -> None:
    """A grapple ends when a step takes the held creature out of its grappler's reach (C-GRA, MGR-4)."""
    if frm is not None and to is not None:
        grapple_reach_check(ctx, mover)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Grapple, ActionDef("grapple", GRP_1, fixed(1), _resolve_grapple, _check_grapple, _grapple_candidates))
    book.action(Escape, ActionDef("escape", C_GRA, _escape_cost, _resolve_escape, _check_escape, _escape_candidates))
    book.action(Drag, ActionDef("drag", GRP_4, fixed(1), _resolve_drag, _check_drag))
    book.action(Constrict, ActionDef("constrict", CNS_1, fixed(1), _resolve_constrict, _check_constrict,
                                     _constrict_candidates))
    book.action(ReleaseGrapple, ActionDef("release-grapple", FA_4, fixed(0), _resolve_release, _check_release,
                                          free=True))
    book.action(Shove, ActionDef("shove", SHV_1, fixed(1), _resolve_shove, _check_shove, _shove_candidates))
    book.action(Trip, ActionDef("trip", TRP_1, fixed(1), _resolve_trip, _check_trip, _trip_candidates))
    book.movement_hook("grapple-reach", _grapple_follows_movement)
