"""The one place state changes: each event type has an applier that updates the encounter.

Appliers never roll dice or decide anything; replaying the same events on the same starting state
always gives the same state, which is what undo and golden replays rely on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ashfall.content.schema import Weapon
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.effects import expire_effects
from ashfall.engine.state import Combatant, EncounterState, GroundItem, TurnBudget
from ashfall.rules.durations import TurnBoundary, TurnEdge, expire
from ashfall.rules.morale import STATUS_MARKS, Status

Applier = Callable[[EncounterState, Any], None]
APPLIERS: dict[type, Applier] = {}


def applies(event_type: type) -> Callable[[Applier], Applier]:
    """Register the applier of an event type."""

    def register(fn: Applier) -> Applier:
        APPLIERS[event_type] = fn
        return fn

    return register


def apply(state: EncounterState, event: Any) -> None:
    """Apply one event to the state."""
    APPLIERS[type(event)](state, event)


def _nothing(state: EncounterState, event: Any) -> None:
    """Events that only explain (rolls, checks, decisions) change no state."""


for _t in (ev.DamageRolled, ev.CheckRolled, ev.DecisionMade, ev.RoundEnded, ev.SpellCast, ev.MoraleChecked,
           ev.ActionNoted):
    APPLIERS[_t] = _nothing


@applies(ev.CombatStarted)
def _started(state: EncounterState, e: ev.CombatStarted) -> None:
    state.started = True


@applies(ev.InitiativeRolled)
def _initiative(state: EncounterState, e: ev.InitiativeRolled) -> None:
    state.get(e.actor).initiative = e.roll.total


@applies(ev.Surprise)
def _surprise(state: EncounterState, e: ev.Surprise) -> None:
    state.get(e.actor).surprised = e.surprised


@applies(ev.OrderSet)
def _order(state: EncounterState, e: ev.OrderSet) -> None:
    state.order = list(e.order)


@applies(ev.RoundStarted)
def _round(state: EncounterState, e: ev.RoundStarted) -> None:
    state.round = e.round
    state.turn_index = -1


@applies(ev.TurnStarted)
def _turn(state: EncounterState, e: ev.TurnStarted) -> None:
    state.turn_index = state.order.index(e.actor)
    c = state.get(e.actor)
    c.turn = TurnBudget(actions_left=e.actions, movement_left_ft=0)
    c.reaction_available = True
    c.reactions_used = 0


@applies(ev.TurnSkipped)
def _skipped(state: EncounterState, e: ev.TurnSkipped) -> None:
    state.turn_index = state.order.index(e.actor)
    state.get(e.actor).turn = TurnBudget()


@applies(ev.TurnEnded)
def _turn_end(state: EncounterState, e: ev.TurnEnded) -> None:
    c = state.get(e.actor)
    c.turn = replace(c.turn, actions_left=0, movement_left_ft=0)


@applies(ev.ActionsSpent)
def _spent(state: EncounterState, e: ev.ActionsSpent) -> None:
    c = state.get(e.actor)
    c.turn.actions_left -= e.count
    c.turn.actions_spent += e.count
    if e.bonus:
        c.turn.bonus_used = True


@applies(ev.ReactionSpent)
def _reaction(state: EncounterState, e: ev.ReactionSpent) -> None:
    c = state.get(e.actor)
    c.reactions_used += 1
    c.reaction_available = c.reactions_used < state.ruleset.turn.reactions_per_round


@applies(ev.Moved)
def _moved(state: EncounterState, e: ev.Moved) -> None:
    c = state.get(e.actor)
    c.position = e.to
    for rider in state.combatants.values():
        if rider.mounted_on == e.actor:
            rider.position = e.to  # a rider moves with its mount (MNT-4)
    if not e.forced:
        c.turn.movement_left_ft = max(0, c.turn.movement_left_ft - e.cost_ft)
        c.turn.moved_this_turn = True


@applies(ev.MovementStopped)
def _stopped(state: EncounterState, e: ev.MovementStopped) -> None:
    state.get(e.actor).turn.movement_left_ft = 0


@applies(ev.AttackRolled)
def _attack(state: EncounterState, e: ev.AttackRolled) -> None:
    if e.counts_for_map:
        state.get(e.actor).turn.attack_rolls += 1


@applies(ev.DamageTaken)
def _damage(state: EncounterState, e: ev.DamageTaken) -> None:
    state.get(e.target).health = e.health


@applies(ev.HealthSet)
def _health(state: EncounterState, e: ev.HealthSet) -> None:
    state.get(e.target).health = e.health


@applies(ev.ConditionAdded)
def _cond_add(state: EncounterState, e: ev.ConditionAdded) -> None:
    c = state.get(e.target)
    c.conditions = (*c.conditions, e.applied)
    if e.applied.condition is Condition.PRONE and c.turn.movement_left_ft:
        c.turn.movement_left_ft = 0


@applies(ev.ConditionRemoved)
def _cond_remove(state: EncounterState, e: ev.ConditionRemoved) -> None:
    c = state.get(e.target)
    kept = list(c.conditions)
    if e.applied in kept:
        kept.remove(e.applied)
    c.conditions = tuple(kept)


def _pool_ammo(c: Combatant, key: str, delta: int) -> None:
    c.ammo[key] = c.ammo.get(key, 0) + delta


def _pool_uses(c: Combatant, key: str, delta: int) -> None:
    c.uses[key] = c.uses.get(key, 0) + delta


def _pool_focus(c: Combatant, key: str, delta: int) -> None:
    c.focus = max(0, c.focus + delta)


def _pool_movement(c: Combatant, key: str, delta: int) -> None:
    c.turn.movement_left_ft = max(0, c.turn.movement_left_ft + delta)


def _pool_strikes(c: Combatant, key: str, delta: int) -> None:
    c.turn.strike_actions += delta


def _pool_feint(c: Combatant, key: str, delta: int) -> None:
    c.turn.feinted = c.turn.feinted | {key}


def _pool_offhand(c: Combatant, key: str, delta: int) -> None:
    c.turn.twf_offhand_used = True


def _pool_free(c: Combatant, key: str, delta: int) -> None:
    c.turn.free_actions += delta


POOLS: dict[str, Callable[[Combatant, str, int], None]] = {
    "ammo": _pool_ammo,
    "uses": _pool_uses,
    "focus": _pool_focus,
    "movement": _pool_movement,
    "strike-action": _pool_strikes,
    "feint": _pool_feint,
    "offhand": _pool_offhand,
    "free-action": _pool_free,
}
"""Resource pools by name; a ``ResourceUsed.resource`` is ``"pool"`` or ``"pool:key"``."""


@applies(ev.ResourceUsed)
def _resource(state: EncounterState, e: ev.ResourceUsed) -> None:
    pool, _, key = e.resource.partition(":")
    POOLS[pool](state.get(e.actor), key, e.delta)


@applies(ev.InitiativeChanged)
def _delay(state: EncounterState, e: ev.InitiativeChanged) -> None:
    active = state.active_id
    state.order = list(e.order)
    if active is not None and active in state.order:
        state.turn_index = state.order.index(active)


@applies(ev.BoundaryPassed)
def _boundary(state: EncounterState, e: ev.BoundaryPassed) -> None:
    b = TurnBoundary(e.actor, TurnEdge(e.edge), e.round)
    for c in state.combatants.values():
        c.conditions = expire(c.conditions, b)[0]
    state.effects = expire_effects(state.effects, b)[0]


@applies(ev.EffectAdded)
def _effect_added(state: EncounterState, e: ev.EffectAdded) -> None:
    state.effects = (*state.effects, e.effect)


@applies(ev.EffectRemoved)
def _effect_removed(state: EncounterState, e: ev.EffectRemoved) -> None:
    state.effects = tuple(x for x in state.effects if x.key != e.key)


@applies(ev.ItemDropped)
def _dropped(state: EncounterState, e: ev.ItemDropped) -> None:
    c = state.get(e.actor)
    weapon = next((w for w in c.weapons if w.id == e.item), None)
    if weapon is not None:
        c.weapons = tuple(w for w in c.weapons if w is not weapon)
        state.ground = (*state.ground, GroundItem(weapon, e.square, c.id))
    elif c.shield is not None and c.shield.id == e.item:
        state.ground = (*state.ground, GroundItem(c.shield, e.square, c.id))
        c.shield = None


@applies(ev.ItemPickedUp)
def _picked_up(state: EncounterState, e: ev.ItemPickedUp) -> None:
    c = state.get(e.actor)
    found = next((g for g in state.ground if g.item.id == e.item and g.square == e.square), None)
    if found is None:
        return
    state.ground = tuple(g for g in state.ground if g is not found)
    if isinstance(found.item, Weapon):
        c.weapons = (*c.weapons, found.item)
    else:
        c.shield = found.item


@applies(ev.MoraleChanged)
def _morale(state: EncounterState, e: ev.MoraleChanged) -> None:
    if e.record is not None:
        state.morale = {**state.morale, e.group: e.record}
    every_mark = frozenset().union(*STATUS_MARKS.values())
    for cid, status in e.members:
        c = state.get(cid)
        for mark in every_mark:
            c.uses.pop(mark, None)
        for mark in STATUS_MARKS[Status(status)]:
            c.uses[mark] = 1


APPLIERS[ev.DiceRolled] = _nothing


@applies(ev.ZoneCreated)
def _zone_created(state: EncounterState, e: ev.ZoneCreated) -> None:
    state.zones = (*state.zones, e.zone)


@applies(ev.ZoneTriggered)
def _zone_triggered(state: EncounterState, e: ev.ZoneTriggered) -> None:
    state.zones = tuple(
        replace(z, triggered=(*z.triggered, (e.actor, e.round, e.turn_of))) if z.key == e.key else z
        for z in state.zones
    )


@applies(ev.ZoneEnded)
def _zone_ended(state: EncounterState, e: ev.ZoneEnded) -> None:
    state.zones = tuple(z for z in state.zones if z.key != e.key)


@applies(ev.ReadyDeclared)
def _ready(state: EncounterState, e: ev.ReadyDeclared) -> None:
    state.readied = (*(r for r in state.readied if r.actor != e.readied.actor), e.readied)


@applies(ev.ReadyEnded)
def _ready_ended(state: EncounterState, e: ev.ReadyEnded) -> None:
    state.readied = tuple(r for r in state.readied if r.actor != e.actor)


@applies(ev.MountChanged)
def _mount(state: EncounterState, e: ev.MountChanged) -> None:
    state.get(e.actor).mounted_on = e.mount


@applies(ev.CombatEnded)
def _ended(state: EncounterState, e: ev.CombatEnded) -> None:
    state.ended = True
    state.winner = e.winner
