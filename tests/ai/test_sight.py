"""The AI's fast situation reading agrees with the attack pipeline's (``ashfall.families.attacks.engine.situation``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ashfall.ai.sight import Sights
from ashfall.encounters import build, load_encounter
from ashfall.families.attacks.engine import situation
from ashfall.grid.board import Terrain

ENCOUNTERS = Path(__file__).resolve().parents[2] / "encounters"


@pytest.mark.rule("POS-1", "POS-4", "AMOD-7", "COV-1", "COV-2", "COV-3")
@pytest.mark.parametrize("name", ["skirmish.yaml", "bandit-band.yaml", "corridor.yaml"])
def test_sights__match_the_pipeline_from_every_square(name: str) -> None:
    engine, _ = build(load_encounter(ENCOUNTERS / name), 5)
    state = engine.state
    board = state.board
    assert board is not None
    sights = Sights(state)
    squares = [(x, y) for y in range(board.height) for x in range(board.width)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE and state.occupant((x, y)) is None]
    checked = 0
    for attacker in state.combatants.values():
        for target in state.enemies_of(attacker.id):
            for sq in squares[:: 7]:
                moved = replace(attacker, position=sq)
                for ranged in (False, True):
                    ours = sights.situation(attacker, moved.space, target, target.space, ranged)
                    assert ours == situation(state, moved, target, ranged), (attacker.id, target.id, sq, ranged)
                    checked += 1
    assert checked > 100
