"""Replaying a fight from its seed and records, checking every event against the log.

:func:`replay` builds a fresh engine on a copy of the initial state with the log's seed, resolves each
recorded command again with its recorded answers (no controller is asked) and compares the events it
produces with the logged ones, line by line in canonical JSON. The first difference raises
:class:`ReplayDivergence` naming the record, the event index and both lines, so a change in the rules
or in the dice order shows exactly where a stored fight stops matching.
"""

from __future__ import annotations

from itertools import zip_longest

from ashfall.core.rng import SeededRng
from ashfall.engine.actions import Refused
from ashfall.engine.decisions import NeedDecision
from ashfall.engine.dice_entry import NeedDice
from ashfall.engine.engine import SNAPSHOT_EVERY, CheckpointRng, Engine, clone_state
from ashfall.engine.intents import command_to_json
from ashfall.engine.record import FightLog, event_lines
from ashfall.engine.state import EncounterState


class ReplayDivergence(AssertionError):
    """A replayed fight stopped matching its log.

    Attributes:
        step: The record whose command diverged.
        index: The index in the event log of the first event that differs.
        expected: The logged event's line (None: the log has no more events for this record).
        actual: The replayed event's line (None: the replay produced fewer events).
        reason: What went wrong, in words.
    """

    def __init__(self, step: int, index: int, expected: str | None, actual: str | None, reason: str) -> None:
        super().__init__(f"replay diverges at record {step}, event {index}: {reason}\n"
                         f"  logged:   {expected}\n  replayed: {actual}")
        self.step = step
        self.index = index
        self.expected = expected
        self.actual = actual
        self.reason = reason


def replay(log: FightLog, initial: EncounterState, *, rng: CheckpointRng | None = None,
           snapshot_every: int = SNAPSHOT_EVERY) -> Engine:
    """Rebuild a fight from its records and check that every event matches the log.

    Args:
        log: The fight (:meth:`Engine.fight_log`, or :func:`~ashfall.engine.record.loads_log` of a stored one).
        initial: The state the fight was built with, not started (``Engine.initial_state``, or the same setup
            built again, e.g. from the encounter file the log's ``setup`` names).
        rng: The dice, when the log has no seed (scripted dice); default ``SeededRng(log.seed)``.
        snapshot_every: Records between the replayed engine's undo snapshots.

    Returns:
        The engine at the end of the log, ready to go on (its controllers are empty: give it some to play on).

    Raises:
        ReplayDivergence: A record was refused, asked an unrecorded decision, or produced different events.
        ValueError: The log and the initial state do not belong together.
    """
    if rng is None:
        if log.seed is None:
            raise ValueError("the log has no seed: pass the RNG its dice came from")
        rng = SeededRng(log.seed)
    if initial.started:
        raise ValueError("the initial state must not be started (use Engine.initial_state)")
    if initial.ruleset.name != log.ruleset:
        raise ValueError(f"the log was played under {log.ruleset!r}, the state is {initial.ruleset.name!r}")
    engine = Engine(clone_state(initial), rng, {}, log.seed, snapshot_every=snapshot_every)
    for record in log.records:
        expected = event_lines(log.events_of(record))
        try:
            produced = engine.perform(record.intent, record.answers, dict(record.faces))
        except (Refused, NeedDecision, NeedDice, ValueError) as why:  # ValueError: a recorded answer no longer fits
            raise ReplayDivergence(record.step, record.first_event, expected[0] if expected else None, None,
                                   f"{command_to_json(record.intent)} was not resolved again: {why}") from None
        for offset, (want, got) in enumerate(zip_longest(expected, event_lines(produced))):
            if want != got:
                raise ReplayDivergence(record.step, record.first_event + offset, want, got,
                                       f"{command_to_json(record.intent)} produced a different event")
    return engine


__all__ = ["ReplayDivergence", "replay"]
