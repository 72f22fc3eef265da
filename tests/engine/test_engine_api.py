"""The public engine API: what ``ashfall.engine`` exports, typed intents, and unknown ids refused with a rule.

An intent that names nobody in the fight (as its actor, target, ally, grappler, mount, or the creature to
act after) is refused before any die is rolled, naming the action's rule and the field, like any other
illegal intent: a web request with a stale id must not crash the engine with a KeyError.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any, Literal, get_args, get_origin

import pytest

import ashfall.engine as api
from ashfall.content.schema import Creature, Weapon
from ashfall.engine import (
    Engine,
    Intent,
    Refused,
    Stride,
    Strike,
    catalog,
    intent_types,
    legal_intents,
    new_engine,
    new_state,
)
from ashfall.engine.engine import ID_FIELDS
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import LIB, fighter

ACTIONS = catalog.build().actions  # every family installed

GHOST = "ghost"


def duel() -> Engine:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")]
    engine = new_engine(new_state(roster, preset(), Board(6, 6)), 5)
    engine.start()
    return engine


def sample(hint: Any, name: str, ids: dict[str, str]) -> Any:
    """A plausible value of a field's type; combatant-id fields get the id given for them."""
    if name in ids:
        value = ids[name]
        return (value,) if get_origin(hint) is tuple else value
    origin, args = get_origin(hint), get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)), name, ids)
    if origin is Literal:
        return args[0]
    if origin is tuple:
        return (sample(args[0], name, ids),) if args[-1] is Ellipsis else tuple(sample(a, name, ids) for a in args)
    if hint is str:
        return "x"
    if hint is bool:
        return False
    if hint is int:
        return 1
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint))
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return build(hint, ids)
    if hint is Creature:  # a whole stat block (the GM adding a creature mid-fight)
        return LIB.creature("bandit")
    if hint is Weapon:
        return LIB.weapon("combat-knife")
    raise AssertionError(f"no sample for {hint!r}")


def build(kind: type, ids: dict[str, str]) -> Any:
    """An instance of an intent (or nested dataclass) with every required field filled."""
    hints = typing.get_type_hints(kind)
    values = {f.name: sample(hints[f.name], f.name, ids) for f in dataclasses.fields(kind)
              if f.name in ids or (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)}
    return kind(**values)


ACTIONS = catalog.build().actions  # every family installed
SHIPPED = [kind for kind in ACTIONS if kind.__module__.startswith("ashfall.")]  # not the ones tests register
TARGETED = [(kind, name) for kind in SHIPPED for name in
            (f.name for f in dataclasses.fields(kind) if f.name in ID_FIELDS)]


def test_api__exports_the_engine_surface_and_every_intent() -> None:
    for name in ("Engine", "Intent", "Event", "Decision", "legal_intents", "Refused", "NeedDecision", "new_engine",
                 "new_state", "make_combatant", "replay", "dumps", "loads", "IntentRecord", "FightLog"):
        assert name in api.__all__ and hasattr(api, name)
    exported = {getattr(api, n) for n in api.__all__}
    assert set(SHIPPED) <= exported and {api.StartCombat, api.EndTurn} <= set(intent_types().values())


def test_api__every_registered_intent_satisfies_the_intent_protocol() -> None:
    engine = duel()
    for intent in legal_intents(engine, engine.state.active_id or ""):
        checked: Intent = intent
        assert isinstance(checked.actor, str)


@pytest.mark.rule("ACT-1")
@pytest.mark.parametrize("kind", SHIPPED, ids=lambda k: k.__name__)
def test_unknown_actor__is_refused_with_the_actions_rule_for_every_intent_kind(kind: type) -> None:
    engine = duel()
    before = api.dumps(engine.log)
    intent = build(kind, {"actor": GHOST, **{n: "r" for n in ID_FIELDS}})
    with pytest.raises(Refused) as refused:
        engine.submit(intent)
    assert refused.value.rule == ACTIONS[kind].rule
    assert GHOST in refused.value.reason
    assert api.dumps(engine.log) == before


@pytest.mark.rule("ACT-1")
@pytest.mark.parametrize(("kind", "field"), TARGETED, ids=[f"{k.__name__}.{f}" for k, f in TARGETED])
def test_unknown_target__is_refused_naming_the_field_for_every_intent_kind_with_a_target(kind: type,
                                                                                          field: str) -> None:
    engine = duel()
    actor = engine.state.active_id
    other = "r" if actor == "w" else "w"
    assert actor is not None
    ids = {n: other for n in ID_FIELDS}
    ids.update({"actor": actor, field: GHOST})
    with pytest.raises(Refused) as refused:
        engine.submit(build(kind, ids))
    assert refused.value.rule == ACTIONS[kind].rule
    assert refused.value.reason == f"{field}: no combatant {GHOST!r} in this fight"


def test_unknown_target__is_refused_by_check_too_so_policies_can_ask_first() -> None:
    engine = duel()
    actor = engine.state.active_id or ""
    with pytest.raises(Refused):
        engine.check(Strike(actor, GHOST))
    with pytest.raises(Refused):
        engine.check(Stride(GHOST, ((3, 3),)))


def test_api__make_combatant_and_new_state_build_a_fight_from_the_library() -> None:
    w = api.make_combatant(LIB, "warrior", "w", "party", (1, 1))
    state = api.new_state([w], preset(), Board(4, 4))
    assert state.get("w").creature.id == "warrior" and not state.started


def test_intent_tags__are_unique_and_name_every_shipped_action() -> None:
    tags = intent_types()
    names = [ACTIONS[kind].name for kind in SHIPPED]
    assert len(set(names)) == len(names)
    assert {"start", "end-turn"}.isdisjoint(names)
    assert all(tags[ACTIONS[kind].name] is kind for kind in SHIPPED)
