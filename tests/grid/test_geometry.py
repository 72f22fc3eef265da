"""Board geometry: distances (both diagonal rules), footprints, flanking lines, cover tracing, high ground."""

from __future__ import annotations

import pytest

from ashfall.grid.board import Board, CoverLevel, CoverObject, Square, Terrain, footprint
from ashfall.grid.geometry import (
    Diagonals,
    centre,
    cover_between,
    flanks,
    has_line_of_sight,
    high_ground,
    line_squares,
    space_distance_ft,
    square_distance_ft,
    within,
)
from ashfall.grid.paths import shortest_path

ONE = 1
LARGE = 2


def sq(x: int, y: int, side: int = ONE) -> tuple[Square, ...]:
    return footprint((x, y), side)


# ----- distances (MOV-1, G-37) -----


@pytest.mark.rule("MOV-1", "G-37")
@pytest.mark.parametrize(
    ("a", "b", "five", "alternating"),
    [
        ((0, 0), (0, 0), 0, 0),
        ((0, 0), (1, 0), 5, 5),
        ((0, 0), (1, 1), 5, 5),  # first diagonal 5 ft either way
        ((0, 0), (2, 2), 10, 15),  # 5 + 10
        ((0, 0), (3, 3), 15, 20),  # 5 + 10 + 5
        ((0, 0), (4, 4), 20, 30),
        ((0, 0), (6, 0), 30, 30),  # a 30-ft Stride is 6 squares (MOV-1)
        ((0, 0), (5, 2), 25, 30),  # 2 diagonals + 3 straight
        ((3, 4), (0, 0), 20, 25),  # symmetric, any direction
    ],
)
def test_g_37__square_distance_with_both_diagonal_rules(a: Square, b: Square, five: int, alternating: int) -> None:
    assert square_distance_ft(a, b) == five
    assert square_distance_ft(a, b, Diagonals.FIVE) == five
    assert square_distance_ft(a, b, Diagonals.ALTERNATING) == alternating
    assert square_distance_ft(b, a, Diagonals.ALTERNATING) == alternating


@pytest.mark.rule("G-37")
def test_g_37__space_distance_is_between_nearest_squares_of_large_creatures() -> None:
    large = sq(0, 0, LARGE)  # (0,0)-(1,1)
    assert space_distance_ft(large, sq(2, 0)) == 5  # adjacent to its right edge
    assert space_distance_ft(large, sq(2, 2)) == 5  # diagonal to its corner
    assert space_distance_ft(large, sq(4, 1)) == 15
    assert space_distance_ft(large, sq(4, 4), Diagonals.ALTERNATING) == 20  # 3 diagonals from (1,1): 5 + 10 + 5
    assert space_distance_ft(large, sq(3, 3, LARGE)) == 10
    assert within(large, sq(3, 1), 10)
    assert not within(large, sq(4, 1), 10)


@pytest.mark.rule("G-37")
@pytest.mark.parametrize(
    ("origin", "side", "expected"),
    [
        ((2, 3), 1, ((2, 3),)),
        ((2, 3), 2, ((2, 3), (3, 3), (2, 4), (3, 4))),
        ((0, 0), 3, tuple((x, y) for y in range(3) for x in range(3))),
    ],
)
def test_footprint__medium_large_and_huge_spaces(origin: Square, side: int, expected: tuple[Square, ...]) -> None:
    assert footprint(origin, side) == expected


def test_centre__of_one_square_and_of_a_large_space() -> None:
    assert centre(sq(2, 3)) == (2.5, 3.5)
    assert centre(sq(2, 3, LARGE)) == (3.0, 4.0)


# ----- flanking (POS-1, G-37: the centre line crosses opposite sides or opposite corners) -----


