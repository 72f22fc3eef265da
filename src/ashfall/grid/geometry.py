"""Distances, reach, lines, cover and flanking on the board (MOV-1, POS-1, POS-4, COV, G-37).

Distances are in feet. Diagonals cost 5 ft by default; the alternating 5/10 rule is an option (G-37).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

from ashfall.core.types import Diagonals
from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, CoverObject, Square

_EPS = 1e-9
_NUDGE = 1e-6
"""How far (in squares) a grazing line is shifted to either side to decide what it passes (G-37)."""


def square_distance_ft(a: Square, b: Square, diagonals: Diagonals = Diagonals.FIVE) -> int:
    """Feet between two squares."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    diag, straight = min(dx, dy), abs(dx - dy)
    if diagonals is Diagonals.FIVE:
        return (diag + straight) * SQUARE_FT
    return (straight + diag + diag // 2) * SQUARE_FT


def space_distance_ft(a: Sequence[Square], b: Sequence[Square], diagonals: Diagonals = Diagonals.FIVE) -> int:
    """Feet between the nearest squares of two spaces (creatures of any size)."""
    if len(a) == 1 and len(b) == 1:  # the usual case (medium creatures): no generator to build
        (ax, ay), (bx, by) = a[0], b[0]
        dx, dy = abs(ax - bx), abs(ay - by)
        if diagonals is Diagonals.FIVE:  # square_distance_ft's (diag + straight) is the larger difference
            return (dx if dx > dy else dy) * SQUARE_FT
        return square_distance_ft(a[0], b[0], diagonals)
    return min(square_distance_ft(p, q, diagonals) for p in a for q in b)


def within(a: Sequence[Square], b: Sequence[Square], reach_ft: int, diagonals: Diagonals = Diagonals.FIVE) -> bool:
    """Whether space ``b`` is within ``reach_ft`` of space ``a`` (adjacent squares are 5 ft)."""
    return space_distance_ft(a, b, diagonals) <= reach_ft


def centre(space: Sequence[Square]) -> tuple[float, float]:
    """The centre point of a space, in square units."""
    if len(space) == 1:
        x, y = space[0]
        return (x + 0.5, y + 0.5)
    xs = [s[0] for s in space]
    ys = [s[1] for s in space]
    return ((min(xs) + max(xs) + 1) / 2, (min(ys) + max(ys) + 1) / 2)


@lru_cache(maxsize=65536)
def line_squares(a: tuple[float, float], b: tuple[float, float]) -> tuple[Square, ...]:
    """Squares whose interior the segment from ``a`` to ``b`` passes through, in order (exact traversal).

    A segment that only touches a square's corner, or runs exactly along a grid line, does not pass
    through that square's interior and does not list it. Pure geometry, so it is cached.
    """
    return tuple(_line_squares(a, b))


def _line_squares(a: tuple[float, float], b: tuple[float, float]) -> list[Square]:
    (x0, y0), (x1, y1) = a, b
    cuts = {0.0, 1.0}
    for p0, p1 in ((x0, x1), (y0, y1)):
        if p1 != p0:
            lo, hi = min(p0, p1), max(p0, p1)
            cuts.update((k - p0) / (p1 - p0) for k in range(math.floor(lo) + 1, math.ceil(hi)))
    ts = sorted(cuts)
    out: list[Square] = []
    for t0, t1 in itertools.pairwise(ts):
        if t1 - t0 < _EPS:
            continue  # a corner crossing: both grid lines at once
        tm = (t0 + t1) / 2
        x, y = x0 + (x1 - x0) * tm, y0 + (y1 - y0) * tm
        if abs(x - round(x)) < _EPS or abs(y - round(y)) < _EPS:
            continue  # running along a grid line, between two squares
        sq = (math.floor(x), math.floor(y))
        if not out or out[-1] != sq:
            out.append(sq)
    return out


Point = tuple[float, float]
Segment = tuple[Point, Point]


def _nudged(a: Point, b: Point) -> tuple[Segment, ...]:
    """The segment shifted a hair to either side (G-37).

    A line that grazes a corner or runs along a grid line between two squares is traced as if it
    passed just beside it, on each side in turn.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return ((a, b),)
    nx, ny = -dy / length * _NUDGE, dx / length * _NUDGE
    return tuple(((a[0] + s * nx, a[1] + s * ny), (b[0] + s * nx, b[1] + s * ny)) for s in (1, -1))


def _cover_along(board: Board, segment: Segment, skip: set[Square]) -> tuple[CoverLevel, str]:
    best, name = CoverLevel.NONE, ""
    for sq in line_squares(*segment):
        if sq in skip:
            continue
        if board.blocks_sight(sq):
            return CoverLevel.TOTAL, "wall"
        obj: CoverObject | None = board.cover.get(sq)
        if obj is not None and obj.level.value > best.value:
            best, name = obj.level, obj.name
    return best, name


_COVER: dict[tuple[int, tuple[Square, ...], tuple[Square, ...]], tuple[Board, tuple[CoverLevel, str]]] = {}
_COVER_MAX = 1 << 14
"""Why: the engine traces the same lines again and again (every Strike's checks, situation and reactions ask
for cover between the same two spaces). A board is frozen, so the answer depends only on the board and the two
spaces: the key names the board by id and the entry keeps the board itself, which is compared by identity on
every hit (a kept board stays alive, so its id is never another board's). Nothing invalidates an entry; the
cache is bounded and emptied when full. Boards with destructible objects merged in are new boards (new keys)."""


def cover_between(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> tuple[CoverLevel, str]:
    """The cover the target has against the attacker along the centre-to-centre line (COV-1..3, G-37).

    Walls give total cover; cover objects give their level; squares of either creature are ignored.
    A line that grazes a corner or runs along a grid line is traced a hair to each side and the
    weaker result counts: one wall corner does not block, two walls meeting at a corner do.

    Returns:
        The cover level and the name of what provides it ("" for none).
    """
    key = (id(board), tuple(attacker), tuple(target))
    cached = _COVER.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    found = _trace_cover(board, attacker, target)
    if len(_COVER) >= _COVER_MAX:
        _COVER.clear()
    _COVER[key] = (board, found)
    return found


def _trace_cover(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> tuple[CoverLevel, str]:
    skip = set(attacker) | set(target)
    found = [_cover_along(board, seg, skip) for seg in _nudged(centre(attacker), centre(target))]
    return min(found, key=lambda f: f[0].value)


def has_line_of_sight(board: Board, a: Sequence[Square], b: Sequence[Square]) -> bool:
    """No wall blocks the line between the two spaces' centres (traced as :func:`cover_between` does)."""
    skip = set(a) | set(b)
    return any(
        not any(board.blocks_sight(s) for s in line_squares(*seg) if s not in skip)
        for seg in _nudged(centre(a), centre(b))
    )


_OPPOSITE = {("left", "right"), ("right", "left"), ("top", "bottom"), ("bottom", "top")}


def _sides(x: float, y: float, box: tuple[float, float, float, float]) -> set[str]:
    left, top, right, bottom = box
    eps = 1e-9
    found = set()
    if abs(x - left) < eps:
        found.add("left")
    if abs(x - right) < eps:
        found.add("right")
    if abs(y - top) < eps:
        found.add("top")
    if abs(y - bottom) < eps:
        found.add("bottom")
    return found


def flanks(attacker: Sequence[Square], ally: Sequence[Square], target: Sequence[Square]) -> bool:
    """Whether attacker and ally flank the target (POS-1, G-37).

    The line between the attacker's and the ally's centres must pass through opposite sides or
    opposite corners of the target's space.
    """
    (x0, y0), (x1, y1) = centre(attacker), centre(ally)
    xs = [s[0] for s in target]
    ys = [s[1] for s in target]
    box = (float(min(xs)), float(min(ys)), float(max(xs) + 1), float(max(ys) + 1))
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    if t0 >= t1 or t0 <= 0.0 or t1 >= 1.0:
        return False  # misses the space, or an endpoint is inside it
    entry = _sides(x0 + dx * t0, y0 + dy * t0, box)
    exit_ = _sides(x0 + dx * t1, y0 + dy * t1, box)
    return any((a, b) in _OPPOSITE for a in entry for b in exit_)


def high_ground(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> bool:
    """G-37: the attacker stands at least 5 ft higher than the target (POS-4)."""
    return max(board.height_at(s) for s in attacker) - max(board.height_at(s) for s in target) >= SQUARE_FT
