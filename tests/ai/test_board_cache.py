"""The AI's board caches: step prices follow the battlefield (HAZC-5); cover by board identity stays exact."""

from __future__ import annotations

import pytest

from ashfall.ai.board_cache import sightline, static_step
from ashfall.families.movement.moves import board_only_costs
from ashfall.grid.board import Board
from ashfall.grid.geometry import cover_between, high_ground
from tests.engine.maneuver_helpers import fighter, started


@pytest.mark.rule("HAZC-5", "MOV-4")
def test_hazc_5__rubble_added_after_a_cached_price_makes_the_step_greater_difficult() -> None:
    eng = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (8, 8), "raider")])
    state, mover = eng.state, eng.state.get("w")
    assert board_only_costs(state)
    assert static_step(state, mover, 1, (1, 1), (2, 1), 0) == 5  # cached on a quiet board
    state.environment.rubble.add((2, 1))
    assert not board_only_costs(state)
    assert static_step(state, mover, 1, (1, 1), (2, 1), 0) == 15  # greater difficult terrain (x3)


@pytest.mark.rule("COV-1", "COV-3", "POS-4")
def test_sightline__cached_agrees_with_the_geometry_across_many_boards() -> None:
    """Cover and high ground by board identity stay right while boards come and go (the registry empties)."""
    squares = [(0, 0), (2, 1), (4, 4), (1, 3)]
    for n in range(150):
        board = Board(6, 6, walls=frozenset({(n % 3 + 1, n % 2 + 1)}), elevation={(0, 0): 5 * (n % 2)})
        for a in squares:
            for b in squares:
                if a == b:
                    continue
                expected = (cover_between(board, (a,), (b,))[0], high_ground(board, (a,), (b,)))
                assert sightline(board, (a,), (b,)) == expected
                assert sightline(board, (a,), (b,)) == expected
