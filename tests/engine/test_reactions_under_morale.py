"""Morale stops reactions: broken, routed, surrendered NPCs make none (MOR-22, MOR-23); fled ones are gone (MOR-20)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.engine import events as ev
from ashfall.engine.decisions import FirstOption
from ashfall.engine.reactions import can_react
from ashfall.engine.records import Supplies
from ashfall.families.morale.rules import STATUS_MARKS, MoraleMark, Status
from ashfall.families.movement.moves import Stride
from ashfall.grid.board import Board
from tests.engine.map_kit import fighter, of_type, seeded, started


def _marked(status: Status | None, fled: bool) -> Supplies:
    marks = STATUS_MARKS[status] if status is not None else frozenset()
    return Supplies(marks | {MoraleMark.FLED} if fled else marks)


@pytest.mark.rule("MOR-22", "MOR-23", "MOR-20")
@pytest.mark.parametrize(("status", "fled", "barred_by"), [
    (Status.HOLD, False, None),
    (Status.FALL_BACK, False, None),
    (Status.BROKEN, False, "MOR-22"),
    (Status.ROUTED, False, "MOR-22"),
    (Status.SURRENDERED, False, "MOR-22"),
    (Status.FALL_BACK, True, "MOR-20"),
    (Status.BROKEN, True, "MOR-22"),
])
def test_mor_22__who_morale_keeps_from_reacting(status: Status, fled: bool, barred_by: str | None) -> None:
    raider = replace(fighter("r", "raiders", (2, 2), "raider"), supplies=_marked(status, fled))
    engine = started([fighter("w", "party", (3, 2)), raider], Board(8, 5))
    found = can_react(engine.state, engine.state.get("r"))
    assert (None if found is None else str(found)) == barred_by


@pytest.mark.rule("MOR-20", "RX-21")
def test_mor_20__a_fled_npc_is_not_offered_an_attack_of_opportunity() -> None:
    """Regression: a falling-back NPC that had fled was still asked for reactions (a GM's controller could take one)."""
    raider = replace(fighter("r", "raiders", (2, 2), "raider"), supplies=_marked(Status.FALL_BACK, True))
    other = fighter("o", "raiders", (7, 4), "raider")
    engine = started([fighter("w", "party", (3, 2)), raider, other], Board(8, 5), controllers={"r": FirstOption()})
    seeded(engine)
    events = engine.submit(Stride("w", ((4, 2), (5, 2))))
    assert not of_type(events, ev.DecisionMade)
    assert not of_type(events, ev.AttackRolled)
