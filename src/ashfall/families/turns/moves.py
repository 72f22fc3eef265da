"""Turn-shaping actions: Delay (DEL-1..3), Ready (RDY-1..5) and leaning out around cover (COV-4, G-55).

**Delay** costs nothing and must come before the creature spends anything on its turn (our reading of
"on your turn, choose to delay", so that nobody acts twice in a round): it moves to just after a
creature later in the order, permanently (DEL-2), never past the last creature into the next round
(DEL-3). Its turn ends at once; it takes a whole new turn in its new place.

**Ready** (``turn.ready_actions``, RDY-1) declares a Strike, a Step or a Stride and a trigger (RDY-2):
a creature *enters* or *leaves* a set of squares, comes *into view* (out of total cover, or leaning
out of it: RDY-5, COV-3), *attacks*, or *moves*; the trigger may name one creature, else any enemy
sets it off. Whether these structured triggers happened is read off the events, automatically; a
``gm`` trigger is fired by the GM with :class:`FireReadied` (RDY-2 NEEDS-GM). Firing spends the
reaction (RDY-3), so it is offered like any reaction, and only on another creature's turn. A Strike
with no named target attacks the creature that set the trigger off; readied attacks take no MAP
(G-41). The readied action is lost at the start of the creature's next turn (RDY-4).

**Lean out** (``turn.lean_out_actions``, COV-4, G-55): until the start of your next turn (with
``turn.lean_out_until_next_turn`` off: the end of this one) you have no
cover (EffectKind.NO_COVER, read by the attack pipeline) and you shoot past the cover next to you; a
creature leaning out of total cover comes into view (RDY-5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.lasting import Readied, ReadiedAction, ReadyTrigger
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind, can_react, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackPlan, leaning_out, perform_attack
from ashfall.families.attacks.engine_common import mode_for, require_target, speed_ft
from ashfall.families.attacks.moves_gear import require_in_hand
from ashfall.families.attacks.moves_strike import check_ammo, check_attack_reach, chosen_weapon, spend_ammo
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.movement.moves import path_cost, walk
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square, footprint
from ashfall.grid.geometry import cover_between
from ashfall.rules.condition_durations import Duration, DurationKind

DEL_1, DEL_2, RDY_1, RDY_3, RDY_4, COV_4 = rule("DEL-1"), rule("DEL-2"), rule("RDY-1"), rule("RDY-3"), rule(
    "RDY-4"), rule("COV-4")
ACT_2, ACT_3 = rule("ACT-2"), rule("ACT-3")
SQUARE_TRIGGERS = frozenset({"enters", "leaves", "into-view"})


# ----- Delay -----


@dataclass(frozen=True, slots=True)
class Delay:
    """Move to just after ``after`` in the initiative order, for good (DEL-1, DEL-2)."""

    actor: str
    after: str


def _check_delay(state: EncounterState, intent: Delay) -> None:
    c = state.get(intent.actor)
    here = state.order.index(c.id)
    if here == len(state.order) - 1:
        raise refuse("DEL-3", f"{c.name} is last in the order: there is no later count to delay to")
    if intent.after not in state.order or state.order.index(intent.after) <= here:
        raise refuse("DEL-1", "delay to a creature later in the order than you")
    t = c.turn
    if t.actions_spent or t.free_actions or t.attack_rolls or t.moved_this_turn:
        raise refuse("DEL-1", f"{c.name} has already acted this turn: delay before you act")


def _resolve_delay(ctx: Context, intent: Delay) -> None:
    order = [cid for cid in ctx.state.order if cid != intent.actor]
    order.insert(order.index(intent.after) + 1, intent.actor)
    ctx.emit(ev.InitiativeChanged(intent.actor, tuple(order), DEL_2))


# ----- Ready -----


@dataclass(frozen=True, slots=True)
class Ready:
    """Ready an action with a trigger (RDY-1, RDY-2)."""

    actor: str
    action: ReadiedAction
    trigger: ReadyTrigger


@dataclass(frozen=True, slots=True)
class FireReadied:
    """The GM says a ``gm`` trigger happened: the readied action goes off now (RDY-2, RDY-3).

    Attributes:
        actor: The creature whose readied action fires.
        target: The Strike's target when the readied action named none.
    """

    actor: str
    target: str | None = None


def feasible(state: EncounterState, c: Combatant, action: ReadiedAction, setter: str | None) -> None:
    """Refuse a readied action that cannot be carried out now (reach, range, cover, ammo, path)."""
    if action.kind == "strike":
        target = require_target(state, c, action.target or setter or "")
        weapon = chosen_weapon(c, action.weapon, False)
        mode = mode_for(weapon)
        require_in_hand(c, weapon)
        check_attack_reach(state, c, target, weapon, mode)
        check_ammo(c, weapon, mode)
        return
    if c.has(Condition.PRONE):
        raise refuse("ACT-4", f"{c.name} is prone")
    limit = SQUARE_FT if action.kind == "step" else speed_ft(c, state)
    if action.kind == "step" and len(action.path) != 1:
        raise refuse("ACT-3", "a readied Step names one square")
    if path_cost(state, c, action.path) > limit:
        raise refuse("ACT-3" if action.kind == "step" else "ACT-2", f"the path costs more than {limit} ft")


def _perform(ctx: Context, c: Combatant, action: ReadiedAction, setter: str | None) -> None:
    if action.kind == "strike":
        weapon = chosen_weapon(c, action.weapon, False)
        mode = mode_for(weapon)
        spend_ammo(ctx, c, weapon, mode)
        perform_attack(ctx, AttackPlan(c.id, action.target or setter or "", weapon, mode, Activity.READIED,
                                       label="Readied Strike"))
    elif action.kind == "step":
        walk(ctx, c.id, action.path, "step", ACT_3, may_provoke=False)
    else:
        walk(ctx, c.id, action.path, "stride", ACT_2)


def _check_ready(state: EncounterState, intent: Ready) -> None:
    c = state.get(intent.actor)
    a, t = intent.action, intent.trigger
    if a.kind == "strike":
        chosen_weapon(c, a.weapon, False)
        if a.target is not None:
            require_target(state, c, a.target)
    elif not a.path or state.board is None:
        raise refuse("RDY-2", "a readied Step or Stride names its path on the map")
    if t.kind in SQUARE_TRIGGERS and state.board is None:
        raise refuse("RDY-2", f"a '{t.kind}' trigger needs a map: use a 'gm' trigger in theater of mind")
    if t.kind in ("enters", "leaves") and not t.squares:
        raise refuse("RDY-2", f"an '{t.kind}' trigger names its squares")
    if t.creature is not None and t.creature not in state.combatants:
        raise refuse("RDY-2", f"no creature {t.creature!r} here")


def _resolve_ready(ctx: Context, intent: Ready) -> None:
    readied = Readied(intent.actor, intent.action, intent.trigger, "RDY-2", Duration.start_of_next_turn(intent.actor))
    ctx.emit(ev.ReadyDeclared(readied))


def _ready_cost(state: EncounterState, intent: Any) -> int:
    return state.ruleset.turn.ready_actions


def _readied_of(state: EncounterState, cid: str) -> Readied | None:
    readied = state.readied
    if not readied:  # the usual case, asked for every creature on every MOVED / ATTACKED trigger
        return None
    return next((r for r in readied if r.actor == cid), None)


def _check_fire(state: EncounterState, intent: FireReadied) -> None:
    c = state.get(intent.actor)
    r = _readied_of(state, c.id)
    if r is None or r.trigger.kind != "gm":
        raise refuse("RDY-2", f"{c.name} has no action readied for the GM's trigger")
    if state.active_id == c.id:
        raise refuse("RDY-3", "a readied action goes off on another creature's turn")
    blocked = can_react(state, c)
    if blocked is not None:
        raise refuse(blocked, f"{c.name} cannot react now")
    feasible(state, c, r.action, intent.target)


def _resolve_fire(ctx: Context, intent: FireReadied) -> None:
    c = ctx.state.get(intent.actor)
    r = _readied_of(ctx.state, c.id)
    assert r is not None
    ctx.emit(ev.ReactionSpent(c.id, "Readied action", RDY_3))
    ctx.emit(ev.ReadyEnded(c.id, True, RDY_3))
    _perform(ctx, c, r.action, intent.target)


def _who(state: EncounterState, reactor: Combatant, r: Readied, actor: str) -> bool:
    if actor == reactor.id or actor not in state.combatants:
        return False
    if r.trigger.creature is not None:
        return actor == r.trigger.creature
    return state.get(actor).side != reactor.side


def _in(squares: tuple[Square, ...], space: tuple[Square, ...]) -> bool:
    return bool(set(squares).intersection(space))


def _total_cover(state: EncounterState, reactor: Combatant, space: tuple[Square, ...]) -> bool:
    return state.board is not None and cover_between(state.board, reactor.space, space)[0] is CoverLevel.TOTAL


def _moved_match(state: EncounterState, reactor: Combatant, r: Readied, trigger: Trigger) -> bool:
    frm, to = trigger.get("from"), trigger.get("to")
    if r.trigger.kind == "moves":
        return not trigger.get("stood-up")
    if not isinstance(frm, tuple) or not isinstance(to, tuple):
        return False
    side = state.get(trigger.actor).creature.size.squares
    before, after = footprint(frm, side), footprint(to, side)
    if r.trigger.kind == "enters":
        return _in(r.trigger.squares, after) and not _in(r.trigger.squares, before)
    if r.trigger.kind == "leaves":
        return _in(r.trigger.squares, before) and not _in(r.trigger.squares, after)
    if r.trigger.kind == "into-view":
        return _total_cover(state, reactor, before) and not _total_cover(state, reactor, after)
    return False


def _trigger_matches(state: EncounterState, reactor: Combatant, r: Readied, trigger: Trigger) -> bool:
    if not _who(state, reactor, r, trigger.actor):
        return False
    if trigger.kind is TriggerKind.ATTACKED:
        return r.trigger.kind == "attacks"
    if trigger.kind is TriggerKind.EMERGES:
        mover = state.get(trigger.actor)
        return r.trigger.kind == "into-view" and (state.board is None or _total_cover(state, reactor, mover.space))
    if trigger.kind is TriggerKind.MOVED:
        return _moved_match(state, reactor, r, trigger)
    return False


def _readied_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    r = _readied_of(state, reactor.id)
    if r is None or state.active_id == reactor.id or not _trigger_matches(state, reactor, r, trigger):
        return False
    try:
        feasible(state, reactor, r.action, trigger.actor)
    except Refused:
        return False
    return True


def _readied(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    r = _readied_of(ctx.state, reactor.id)
    assert r is not None
    ctx.emit(ev.ReadyEnded(reactor.id, True, RDY_3))
    _perform(ctx, reactor, r.action, trigger.actor)
    return NO_EFFECT


def _lost(ctx: Context, cid: str) -> None:
    """RDY-4: a readied action not used by the start of its creature's next turn is lost."""
    if _readied_of(ctx.state, cid) is not None:
        ctx.emit(ev.ReadyEnded(cid, False, RDY_4))


