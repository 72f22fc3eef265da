"""Who blocks a move (ACT-2): enemies still standing bar passage; any living creature bars the last square."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.engine.setup import new_state
from ashfall.families.movement.moves import blocking
from ashfall.grid.board import Board
from ashfall.rules.health import Vitality
from tests.engine.map_kit import fighter


@pytest.mark.rule("ACT-2")
def test_act_2__enemies_standing_bar_passage_and_every_living_creature_bars_the_last_square() -> None:
    mover = fighter("m", "party", (0, 0))
    ally = fighter("a", "party", (1, 0))
    foe = fighter("f", "raiders", (2, 0), "raider")
    downed = fighter("d", "raiders", (3, 0), "raider")
    downed = replace(downed, health=downed.health.evolve(hp=0, vitality=Vitality.DYING))
    dead = fighter("x", "raiders", (4, 0), "raider")
    dead = replace(dead, health=dead.health.evolve(hp=0, vitality=Vitality.DEAD))
    rider = replace(fighter("r", "party", (0, 0)), mounted_on="m")
    state = new_state([mover, ally, foe, downed, dead, rider], board=Board(6, 2))
    passage, stop = blocking(state, state.get("m"))
    assert passage == {(2, 0)}
    assert stop == {(1, 0), (2, 0), (3, 0)}
