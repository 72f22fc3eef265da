"""The GM's overrides as intents: checks, resolution into events tagged GM, and the reminders of ended conditions.

Every override emits :class:`~ashfall.engine.events.GmRuled` (the kind, the creatures, the GM's reason) and then
the state's ordinary events (``HealthSet``, ``DamageTaken``, ``ConditionAdded``, ``Moved``, ``InitiativeChanged``,
``MoraleChanged`` …) with the rule ``GM``, so :mod:`ashfall.engine.apply` stays the one place state changes, and
undo, redo and replay treat an override like any intent. Saves an override calls for are rolled per creature
through ``ctx.roller`` (so a creature whose dice are entered is asked for its own d20), and a condition added
with a duration in rounds expires by the rules (``Duration.for_rounds``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ashfall.content.schema import Armor, Creature, Shield, Weapon
from ashfall.core.d20 import roll_d20
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.events import Event
from ashfall.engine.harm import add, deal_damage
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.engine.turns import end_turn, initiative_modifiers
from ashfall.families.morale.engine import group_key, member_status
from ashfall.families.morale.rules import Status
from ashfall.grid.board import Terrain, footprint
from ashfall.rules.checks import saving_throw
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.rules.dc import fixed_dc
from ashfall.rules.health import Health, Vitality, makes_death_saves

GM = rule("GM")
INIT_1 = rule("INIT-1")
GM_ACTOR = "gm"
"""The ``actor`` of every override: the GM, who is no creature in the fight."""

MAX_REASON = 500
"""The longest reason the GM may give (it is stored with every override)."""


@dataclass(frozen=True, slots=True)
class GmSetHp:
    """Set HP to ``hp``, or change it by ``delta`` (no defenses: the GM says what the HP is), for each target."""

    targets: tuple[str, ...]
    reason: str
    hp: int | None = None
    delta: int = 0
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmDamage:
    """Deal ``amount`` damage of a type to each target, each saving separately when ``save`` is given.

    Damage goes through each target's defenses (G-39) like any damage; a success halves it (``half_on_save``)
    or negates it.
    """

    targets: tuple[str, ...]
    amount: int
    damage_type: DamageType
    reason: str
    save: Save | None = None
    dc: int = 10
    half_on_save: bool = True
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmCondition:
    """Add a condition to each target (for ``rounds`` rounds, or until removed), or remove it (``remove``)."""

    targets: tuple[str, ...]
    condition: Condition
    reason: str
    rounds: int | None = None
    remove: bool = False
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmMove:
    """Move a token to a square (a forced move: no movement spent, nothing provoked)."""

    target: str
    to: tuple[int, int]
    reason: str
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmOrder:
    """Set the initiative order (every creature in it once); the active creature keeps its turn."""

    order: tuple[str, ...]
    reason: str
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmSkipTurn:
    """End the active creature's turn now; the next one in the order starts."""

    reason: str
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmMorale:
    """Mark a morale outcome for creatures in morale groups (hold, fall-back, broken, routed, surrendered)."""

    targets: tuple[str, ...]
    status: Status
    reason: str
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmAddCombatant:
    """A creature joins the fight under way, on a side, at a square of the map and a place in the order.

    It carries its whole stat block and gear (so a replay needs no library); ``initiative`` is a total the GM gives
    (None: rolled, INIT-1).
    """

    id: str
    side: str
    creature: Creature
    weapons: tuple[Weapon, ...]
    reason: str
    armor: Armor | None = None
    shield: Shield | None = None
    name: str | None = None
    position: tuple[int, int] | None = None
    initiative: int | None = None
    controller: str = "ai"
    actor: str = GM_ACTOR


@dataclass(frozen=True, slots=True)
class GmRemoveCombatant:
    """Creatures leave the fight: out of the roster and the order; the active one's turn passes on (INIT-2)."""

    targets: tuple[str, ...]
    reason: str
    actor: str = GM_ACTOR


# ----- checks (before anything changes) -----


