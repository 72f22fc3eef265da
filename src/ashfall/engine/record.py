"""The fight log with its intents: :class:`IntentRecord`, :class:`FightLog` and their canonical JSON lines.

The engine keeps two lists: ``Engine.log``, every event in order, and ``Engine.records``, one
:class:`IntentRecord` per command it resolved (the start, each intent, each turn end) with the answers
its decisions got and the span of events it produced. Together with the seed they are everything a
fight is: :func:`ashfall.engine.replaying.replay` rebuilds it from them.

The text form (:func:`dumps_log`) is JSON lines with sorted keys, one object per line, each with a
``type``: a ``fight`` header (format, seed, ruleset, free-form ``setup`` labels), then for every
record an ``intent`` line followed by the lines of the events it produced, exactly as
:func:`ashfall.engine.events.dumps` writes them::

    {"format":1,"ruleset":"ashfall-2","seed":7,"setup":{},"type":"fight"}
    {"answers":[],"events":6,"intent":{"type":"start"},"step":0,"type":"intent"}
    {"roster":["w","r"],"rule":"INIT-2","ruleset":"ashfall-2","seed":7,"type":"combat-started"}
    …
    {"answers":[null],"events":9,"intent":{"actor":"w","path":[[2,2]],"type":"stride"},"step":1,"type":"intent"}
    …

:func:`loads_log` reads it back, refusing anything malformed with the line and field that are wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from ashfall.engine import events as ev
from ashfall.engine.events import Event
from ashfall.engine.intents import Command, IntentFormatError, JsonObject, command_from_json, command_to_json

LOG_FORMAT = 1
"""The version of the text form; :func:`loads_log` refuses other versions."""

Answer = str | None
"""A decision's answer: an option key, or None for a declined optional decision."""


@dataclass(frozen=True, slots=True)
class IntentRecord:
    """One command the engine resolved, as data.

    Attributes:
        step: Its position among the records (0 is the start of the fight).
        intent: The command: an action's intent, :class:`~ashfall.engine.intents.StartCombat` or
            :class:`~ashfall.engine.intents.EndTurn`.
        answers: Every decision's answer while it resolved, in the order asked (supplied answers and
            controllers' answers alike), so it resolves again without asking anyone.
        first_event: The index in the event log of its first event.
        events: How many events it produced.
        faces: The entered dice it used, ``(die index, face)`` in order; face None: the engine rolled that one
            ("roll it for me"). Empty when nobody entered dice (:mod:`ashfall.engine.dice_entry`).
    """

    step: int
    intent: Command
    answers: tuple[Answer, ...]
    first_event: int
    events: int
    faces: tuple[tuple[int, int | None], ...] = ()

    @property
    def end_event(self) -> int:
        """The index just past its last event."""
        return self.first_event + self.events


@dataclass(frozen=True, slots=True)
class FightLog:
    """A whole fight as data: the seed, the ruleset's name, the records and the events.

    Attributes:
        seed: The seed of the engine's RNG (None when it was not seeded, e.g. scripted dice).
        ruleset: The ruleset's name.
        records: The commands in order.
        events: Every event in order (each record's span indexes into it).
        setup: Labels saying how the initial state was built (``encounter``, ``ruleset`` …), for whoever
            replays it; the engine does not read them.
    """

    seed: int | None
    ruleset: str
    records: tuple[IntentRecord, ...]
    events: tuple[Event, ...]
    setup: Mapping[str, str] = field(default_factory=dict)

    def events_of(self, record: IntentRecord) -> tuple[Event, ...]:
        """The events one record produced."""
        return self.events[record.first_event:record.end_event]


class LogFormatError(ValueError):
    """A fight log that cannot be read; the message names the line and the field."""

    def __init__(self, line: int, field_path: str, reason: str) -> None:
        super().__init__(f"line {line}: {field_path}: {reason}")
        self.line = line
        self.field = field_path
        self.reason = reason


def _line(data: JsonObject) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def record_to_json(record: IntentRecord) -> JsonObject:
    """An intent record's line as JSON data (without its events); ``faces`` only when dice were entered."""
    data: JsonObject = {"type": "intent", "step": record.step, "intent": command_to_json(record.intent),
                        "answers": list(record.answers), "events": record.events}
    if record.faces:
        data["faces"] = [[index, face] for index, face in record.faces]
    return data


