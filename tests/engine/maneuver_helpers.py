"""Builders for the maneuver and utility-action tests: library creatures on a map, an engine with a known order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ashfall.content.loader import default_library
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, Size
from ashfall.engine import Combatant, Controller, Decline, Engine, make_combatant, new_state
from ashfall.engine import events as ev
from ashfall.engine.records import supplies_of
from ashfall.engine.turns import initiative_modifiers
from ashfall.grid.board import Board, Square
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import Ruleset, preset

LIB = default_library()
ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
TIEBREAK = 1_000_000


def fighter(cid: str, side: str, pos: Square | None, creature: str = "warrior", *,
            weapons: Sequence[str] | None = None, size: Size | None = None, uses: Mapping[str, int] | None = None,
            conditions: Iterable[Condition] = (), ruleset: Ruleset = ED2, **creature_changes: Any) -> Combatant:
    """A library creature at ``pos``; optionally re-armed, resized, with counters, conditions or stat changes."""
    c = make_combatant(LIB, creature, cid, side, pos, ruleset=ruleset)
    if weapons is not None:
        natural = tuple(w for w in c.weapons if w.id in {n.id for n in c.creature.natural_weapons})
        c = replace(c, weapons=tuple(LIB.weapon(w) for w in weapons) + natural)
    if size is not None:
        creature_changes["size"] = size
    if creature_changes:
        c = replace(c, creature=c.creature.model_copy(update=creature_changes))
    if uses:
        c = replace(c, supplies=supplies_of(uses))
    if conditions:
        c = replace(c, conditions=tuple(AppliedCondition(k, "C-PRO") for k in conditions))
    return c


def started(combatants: Sequence[Combatant], board: Board | None = None, *, ruleset: Ruleset = ED2,
            controllers: Mapping[str, Controller] | None = None) -> Engine:
    """A started engine: turns go in roster order; every creature declines reactions unless told otherwise."""
    state = new_state(combatants, ruleset, board if board is not None else Board(10, 10))
    state.morale_enabled = False
    chosen: dict[str, Controller] = {c.id: Decline() for c in combatants}
    chosen.update(controllers or {})
    mods = [sum(m.value for m in initiative_modifiers(c, state)) for c in combatants]
    top = min(20 + i + m for i, m in enumerate(mods))  # totals top, top-1, ... in roster order
    faces: list[tuple[int, int]] = []
    for i, m in enumerate(mods):
        faces += [(20, top - i - m), (TIEBREAK, 1)]
    engine = Engine(state, ScriptedRng(faces), chosen, seed=None)
    engine.start()
    return engine


def script(engine: Engine, faces: Iterable[int | tuple[int, int]]) -> ScriptedRng:
    """Give the engine scripted dice from now on (the returned RNG can check they were all used)."""
    rng = ScriptedRng(faces)
    engine.rng = rng
    return rng


def of_type(events: Iterable[Any], kind: type) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, kind)]


def checks(events: Iterable[Any]) -> list[ev.CheckRolled]:
    """The checks rolled."""
    return of_type(events, ev.CheckRolled)


def next_turn(engine: Engine) -> None:
    """End the active creature's turn."""
    active = engine.state.active_id
    assert active is not None
    engine.end_turn(active)