def _common(state: EncounterState, intent: Any, targets: tuple[str, ...]) -> None:
    if intent.actor != GM_ACTOR:
        raise refuse("GM", f"an override is the GM's (actor {GM_ACTOR!r}), not {intent.actor!r}'s")
    if not intent.reason.strip() or len(intent.reason) > MAX_REASON:
        raise refuse("GM", f"give the reason for the override (1..{MAX_REASON} characters)")
    if not targets and not isinstance(intent, GmSkipTurn | GmOrder | GmAddCombatant):
        raise refuse("GM", "name at least one creature")
    if len(set(targets)) != len(targets):
        raise refuse("GM", "a creature is named twice")
    for cid in targets:
        if cid not in state.combatants:
            raise refuse("GM", f"no combatant {cid!r} in this fight")


def _check_hp(state: EncounterState, intent: GmSetHp) -> None:
    _common(state, intent, intent.targets)
    if (intent.hp is None) == (intent.delta == 0):
        raise refuse("GM", "give either hp (set) or a non-zero delta (adjust)")
    for cid in intent.targets:
        c = state.get(cid)
        if intent.hp is not None and not 0 <= intent.hp <= c.health.max_hp:
            raise refuse("GM", f"{c.name}'s HP must be 0..{c.health.max_hp}")


def _check_damage(state: EncounterState, intent: GmDamage) -> None:
    _common(state, intent, intent.targets)
    if not 1 <= intent.amount <= 10_000:
        raise refuse("GM", "damage must be 1..10000")
    if not 1 <= intent.dc <= 100:
        raise refuse("GM", "the DC must be 1..100")


def _check_condition(state: EncounterState, intent: GmCondition) -> None:
    _common(state, intent, intent.targets)
    if intent.rounds is not None and (intent.remove or not 1 <= intent.rounds <= 100):
        raise refuse("GM", "rounds (1..100) go with adding a condition")
    for cid in intent.targets:
        has = intent.condition in {a.condition for a in state.get(cid).conditions}
        if intent.remove and not has:
            raise refuse("GM", f"{state.get(cid).name} is not {intent.condition.value}")


def _check_move(state: EncounterState, intent: GmMove) -> None:
    _common(state, intent, (intent.target,))
    if state.board is not None and not state.board.in_bounds(intent.to):
        raise refuse("GM", f"{list(intent.to)} is off the map")
    other = state.occupant(intent.to)
    if other is not None and other.id != intent.target:
        raise refuse("GM", f"{other.name} is on {list(intent.to)}")


def _check_order(state: EncounterState, intent: GmOrder) -> None:
    _common(state, intent, intent.order)
    if sorted(intent.order) != sorted(state.order):
        raise refuse("GM", "the order must name every creature in the fight's order once")


def _check_skip(state: EncounterState, intent: GmSkipTurn) -> None:
    _common(state, intent, ())
    if state.active_id is None:
        raise refuse("GM", "no creature's turn to skip")


def _check_morale(state: EncounterState, intent: GmMorale) -> None:
    _common(state, intent, intent.targets)
    for cid in intent.targets:
        if group_key(state, state.get(cid)) is None:
            raise refuse("GM", f"{state.get(cid).name} is in no morale group (a PC, or immune: MOR-4)")


MAX_ID = 60
"""The longest combatant id (and side name) an added creature may have."""


