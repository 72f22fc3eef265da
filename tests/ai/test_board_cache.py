"""The AI's step-price cache follows the battlefield: rubble added mid-fight changes prices (HAZC-5)."""

from __future__ import annotations

import pytest

from ashfall.ai.board_cache import static_step
from ashfall.engine.moves.movement import board_only_costs
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
