"""The one place state changes: each event type has an applier that updates the encounter.

Appliers never roll dice or decide anything; replaying the same events on the same starting state
always gives the same state, which is what undo and golden replays rely on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ashfall.content.schema import Weapon
from ashfall.core.morale import STATUS_MARKED, STATUS_MARKS, Status
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.effects import expire_effects
from ashfall.engine.environment import Breath, Cause, Obscurement, Veil
from ashfall.engine.records import with_use
from ashfall.engine.state import Combatant, EncounterState, GroundItem, TurnBudget
from ashfall.grid.board import Square
from ashfall.rules.condition_durations import TurnBoundary, TurnEdge, expire

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
    kind = type(event)
    APPLIERS[kind](state, event)
    if kind in FURNISHING:
        state.furnished()


FURNISHING: frozenset[type] = frozenset({
    ev.ObjectPlaced, ev.FireChanged, ev.GasChanged, ev.SmokeChanged, ev.WaterChanged, ev.DrainChanged,
    ev.CollapseChanged, ev.CountdownChanged, ev.RubbleAdded, ev.DebrisFell, ev.ItemDropped, ev.MountChanged,
    ev.ConditionAdded, ev.CombatantJoined,
})
"""Events that may give the fight a feature it lacked (an object, a fire, water, a gun on the ground, a rider, a
creature drowning or buried): after them the state decides its rulebook again (:meth:`EncounterState.furnished`)."""


def _nothing(state: EncounterState, event: Any) -> None:
    """Events that only explain (rolls, checks, decisions) change no state."""


for _t in (ev.DamageRolled, ev.CheckRolled, ev.DecisionMade, ev.RoundEnded, ev.SpellCast, ev.MoraleChecked,
           ev.ActionNoted, ev.GmRuled):
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


@applies(ev.GuessMissed)
def _guess_missed(state: EncounterState, e: ev.GuessMissed) -> None:
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
    c.supplies = with_use(c.supplies, key, delta)


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


@applies(ev.CombatantJoined)
def _joined(state: EncounterState, e: ev.CombatantJoined) -> None:
    active = state.active_id
    state.combatants[e.id] = Combatant(
        id=e.id, name=e.name, side=e.side, creature=e.creature, weapons=e.weapons, armor=e.armor, shield=e.shield,
        health=e.health, position=e.position, initiative=e.initiative, controller=e.controller)
    state.order = list(e.order)
    if active is not None:
        state.turn_index = state.order.index(active)


@applies(ev.CombatantLeft)
def _left(state: EncounterState, e: ev.CombatantLeft) -> None:
    active = state.active_id
    state.order = [cid for cid in state.order if cid != e.actor]
    del state.combatants[e.actor]
    if active is not None:  # the active creature left: nobody's turn until the engine passes it on
        state.turn_index = state.order.index(active) if active != e.actor else -1


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
    for cid, status in e.members:
        c = state.get(cid)
        kept = c.supplies.marks - STATUS_MARKED  # a status replaces the marks of the one before (fled stays)
        c.supplies = replace(c.supplies, marks=kept | STATUS_MARKS[Status(status)])


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
    c = state.get(e.actor)
    c.mounted_on = e.mount
    c.station = e.station if e.mount is not None else ""


# ----- underwater (UW) and vehicles (VEH) -----

@applies(ev.BreathChanged)
def _breath(state: EncounterState, e: ev.BreathChanged) -> None:
    breath = state.environment.breath
    if e.rounds_left is None:
        breath.pop(e.actor, None)
        return
    before = breath.get(e.actor)
    ticked = state.round if e.spent else (before.ticked_round if before is not None else None)
    breath[e.actor] = Breath(e.rounds_left, ticked)


@applies(ev.DepthChanged)
def _depth(state: EncounterState, e: ev.DepthChanged) -> None:
    state.environment.depth_ft[e.actor] = e.depth_ft


APPLIERS[ev.DamageSpread] = _nothing
APPLIERS[ev.VehicleStatus] = _nothing


@applies(ev.CombatEnded)
def _ended(state: EncounterState, e: ev.CombatEnded) -> None:
    state.ended = True
    state.winner = e.winner


# ----- spreading hazards (HAZ-0, HAZF, HAZG, HAZC, HAZW, G-29, G-51) -----


@applies(ev.FireChanged)
def _fire_changed(state: EncounterState, e: ev.FireChanged) -> None:
    env = state.environment
    for sq in e.squares:
        env.fire_burnout.pop(sq, None)  # lit: fresh fuel, its burnout is rolled at the end of the round (HAZF-5)
        if e.burning:
            env.fire.setdefault(sq, 0)
        else:
            env.fire.pop(sq, None)
            if e.fuel_spent:
                env.burnt.add(sq)


@applies(ev.FireTicked)
def _fire_ticked(state: EncounterState, e: ev.FireTicked) -> None:
    env = state.environment
    for sq, burned, left in e.squares:
        env.fire[sq] = burned
        env.fire_burnout[sq] = left


@applies(ev.SmokeChanged)
def _smoke(state: EncounterState, e: ev.SmokeChanged) -> None:
    veils = state.environment.veils
    for sq in e.squares:
        old = veils.get(sq)
        if e.level == Obscurement.NONE.value:
            if old is not None and old.cause is Cause.SMOKE:
                del veils[sq]
        elif old is None or old.cause is Cause.SMOKE or old.level.value < e.level:
            veils[sq] = Veil(Obscurement(e.level), Cause.SMOKE)


@applies(ev.GasChanged)
def _gas(state: EncounterState, e: ev.GasChanged) -> None:
    env = state.environment
    if e.cloud is None:
        env.gas_clouds.pop(e.cloud_id, None)
    else:
        env.gas_clouds[e.cloud_id] = e.cloud
    env.gas = {}
    for cloud_id in sorted(env.gas_clouds, reverse=True):
        env.gas.update(dict.fromkeys(env.gas_clouds[cloud_id].squares, cloud_id))


@applies(ev.CountdownChanged)
def _countdown(state: EncounterState, e: ev.CountdownChanged) -> None:
    if e.rounds is None:
        state.environment.countdowns.pop(e.key, None)
    else:
        state.environment.countdowns[e.key] = e.rounds


@applies(ev.CollapseChanged)
def _collapse(state: EncounterState, e: ev.CollapseChanged) -> None:
    if e.collapse is None:
        state.environment.collapses.pop(e.collapse_id, None)
    else:
        state.environment.collapses[e.collapse_id] = e.collapse


@applies(ev.RubbleAdded)
def _rubble(state: EncounterState, e: ev.RubbleAdded) -> None:
    state.environment.rubble |= set(e.squares)


@applies(ev.WaterChanged)
def _water(state: EncounterState, e: ev.WaterChanged) -> None:
    env = state.environment
    if e.flood is None:
        env.floods.pop(e.flood_id, None)
    else:
        env.floods[e.flood_id] = e.flood
    env.water_depth = water_depths(state)


def water_depths(state: EncounterState) -> dict[Square, int]:
    """Each flooded square's depth: the highest water level over it minus its elevation (HAZW-1)."""
    board = state.board
    depths: dict[Square, int] = {}
    if board is None:
        return depths
    everywhere = tuple((x, y) for y in range(board.height) for x in range(board.width))
    for flood in state.environment.floods.values():
        for sq in flood.squares or everywhere:
            depth = flood.level_ft - board.height_at(sq)
            if depth > 0 and not board.blocks_sight(sq):
                depths[sq] = max(depth, depths.get(sq, 0))
    return depths


