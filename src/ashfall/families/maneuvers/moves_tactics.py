"""Disarm, Feint and Overrun: the maneuvers that open a foe up or go through it (DIS, FNT, OVR).

Disarm (DIS-1..6): an attack roll, which takes and adds MAP (G-41), against the target's Athletics
or Acrobatics (its choice); success knocks one held item of your choice into a random unoccupied
square within 10 ft; failure lets the target make an AoO against you with its reaction (DIS-4: a
DISARM_FAILED trigger only the target answers). Feint (FNT-1..7): Deception against Insight, once per
turn per target; success gives advantage on your next melee attack against it this turn, a loss by
10 gives it advantage on its next attack against you. Overrun (OVR-1..9): after a Stride this turn
(X-22), Athletics with size advantage; success pushes the target aside and takes you through, a
failure stops your movement, a win by 10 also knocks it prone and lets you provoke nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.modifiers import RollSource, adv, dis
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import add, end_conditions
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import (
    AttackPlan,
    distance,
    next_attack_sources,
    perform_attack,
    situation,
)
from ashfall.families.attacks.engine_common import (
    best_melee,
    can_make_melee_attack,
    melee_reach,
    mode_for,
    require_target,
    speed_ft,
)
from ashfall.families.attacks.moves_gear import require_in_hand
from ashfall.families.attacks.moves_strike import chosen_weapon
from ashfall.families.attacks.rules import AttackContext, attack_modifiers
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.families.maneuvers.engine import (
    can_stand,
    defense_choice,
    effect_key,
    end_of_this_turn,
    held_items,
    log_contest,
    push,
    side,
    sizes_larger,
    stat_name,
    too_large,
    within,
)
from ashfall.families.maneuvers.moves import require_new_maneuvers
from ashfall.families.movement.moves import space_step_cost, walk
from ashfall.families.senses.engine import concealment_sources
from ashfall.grid.board import SQUARE_FT, Square, footprint, neighbours
from ashfall.grid.geometry import centre, space_distance_ft
from ashfall.rules.checks import Degree, attack_contest, contest, maneuver_contest
from ashfall.rules.condition_durations import AppliedCondition, Duration, EndEvent, checks_against_sources
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.reach import attack_limit_ft

DIS_1, DIS_2, DIS_3, DIS_4 = rule("DIS-1"), rule("DIS-2"), rule("DIS-3"), rule("DIS-4")
FNT_1, FNT_3, FNT_5, FNT_7 = rule("FNT-1"), rule("FNT-3"), rule("FNT-5"), rule("FNT-7")
OVR_1, OVR_3, OVR_4, OVR_5, OVR_6 = rule("OVR-1"), rule("OVR-3"), rule("OVR-4"), rule("OVR-5"), rule("OVR-6")
G_20 = rule("G-20")


# ----- Disarm (DIS-1..6, E-08, G-41) -----


@dataclass(frozen=True, slots=True)
class Disarm:
    """Knock a held item out of a creature's hands (DIS-1).

    Attributes:
        actor: The disarmer.
        target: Who holds the item.
        item: The item to knock away (DIS-3); None: the first it holds.
        weapon: The melee weapon you attack with (None: your first melee weapon, or unarmed).
        unarmed: Attack unarmed.
    """

    actor: str
    target: str
    item: str | None = None
    weapon: str | None = None
    unarmed: bool = False


def _disarm_weapon(c: Combatant, intent: Disarm) -> Weapon | None:
    if intent.weapon is None and not intent.unarmed:
        return best_melee(c)
    return chosen_weapon(c, intent.weapon, intent.unarmed)


def _disarm_item(t: Combatant, item: str | None) -> str:
    held = held_items(t)
    if item is None:
        if not held:
            raise refuse("DIS-1", f"{t.name} holds nothing that can be knocked away")
        return held[0]
    if any(w.id == item and w.has(WeaponProperty.NATURAL) for w in t.weapons):
        raise refuse("DIS-6", "natural weapons cannot be disarmed (NAT-3)")
    if item not in held:
        raise refuse("DIS-1", f"{t.name} does not hold {item!r}")
    return item


def _check_disarm(state: EncounterState, intent: Disarm) -> None:
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    weapon = _disarm_weapon(c, intent)
    if weapon is not None and weapon.kind is not WeaponKind.MELEE:
        raise refuse("DIS-1", "Disarm is a melee attack")
    require_in_hand(c, weapon)
    reach = attack_limit_ft(weapon, False, state.ruleset.attack.natural_reach)
    if not within(state, c, t, reach):
        raise refuse("DIS-1", f"{t.name} is {distance(state, c, t)} ft away; your reach is {reach} ft")
    if state.ruleset.checks.disarm_size_limit and too_large(state, c, t):
        raise refuse("DIS-5", f"{t.name} is {sizes_larger(c, t)} sizes larger")
    _disarm_item(t, intent.item)


def scatter_square(ctx: Context, t: Combatant) -> Square | None:
    """A random unoccupied square within ``checks.disarm_scatter_ft`` of the target (DIS-3)."""
    board = ctx.state.board
    if board is None or not t.space:
        return None
    reach = ctx.ruleset.checks.disarm_scatter_ft // SQUARE_FT
    x0, y0 = t.space[0]
    side_len = t.creature.size.squares
    spots = sorted(
        (x, y) for x in range(x0 - reach, x0 + side_len + reach) for y in range(y0 - reach, y0 + side_len + reach)
        if (x, y) not in t.space and board.in_bounds((x, y)) and board.terrain_at((x, y)).multiplier is not None
        and ctx.state.occupant((x, y)) is None
        and space_distance_ft(t.space, ((x, y),)) <= ctx.ruleset.checks.disarm_scatter_ft
    )
    if not spots:
        return t.position
    return spots[ctx.rng.roll(len(spots)) - 1]


def _resolve_disarm(ctx: Context, intent: Disarm) -> None:
    state = ctx.state
    c, t = state.get(intent.actor), state.get(intent.target)
    weapon = _disarm_weapon(c, intent)
    mode = mode_for(weapon)
    item = _disarm_item(t, intent.item)
    choice = defense_choice(ctx, t, c, "disarm")
    sit = situation(state, c, t, False)
    context = AttackContext(
        activity=Activity.DISARM,
        map_modifier=map_modifier(c.turn.attack_rolls, ctx.ruleset, strike_actions_before=c.turn.strike_actions),
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=t.condition_set, attacker_conditions=c.condition_set,
        unseen_attacker=sit.unseen_attacker,
        extra_sources=(*next_attack_sources(ctx, c.id, t.id, False), *concealment_sources(state, c, t)),
    )
    mods, sources = attack_modifiers(c.creature, weapon, mode, ctx.ruleset, context)
    result = attack_contest(mods, sources, side(ctx, t, (choice,), choice), ctx.rng, ctx.ruleset)
    d_total = result.defender_roll.total
    ctx.emit(ev.AttackRolled(
        c.id, t.id, weapon.id if weapon else mode.value, "Disarm", ev.RollRecord.of(result.attack_roll), d_total,
        (ev.Part(f"{t.name}'s {stat_name(result.defender_stat)}", d_total, DIS_2),),
        "success" if result.initiator_wins else "failure", tuple(result.reasons), True,
    ))
    ctx.emit(ev.CheckRolled(t.id, f"Disarm (defending): {stat_name(result.defender_stat)}",
                            ev.RollRecord.of(result.defender_roll), result.attack_roll.total,
                            not result.initiator_wins, DIS_2))
    if c.has(Condition.HIDDEN):
        end_conditions(ctx, c.id, EndEvent(EndTrigger.ATTACKS), G_20)
    if result.initiator_wins:
        ctx.emit(ev.ItemDropped(t.id, item, scatter_square(ctx, t), DIS_3))
    elif ctx.ruleset.checks.disarm_failure_aoo:
        offer(ctx, Trigger(TriggerKind.DISARM_FAILED, c.id, t.id, only=frozenset({t.id})))


def _riposte_eligible(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    if trigger.only is None or reactor.id not in trigger.only or not can_make_melee_attack(reactor):
        return False
    return within(state, reactor, state.get(trigger.actor), melee_reach(reactor, state))


def _riposte(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    weapon = best_melee(reactor)
    perform_attack(ctx, AttackPlan(reactor.id, trigger.actor, weapon, mode_for(weapon),
                                   Activity.ATTACK_OF_OPPORTUNITY, label="Attack of Opportunity (failed Disarm)"))
    return NO_EFFECT


# ----- Feint (FNT-1..7) -----


@dataclass(frozen=True, slots=True)
class Feint:
    """Deceive a creature in your melee reach (FNT-1)."""

    actor: str
    target: str


def _check_feint(state: EncounterState, intent: Feint) -> None:
    require_new_maneuvers(state, "Feint")
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    reach = melee_reach(c, state)
    if not within(state, c, t, reach):
        raise refuse("FNT-1", f"{t.name} is {distance(state, c, t)} ft away; your melee reach is {reach} ft")
    blind = {Condition.BLINDED, Condition.UNCONSCIOUS} & t.condition_set
    if blind:
        raise refuse("FNT-6", f"{t.name} cannot perceive you ({', '.join(sorted(x.value for x in blind))})")
    if c.has(Condition.HIDDEN) or Condition.INVISIBLE in c.condition_set:
        raise refuse("FNT-1", f"{t.name} must be able to see you")
    if t.id in c.turn.feinted:
        raise refuse("FNT-7", f"you already feinted {t.name} this turn")


def _resolve_feint(ctx: Context, intent: Feint) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    ctx.emit(ev.ResourceUsed(c.id, f"feint:{t.id}", 1, FNT_7))
    # Feint's Deception is a social check: a creature that charmed the target has advantage on it (C-CHA, 000:849)
    charm = checks_against_sources(t.conditions, c.id, Skill.DECEPTION)
    result = contest(side(ctx, c, (Skill.DECEPTION,), sources=charm), side(ctx, t, (Skill.INSIGHT,)), ctx.rng,
                     ctx.ruleset)
    log_contest(ctx, c, t, result, "Feint", rule("FNT-2"))
    if result.initiator_wins:
        kind = EffectKind.ADVANTAGE_NEXT_ATTACK
        ctx.emit(ev.EffectAdded(TimedEffect(effect_key(ctx, kind, c.id), kind, c.id, FNT_3, end_of_this_turn(c.id),
                                            against=t.id, source=c.id, melee_only=True), FNT_3))
    elif result.degree is Degree.CRITICAL_FAILURE:
        kind = EffectKind.ADVANTAGE_NEXT_ATTACK
        ctx.emit(ev.EffectAdded(TimedEffect(effect_key(ctx, kind, t.id), kind, t.id, FNT_5,
                                            Duration.end_of_next_turn(t.id), against=c.id, source=c.id), FNT_5))


# ----- Overrun (OVR-1..9, X-22) -----


@dataclass(frozen=True, slots=True)
class Overrun:
    """Go through an adjacent creature in your path (OVR-1).

    Attributes:
        actor: The mover.
        target: The creature in the way.
        push_to: The square the target is pushed to, 5 ft to a side (default: the first free side square).
        path: Where you move on a success, starting in the target's space (paid from your Stride's movement).
    """

    actor: str
    target: str
    push_to: Square | None = None
    path: tuple[Square, ...] = ()


def _budget(state: EncounterState, c: Combatant) -> int:
    left = c.turn.movement_left_ft
    return max(left, speed_ft(c, state)) if state.ruleset.checks.overrun_grants_movement else left


def _path_cost(state: EncounterState, c: Combatant, t: Combatant, path: tuple[Square, ...]) -> int:
    """The cost of moving on through the target's space, refusing a path that does not (OVR-4)."""
    assert c.position is not None
    if path and not set(footprint(path[0], c.creature.size.squares)) & set(t.space):
        raise refuse("OVR-4", "an Overrun's path starts in the target's space")
    total, here, diagonals = 0, c.position, 0
    for sq in path:
        if sq not in set(neighbours(here)) or not can_stand(state, c, sq, frozenset({t.id})):
            raise refuse("OVR-4", f"you cannot move on to {sq}")
        total += space_step_cost(state, here, sq, c.creature.size.squares, diagonals)
        diagonals += here[0] != sq[0] and here[1] != sq[1]
        here = sq
    return total


