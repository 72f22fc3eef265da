"""Shipped encounters for the speed caches' agreement tests: an engine at the start of a fight, free squares."""

from __future__ import annotations

from pathlib import Path

from ashfall.encounters import build, load_encounter
from ashfall.engine import Engine
from ashfall.grid.board import Square, Terrain

ENCOUNTERS = Path(__file__).resolve().parents[2] / "encounters"
NAMES = ["skirmish.yaml", "bandit-band.yaml", "corridor.yaml"]
"""Encounters with cover, high ground, ranged and melee creatures and morale: what the caches read."""


def shipped_engine(name: str, seed: int = 5) -> Engine:
    """The encounter built with ``seed`` (placed and started, nobody has acted)."""
    engine, _ = build(load_encounter(ENCOUNTERS / name), seed)
    return engine


def free_squares(engine: Engine, every: int) -> list[Square]:
    """Every ``every``-th passable square nobody stands on, in reading order."""
    state = engine.state
    board = state.board
    assert board is not None
    free = [(x, y) for y in range(board.height) for x in range(board.width)
            if board.terrain_at((x, y)) is not Terrain.IMPASSABLE and state.occupant((x, y)) is None]
    return free[::every]
