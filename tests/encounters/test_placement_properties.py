"""Invariants of zone placement on random ASCII maps (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.encounters.maps import DEFAULT_LEGEND
from ashfall.files.yaml_marks import InputError
from ashfall.grid.board import Terrain
from tests.encounters.kit import load

CELLS = [*DEFAULT_LEGEND, "A", "B"]


@st.composite
def maps(draw: st.DrawFn) -> tuple[list[str], int, int]:
    width = draw(st.integers(2, 8))
    height = draw(st.integers(1, 6))
    rows = ["".join(draw(st.sampled_from(CELLS)) for _ in range(width)) for _ in range(height)]
    return rows, draw(st.integers(1, 4)), draw(st.integers(1, 4))


def _text(rows: list[str], a: int, b: int) -> str:
    listed = "\n".join(f"    - '{r}'" for r in rows)
    return (f"name: P\nsides:\n  - {{name: a}}\n  - {{name: b}}\nmap:\n  rows:\n{listed}\n"
            f"combatants:\n  - {{creature: warrior, side: a, zone: A, count: {a}}}\n"
            f"  - {{creature: raider, side: b, zone: B, count: {b}}}\n")


@settings(max_examples=60, deadline=None)
@given(maps())
def test_zone_placement__distinct_passable_squares_in_the_zone_in_reading_order(
        case: tuple[list[str], int, int]) -> None:
    rows, a, b = case
    zone_a = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "A"]
    zone_b = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "B"]
    try:
        spec = load(_text(rows, a, b))
    except InputError as err:
        assert len(zone_a) < a or len(zone_b) < b, str(err)
        return
    positions = [e.position for e in spec.roster]
    assert len(set(positions)) == len(positions) == a + b
    assert positions == zone_a[:a] + zone_b[:b]
    assert spec.board is not None
    assert all(p is not None and spec.board.terrain_at(p) is Terrain.NORMAL for p in positions)
