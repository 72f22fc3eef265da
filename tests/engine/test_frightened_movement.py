"""Frightened: a frightened creature cannot willingly move closer to the source of its fear (C-FRI, 000:860).

Every willing move prices its path in one place (``movement.path_cost``), so Stride, Step, Crawl and Sprint
all refuse a step that closes the distance, before any die; the AI asks the engine about every move it
makes, so it never tries one.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai import default_policy
from ashfall.core.types import Condition
from ashfall.engine.actions import Refused
from ashfall.engine.engine import Engine
from ashfall.families.movement.moves import Sprint, Step, Stride
from ashfall.grid.board import Board
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import fighter, snapshot, started

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")


def _frightened_duel(source: str | None = "r", ruleset: Ruleset = ED2) -> Engine:
    """A Warrior at (1, 1) frightened of the Raider at (8, 1) (or of nobody in particular)."""
    w = fighter("w", "party", (1, 1), ruleset=ruleset)
    w = replace(w, conditions=(AppliedCondition(Condition.FRIGHTENED, "C-FRI", source=source),))
    return started([w, fighter("r", "raiders", (8, 1), "raider", ruleset=ruleset)], Board(10, 10), ruleset=ruleset)


def _refused_rule(engine: Engine, intent: object) -> str:
    before = snapshot(engine)
    with pytest.raises(Refused) as info:
        engine.submit(intent)
    assert snapshot(engine) == before  # refused before any die, nothing changed
    return str(info.value.rule)


@pytest.mark.rule("C-FRI")
@pytest.mark.parametrize("ruleset", [ED2, ED1], ids=["ashfall-2", "ashfall-1"])
@pytest.mark.parametrize("intent", [
    Stride("w", ((2, 1), (3, 1))),
    Step("w", (2, 1)),
    Sprint("w", ((2, 1), (3, 1), (4, 1))),
    Stride("w", ((1, 2), (2, 2))),  # a detour whose second step closes in
], ids=["stride", "step", "sprint", "detour"])
def test_c_fri__frightened_creature_cannot_move_closer_to_its_source(intent: object, ruleset: Ruleset) -> None:
    """000:860 "Cannot willingly move closer to source" (001:489 says the same)."""
    assert _refused_rule(_frightened_duel(ruleset=ruleset), intent) == "C-FRI"


@pytest.mark.rule("C-FRI")
def test_c_fri__moving_away_or_sideways_from_the_source_is_allowed() -> None:
    """000:860: only moving closer is forbidden; away (0, 1) and sideways (1, 2)→(1, 3) keep or open the gap."""
    engine = _frightened_duel()
    engine.submit(Stride("w", ((0, 1), (0, 2))))
    assert engine.state.get("w").position == (0, 2)


@pytest.mark.rule("C-FRI")
def test_c_fri__fear_of_someone_else_does_not_stop_an_approach() -> None:
    """000:860 names *the source*: fear of another creature (or of no creature) leaves this approach free."""
    for source in ("nobody-here", None):
        engine = _frightened_duel(source)
        engine.submit(Stride("w", ((2, 1), (3, 1))))
        assert engine.state.get("w").position == (3, 1)


@pytest.mark.rule("C-FRI")
def test_c_fri__the_ai_never_moves_a_frightened_creature_closer_to_its_source() -> None:
    """000:860: the AI plays the frightened Warrior's whole turn without closing on the Raider it fears."""
    engine = _frightened_duel()
    policy = default_policy()
    raider = engine.state.get("r")
    gaps = [space_distance_ft(engine.state.get("w").space, raider.space)]
    for _ in range(3):
        intent = policy.next_intent(engine, "w")
        if intent is None:
            break
        engine.submit(intent)
        gaps.append(space_distance_ft(engine.state.get("w").space, raider.space))
    assert gaps == sorted(gaps)  # never closer