def _side_square(state: EncounterState, c: Combatant, t: Combatant, intent: Overrun) -> Square:
    """Where the target goes: 5 ft to a side, off your path (OVR-4)."""
    assert t.position is not None and c.space
    taken = {s for sq in intent.path for s in footprint(sq, c.creature.size.squares)}
    if intent.push_to is not None:
        options = [intent.push_to] if intent.push_to in set(neighbours(t.position)) else []
    else:
        (cx, cy), (tx, ty) = centre(c.space), centre(t.space)
        dx, dy = (tx > cx) - (tx < cx), (ty > cy) - (ty < cy)
        options = [(t.position[0] - dy, t.position[1] + dx), (t.position[0] + dy, t.position[1] - dx)]
    for sq in options:
        if can_stand(state, t, sq) and not taken & set(footprint(sq, t.creature.size.squares)):
            return sq
    raise refuse("OVR-4", f"there is no room to push {t.name} aside")


def _check_overrun(state: EncounterState, intent: Overrun) -> None:
    require_new_maneuvers(state, "Overrun")
    c = state.get(intent.actor)
    t = require_target(state, c, intent.target)
    if too_large(state, c, t):
        raise refuse("OVR-8", f"{t.name} is {sizes_larger(c, t)} sizes larger: go around")
    if not within(state, c, t, SQUARE_FT):
        raise refuse("OVR-1", f"{t.name} is not in your path (adjacent)")
    if not (c.turn.moved_this_turn or state.ruleset.checks.overrun_grants_movement):
        raise refuse("OVR-1", "Overrun needs movement toward the target: Stride first this turn (X-22)")
    if c.has(Condition.PRONE):
        raise refuse("ACT-4", "stand up first")
    if state.board is None or c.position is None or t.position is None:
        return
    cost = _path_cost(state, c, t, intent.path)
    if cost > _budget(state, c):
        raise refuse("OVR-4", f"moving on costs {cost} ft; {_budget(state, c)} ft of movement left")
    _side_square(state, c, t, intent)


