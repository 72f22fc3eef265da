"""Intents as data: the :class:`Intent` protocol, the engine's own commands, and their JSON form.

An intent is a frozen dataclass naming its ``actor``; each action module defines its intents and
registers them with :mod:`ashfall.engine.actions`. Besides actions, the engine records two commands
of its own: :class:`StartCombat` (``Engine.start``) and :class:`EndTurn` (``Engine.end_turn``).

Every command has a stable ``type`` tag: an action's tag is its registered name (``strike``,
``power-strike``), the engine's commands are ``start`` and ``end-turn``. :func:`command_to_json`
writes a command as plain JSON data with its tag; :func:`command_from_json` validates such data
(from a stored log or a web request) back into the frozen value, with an error naming the field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Protocol, TypeAlias

from pydantic import TypeAdapter, ValidationError

from ashfall.engine.actions import ActionDef

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
"""Plain JSON data."""
JsonObject: TypeAlias = "dict[str, JsonValue]"
"""A JSON object."""


class Intent(Protocol):
    """What a controller submits: a frozen value naming the creature that acts.

    Every action's intent dataclass (``Strike``, ``Stride``, ``CastSpell`` …) satisfies it; the engine
    finds how to cost, check and resolve it by its type.
    """

    @property
    def actor(self) -> str:
        """The id of the creature that acts."""
        ...


@dataclass(frozen=True, slots=True)
class StartCombat:
    """``Engine.start``: initiative, surprise and the first turn (INIT, SUR)."""

    ambushers: str | None = None


@dataclass(frozen=True, slots=True)
class EndTurn:
    """``Engine.end_turn``: the active creature ends its turn."""

    actor: str


Command: TypeAlias = "Intent | StartCombat | EndTurn"
"""Anything the engine records in its log: an action's intent or one of the engine's own commands."""

ENGINE_COMMANDS: Mapping[str, type] = {"start": StartCombat, "end-turn": EndTurn}
"""The engine's own commands by tag."""


class IntentFormatError(ValueError):
    """JSON data that is not a valid command; the message names the field path."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@cache
def _every_action() -> Mapping[type, ActionDef]:
    """Every action of every rule family (a rulebook with all of them installed), by intent type."""
    from ashfall.engine.catalog import build  # the catalog installs every family: above this module

    return build().actions


def _tags() -> dict[str, type]:
    """Every known command type by tag (the engine's commands and every family's action intents)."""
    found: dict[str, type] = dict(ENGINE_COMMANDS)
    for kind, definition in _every_action().items():
        found[definition.name] = kind
    return found


def intent_types() -> dict[str, type]:
    """Every command type the engine knows, by its ``type`` tag."""
    return _tags()


def command_tag(command: Command) -> str:
    """The ``type`` tag of a command (``strike``, ``end-turn`` …).

    Raises:
        IntentFormatError: The command's type is not one the engine knows.
    """
    kind = type(command)
    definition = _every_action().get(kind)
    if definition is not None:
        return str(definition.name)
    for tag, known in ENGINE_COMMANDS.items():
        if kind is known:
            return tag
    raise IntentFormatError("type", f"{kind.__name__} is not an intent the engine knows")


_ADAPTERS: dict[type, TypeAdapter[object]] = {}


def _adapter(kind: type) -> TypeAdapter[object]:
    """The (cached) pydantic adapter that dumps and validates one command type."""
    found = _ADAPTERS.get(kind)
    if found is None:
        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


def command_to_json(command: Command) -> JsonObject:
    """A command as plain JSON data: its fields plus its ``type`` tag (tuples become lists)."""
    tag = command_tag(command)
    data: JsonObject = _adapter(type(command)).dump_python(command, mode="json", exclude_defaults=True)
    return {"type": tag, **data}


def command_from_json(data: Mapping[str, object], path: str = "intent") -> Command:
    """Validate JSON data (as written by :func:`command_to_json`) into a frozen command.

    Args:
        data: The JSON object, with its ``type`` tag.
        path: Where the object sits (for error messages), e.g. ``line 4: intent``.

    Raises:
        IntentFormatError: Unknown tag, a missing or unknown field, or a value of the wrong type.
    """
    if not isinstance(data, Mapping):
        raise IntentFormatError(path, "an intent must be a JSON object")
    tag = data.get("type")
    known = _tags()
    if not isinstance(tag, str) or tag not in known:
        raise IntentFormatError(f"{path}.type", f"unknown intent type {tag!r}")
    kind = known[tag]
    fields = {f.name for f in dataclasses.fields(kind)}
    extra = sorted(k for k in data if k != "type" and k not in fields)
    if extra:
        raise IntentFormatError(f"{path}.{extra[0]}", f"{tag} has no field {extra[0]!r}")
    try:
        value = _adapter(kind).validate_python({k: v for k, v in data.items() if k != "type"})
    except ValidationError as bad:
        first = bad.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise IntentFormatError(f"{path}.{where}" if where else path, first["msg"]) from None
    command: Command = value  # type: ignore[assignment]  # validated as one of the registered command types
    return command


__all__ = [
    "ENGINE_COMMANDS",
    "Command",
    "EndTurn",
    "Intent",
    "IntentFormatError",
    "JsonObject",
    "JsonValue",
    "StartCombat",
    "command_from_json",
    "command_tag",
    "command_to_json",
    "intent_types",
]