def _check_add(state: EncounterState, intent: GmAddCombatant) -> None:
    _common(state, intent, ())
    if not intent.id or len(intent.id) > MAX_ID or intent.id == GM_ACTOR or not intent.id.isprintable():
        raise refuse("GM", f"an added creature needs an id of 1..{MAX_ID} printable characters (not {GM_ACTOR!r})")
    if intent.id in state.combatants:
        raise refuse("GM", f"the id {intent.id!r} is taken")
    if not intent.side or len(intent.side) > MAX_ID:
        raise refuse("GM", f"an added creature needs a side of 1..{MAX_ID} characters")
    if intent.creature.vehicle is not None:
        raise refuse("GM", "a vehicle joins with its crew aboard: add it in the encounter, not mid-fight (VEH-2)")
    if intent.initiative is not None and not -100 <= intent.initiative <= 200:
        raise refuse("GM", "initiative must be -100..200")
    board = state.board
    if board is None:
        if intent.position is not None:
            raise refuse("GM", "this fight has no map: where a creature stands is narrated (POS-2)")
        return
    if intent.position is None:
        raise refuse("GM", "this fight has a map: give the square the creature enters on")
    for sq in footprint(intent.position, intent.creature.size.squares):
        if not board.in_bounds(sq):
            raise refuse("GM", f"{list(sq)} is off the map")
        if board.terrain_at(sq) is Terrain.IMPASSABLE:
            raise refuse("GM", f"{list(sq)} is not passable")
        other = state.occupant(sq)
        if other is not None:
            raise refuse("GM", f"{other.name} is on {list(sq)}")


def _check_remove(state: EncounterState, intent: GmRemoveCombatant) -> None:
    _common(state, intent, intent.targets)
    for cid in intent.targets:
        c = state.get(cid)
        riders = [r.name for r in state.combatants.values() if r.mounted_on == cid]
        if riders or c.mounted_on is not None:
            raise refuse("GM", f"{c.name} {'carries ' + ', '.join(riders) if riders else 'is mounted'}: "
                               "dismount first (MNT)")


# ----- resolution -----


def set_hp(health: Health, hp: int) -> Health:
    """The health after the GM sets HP: above 0 a dying or stable creature is up again; at 0 it drops (DEATH-1)."""
    if hp > 0:
        return replace(health, hp=hp, vitality=Vitality.ALIVE, successes=0, failures=0)
    if health.vitality is Vitality.ALIVE:
        return replace(health, hp=0, vitality=Vitality.DYING if health.uses_death_saves else Vitality.DEAD)
    return replace(health, hp=0)


def _ruled(ctx: Context, kind: str, targets: tuple[str, ...], reason: str) -> None:
    ctx.emit(ev.GmRuled(kind, targets, reason, GM))


def _resolve_hp(ctx: Context, intent: GmSetHp) -> None:
    _ruled(ctx, "hp", intent.targets, intent.reason)
    for cid in intent.targets:
        h = ctx.state.get(cid).health
        hp = intent.hp if intent.hp is not None else min(max(h.hp + intent.delta, 0), h.max_hp)
        ctx.emit(ev.HealthSet(cid, set_hp(h, hp), intent.reason, GM))


def _resolve_damage(ctx: Context, intent: GmDamage) -> None:
    _ruled(ctx, "damage", intent.targets, intent.reason)
    dc = fixed_dc(intent.dc, GM, "DC")
    for cid in intent.targets:
        c = ctx.state.get(cid)
        if c.health.is_dead:
            continue
        amount = intent.amount
        if intent.save is not None:
            dice = ctx.roller(cid, "save", GM, source=intent.save.value, dice=(1, 20))
            result = saving_throw(c.creature, intent.save, dc, dice, ctx.ruleset, conditions=c.condition_set)
            ctx.emit(ev.CheckRolled(cid, f"{intent.save.value} save", ev.RollRecord.of(result.roll) if result.roll
                                    else None, dc.total, result.success, GM, result.auto_fail or ""))
            if result.success:
                amount = amount // ctx.ruleset.magic.save_half_divisor if intent.half_on_save else 0
        if amount > 0:
            deal_damage(ctx, cid, {intent.damage_type: amount}, source=GM_ACTOR, label=intent.reason)


def _resolve_condition(ctx: Context, intent: GmCondition) -> None:
    _ruled(ctx, "condition", intent.targets, intent.reason)
    state = ctx.state
    for cid in intent.targets:
        c = state.get(cid)
        if intent.remove:
            for applied in [a for a in c.conditions if a.condition is intent.condition]:
                ctx.emit(ev.ConditionRemoved(cid, applied, GM))
            continue
        duration = (Duration.for_rounds(intent.rounds, cid, state.round) if intent.rounds
                    else Duration.until_removed())
        add(ctx, cid, AppliedCondition(intent.condition, GM, None, duration))


