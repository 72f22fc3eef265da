"""Area templates on the grid: bursts (radius), cones and lines, and line of effect (SUP-3, RX-9, G-37).

Pure functions over squares. Lengths are measured like movement (G-37: a diagonal square is 5 ft),
from the nearest square of the origin space, so a 15-ft template reaches 3 squares in any
direction. Templates never include the origin space itself.

* **Burst** (radius): every square within ``radius_ft`` of a centre square.
* **Cone**: squares within ``length_ft`` of the origin space whose centre lies inside the cone
  whose width equals its distance from the origin's centre (half-angle ``atan(1/2)``, about 26.6°),
  pointing from the centre of the origin space toward the centre of the aimed-at square. A 15-ft
  cone straight along the grid covers 1 + 3 + 3 squares.
* **Line**: squares within ``length_ft`` of the origin space whose centre lies within half the
  line's width of the ray from the origin's centre toward the aimed-at square. A 15-ft × 5-ft line
  covers 3 squares, straight or diagonal.

:func:`clip` keeps the squares on the board that a wall does not shut off from the origin (line of
effect); :func:`cover_past` is cover between two spaces that ignores some squares (the cover a
creature leaning out of, COV-4, G-55, no longer hides behind).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, Square
from ashfall.grid.geometry import centre, cover_between, has_line_of_sight, space_distance_ft, square_distance_ft

CONE_HALF_WIDTH = 0.5
"""Cone half-width per unit of distance: a cone is as wide as it is far from its origin (tan of the half-angle)."""
_EPS = 1e-9


def _squares_near(space: Sequence[Square], reach_ft: int) -> Iterable[Square]:
    """Every square within ``reach_ft`` of a space, row by row (a fixed order)."""
    n = reach_ft // SQUARE_FT
    xs = [s[0] for s in space]
    ys = [s[1] for s in space]
    for y in range(min(ys) - n, max(ys) + n + 1):
        for x in range(min(xs) - n, max(xs) + n + 1):
            yield (x, y)


def burst(center: Square, radius_ft: int) -> frozenset[Square]:
    """The squares within ``radius_ft`` of ``center`` (the centre square included)."""
    return frozenset(sq for sq in _squares_near((center,), radius_ft) if square_distance_ft(center, sq) <= radius_ft)


def _direction(origin: Sequence[Square], toward: Square) -> tuple[float, float, float, float]:
    ox, oy = centre(origin)
    dx, dy = toward[0] + 0.5 - ox, toward[1] + 0.5 - oy
    norm = math.hypot(dx, dy)
    if norm < _EPS:
        raise ValueError("an area must be aimed at a square outside its origin")
    return ox, oy, dx / norm, dy / norm


class _Inside:
    """Whether a point (distance along the axis, distance off it) is inside a template's shape."""

    def __init__(self, cone: bool, half_width: float) -> None:
        self.cone = cone
        self.half_width = half_width

    def __call__(self, along: float, across: float) -> bool:
        limit = along * CONE_HALF_WIDTH if self.cone else self.half_width
        return across <= limit + _EPS


def _template(origin: Sequence[Square], toward: Square, length_ft: int,
              inside: _Inside) -> frozenset[Square]:
    ox, oy, ux, uy = _direction(origin, toward)
    own = set(origin)
    found = set()
    for sq in _squares_near(origin, length_ft):
        if sq in own or space_distance_ft(origin, (sq,)) > length_ft:
            continue
        vx, vy = sq[0] + 0.5 - ox, sq[1] + 0.5 - oy
        along = vx * ux + vy * uy
        across = abs(vx * uy - vy * ux)
        if along > _EPS and inside(along, across):
            found.add(sq)
    return frozenset(found)


def cone(origin: Sequence[Square], toward: Square, length_ft: int) -> frozenset[Square]:
    """A cone of ``length_ft`` from the ``origin`` space, aimed at the square ``toward`` (SUP-3)."""
    return _template(origin, toward, length_ft, _Inside(True, 0.0))


def line(origin: Sequence[Square], toward: Square, length_ft: int, width_ft: int = SQUARE_FT) -> frozenset[Square]:
    """A line ``length_ft`` long and ``width_ft`` wide from the ``origin`` space toward ``toward`` (SUP-3)."""
    return _template(origin, toward, length_ft, _Inside(False, width_ft / SQUARE_FT / 2))


def clip(board: Board, origin: Sequence[Square], squares: Collection[Square]) -> frozenset[Square]:
    """The squares on the board, not walls, with no wall between them and the origin (line of effect)."""
    return frozenset(
        sq for sq in squares
        if board.in_bounds(sq) and not board.blocks_sight(sq) and has_line_of_sight(board, origin, (sq,))
    )


def cover_past(board: Board, attacker: Sequence[Square], target: Sequence[Square],
               ignore: Collection[Square] = ()) -> CoverLevel:
    """Cover between two spaces, traced as ``cover_between`` does, ignoring some squares.

    Walls and cover objects in the ``ignore`` squares are left out (the cover a leaning creature left).
    """
    if ignore:
        gone = frozenset(ignore)
        board = replace(board, walls=board.walls - gone,
                        cover={sq: obj for sq, obj in board.cover.items() if sq not in gone})
    return cover_between(board, attacker, target)[0]


def adjacent_to(space: Sequence[Square]) -> frozenset[Square]:
    """The squares within 5 ft of a space, the space excluded."""
    own = set(space)
    return frozenset(sq for sq in _squares_near(space, SQUARE_FT) if sq not in own)
