"""Builders for the object, chain-reaction and improvised-action tests: objects from the library, a context."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ashfall.engine import Engine
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import MapObject
from ashfall.families.objects.engine import make_object
from ashfall.grid.board import Square
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import LIB

QUIET = preset().with_options(hazards={"enabled": False})
"""The default ruleset with spreading hazards off (no fire spread or burnout dice at the end of the round)."""


def obj(template: str, obj_id: str, at: Square, ruleset: Ruleset | None = None, **changes: Any) -> MapObject:
    """A library object at ``at``, optionally changed (``hp=3``, ``holds="lamp"``)."""
    made = make_object(LIB.object(template), obj_id, at, ruleset or preset())
    return replace(made, **changes) if changes else made


def place(engine: Engine, *objects: MapObject) -> None:
    """Put objects on the battlefield (logged, so undo and replay keep them)."""
    ctx = context(engine)
    for o in objects:
        ctx.emit(ev.ObjectPlaced(o, "placed", "OBJ-1"))


def context(engine: Engine) -> Context:
    """A resolution context on the engine (for calling battlefield functions directly)."""
    return Context(engine.state, engine.rng, engine.log, engine.controllers)


def since(engine: Engine, start: int) -> list[Any]:
    """The events logged from index ``start`` on."""
    return engine.log[start:]


def types(events: Iterable[Any]) -> list[str]:
    """The ``type`` of each event."""
    return [e.type for e in events]