def _resolve_move(ctx: Context, intent: GmMove) -> None:
    _ruled(ctx, "move", (intent.target,), intent.reason)
    c = ctx.state.get(intent.target)
    ctx.emit(ev.Moved(c.id, c.position or intent.to, intent.to, 0, "gm", GM, forced=True))


def _resolve_order(ctx: Context, intent: GmOrder) -> None:
    _ruled(ctx, "order", intent.order, intent.reason)
    ctx.emit(ev.InitiativeChanged(ctx.state.active_id or intent.order[0], intent.order, GM))


def _resolve_skip(ctx: Context, intent: GmSkipTurn) -> None:
    active = ctx.state.active_id
    _ruled(ctx, "skip-turn", (active,) if active else (), intent.reason)  # the engine then ends the turn


def _resolve_morale(ctx: Context, intent: GmMorale) -> None:
    _ruled(ctx, "morale", intent.targets, intent.reason)
    by_group: dict[str, list[tuple[str, str]]] = {}
    for cid in intent.targets:
        c = ctx.state.get(cid)
        key = group_key(ctx.state, c)
        if key is not None and member_status(c) is not intent.status:
            by_group.setdefault(key, []).append((cid, intent.status.value))
    for key, members in by_group.items():
        ctx.emit(ev.MoraleChanged(key, tuple(members), None, intent.reason, GM))


def placed(state: EncounterState, newcomer: Combatant, coin: Callable[[], bool]) -> tuple[str, ...]:
    """The order with a newcomer in it: before the first creature it beats on initiative, then AGI (INIT-2, INIT-3).

    A full tie is settled by ``coin`` (INIT-3's coin flip: True, the newcomer goes first), flipped only for a tie.
    The order may be out of initiative order after delays (DEL-2) and GM changes; the newcomer is placed at the first
    creature it beats, reading the order as it is.
    """
    key = (newcomer.initiative, newcomer.creature.attributes.AGI)
    order = list(state.order)
    for i, cid in enumerate(order):
        other = state.get(cid)
        theirs = (other.initiative, other.creature.attributes.AGI)
        if key > theirs or (key == theirs and coin()):
            return (*order[:i], newcomer.id, *order[i:])
    return (*order, newcomer.id)


def _resolve_add(ctx: Context, intent: GmAddCombatant) -> None:
    _ruled(ctx, "combatant", (intent.id,), intent.reason)
    state = ctx.state
    creature = intent.creature
    health = Health.full(creature.hp, temp_hp=creature.temp_hp,
                         uses_death_saves=makes_death_saves(creature, state.ruleset))
    newcomer = Combatant(id=intent.id, name=intent.name or creature.name, side=intent.side, creature=creature,
                         weapons=intent.weapons, armor=intent.armor, shield=intent.shield, health=health,
                         position=intent.position, controller=intent.controller)
    roll = None
    if intent.initiative is None:
        dice = ctx.roller(intent.id, "initiative", INIT_1, dice=(1, 20))
        roll = roll_d20(dice, initiative_modifiers(newcomer, state))
        newcomer.initiative = roll.total
    else:
        newcomer.initiative = intent.initiative
    def coin() -> bool:  # the engine's coin, never a player's (INIT-3)
        return ctx.roller(None, "tie-break", INIT_1).roll(2) == 1

    order = placed(state, newcomer, coin)
    ctx.emit(ev.CombatantJoined(newcomer.id, newcomer.name, newcomer.side, creature, intent.weapons, intent.armor,
                                intent.shield, health, intent.position, intent.controller, newcomer.initiative,
                                order, GM))
    if roll is not None:
        ctx.emit(ev.InitiativeRolled(newcomer.id, ev.RollRecord.of(roll), 0))


