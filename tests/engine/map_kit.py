"""Builders for the map, positioning and invariant tests: combatants from the library, engines with a known order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ashfall.content.loader import default_library
from ashfall.content.schema import Weapon
from ashfall.core.rng import ScriptedRng, SeededRng
from ashfall.core.types import Condition, Size
from ashfall.engine import (
    Combatant,
    Controller,
    Decline,
    EncounterState,
    Engine,
    clone_state,
    make_combatant,
    new_state,
)
from ashfall.engine import events as ev
from ashfall.engine.rulebook import Rulebook
from ashfall.grid.board import Board, Square
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.health import Vitality
from ashfall.ruleset import Ruleset, preset
from tests.engine.maneuver_helpers import script as script  # one helper for scripted dice

LIB = default_library()
TIEBREAK = 1_000_000


def fighter(cid: str, side: str, pos: Square | None, creature: str = "warrior", *, weapons: Sequence[str] = (),
            size: Size | None = None, conditions: Iterable[Condition] = (), swim: int | None = None,
            ruleset: Ruleset | None = None, down: bool = False) -> Combatant:
    """A library creature at ``pos``, optionally re-armed, resized, with swim speed, conditions, or down at 0 HP."""
    c = make_combatant(LIB, creature, cid, side, pos, ruleset=ruleset)
    if down:
        c = replace(c, health=c.health.evolve(hp=0, vitality=Vitality.STABILIZED))
    if weapons:
        c = replace(c, weapons=tuple(LIB.weapon(w) for w in weapons))
    creature_changes: dict[str, Any] = {}
    if size is not None:
        creature_changes["size"] = size
    if swim is not None:
        creature_changes["speeds"] = c.creature.speeds.model_copy(update={"swim": swim})
    if creature_changes:
        c = replace(c, creature=c.creature.model_copy(update=creature_changes))
    if conditions:
        c = replace(c, conditions=tuple(AppliedCondition(k, "C-PRO") for k in conditions))
    return c


def weapon(weapon_id: str, **changes: Any) -> Weapon:
    """A library weapon, optionally changed (``properties=...``)."""
    return LIB.weapon(weapon_id).model_copy(update=changes)


def initiative_faces(roster: Sequence[str], first: str) -> list[tuple[int, int]]:
    """Scripted initiative: ``first`` rolls 20, everyone else 1 (then a tiebreak die each, INIT-3)."""
    faces: list[tuple[int, int]] = []
    for cid in roster:
        faces += [(20, 20 if cid == first else 1), (TIEBREAK, 1)]
    return faces


def started(combatants: Sequence[Combatant], board: Board | None = None, *, first: str | None = None,
            ruleset: Ruleset | None = None, controllers: Mapping[str, Controller] | None = None,
            rulebook: Rulebook | None = None) -> Engine:
    """A started engine whose first turn is ``first``'s (default: the first combatant); reactions declined."""
    state = new_state(combatants, ruleset or preset(), board)
    state.chosen_rulebook = rulebook
    roster = [c.id for c in combatants]
    chosen: dict[str, Controller] = {cid: Decline() for cid in roster}
    chosen.update(controllers or {})
    engine = Engine(state, ScriptedRng(initiative_faces(roster, first or roster[0])), chosen, seed=None)
    engine.start()
    return engine


def seeded(engine: Engine, seed: int = 0) -> None:
    """Give the engine seeded dice from now on."""
    engine.rng = SeededRng(seed)


def of_type(events: Iterable[Any], kind: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


def attack_of(events: Iterable[Any]) -> ev.AttackRolled:
    """The one attack roll among the events."""
    found = of_type(events, ev.AttackRolled)
    assert len(found) == 1, found
    return found[0]


def mod_rules(attack: ev.AttackRolled) -> dict[str, int]:
    """Attack modifiers by rule ID (summed)."""
    out: dict[str, int] = {}
    for p in attack.roll.modifiers:
        out[p.rule] = out.get(p.rule, 0) + p.value
    return out


def dv_rules(attack: ev.AttackRolled) -> dict[str, int]:
    """DV parts by rule ID (summed)."""
    out: dict[str, int] = {}
    for p in attack.dv_parts:
        out[p.rule] = out.get(p.rule, 0) + p.value
    return out


def snapshot(engine: Engine) -> tuple[EncounterState, int, str]:
    """The state (a copy), log length and dumped log, to compare before and after."""
    return clone_state(engine.state), len(engine.log), ev.dumps(engine.log)

