"""The engine: owns the encounter, runs intents through legality and resolution, keeps the log.

``submit(intent)`` refuses an illegal intent before any die is rolled (state untouched), else
resolves it and returns its events. Every command resolved (the start, each intent, each turn end) is
recorded as an :class:`~ashfall.engine.record.IntentRecord` with its decisions' answers next to the
events it produced, so the fight replays from its seed and records (:mod:`ashfall.engine.replaying`).
``undo(n)`` restores the state from the last snapshot (one every :data:`SNAPSHOT_EVERY` records)
plus the events since, and rewinds the RNG, so the fight can continue differently; ``redo()`` plays
an undone record again. The log replays byte for byte: same seed + same intents + same decisions =
the same events.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from ashfall.core.rng import Rng
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, refuse
from ashfall.engine.apply import apply
from ashfall.engine.context import Context
from ashfall.engine.decisions import Controller, NeedDecision  # noqa: F401  (raised through submit)
from ashfall.engine.dice_entry import Face, NeedDice, RollFor, TableDice  # noqa: F401  (NeedDice: raised through submit)
from ashfall.engine.events import Event
from ashfall.engine.intents import Command, EndTurn, Intent, StartCombat
from ashfall.engine.record import Answer, FightLog, IntentRecord
from ashfall.engine.rulebook import Rulebook
from ashfall.engine.state import Combatant, EncounterState
from ashfall.engine.turns import end_round, end_turn, resolve_surprise, roll_initiative, start_turn
from ashfall.rules import conditions as cond


class CheckpointRng(Rng, Protocol):
    """An RNG the engine can rewind."""

    def getstate(self) -> object:
        """Save the position."""
        ...

    def setstate(self, state: object) -> None:
        """Rewind to a saved position."""
        ...


def clone_state(state: EncounterState) -> EncounterState:
    """A copy whose mutable parts are independent (stat blocks and gear are shared: they are frozen)."""
    combatants = {
        cid: replace(c, turn=replace(c.turn), ammo=dict(c.ammo))  # supplies are frozen records: shared
        for cid, c in state.combatants.items()
    }
    return replace(state, combatants=combatants, order=list(state.order),
                   environment=copy.deepcopy(state.environment), morale=dict(state.morale))


@dataclass(slots=True)
class Checkpoint:
    """Where an intent started: the log length and the RNG position."""

    event_index: int
    rng_state: object


SNAPSHOT_EVERY = 16
"""Records between state snapshots: undo restores the last snapshot before the point and applies fewer
than this many records' events, instead of the whole log from the start."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The state after the first ``records`` records (``events`` events). Never changed: restoring clones it."""

    records: int
    events: int
    state: EncounterState


ID_FIELDS = frozenset({"target", "targets", "ally", "grappler", "mount", "second_target", "after"})
"""Intent fields that name combatants (a single id, an optional id or a tuple of ids)."""
_ID_FIELDS_OF: dict[type, tuple[str, ...]] = {}


