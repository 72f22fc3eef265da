"""Builders for the spreading-hazard tests: a state on an open board, a bare resolution context, started engines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ashfall.core.rng import ScriptedRng
from ashfall.engine import Combatant, Controller, Decline, EncounterState, Engine, new_state
from ashfall.engine.context import Context
from ashfall.engine.environment import Environment
from ashfall.grid.board import Board, Square
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import fighter, initiative_faces

__all__ = ["arena", "ctx_of", "fighter", "hazard_engine", "of_type", "ruleset"]


def ruleset(**hazards: Any) -> Ruleset:
    """The default ruleset with some ``hazards`` options changed."""
    return preset().with_options(hazards=hazards) if hazards else preset()


def arena(combatants: Sequence[Combatant] = (), board: Board | None = None, *, rules: Ruleset | None = None,
          env: Callable[[Environment], None] | None = None) -> EncounterState:
    """A state on a 12 x 12 open board (or ``board``) with the environment set up by ``env``."""
    state = new_state(list(combatants), rules or preset(), board or Board(12, 12))
    if env is not None:
        env(state.environment)
    return state


def ctx_of(state: EncounterState, faces: Iterable[int | tuple[int, int]] = (),
           controllers: Mapping[str, Controller] | None = None) -> tuple[Context, list[Any], ScriptedRng]:
    """A resolution context with scripted dice and its log."""
    rng = ScriptedRng(faces)
    log: list[Any] = []
    return Context(state, rng, log, controllers or {}), log, rng


def hazard_engine(state: EncounterState, first: str | None = None, faces: Iterable[int | tuple[int, int]] = (),
                  controllers: Mapping[str, Controller] | None = None) -> Engine:
    """A started engine on ``state``: scripted initiative puts ``first`` first, then ``faces`` are rolled."""
    roster = list(state.combatants)
    chosen: dict[str, Controller] = {cid: Decline() for cid in roster}
    chosen.update(controllers or {})
    engine = Engine(state, ScriptedRng([*initiative_faces(roster, first or roster[0]), *faces]), chosen, seed=None)
    engine.start()
    return engine


def of_type(log: Iterable[Any], kind: type) -> list[Any]:
    """The events of one type in a log."""
    return [e for e in log if isinstance(e, kind)]


def squares(*pairs: Square) -> tuple[Square, ...]:
    """Squares as a sorted tuple."""
    return tuple(sorted(pairs))
