"""Typed state records change only by events, and clones and undo copy them (the battlefield's bookkeeping)."""

from __future__ import annotations

import pytest

from ashfall.engine import events as ev
from ashfall.engine.apply import apply
from ashfall.engine.engine import clone_state
from ashfall.engine.environment import Breath
from ashfall.grid.board import Board
from tests.engine.map_kit import fighter, started


@pytest.mark.rule("UW-1", "UW-9", "CHN-4", "G-51")
def test_uw_1__breath_depth_chains_and_hazard_marks_are_records_the_events_set_and_clones_keep_apart() -> None:
    engine = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (3, 1), "raider")], Board(6, 4))
    state = engine.state
    apply(state, ev.BreathChanged("w", 4, spent=1))
    apply(state, ev.BreathChanged("w", 3))
    apply(state, ev.DepthChanged("w", 10, 10))
    apply(state, ev.ChainPending("barrel", True))
    apply(state, ev.HazardTriggered("fire", "w", 1, "w", "G-51"))
    env = state.environment
    assert env.breath == {"w": Breath(3, state.round)}  # the round it last ran down is kept
    assert (env.depth_ft, env.chain_pending, env.hazard_marks) == ({"w": 10}, {"barrel"}, {("fire", "w"): (1, "w")})

    copy = clone_state(state)
    apply(copy, ev.BreathChanged("w", None))
    apply(copy, ev.DepthChanged("w", 0, -10))
    apply(copy, ev.ChainPending("barrel", False))
    apply(copy, ev.HazardTriggered("fire", "r", 1, "w", "G-51"))
    assert env.breath == {"w": Breath(3, state.round)} and env.depth_ft == {"w": 10}
    assert env.chain_pending == {"barrel"} and ("fire", "r") not in env.hazard_marks
    assert copy.environment.breath == {} and copy.environment.chain_pending == set()