def _size_sources(c: Combatant, t: Combatant) -> tuple[RollSource, ...]:
    steps = sizes_larger(c, t)
    if steps < 0:
        return (adv(OVR_3, "larger than the target"),)
    if steps > 0:
        return (dis(OVR_3, "smaller than the target"),)
    return ()


def _resolve_overrun(ctx: Context, intent: Overrun) -> None:
    state = ctx.state
    c, t = state.get(intent.actor), state.get(intent.target)
    on_map = state.board is not None and c.position is not None and t.position is not None
    aside = _side_square(state, c, t, intent) if on_map else None
    choice = defense_choice(ctx, t, c, "overrun")
    result = maneuver_contest(side(ctx, c, (Skill.ATHLETICS,), sources=_size_sources(c, t)),
                              side(ctx, t, (choice,), choice), ctx.rng, ctx.ruleset)
    log_contest(ctx, c, t, result, "Overrun", rule("OVR-2"))
    if not result.initiator_wins:
        ctx.emit(ev.MovementStopped(c.id, OVR_5))
        return
    if aside is not None:
        push(ctx, t.id, aside, OVR_4)
    turn_end = end_of_this_turn(c.id)
    kind = EffectKind.NO_REACTIONS_AGAINST
    ctx.emit(ev.EffectAdded(TimedEffect(effect_key(ctx, kind, t.id), kind, t.id, OVR_4, turn_end, against=c.id,
                                        used_up=False, source=c.id), OVR_4))
    if result.degree is Degree.CRITICAL_SUCCESS:
        add(ctx, t.id, AppliedCondition(Condition.PRONE, OVR_6, c.id))
        kind = EffectKind.NO_REACTIONS_PROVOKED
        ctx.emit(ev.EffectAdded(TimedEffect(effect_key(ctx, kind, c.id), kind, c.id, OVR_6, turn_end,
                                            used_up=False, source=c.id), OVR_6))
    if intent.path and on_map:
        if c.turn.movement_left_ft == 0:
            ctx.emit(ev.ResourceUsed(c.id, "movement", _budget(state, c), rule("X-22")))
        walk(ctx, c.id, intent.path, "overrun", OVR_4)


