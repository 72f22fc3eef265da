"""Area templates: bursts, 15-ft cones and 15 × 5-ft lines, line of effect and cover past a corner (SUP-3, G-37)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.grid.areas import adjacent_to, burst, clip, cone, cover_past, line
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.grid.geometry import space_distance_ft

ME = ((0, 0),)


@pytest.mark.rule("SUP-3", "G-37")
@pytest.mark.parametrize(("toward", "expected"), [
    pytest.param((3, 0), {(1, 0), (2, -1), (2, 0), (2, 1), (3, -1), (3, 0), (3, 1)}, id="east-1-3-3"),
    pytest.param((0, -3), {(0, -1), (-1, -2), (0, -2), (1, -2), (-1, -3), (0, -3), (1, -3)}, id="north-1-3-3"),
    pytest.param((3, 3), {(1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (1, 3), (3, 2), (2, 3), (3, 3)},
                 id="south-east-diagonal"),
])
def test_sup_3__15_ft_cone_squares(toward, expected):
    assert cone(ME, toward, 15) == frozenset(expected)


@pytest.mark.rule("SUP-3", "G-37")
@pytest.mark.parametrize(("toward", "expected"), [
    pytest.param((5, 0), {(1, 0), (2, 0), (3, 0)}, id="east"),
    pytest.param((-3, -3), {(-1, -1), (-2, -2), (-3, -3)}, id="diagonal-is-3-squares"),
    pytest.param((3, 1), {(1, 0), (2, 1), (3, 1)}, id="shallow-angle"),
])
def test_sup_3__15_by_5_ft_line_is_three_squares(toward, expected):
    assert line(ME, toward, 15) == frozenset(expected)


@pytest.mark.rule("SUP-3")
def test_sup_3__wider_line_and_large_origin():
    assert line(ME, (3, 0), 15, width_ft=15) == frozenset((x, y) for x in (1, 2, 3) for y in (-1, 0, 1))
    big = ((0, 0), (1, 0), (0, 1), (1, 1))
    assert cone(big, (5, 1), 15) & set(big) == set()
    assert max(space_distance_ft(big, (sq,)) for sq in cone(big, (5, 1), 15)) == 15


def test_burst__radius_10_ft_is_5_by_5():
    assert burst((4, 4), 10) == frozenset((x, y) for x in range(2, 7) for y in range(2, 7))
    assert burst((0, 0), 0) == {(0, 0)}


def test_template_aimed_at_own_square__refused():
    with pytest.raises(ValueError, match="outside"):
        cone(ME, (0, 0), 15)


@pytest.mark.rule("SUP-3")
def test_clip__walls_and_board_edge_cut_the_zone():
    board = Board(5, 5, walls=frozenset({(2, 0)}))
    zone = cone(ME, (3, 0), 15)
    kept = clip(board, ME, zone)
    assert (2, 0) not in kept and (3, 0) not in kept  # the wall and the square behind it
    assert all(y >= 0 for _, y in kept)  # off the board
    assert (2, 1) in kept


@pytest.mark.rule("COV-4", "G-55")
def test_cover_past__ignores_the_cover_next_to_a_leaning_creature():
    board = Board(8, 3, cover={(1, 1): CoverObject(CoverLevel.HEAVY, name="crate")},
                  walls=frozenset({(4, 0)}))
    me, them = ((0, 1),), ((6, 1),)
    assert cover_past(board, me, them) is CoverLevel.HEAVY
    assert cover_past(board, me, them, adjacent_to(me)) is CoverLevel.NONE
    assert adjacent_to(me) == frozenset({(-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)})


@given(st.integers(-6, 6), st.integers(-6, 6), st.integers(1, 6))
def test_templates__stay_within_length_and_outside_origin(dx, dy, squares):
    if (dx, dy) == (0, 0):
        return
    length = squares * 5
    for shape in (cone(ME, (dx, dy), length), line(ME, (dx, dy), length)):
        assert (0, 0) not in shape
        assert all(space_distance_ft(ME, (sq,)) <= length for sq in shape)
    assert len(line(ME, (dx, dy), length)) >= squares
