"""Fleeing NPCs leave at an exit (MOR-20) and surrender when cornered (MOR-23)."""

from __future__ import annotations

import pytest

from ashfall.engine import Stride
from ashfall.engine.records import with_key
from ashfall.families.morale.engine_fleeing import can_reach_exit, exits_of
from ashfall.families.morale.rules import MoraleMark
from ashfall.grid.board import Board
from tests.engine.maneuver_helpers import fighter, next_turn, started


def _broken(eng, cid: str) -> None:  # type: ignore[no-untyped-def]
    eng.state.morale_enabled = True
    c = eng.state.get(cid)
    c.supplies = with_key(c.supplies, MoraleMark.BROKEN, 1)


@pytest.mark.rule("MOR-20", "MOR-21")
def test_mor_20__a_broken_npc_that_steps_onto_an_exit_has_fled() -> None:
    eng = started([fighter("b", "bandits", (1, 1), "bandit"), fighter("w", "party", (8, 8))])
    _broken(eng, "b")
    eng.submit(Stride("b", ((0, 1),)))
    assert eng.state.get("b").uses.get("fled") == 1


@pytest.mark.rule("MOR-20")
def test_mor_20__fled_creatures_take_no_more_turns_and_the_fight_ends() -> None:
    eng = started([fighter("b", "bandits", (1, 1), "bandit"), fighter("w", "party", (8, 8))])
    _broken(eng, "b")
    eng.submit(Stride("b", ((0, 1),)))
    assert eng.state.ended and eng.state.winner == "party"


@pytest.mark.rule("MOR-23", "MOR-19")
def test_mor_23__a_broken_npc_with_no_way_out_surrenders_at_the_start_of_its_turn() -> None:
    walls = frozenset({(0, 1), (1, 0), (0, 0), (0, 2), (1, 2), (2, 0), (2, 2)})
    board = Board(6, 6, walls=walls)
    eng = started([fighter("w", "party", (2, 1)), fighter("b", "bandits", (1, 1), "bandit")], board)
    _broken(eng, "b")
    assert not can_reach_exit(eng.state, eng.state.get("b"))
    next_turn(eng)
    assert eng.state.get("b").uses.get("surrendered") == 1


def test_exits__default_to_the_passable_edge_of_the_map() -> None:
    eng = started([fighter("w", "party", (2, 2)), fighter("b", "bandits", (3, 3), "bandit")], Board(4, 4))
    assert exits_of(eng.state) == {(x, y) for x in range(4) for y in range(4) if x in (0, 3) or y in (0, 3)}
