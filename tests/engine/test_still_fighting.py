"""Who is still fighting: up, neither fled nor surrendered (DEATH-1, MOR-20, MOR-23)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.engine.records import supplies_of
from ashfall.engine.state import Combatant
from tests.engine.map_kit import fighter


def _down(c: Combatant) -> Combatant:
    return replace(c, health=c.health.evolve(hp=0, vitality=c.health.vitality.DYING))


@pytest.mark.rule("DEATH-1", "MOR-20", "MOR-23")
@pytest.mark.parametrize(("how", "fighting", "left"), [
    ("up", True, False),
    ("fled", False, True),
    ("surrendered", False, True),
    ("down", False, False),
    ("broken", True, False),
])
def test_mor_20__still_fighting_means_up_and_neither_fled_nor_surrendered(how: str, fighting: bool,
                                                                         left: bool) -> None:
    c = fighter("r", "raiders", (1, 1), "raider")
    if how == "down":
        c = _down(c)
    elif how != "up":
        c = replace(c, supplies=supplies_of({how: 1}))
    assert c.fighting is fighting
    assert c.left_fight is left