FLANK_CASES = [
    # attacker, ally, target, flanks?
    pytest.param(sq(0, 1), sq(2, 1), sq(1, 1), True, id="opposite-sides-horizontal"),
    pytest.param(sq(1, 0), sq(1, 2), sq(1, 1), True, id="opposite-sides-vertical"),
    pytest.param(sq(0, 0), sq(2, 2), sq(1, 1), True, id="opposite-corners"),
    pytest.param(sq(2, 0), sq(0, 2), sq(1, 1), True, id="opposite-corners-other-diagonal"),
    pytest.param(sq(0, 1), sq(1, 0), sq(1, 1), False, id="adjacent-sides-left-and-top"),
    pytest.param(sq(0, 0), sq(2, 0), sq(1, 1), False, id="both-above-line-misses-target"),
    pytest.param(sq(0, 0), sq(2, 1), sq(1, 1), False, id="corner-and-side-not-opposite"),
    pytest.param(sq(0, 1), sq(2, 0), sq(1, 1), False, id="side-and-far-corner-not-opposite"),
    pytest.param(sq(0, 0), sq(1, 0), sq(1, 1), False, id="same-side"),
    pytest.param(sq(0, 1), sq(3, 1), sq(1, 1), True, id="ally-two-squares-away-still-a-line"),
    # Large target (1,1)-(2,2)
    pytest.param(sq(0, 1), sq(3, 2), sq(1, 1, LARGE), True, id="large-left-and-right"),
    pytest.param(sq(1, 0), sq(2, 3), sq(1, 1, LARGE), True, id="large-top-and-bottom-offset"),
    pytest.param(sq(0, 0), sq(3, 3), sq(1, 1, LARGE), True, id="large-opposite-corners"),
    pytest.param(sq(3, 0), sq(0, 3), sq(1, 1, LARGE), True, id="large-other-opposite-corners"),
    pytest.param(sq(0, 0), sq(3, 1), sq(1, 1, LARGE), False, id="large-top-then-right-not-opposite"),
    pytest.param(sq(0, 1), sq(1, 0), sq(1, 1, LARGE), False, id="large-adjacent-sides"),
    pytest.param(sq(0, 2), sq(3, 0), sq(1, 1, LARGE), False, id="large-enters-left-leaves-top-not-opposite"),
    pytest.param(sq(0, 2), sq(3, 1), sq(1, 1, LARGE), True, id="large-left-to-right-slanted"),
    # Large attacker and ally around a Medium target
    # their centre line runs along the target's top edge: it is still squarely between them
    pytest.param(sq(0, 0, LARGE), sq(3, 0, LARGE), sq(2, 1), True, id="large-pair-line-along-targets-edge"),
    pytest.param(sq(0, 0, LARGE), sq(3, 0, LARGE), sq(2, 2), False, id="large-pair-target-below-the-line"),
    pytest.param(sq(0, 1, LARGE), sq(3, 1, LARGE), sq(2, 1), True, id="large-pair-through-medium-target"),
]


@pytest.mark.rule("POS-1", "G-37")
@pytest.mark.parametrize(("attacker", "ally", "target", "expected"), FLANK_CASES)
def test_pos_1__flanking_line_through_opposite_sides_or_corners(
    attacker: tuple[Square, ...], ally: tuple[Square, ...], target: tuple[Square, ...], expected: bool
) -> None:
    assert flanks(attacker, ally, target) is expected
    assert flanks(ally, attacker, target) is expected  # symmetric


@pytest.mark.rule("POS-1")
def test_pos_1__an_endpoint_inside_the_target_is_not_flanking() -> None:
    assert not flanks(sq(1, 1), sq(3, 1), sq(1, 1, LARGE))


# ----- lines and cover (COV-1..3, X-01) -----


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0.5, 0.5), (3.5, 0.5), [(0, 0), (1, 0), (2, 0), (3, 0)]),
        ((0.5, 0.5), (2.5, 2.5), [(0, 0), (1, 1), (2, 2)]),  # through corners: no side squares
        ((0.5, 1.5), (1.5, 0.5), [(0, 1), (1, 0)]),  # corner touch of (0,0) and (1,1) excluded
        ((0.5, 0.5), (3.5, 1.5), [(0, 0), (1, 0), (2, 1), (3, 1)]),  # crosses exactly at the corner (2,1)
        ((0.5, 0.5), (5.5, 1.4), [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (4, 1), (5, 1)]),
        ((1.0, 1.0), (5.0, 1.0), []),  # runs along a grid line: in no square's interior
    ],
)
def test_line_squares__exact_traversal_excludes_corner_touches(
    a: tuple[float, float], b: tuple[float, float], expected: list[Square]
) -> None:
    assert list(line_squares(a, b)) == expected


def board(walls: tuple[Square, ...] = (), cover: dict[Square, CoverObject] | None = None,
          elevation: dict[Square, int] | None = None) -> Board:
    return Board(10, 10, walls=frozenset(walls), cover=cover or {}, elevation=elevation or {})


CRATE = CoverObject(CoverLevel.PARTIAL, name="crate")
CONCRETE = CoverObject(CoverLevel.HEAVY, name="concrete barrier")