# ----- candidates and registration -----


def _enemies(state: EncounterState, actor: str) -> list[Combatant]:
    return [e for e in state.enemies_of(actor) if e.is_active]


def _disarm_candidates(state: EncounterState, actor: str) -> Iterable[Disarm]:
    return [Disarm(actor, e.id) for e in _enemies(state, actor) if held_items(e)]


def _feint_candidates(state: EncounterState, actor: str) -> Iterable[Feint]:
    return [Feint(actor, e.id) for e in _enemies(state, actor)]


def _overrun_candidates(state: EncounterState, actor: str) -> Iterable[Overrun]:
    return [Overrun(actor, e.id) for e in _enemies(state, actor)]


__all__ = ["Disarm", "Feint", "Overrun", "scatter_square"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.reaction(ReactionDef(
        "disarm-riposte", "Attack of Opportunity (failed Disarm)", DIS_4, frozenset({TriggerKind.DISARM_FAILED}),
        _riposte_eligible, _riposte,
    ))
    book.action(Disarm, ActionDef("disarm", DIS_1, fixed(1), _resolve_disarm, _check_disarm, _disarm_candidates))
    book.action(Feint, ActionDef("feint", FNT_1, fixed(1), _resolve_feint, _check_feint, _feint_candidates))
    book.action(Overrun, ActionDef("overrun", OVR_1, fixed(1), _resolve_overrun, _check_overrun, _overrun_candidates))
