"""No Attack of Opportunity against a creature behind total cover (RX-21, COV-3, STC-8)."""

from __future__ import annotations

import pytest

from ashfall.engine import FirstOption, Stride
from ashfall.grid.board import Board
from tests.engine.maneuver_helpers import fighter, started


@pytest.mark.rule("RX-21", "COV-3")
def test_rx_21__leaving_reach_around_a_wall_corner_offers_no_aoo_through_total_cover() -> None:
    board = Board(8, 8, walls=frozenset({(2, 1), (1, 2)}))
    eng = started([fighter("m", "party", (2, 2), "raider"), fighter("g", "raiders", (1, 1), "raider")], board,
                  controllers={"g": FirstOption()})
    events = eng.submit(Stride("m", ((3, 3),)))
    assert not any(type(e).__name__ == "ReactionSpent" for e in events)
    assert eng.state.get("m").position == (3, 3)