@dataclass(slots=True)
class Engine:
    """Runs one encounter.

    Attributes:
        state: The current state (read it; change it only by submitting intents).
        rng: The injected, rewindable RNG.
        controllers: Controller by combatant id (who answers decisions).
        seed: The seed, recorded in the log for replay.
        log: Every event so far.
        records: Every command resolved so far (the start, intents, turn ends) with its answers and events.
        snapshot_every: Records between state snapshots (:data:`SNAPSHOT_EVERY`).
        entered: The creatures whose dice people enter (:mod:`ashfall.engine.dice_entry`): a die of theirs with
            no face supplied raises :class:`~ashfall.engine.dice_entry.NeedDice`. Empty: the engine rolls all.
    """

    state: EncounterState
    rng: CheckpointRng
    controllers: Mapping[str, Controller] = field(default_factory=dict)
    seed: int | None = None
    log: list[Event] = field(default_factory=list)
    records: list[IntentRecord] = field(default_factory=list)
    snapshot_every: int = SNAPSHOT_EVERY
    entered: frozenset[str] = frozenset()
    _initial: EncounterState | None = None
    _checkpoints: list[Checkpoint] = field(default_factory=list)
    _snapshots: list[Snapshot] = field(default_factory=list)
    _redo: list[IntentRecord] = field(default_factory=list)
    """Undone records, oldest first, that :meth:`redo` can play again (cleared by any new command)."""
    _changes: int = 0
    """Bumped whenever the state may change (an intent or turn end runs, an undo): dates :attr:`_checked`."""
    _checked: tuple[Intent, EncounterState, int, ActionDef] | None = None
    """The last intent :meth:`check` passed, with the state object and change count it was checked against.

    Why: policies check an intent and then submit that very object, so :meth:`submit` would check it again on
    the same state. Checking is a pure function of the state (no dice), so while the state object and the
    change count are the same the verdict is too. Anything that runs intents, ends turns or undoes bumps the
    count; a new state object (copy, undo) fails the identity test; submit clears it."""

    def __post_init__(self) -> None:
        _ = self.state.rulebook  # decided from the state as built, before the initial copy (replays decide alike)
        self._initial = clone_state(self.state)

    # ----- lifecycle -----

    @property
    def rulebook(self) -> Rulebook:
        """The actions, reactions and hooks this fight plays by (the state's rulebook)."""
        return self.state.rulebook

    def _context(self, answers: tuple[str | None, ...] = (), faces: Mapping[int, Face] | None = None,
                 command: Command | None = None, rule: str = "GM") -> Context:
        if not self.entered and not faces:
            return Context(self.state, self.rng, self.log, self.controllers, answers)
        owner = getattr(command, "actor", None)
        return Context(self.state, self.rng, self.log, self.controllers, answers,
                       TableDice(self.rng, self.entered, faces or {}), RollFor(owner, "roll", rule))

    def start(self, ambushers: str | None = None, faces: Mapping[int, Face] | None = None) -> list[Event]:
        """Begin the fight: initiative (INIT), surprise (SUR) and the first turn."""
        if self.state.started:
            raise refuse("INIT-2", "the encounter has already started")
        return self._run(lambda ctx: self._start(ctx, ambushers), (), StartCombat(ambushers), faces)

    def _start(self, ctx: Context, ambushers: str | None) -> None:
        ctx.emit(ev.CombatStarted(self.state.ruleset.name, self.seed, tuple(self.state.combatants)))
        roll_initiative(ctx)
        if ambushers is not None:
            resolve_surprise(ctx, ambushers)
        self._next_round(ctx)

    def _next_round(self, ctx: Context) -> None:
        ctx.emit(ev.RoundStarted(self.state.round + 1))
        self._advance(ctx, 0)

    def _advance(self, ctx: Context, index: int) -> None:
        """Start the turn of the first creature from ``index`` on that can act."""
        while True:
            order = self.state.order  # an end-of-round hook may reorder it (trained mounts, MNT-2)
            if self._check_victory(ctx):
                return
            if index >= len(order):
                end_round(ctx)
                if self._check_victory(ctx):
                    return
                ctx.emit(ev.RoundStarted(self.state.round + 1))
                index = 0
                continue
            cid = order[index]
            if start_turn(ctx, cid):
                return
            index += 1

    def end_turn(self, actor: str, answers: Iterable[Answer] = (), faces: Mapping[int, Face] | None = None
                 ) -> list[Event]:
        """End the active creature's turn and start the next one's."""
        self._require_turn(actor)
        return self._run(lambda ctx: self._end_turn(ctx, actor), tuple(answers), EndTurn(actor), faces)

    def _end_turn(self, ctx: Context, actor: str) -> None:
        end_turn(ctx, actor)
        self._advance(ctx, self.state.order.index(actor) + 1)

    # ----- intents -----

    def check(self, intent: Intent) -> ActionDef:
        """Raise :class:`Refused` if the intent is illegal now; return its definition otherwise.

        An actor or target id that names nobody in the fight is refused too (with the action's rule).
        """
        definition = self.state.rulebook.actions.get(type(intent))
        if definition is None:
            raise refuse("ACT-1", f"{type(intent).__name__} is not an action the engine knows")
        state = self.state
        if state.ended:
            raise refuse("INIT-2", "the encounter is over")
        if definition.gm:  # the GM's override: no creature acts (see ActionDef.gm)
            _check_ids(state, intent, definition)
            definition.check(state, intent)
            return definition
        actor = state.combatants.get(intent.actor)
        if actor is None:
            raise refuse(definition.rule, f"no combatant {intent.actor!r} in this fight")
        _check_ids(state, intent, definition)
        if not actor.is_active or not can_act(actor, state):
            raise refuse("DEATH-1" if not actor.is_active else "C-INC", f"{actor.name} cannot act now")
        if definition.own_turn:
            self._require_turn(actor.id)
        cost = definition.cost(state, intent)
        if definition.free:
            if actor.turn.free_actions >= state.ruleset.turn.free_actions_per_turn:
                raise refuse("AE-3", "no free actions left this turn")
        elif cost > actor.turn.actions_left:
            raise refuse("AE-1", f"{definition.name} costs {cost} action(s); {actor.turn.actions_left} left")
        if definition.bonus and actor.turn.bonus_used:
            raise refuse("AE-5", "only one bonus action per turn")
        definition.check(state, intent)
        self._checked = (intent, state, self._changes, definition)
        return definition

    def submit(self, intent: Intent, answers: Iterable[Answer] = (), faces: Mapping[int, Face] | None = None
               ) -> list[Event]:
        """Check and resolve an intent; return the events it produced.

        Args:
            intent: The intent.
            answers: Answers to its decisions, in the order they are asked.
            faces: Entered dice by die index (None: roll that one for me); see :mod:`ashfall.engine.dice_entry`.

        Raises:
            Refused: The intent is illegal now (nothing happened).
            NeedDecision: A decision had no answer; the intent was rolled back (nothing happened).
            NeedDice: An entered creature's die had no face; the intent was rolled back (nothing happened).
            FaceOutOfRange: A supplied face cannot come up on its die (nothing happened).
        """
        memo, self._checked = self._checked, None
        if memo is not None and memo[0] is intent and memo[1] is self.state and memo[2] == self._changes:
            definition = memo[3]  # checked just now against this very state (see _checked)
        else:
            definition = self.check(intent)
            self._checked = None
        return self._run(lambda ctx: self._resolve(ctx, definition, intent), tuple(answers), intent, faces,
                         str(definition.rule))

    def perform(self, command: Command, answers: Iterable[Answer] = (), faces: Mapping[int, Face] | None = None
                ) -> list[Event]:
        """Resolve any recorded command: start the fight, end a turn or submit an intent (replay and redo)."""
        if isinstance(command, StartCombat):
            if answers:
                raise refuse("INIT-2", "starting the fight asks no decisions")
            return self.start(command.ambushers, faces)
        if isinstance(command, EndTurn):
            return self.end_turn(command.actor, answers, faces)
        return self.submit(command, answers, faces)

    def _resolve(self, ctx: Context, definition: ActionDef, intent: Intent) -> None:
        cost = 0 if definition.gm else definition.cost(self.state, intent)
        if definition.gm:
            pass
        elif definition.free:
            ctx.emit(ev.ResourceUsed(intent.actor, "free-action", 1, definition.rule))
        elif cost:
            ctx.emit(ev.ActionsSpent(intent.actor, cost, definition.name, definition.rule, definition.bonus))
        order, index = list(self.state.order), self.state.turn_index
        definition.resolve(ctx, intent)
        active = self.state.active_id
        if self._check_victory(ctx):
            return
        if active is None:
            if 0 <= index < len(order) and order[index] not in self.state.combatants:
                # the creature whose turn it was left the fight (a GM removed it): the turn passes to the next
                following = [cid for cid in order[index + 1:] if cid in self.state.order]
                self._advance(ctx, self.state.order.index(following[0]) if following else len(self.state.order))
            return
        # a creature that drops during its own turn (an AoO, Return Fire, a zone) can do no more (DEATH-1)
        if not definition.ends_turn and self.state.get(active).is_active:
            return
        end_turn(ctx, active)
        following = order[index + 1:]
        self._advance(ctx, self.state.order.index(following[0]) if following else len(self.state.order))

    def _run(self, body: Callable[[Context], None], answers: tuple[Answer, ...], command: Command,
             faces: Mapping[int, Face] | None = None, rule: str = "INIT-2") -> list[Event]:
        mark = Checkpoint(len(self.log), self.rng.getstate())
        ctx = self._context(answers, faces, command, rule)
        try:
            body(ctx)
        except Exception:  # Refused, NeedDecision, or a bug: never leave an intent half applied
            self._rewind(mark)
            raise
        finally:
            self._changes += 1  # after the body: a check made while it ran (a decision's look-ahead) is stale
        self._checkpoints.append(mark)
        done = len(self.records) + 1
        self.records.append(IntentRecord(done - 1, command, tuple(ctx.given), mark.event_index,
                                         len(self.log) - mark.event_index,
                                         () if ctx.table is None else tuple(ctx.table.given)))
        if done % self.snapshot_every == 0:
            self._snapshots.append(Snapshot(done, len(self.log), clone_state(self.state)))
        if self._redo:
            self._redo = []  # a new command: the undone ones no longer follow (redo() puts back the rest)
        return self.log[mark.event_index:]

    def _require_turn(self, actor: str) -> None:
        if self.state.active_id != actor:
            raise refuse("AE-1", f"it is not {actor}'s turn")

    # ----- victory -----

    def _check_victory(self, ctx: Context) -> bool:
        if self.state.ended:
            return True
        # the sides with a creature still fighting, in one pass over the roster (asked after every intent). Their
        # order may differ from sides()'s, but it is read only when there is at most one, so the answer is the same.
        standing: list[str] = []
        for c in self.state.combatants.values():
            if c.side not in standing and _holds_side(c):
                standing.append(c.side)
                if len(standing) > 1:
                    return False  # two sides still fight: the rest of the roster cannot change that
        ctx.emit(ev.CombatEnded(standing[0] if standing else None, self.state.round))
        return True

    # ----- undo / replay -----

    def _rewind(self, mark: Checkpoint) -> None:
        self._changes += 1
        self.state = self._replayed(mark.event_index)
        del self.log[mark.event_index:]
        self.rng.setstate(mark.rng_state)

    def _replayed(self, n: int) -> EncounterState:
        """The state after the first ``n`` events: the last snapshot at or before them plus the events since."""
        assert self._initial is not None
        base, start = self._initial, 0
        for snap in reversed(self._snapshots):
            if snap.events <= n:
                base, start = snap.state, snap.events
                break
        return apply_events(base, self.log[start:n])

    @property
    def initial_state(self) -> EncounterState:
        """A copy of the state the engine was built with (before any event)."""
        assert self._initial is not None
        return clone_state(self._initial)

    def undo(self, to_intent: int | None = None) -> None:
        """Undo back to the start of an earlier intent (default: the last one); the RNG rewinds too."""
        if not self._checkpoints:
            raise refuse("AE-1", "nothing to undo")
        index = len(self._checkpoints) - 1 if to_intent is None else to_intent
        mark = self._checkpoints[index]
        undone = self.records[index:]
        del self._checkpoints[index:]
        del self.records[index:]
        self._snapshots = [s for s in self._snapshots if s.records <= index]
        self._rewind(mark)
        self._redo = undone + self._redo

    def redo(self) -> list[Event]:
        """Play the earliest undone record again (same dice, same answers, so the same events).

        Raises:
            Refused: Nothing was undone, or a command has been resolved since.
        """
        if not self._redo:
            raise refuse("AE-1", "nothing to redo")
        record, rest = self._redo[0], self._redo[1:]
        self._redo = []
        events = self.perform(record.intent, record.answers, dict(record.faces))
        self._redo = rest
        return events

    @property
    def snapshot_points(self) -> tuple[int, ...]:
        """After how many records a state snapshot was taken (what undo restarts from)."""
        return tuple(s.records for s in self._snapshots)

    @property
    def undone(self) -> tuple[IntentRecord, ...]:
        """The undone records :meth:`redo` would play, oldest first (a front end may keep them as a branch)."""
        return tuple(self._redo)

    @property
    def redo_available(self) -> int:
        """How many undone records :meth:`redo` can play again."""
        return len(self._redo)

    def fight_log(self, setup: Mapping[str, str] | None = None) -> FightLog:
        """The fight so far as data: seed, ruleset, records and events (see :mod:`ashfall.engine.record`).

        Args:
            setup: Labels saying how the initial state was built (an encounter file, a ruleset …).
        """
        return FightLog(self.seed, self.state.ruleset.name, tuple(self.records), tuple(self.log), dict(setup or {}))

    @property
    def intents_done(self) -> int:
        """How many intents (and turn ends) have been resolved, i.e. how far :meth:`undo` can go."""
        return len(self._checkpoints)

    def copy(self) -> Engine:
        """An independent engine at the same point (for look-ahead by AI policies)."""
        other = copy.copy(self)
        other.rng = copy.deepcopy(self.rng)  # look-ahead must not move this engine's dice
        other.state = clone_state(self.state)
        other.log = list(self.log)
        other.records = list(self.records)
        other._checkpoints = list(self._checkpoints)
        other._snapshots = list(self._snapshots)
        other._redo = list(self._redo)
        other._checked = None
        return other


