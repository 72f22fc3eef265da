"""Distances, reach, lines, cover and flanking on the board (MOV-1, POS-1, POS-4, COV, G-37).

Distances are in feet. Diagonals cost 5 ft by default; the alternating 5/10 rule is an option (G-37).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, CoverObject, Square


class Diagonals(Enum):
    """How diagonal steps are measured (G-37)."""

    FIVE = "five"
    ALTERNATING = "alternating"


def square_distance_ft(a: Square, b: Square, diagonals: Diagonals = Diagonals.FIVE) -> int:
    """Feet between two squares."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    diag, straight = min(dx, dy), abs(dx - dy)
    if diagonals is Diagonals.FIVE:
        return (diag + straight) * SQUARE_FT
    return (straight + diag + diag // 2) * SQUARE_FT


def space_distance_ft(a: Sequence[Square], b: Sequence[Square], diagonals: Diagonals = Diagonals.FIVE) -> int:
    """Feet between the nearest squares of two spaces (creatures of any size)."""
    return min(square_distance_ft(p, q, diagonals) for p in a for q in b)


def within(a: Sequence[Square], b: Sequence[Square], reach_ft: int, diagonals: Diagonals = Diagonals.FIVE) -> bool:
    """Whether space ``b`` is within ``reach_ft`` of space ``a`` (adjacent squares are 5 ft)."""
    return space_distance_ft(a, b, diagonals) <= reach_ft


def centre(space: Sequence[Square]) -> tuple[float, float]:
    """The centre point of a space, in square units."""
    xs = [s[0] for s in space]
    ys = [s[1] for s in space]
    return ((min(xs) + max(xs) + 1) / 2, (min(ys) + max(ys) + 1) / 2)


def line_squares(a: tuple[float, float], b: tuple[float, float]) -> list[Square]:
    """Squares a straight segment between two points crosses (corner touches excluded), in order."""
    (x0, y0), (x1, y1) = a, b
    steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) * 4))
    out: list[Square] = []
    for i in range(steps + 1):
        t = i / steps
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        # points exactly on a grid line belong to neither side: skip them so corner grazes don't count
        if abs(x - round(x)) < 1e-9 or abs(y - round(y)) < 1e-9:
            continue
        sq = (int(x // 1), int(y // 1))
        if not out or out[-1] != sq:
            out.append(sq)
    return out


def cover_between(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> tuple[CoverLevel, str]:
    """The best cover the target has against the attacker along the centre-to-centre line (COV-1..3).

    Walls give total cover; cover objects give their level. Squares of either creature are ignored.

    Returns:
        The cover level and the name of what provides it ("" for none).
    """
    best, name = CoverLevel.NONE, ""
    skip = set(attacker) | set(target)
    for sq in line_squares(centre(attacker), centre(target)):
        if sq in skip:
            continue
        if board.blocks_sight(sq):
            return CoverLevel.TOTAL, "wall"
        obj: CoverObject | None = board.cover.get(sq)
        if obj is not None and obj.level.value > best.value:
            best, name = obj.level, obj.name
    return best, name


def has_line_of_sight(board: Board, a: Sequence[Square], b: Sequence[Square]) -> bool:
    """No wall lies on the line between the two spaces' centres."""
    skip = set(a) | set(b)
    return not any(board.blocks_sight(s) for s in line_squares(centre(a), centre(b)) if s not in skip)


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