@applies(ev.DrainChanged)
def _drain(state: EncounterState, e: ev.DrainChanged) -> None:
    state.environment.drains[e.drain.id] = e.drain


@applies(ev.HazardTriggered)
def _hazard_triggered(state: EncounterState, e: ev.HazardTriggered) -> None:
    state.environment.hazard_marks[(e.hazard, e.actor)] = (e.round, e.turn_of)


# ----- destructible objects and chain reactions (OBJ, STC, CHN, IEA) -----

@applies(ev.ObjectPlaced)
def _object_placed(state: EncounterState, e: ev.ObjectPlaced) -> None:
    state.environment.objects[e.obj.id] = replace(e.obj)


@applies(ev.ObjectDamaged)
def _object_damaged(state: EncounterState, e: ev.ObjectDamaged) -> None:
    state.environment.objects[e.object].hp = e.hp


@applies(ev.ObjectDestroyed)
def _object_destroyed(state: EncounterState, e: ev.ObjectDestroyed) -> None:
    state.environment.objects[e.object].broken = True
    state.environment.chain_pending.discard(e.object)


@applies(ev.ChainPending)
def _chain_pending(state: EncounterState, e: ev.ChainPending) -> None:
    if e.pending:
        state.environment.chain_pending.add(e.object)
    else:
        state.environment.chain_pending.discard(e.object)


@applies(ev.DebrisFell)
def _debris(state: EncounterState, e: ev.DebrisFell) -> None:
    state.environment.debris |= set(e.squares)


APPLIERS[ev.ChainReaction] = _nothing