def _resolve_remove(ctx: Context, intent: GmRemoveCombatant) -> None:
    _ruled(ctx, "combatant", intent.targets, intent.reason)
    state = ctx.state
    for cid in intent.targets:
        if state.active_id == cid:
            end_turn(ctx, cid)  # its turn ends as any turn does ("until the end of its turn" ends, AE-1)
        gone = set(intent.targets)
        # what it caused on others ends with it: a grapple, a fear, an effect it granted, its zones, its readiness
        for other in state.combatants.values():
            for applied in other.conditions:
                if applied.source == cid and other.id not in gone:
                    ctx.emit(ev.ConditionRemoved(other.id, applied, GM))
        for effect in state.effects:
            if cid in (effect.bearer, effect.source, effect.against):
                ctx.emit(ev.EffectRemoved(effect.key, GM))
        for zone in state.zones:
            if zone.owner == cid:
                ctx.emit(ev.ZoneEnded(zone.key, GM))
        for readied in state.readied:  # its own readied action, and those readied against it
            if readied.actor == cid or (readied.action.target == cid and readied.actor not in gone):
                ctx.emit(ev.ReadyEnded(readied.actor, False, GM))
        ctx.emit(ev.CombatantLeft(cid, GM))


# ----- reminders -----


@dataclass(frozen=True, slots=True)
class Reminder:
    """A condition that just ended, for the table to show: on whom, which, and the rule that ended it."""

    target: str
    condition: str
    rule: str


def ended_conditions(events: list[Event] | tuple[Event, ...]) -> tuple[Reminder, ...]:
    """The conditions that ended in these events (expired at a turn boundary, or removed), in order."""
    found: list[Reminder] = []
    for e in events:
        if isinstance(e, ev.BoundaryPassed):
            found.extend(Reminder(cid, a.condition.value, str(a.rule)) for cid, a in e.expired)
        elif isinstance(e, ev.ConditionRemoved):
            found.append(Reminder(e.target, e.applied.condition.value, e.rule))
    return tuple(found)


def install(book: RulebookDraft) -> None:
    """The GM's overrides (rule GM): actions only the GM submits, no hooks."""
    book.action(GmSetHp, ActionDef("gm-hp", GM, fixed(0), _resolve_hp, _check_hp, own_turn=False, gm=True))
    book.action(GmDamage, ActionDef("gm-damage", GM, fixed(0), _resolve_damage, _check_damage, own_turn=False,
                                    gm=True))
    book.action(GmCondition, ActionDef("gm-condition", GM, fixed(0), _resolve_condition, _check_condition,
                                       own_turn=False, gm=True))
    book.action(GmMove, ActionDef("gm-move", GM, fixed(0), _resolve_move, _check_move, own_turn=False, gm=True))
    book.action(GmOrder, ActionDef("gm-order", GM, fixed(0), _resolve_order, _check_order, own_turn=False, gm=True))
    book.action(GmSkipTurn, ActionDef("gm-skip-turn", GM, fixed(0), _resolve_skip, _check_skip, own_turn=False,
                                      gm=True, ends_turn=True))
    book.action(GmMorale, ActionDef("gm-morale", GM, fixed(0), _resolve_morale, _check_morale, own_turn=False,
                                    gm=True))
    book.action(GmAddCombatant, ActionDef("gm-add-combatant", GM, fixed(0), _resolve_add, _check_add,
                                          own_turn=False, gm=True))
    book.action(GmRemoveCombatant, ActionDef("gm-remove-combatant", GM, fixed(0), _resolve_remove, _check_remove,
                                             own_turn=False, gm=True))


OVERRIDES: dict[str, type] = {"hp": GmSetHp, "damage": GmDamage, "condition": GmCondition, "move": GmMove,
                              "order": GmOrder, "skip-turn": GmSkipTurn, "morale": GmMorale,
                              "add-combatant": GmAddCombatant, "remove-combatant": GmRemoveCombatant}
"""The override intents by the kind the table names them."""
