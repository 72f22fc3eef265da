"""Board facts that never change during a fight, cached across decisions: cover between spaces, step costs.

Step costs are cached only while they depend on the board alone (:func:`board_only_costs`); on a battlefield
with rubble, flood water, debris, objects or under water they are priced afresh every time.

A board is frozen, so the cover along the line between two spaces (:func:`ashfall.grid.geometry.cover_between`,
COV-1..3, G-37) and what stepping from one square to the next costs on it (terrain, water, the diagonal
rule and corner squeezing: :func:`ashfall.engine.moves.movement.step_cost`, MOV-2..5, G-37) are computed
once per board and reused by every later decision. Boards are keyed by identity and kept alive while
cached, so an identity is never reused for another board. The caches are bounded.
"""

from __future__ import annotations

from collections.abc import Sequence

from ashfall.engine.moves.movement import board_only_costs, squeezes_between_walls, step_cost
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, Square, Terrain, footprint
from ashfall.grid.geometry import cover_between, high_ground, space_distance_ft

_LIMIT = 1 << 16
_BOARDS: dict[int, Board] = {}
_COVER: dict[tuple[int, tuple[Square, ...], tuple[Square, ...]], tuple[CoverLevel, bool]] = {}
_STEPS: dict[tuple[int, int, bool, str, int, Square, Square, int], int | None] = {}
_ADJ: dict[tuple[int, int, bool, str, int], dict[Square, tuple[Edge, ...]]] = {}

ORDER = ((0, -1), (-1, 0), (1, 0), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
"""Neighbour order: straight steps before diagonal ones (fixed, so paths are deterministic)."""
Edge = tuple[Square, bool, int | None, int | None]
"""A step to a neighbour: the square, whether it is diagonal, its cost after an even / odd number of diagonals."""


def _keep(board: Board) -> int:
    key = id(board)
    if _BOARDS.get(key) is not board:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
            _COVER.clear()
            _STEPS.clear()
            _ADJ.clear()
        _BOARDS[key] = board
    return key


def gap_ft(a: Sequence[Square], b: Sequence[Square]) -> int:
    """Feet between two spaces (:func:`ashfall.grid.geometry.space_distance_ft`, 5-ft diagonals), fast for 1 x 1."""
    if len(a) == 1 and len(b) == 1:
        (ax, ay), (bx, by) = a[0], b[0]
        return max(abs(ax - bx), abs(ay - by)) * SQUARE_FT
    return space_distance_ft(a, b)


def cover(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> CoverLevel:
    """The target's cover against the attacker on this board (COV-1..3), cached."""
    return sightline(board, attacker, target)[0]


def sightline(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> tuple[CoverLevel, bool]:
    """The target's cover against the attacker (COV-1..3) and whether the attacker has high ground (POS-4), cached.

    Both depend on the board and the two spaces only; the AI asks for them together for every what-if square.
    """
    key = (_keep(board), tuple(attacker), tuple(target))
    found = _COVER.get(key)
    if found is None:
        if len(_COVER) >= _LIMIT:
            _COVER.clear()
        found = _COVER[key] = (cover_between(board, attacker, target)[0], high_ground(board, attacker, target))
    return found


def static_step(state: EncounterState, mover: Combatant, size: int, frm: Square, to: Square,
                parity: int) -> int | None:
    """Feet to step from ``frm`` to ``to`` ignoring creatures (None: off the map, impassable, or a squeeze)."""
    board = state.board
    assert board is not None
    rs = state.ruleset.turn
    if not board_only_costs(state):
        return _price(state, mover, size, frm, to, parity)
    swims = mover.creature.speeds.swim > 0
    key = (_keep(board), size, swims, rs.diagonals, rs.water_cost, frm, to, parity)
    if key in _STEPS:
        return _STEPS[key]
    if len(_STEPS) >= _LIMIT:
        _STEPS.clear()
    found = _price(state, mover, size, frm, to, parity)
    _STEPS[key] = found
    return found


def adjacency(state: EncounterState, mover: Combatant, size: int) -> dict[Square, tuple[Edge, ...]]:
    """Every square's steps to its neighbours on this board for a mover of this size, ignoring creatures."""
    board = state.board
    assert board is not None
    rs = state.ruleset.turn
    swims = mover.creature.speeds.swim > 0
    key = (_keep(board), size, swims, rs.diagonals, rs.water_cost)
    cacheable = board_only_costs(state)
    found = _ADJ.get(key) if cacheable else None
    if found is None:
        found = {}
        for y in range(board.height):
            for x in range(board.width):
                edges: list[Edge] = []
                for dx, dy in ORDER:
                    to = (x + dx, y + dy)
                    diagonal = bool(dx and dy)
                    even = static_step(state, mover, size, (x, y), to, 0)
                    odd = static_step(state, mover, size, (x, y), to, 1) if diagonal else even
                    if even is not None or odd is not None:
                        edges.append((to, diagonal, even, odd))
                found[(x, y)] = tuple(edges)
        if cacheable:
            _ADJ[key] = found
    return found


def _price(state: EncounterState, mover: Combatant, size: int, frm: Square, to: Square, parity: int) -> int | None:
    board = state.board
    assert board is not None
    space = (to,) if size == 1 else footprint(to, size)
    for sq in space:
        if not board.in_bounds(sq) or board.terrain_at(sq) is Terrain.IMPASSABLE:
            return None
    if frm[0] != to[0] and frm[1] != to[1] and squeezes_between_walls(state, mover, frm, to):
        return None
    feet = max(step_cost(state, frm, sq, parity, mover) or 0 for sq in space)
    return feet or None