# ----- Lean out -----


@dataclass(frozen=True, slots=True)
class LeanOut:
    """Lean out around cover to attack: no cover until the start of your next turn (COV-4, G-55)."""

    actor: str


def _check_lean(state: EncounterState, intent: LeanOut) -> None:
    c = state.get(intent.actor)
    if leaning_out(state, c):
        raise refuse("COV-4", f"{c.name} is already leaning out")


def _lean_duration(ctx: Context, actor: str) -> Duration:
    """Until the start of the actor's next turn (G-55), or only to the end of this one (the alternative)."""
    if ctx.ruleset.turn.lean_out_until_next_turn:
        return Duration.start_of_next_turn(actor)
    return Duration(DurationKind.END_OF_NEXT_TURN, actor, next_turn_started=True)


def _resolve_lean(ctx: Context, intent: LeanOut) -> None:
    effect = TimedEffect(f"lean-out:{intent.actor}:{len(ctx.log)}", EffectKind.NO_COVER, intent.actor, "COV-4",
                         _lean_duration(ctx, intent.actor), used_up=False, source=intent.actor)
    ctx.emit(ev.EffectAdded(effect, COV_4))
    offer(ctx, Trigger(TriggerKind.EMERGES, intent.actor))


def _lean_cost(state: EncounterState, intent: Any) -> int:
    return state.ruleset.turn.lean_out_actions


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Delay, ActionDef("delay", DEL_1, fixed(0), _resolve_delay, _check_delay, ends_turn=True))
    book.action(Ready, ActionDef("ready", RDY_1, _ready_cost, _resolve_ready, _check_ready))
    book.action(FireReadied, ActionDef("fire-readied", RDY_3, fixed(0), _resolve_fire, _check_fire, own_turn=False))
    book.reaction(ReactionDef("readied", "Readied action", RDY_3, frozenset(
        {TriggerKind.MOVED, TriggerKind.ATTACKED, TriggerKind.EMERGES}), _readied_ok, _readied))
    book.start_of_turn("readied-actions", _lost)
    book.action(LeanOut, ActionDef("lean-out", COV_4, _lean_cost, _resolve_lean, _check_lean))
