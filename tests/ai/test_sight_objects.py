"""The AI reads the cover an intact object gives, as the attack itself will (STC-10, COV-1)."""

from __future__ import annotations

import pytest

from ashfall.ai.sight import Sights
from ashfall.grid.board import Board
from ashfall.rules.defense import Cover
from tests.engine.map_kit import fighter, started
from tests.engine.object_kit import QUIET, obj, place


@pytest.mark.rule("COV-1", "STC-3", "STC-10")
@pytest.mark.parametrize(("broken", "cover"), [(False, Cover.PARTIAL), (True, Cover.NONE)])
def test_stc_10__the_ai_sees_cover_from_an_intact_object_and_none_from_a_broken_one(broken: bool,
                                                                                   cover: Cover) -> None:
    """Regression: the AI's situation read the board's own cover only, so a barricade gave no cover in its odds."""
    engine = started([fighter("s", "a", (1, 2), "raider-scout"), fighter("t", "b", (5, 2), "vanguard")],
                     Board(10, 6), ruleset=QUIET)
    place(engine, obj("wooden-barricade", "bar", (4, 2)))
    engine.state.environment.objects["bar"].broken = broken
    s, t = engine.state.get("s"), engine.state.get("t")
    for square in ((1, 2), (1, 1), (0, 2)):  # where it stands, and what-if squares behind the barricade
        assert Sights(engine.state).situation(s, (square,), t, t.space, True).cover is cover