def faces_from_json(raw: object) -> tuple[tuple[int, int | None], ...]:
    """Entered faces from a record's ``faces`` field (``[[index, face-or-null], …]``).

    Raises:
        ValueError: Not a list of [index, face] pairs with whole numbers (face may be null).
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError("must be a list of [die index, face] pairs")
    out: list[tuple[int, int | None]] = []
    for item in raw:
        if (not isinstance(item, list) or len(item) != 2 or not _whole(item[0])
                or not (item[1] is None or _whole(item[1]))):
            raise ValueError("must be a list of [die index, face] pairs (face: a whole number or null)")
        out.append((item[0], item[1]))
    return tuple(out)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def dumps_log(log: FightLog) -> str:
    """The canonical text of a fight log: the header, then each record's line followed by its events' lines."""
    header: JsonObject = {"type": "fight", "format": LOG_FORMAT, "seed": log.seed, "ruleset": log.ruleset,
                          "setup": dict(log.setup)}
    lines = [_line(header)]
    event_lines = ev.dumps(log.events).splitlines() if log.events else []
    for record in log.records:
        lines.append(_line(record_to_json(record)))
        lines.extend(event_lines[record.first_event:record.end_event])
    return "\n".join(lines) + "\n"


def _object(raw: str, number: int) -> dict[str, object]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as bad:
        raise LogFormatError(number, "-", f"not JSON: {bad.msg}") from None
    if not isinstance(data, dict):
        raise LogFormatError(number, "-", "each line must be a JSON object")
    return data


def _header(data: dict[str, object], number: int) -> tuple[int | None, str, dict[str, str]]:
    if data.get("type") != "fight":
        raise LogFormatError(number, "type", "the first line must be the fight header (type 'fight')")
    if data.get("format") != LOG_FORMAT:
        raise LogFormatError(number, "format", f"unsupported log format {data.get('format')!r} (expected {LOG_FORMAT})")
    seed, ruleset, setup = data.get("seed"), data.get("ruleset"), data.get("setup", {})
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise LogFormatError(number, "seed", "must be an integer or null")
    if not isinstance(ruleset, str):
        raise LogFormatError(number, "ruleset", "must be a string")
    if not isinstance(setup, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in setup.items()):
        raise LogFormatError(number, "setup", "must be an object of strings")
    return seed, ruleset, dict(setup)


def _record(data: dict[str, object], number: int, step: int, first_event: int) -> IntentRecord:
    if data.get("step") != step:
        raise LogFormatError(number, "step", f"expected step {step}, found {data.get('step')!r}")
    count, answers, intent = data.get("events"), data.get("answers"), data.get("intent")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise LogFormatError(number, "events", "must be a count of events")
    if not isinstance(answers, list) or not all(a is None or isinstance(a, str) for a in answers):
        raise LogFormatError(number, "answers", "must be a list of option keys or nulls")
    if not isinstance(intent, dict):
        raise LogFormatError(number, "intent", "must be a JSON object")
    try:
        command = command_from_json(intent, "intent")
    except IntentFormatError as bad:
        raise LogFormatError(number, bad.path, bad.reason) from None
    try:
        faces = faces_from_json(data.get("faces"))
    except ValueError as bad:
        raise LogFormatError(number, "faces", str(bad)) from None
    return IntentRecord(step, command, tuple(answers), first_event, count, faces)


def loads_log(text: str) -> FightLog:
    """Read a fight log written by :func:`dumps_log`.

    Raises:
        LogFormatError: A line is not JSON, a record or event is malformed, or a record claims more
            events than follow it (the error names the line and the field).
    """
    numbered = [(n, raw) for n, raw in enumerate(text.splitlines(), start=1) if raw.strip()]
    if not numbered:
        raise LogFormatError(1, "-", "empty log: expected the fight header")
    seed, ruleset, setup = _header(_object(numbered[0][1], numbered[0][0]), numbered[0][0])
    records: list[IntentRecord] = []
    events: list[Event] = []
    pending = 0
    for number, raw in numbered[1:]:
        data = _object(raw, number)
        if data.get("type") == "intent":
            if pending:
                raise LogFormatError(number, "type", f"the previous intent claims {pending} more event(s)")
            record = _record(data, number, len(records), len(events))
            records.append(record)
            pending = record.events
            continue
        if not records:
            raise LogFormatError(number, "type", "an event before the first intent record")
        if not pending:
            raise LogFormatError(number, "type", "an event beyond the count its intent record gives")
        try:
            events.extend(ev.loads(raw))
        except ValidationError as bad:
            first = bad.errors()[0]
            where = ".".join(str(p) for p in first["loc"][1:]) or "-"
            raise LogFormatError(number, where, first["msg"]) from None
        pending -= 1
    if pending:
        raise LogFormatError(numbered[-1][0], "events", f"the last intent claims {pending} more event(s)")
    return FightLog(seed, ruleset, tuple(records), tuple(events), setup)


def event_line(event: Event) -> str:
    """One event's canonical line (how replays compare events)."""
    return ev.dumps([event]).rstrip("\n")


def event_lines(events: Sequence[Event]) -> list[str]:
    """Events' canonical lines."""
    return ev.dumps(events).splitlines() if events else []


__all__ = [
    "LOG_FORMAT",
    "Answer",
    "FightLog",
    "IntentRecord",
    "LogFormatError",
    "dumps_log",
    "event_line",
    "event_lines",
    "faces_from_json",
    "loads_log",
    "record_to_json",
]