@pytest.mark.rule("COV-1", "COV-2", "COV-3", "POS-6")
@pytest.mark.parametrize(
    ("b", "attacker", "target", "level", "name"),
    [
        pytest.param(board(), sq(0, 0), sq(5, 0), CoverLevel.NONE, "", id="open-ground"),
        pytest.param(board(walls=((2, 0),)), sq(0, 0), sq(5, 0), CoverLevel.TOTAL, "wall", id="wall-between"),
        pytest.param(board(cover={(2, 0): CRATE}), sq(0, 0), sq(5, 0), CoverLevel.PARTIAL, "crate", id="crate"),
        pytest.param(board(cover={(2, 0): CRATE, (3, 0): CONCRETE}), sq(0, 0), sq(5, 0), CoverLevel.HEAVY,
                     "concrete barrier", id="best-object-counts"),
        pytest.param(board(cover={(2, 1): CRATE}), sq(0, 0), sq(5, 0), CoverLevel.NONE, "", id="object-off-line"),
        pytest.param(board(walls=((0, 0),)), sq(0, 1), sq(1, 0), CoverLevel.NONE, "",
                     id="one-wall-corner-grazed-is-no-cover"),
        pytest.param(board(walls=((0, 0), (1, 1))), sq(0, 1), sq(1, 0), CoverLevel.TOTAL, "wall",
                     id="two-walls-meeting-at-a-corner-block"),
        pytest.param(board(walls=((2, 0), (2, 1))), sq(0, 0, LARGE), sq(4, 0, LARGE), CoverLevel.TOTAL, "wall",
                     id="large-pair-line-along-grid-line-blocked-by-wall-on-both-sides"),
        pytest.param(board(walls=((2, 0),)), sq(0, 0, LARGE), sq(4, 0, LARGE), CoverLevel.NONE, "",
                     id="large-pair-line-along-edge-of-one-wall"),
        pytest.param(board(cover={(1, 0): CRATE}), sq(0, 0), sq(1, 0), CoverLevel.NONE, "",
                     id="object-in-targets-own-square-ignored"),
        pytest.param(board(walls=((3, 3),)), sq(0, 0), sq(6, 6), CoverLevel.TOTAL, "wall", id="diagonal-through-wall"),
    ],
)
def test_cov__cover_traced_through_walls_and_objects(
    b: Board, attacker: tuple[Square, ...], target: tuple[Square, ...], level: CoverLevel, name: str
) -> None:
    assert cover_between(b, attacker, target) == (level, name)
    assert cover_between(b, target, attacker)[0] is level  # cover is symmetric on these lines
    assert has_line_of_sight(b, attacker, target) is (level is not CoverLevel.TOTAL)


# ----- high ground (POS-4, G-37: at least 5 ft higher) -----


@pytest.mark.rule("POS-4", "G-37")
@pytest.mark.parametrize(
    ("attacker_height", "target_height", "expected"),
    [(5, 0, True), (10, 0, True), (4, 0, False), (0, 0, False), (15, 10, True), (10, 10, False), (0, 5, False)],
)
def test_pos_4__high_ground_is_at_least_5_ft_higher(attacker_height: int, target_height: int, expected: bool) -> None:
    b = board(elevation={(0, 0): attacker_height, (4, 0): target_height})
    assert high_ground(b, sq(0, 0), sq(4, 0)) is expected


@pytest.mark.rule("POS-4", "G-37")
def test_pos_4__a_large_creature_stands_as_high_as_its_highest_square() -> None:
    b = board(elevation={(1, 1): 5})
    assert high_ground(b, sq(0, 0, LARGE), sq(5, 5))
    assert not high_ground(b, sq(5, 5), sq(0, 0, LARGE))


# ----- terrain classes (MOV-2..5, X-03) and cheapest paths -----


@pytest.mark.rule("MOV-2", "MOV-3", "MOV-4", "MOV-5", "X-03")
@pytest.mark.parametrize(
    ("terrain", "multiplier", "rule_id"),
    [
        (Terrain.NORMAL, 1, "MOV-2"),
        (Terrain.DIFFICULT, 2, "MOV-3"),
        (Terrain.GREATER_DIFFICULT, 3, "MOV-4"),
        (Terrain.IMPASSABLE, None, "MOV-5"),
        (Terrain.WATER, 2, "X-03"),
    ],
)
def test_mov__terrain_multipliers_and_rules(terrain: Terrain, multiplier: int | None, rule_id: str) -> None:
    assert terrain.multiplier == multiplier
    assert terrain.rule == rule_id


@pytest.mark.rule("MOV-5")
def test_board__walls_and_blocking_objects_are_impassable_low_cover_is_not() -> None:
    b = board(walls=((1, 1),), cover={(2, 2): CRATE, (3, 3): CoverObject(CoverLevel.PARTIAL, blocks_movement=False)})
    assert b.terrain_at((1, 1)) is Terrain.IMPASSABLE
    assert b.terrain_at((2, 2)) is Terrain.IMPASSABLE
    assert b.terrain_at((3, 3)) is Terrain.NORMAL
    assert not b.in_bounds((10, 0)) and not b.in_bounds((0, -1))


def test_shortest_path__goes_around_a_wall_and_prefers_straight_steps() -> None:
    walls = {(2, 0), (2, 1), (2, 2)}

    def cost(frm: Square, to: Square, parity: int) -> int | None:
        return None if to in walls or not (0 <= to[0] < 6 and 0 <= to[1] < 6) else 5

    path = shortest_path((0, 1), lambda s: s == (4, 1), cost)
    assert path is not None
    assert path.squares[-1] == (4, 1) and (2, 3) in path.squares
    assert path.cost == 5 * len(path.squares)
    assert path.prefix(10).squares == path.squares[:2]
    assert path.prefix(10, lambda s: s != path.squares[1]).squares == path.squares[:1]
    assert shortest_path((0, 1), lambda s: s == (4, 1), cost, budget_ft=10) is None
    assert shortest_path((0, 1), lambda s: s == (0, 1), cost) is not None
