"""Builders for the activity, spell and edition-1 action tests: library creatures, a started engine, MAP readers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ashfall.content.loader import default_library
from ashfall.core.types import Attribute, Condition
from ashfall.engine import Combatant, Controller, Engine, make_combatant
from ashfall.engine import events as ev
from ashfall.grid.board import Board, Square
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.health import Health
from ashfall.ruleset import Ruleset, preset
from tests.engine.maneuver_helpers import of_type as of_type  # re-exported for the activity tests
from tests.engine.maneuver_helpers import script as script
from tests.engine.maneuver_helpers import started as _started

LIB = default_library()
ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
TIEBREAK = 1_000_000
MAP_RULES = ("MAP-1", "MAP-5", "E-01", "TWF-8")
"""Rules of the modifiers that are a multiple attack penalty (or two-weapon fighting's own schedule)."""


def fighter(cid: str, side: str, pos: Square | None, creature: str = "warrior", *,
            weapons: Sequence[str] | None = None, talents: Iterable[str] = (), health: Health | None = None,
            conditions: Iterable[Condition] = (), ammo: Mapping[str, int] | None = None, focus: int = 0,
            ruleset: Ruleset = ED2, **changes: Any) -> Combatant:
    """A library creature at ``pos``, optionally re-armed, with talents, health, conditions, ammo or stat changes."""
    c = make_combatant(LIB, creature, cid, side, pos, ruleset=ruleset)
    if weapons is not None:
        c = replace(c, weapons=tuple(LIB.weapon(w) for w in weapons))
    if talents:
        changes["talents"] = c.creature.talents | frozenset(talents)
    if changes:
        c = replace(c, creature=c.creature.model_copy(update=changes))
    if health is not None:
        c = replace(c, health=health)
    if conditions:
        c = replace(c, conditions=tuple(AppliedCondition(k, "C-INC") for k in conditions))
    return replace(c, ammo=dict(ammo or {}), focus=focus)


def caster(cid: str, side: str, pos: Square | None, spells: Iterable[str], *, weapons: Sequence[str] = ("pistol",),
           talents: Iterable[str] = (), ruleset: Ruleset = ED2, **changes: Any) -> Combatant:
    """An Operative who casts with INT +3 (spell attack +5, spell DC 13) and knows ``spells``."""
    base = LIB.creature("operative")
    attributes = base.attributes.model_copy(update={"INT": 3})
    return fighter(cid, side, pos, "operative", weapons=weapons, talents=(*spells, *talents), ruleset=ruleset,
                   spell_attribute=Attribute.INT, attributes=attributes, **changes)


def started(combatants: Sequence[Combatant], board: Board | None = None, *, ruleset: Ruleset = ED2,
            controllers: Mapping[str, Controller] | None = None) -> Engine:
    """A started engine on a 20 x 20 map (or ``board``): turns go in roster order; reactions declined by default."""
    return _started(combatants, board if board is not None else Board(20, 20), ruleset=ruleset,
                    controllers=controllers)


def attacks(events: Iterable[Any]) -> list[ev.AttackRolled]:
    """The attack rolls among the events."""
    return of_type(events, ev.AttackRolled)


def mods(attack: ev.AttackRolled) -> dict[str, int]:
    """An attack's modifiers summed by rule ID."""
    out: dict[str, int] = {}
    for p in attack.roll.modifiers:
        out[p.rule] = out.get(p.rule, 0) + p.value
    return out


def map_of(attack: ev.AttackRolled) -> int:
    """The attack's multiple attack penalty (0 when none)."""
    return sum(v for r, v in mods(attack).items() if r in MAP_RULES)


def damage_to(events: Iterable[Any], target: str) -> list[int]:
    """Damage amounts dealt to ``target``, in order."""
    return [e.amount for e in of_type(events, ev.DamageTaken) if e.target == target]
