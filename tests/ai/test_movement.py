"""Where the AI can move: routes that avoid Attacks of Opportunity, withdrawing, and shortest paths."""

from __future__ import annotations

import pytest

from ashfall.ai import Reason
from ashfall.ai.movement import MoveGraph, routes, threats
from ashfall.engine import Dodge, Stride
from ashfall.engine import events as ev
from ashfall.families.movement.moves import path_cost
from ashfall.grid.board import Board, Terrain
from ashfall.grid.geometry import space_distance_ft
from tests.ai.kit import fight, play_turn, unit


@pytest.mark.rule("RX-21", "ACT-2")
def test_routes__go_around_rather_than_leave_an_enemys_reach() -> None:
    board = Board(12, 12, walls=frozenset({(5, 4)}))
    me = unit("me", "party", (4, 4), "warrior")
    foe = unit("foe", "raiders", (5, 5), "raider")
    engine, _ = fight([me, foe], board, ai=["me"])
    state = engine.state
    found = routes(state, state.get("me"), 2, near=[foe.space], within_ft=100)
    direct = (5, 3), (6, 4)
    assert threats(state, state.get("me")) and path_cost(state, state.get("me"), direct) == 10
    way = found[(6, 4)]
    assert way.provokers == () and way.feet == 20 and way.actions == 1
    assert path_cost(state, state.get("me"), way.path) == way.feet


@pytest.mark.rule("MOV-3", "ACT-2")
def test_routes__price_terrain_as_the_engine_does() -> None:
    board = Board(12, 12, terrain={(x, 5): Terrain.DIFFICULT for x in range(12)})
    me = unit("me", "party", (5, 3), "warrior")
    foe = unit("foe", "raiders", (5, 10), "raider")
    engine, _ = fight([me, foe], board, ai=["me"])
    c = engine.state.get("me")
    found = routes(engine.state, c, 2, near=[foe.space], within_ft=100)
    for sq, way in found.items():
        if way.path:
            assert path_cost(engine.state, c, way.path) == way.feet, sq
    graph = MoveGraph.of(engine.state, c)
    assert graph.cost((5, 4), (5, 5), 0) == 10


@pytest.mark.rule("DOD-1", "DOD-2")
def test_withdraw__badly_hurt_and_outmatched_it_dodges_then_moves_away() -> None:
    me = unit("me", "party", (5, 5), "warrior", hp=5, uses={"second-wind": 1})
    friend = unit("friend", "party", (1, 1), "vanguard")
    boss = unit("boss", "raiders", (6, 5), "raider-boss")
    brute = unit("brute", "raiders", (6, 6), "raider-enforcer")
    engine, policy = fight([me, friend, boss, brute], ai=["me"])
    first = policy.choose(engine, "me")
    assert first is not None and first.reason is Reason.WITHDRAW and isinstance(first.intent, Dodge)
    intents = play_turn(engine, policy, "me")
    assert isinstance(intents[1], Stride)
    end = engine.state.get("me").position
    assert end is not None and space_distance_ft((end,), boss.space) > 5
    assert not [e for e in engine.log if isinstance(e, ev.AttackRolled) and e.actor != "me"]  # nothing provoked


def test_withdraw__alone_it_fights_on() -> None:
    me = unit("me", "party", (5, 5), "warrior", hp=5, uses={"second-wind": 1})
    boss = unit("boss", "raiders", (6, 5), "raider-boss")
    brute = unit("brute", "raiders", (6, 6), "raider-enforcer")
    engine, policy = fight([me, boss, brute], ai=["me"])
    choice = policy.choose(engine, "me")
    assert choice is not None and choice.reason is Reason.ATTACK