def apply_events(initial: EncounterState, events: Iterable[Event]) -> EncounterState:
    """The state after applying ``events`` in order to a copy of ``initial`` (undo and golden replays use it)."""
    state = clone_state(initial)
    for e in events:
        apply(state, e)
    return state


replay = apply_events
"""The former name of :func:`apply_events` (``ashfall.engine.replay`` replays a whole fight from its records)."""


def _check_ids(state: EncounterState, intent: Intent, definition: ActionDef) -> None:
    """Refuse an intent whose target, ally, grappler, mount … names no combatant in the fight."""
    kind: type = type(intent)
    names = _ID_FIELDS_OF.get(kind)
    if names is None:
        names = _ID_FIELDS_OF[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.name in ID_FIELDS)
    for name in names:
        value = getattr(intent, name)
        for cid in value if isinstance(value, tuple) else (value,):
            if cid is not None and cid not in state.combatants:
                raise refuse(definition.rule, f"{name}: no combatant {cid!r} in this fight")


def _holds_side(c: Combatant) -> bool:
    """Keeps its side in the fight: still fighting, and not a vehicle, which fights only through its crew (VEH-3)."""
    return c.fighting and c.creature.vehicle is None


def can_act(c: Combatant, state: EncounterState) -> bool:
    """Whether a creature's conditions allow any action (C-INC)."""
    if not c.conditions and not c.health.is_down:  # condition_set is empty: max_actions is the plain budget
        return state.ruleset.turn.actions_per_turn > 0
    return cond.max_actions(c.condition_set, state.ruleset).actions > 0


def legal_intents(engine: Engine, actor: str) -> list[Intent]:
    """Every intent the actor may submit now, from each action's candidates, in the rulebook's order."""
    found: list[Intent] = []
    for definition in engine.state.rulebook.actions.values():
        for intent in definition.candidates(engine.state, actor):
            try:
                engine.check(intent)
            except Refused:
                continue
            found.append(intent)
    return found
