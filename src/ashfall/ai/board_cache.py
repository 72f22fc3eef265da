"""Board facts that never change during a fight, cached across decisions: cover between spaces, step costs.

Step costs are cached only while they depend on the board alone (:func:`board_only_costs`); on a battlefield
with rubble, flood water, debris, objects or under water they are priced afresh every time.

A board is frozen, so the cover along the line between two spaces (:func:`ashfall.grid.geometry.cover_between`,
COV-1..3, G-37) and what stepping from one square to the next costs on it (terrain, water, the diagonal
rule and corner squeezing: :func:`ashfall.families.movement.moves.step_cost`, MOV-2..5, G-37) are computed
once per board and reused by every later decision (the tactical AI's and the scripted policies' path
searches, :mod:`ashfall.sim.approach`, share them), as is the AI's integer index of those steps
(:class:`BoardIndex`, with the creature-free cheapest way from each square it was asked about). Boards are
keyed by identity and kept alive while cached, so an identity is never reused for another board. The caches
are bounded.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from ashfall.engine import Combatant, EncounterState
from ashfall.families.movement.moves import board_only_costs, space_step_cost, squeezes_between_walls
from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, Square, Terrain, footprint
from ashfall.grid.geometry import cover_between, high_ground, space_distance_ft
from ashfall.ruleset.sections import Diagonals

_LIMIT = 1 << 16
LIMIT = _LIMIT
"""Most entries a board cache holds."""
_BOARDS: dict[int, Board] = {}
_COVER: dict[tuple[int, tuple[Square, ...], tuple[Square, ...]], tuple[CoverLevel, bool]] = {}
_STEPS: dict[tuple[int, int, bool, Diagonals, int, Square, Square, int], int | None] = {}
_ADJ: dict[tuple[int, int, bool, Diagonals, int], dict[Square, tuple[Edge, ...]]] = {}
_INDEX: dict[tuple[int, int, bool, Diagonals, int], BoardIndex] = {}
_SIGHT_BITS: dict[int, dict[tuple[tuple[Square, ...], tuple[Square, ...]], int]] = {}

ORDER = ((0, -1), (-1, 0), (1, 0), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
"""Neighbour order: straight steps before diagonal ones (fixed, so paths are deterministic)."""
FAR = 1 << 62
"""More feet than any way costs."""
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
            _INDEX.clear()
            _SIGHT_BITS.clear()
        _BOARDS[key] = board
    return key


def gap_ft(a: Sequence[Square], b: Sequence[Square]) -> int:
    """Feet between two spaces (:func:`ashfall.grid.geometry.space_distance_ft`, 5-ft diagonals), fast for 1 x 1."""
    if len(a) == 1 and len(b) == 1:
        (ax, ay), (bx, by) = a[0], b[0]
        dx = ax - bx if ax > bx else bx - ax  # no builtin calls: the AI asks this ~100k times a fight set
        dy = ay - by if ay > by else by - ay
        return (dx if dx > dy else dy) * SQUARE_FT
    return space_distance_ft(a, b)


def cover(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> CoverLevel:
    """The target's cover against the attacker on this board (COV-1..3), cached."""
    return sightline(board, attacker, target)[0]


def sightline(board: Board, attacker: Sequence[Square], target: Sequence[Square]) -> tuple[CoverLevel, bool]:
    """The target's cover against the attacker (COV-1..3) and whether the attacker has high ground (POS-4), cached.

    Both depend on the board and the two spaces only; the AI asks for them together for every what-if square.
    """
    # An entry exists only while its board is kept (emptying the boards empties the covers), so a board's id
    # finds only that board's entries: registering it (:func:`_keep`) is needed on a miss only.
    key = (id(board), tuple(attacker), tuple(target))
    found = _COVER.get(key)
    if found is None:
        _keep(board)
        if len(_COVER) >= _LIMIT:
            _COVER.clear()
        found = _COVER[key] = (cover_between(board, attacker, target)[0], high_ground(board, attacker, target))
    return found


def sight_bits(board: Board) -> dict[tuple[tuple[Square, ...], tuple[Square, ...]], int]:
    """The board's table of :func:`sightline` s as situation-code bits by (attacker space, target space).

    :mod:`ashfall.ai.sight` fills it (it owns the encoding) and keeps it under :data:`LIMIT` entries; like every
    cache here it belongs to one board, kept alive while cached, so it never goes stale.
    """
    key = _keep(board)
    found = _SIGHT_BITS.get(key)
    if found is None:
        found = _SIGHT_BITS[key] = {}
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
    return space_step_cost(state, frm, to, size, parity, mover) or None


@dataclass(frozen=True, slots=True)
class BoardIndex:
    """:func:`adjacency` with integer squares, for the AI's path searches (a square's id is ``y * width + x``).

    Attributes:
        width: The board's width.
        squares: Each id's square.
        steps: Per search node ``id * 2 + parity`` (diagonals taken so far, mod 2): the steps that can be taken
            from it, in :data:`ORDER`, as (neighbour id, whether diagonal, feet). Steps that cannot be taken are
            left out; without the alternating-diagonal rule both parities have the same steps.
        alternating: Whether the alternating-diagonal rule prices steps (G-37).
    """

    width: int
    squares: tuple[Square, ...]
    steps: tuple[tuple[tuple[int, int, int], ...], ...]
    alternating: bool
    _floors: dict[int, list[int]] = field(default_factory=dict, compare=False)

    def id_of(self, sq: Square) -> int | None:
        """The square's id (None: off the board)."""
        x, y = sq
        if 0 <= x < self.width and 0 <= y * self.width + x < len(self.squares):
            return y * self.width + x
        return None

    def floor(self, origin: int) -> list[int]:
        """Per id: the least feet a way from ``origin`` there can cost with no creature in the way (``FAR``: none).

        Creatures only take steps away, so no search from ``origin`` reaches a square for less. Pure (the index
        and the origin decide it), so kept per origin for as long as the index lives (at most one per square).
        """
        found = self._floors.get(origin)
        if found is None:
            found = self._floors[origin] = self._dijkstra(origin)
        return found

    def _dijkstra(self, origin: int) -> list[int]:
        steps, alternating = self.steps, self.alternating
        best = [FAR] * (2 * len(self.squares))
        best[origin * 2] = 0
        frontier = [(0, origin * 2)]
        while frontier:
            spent, node = heapq.heappop(frontier)
            if spent > best[node]:
                continue
            for nxt, diagonal, feet in steps[node]:
                key = nxt * 2 + ((node & 1) ^ diagonal if alternating else 0)
                if spent + feet < best[key]:
                    best[key] = spent + feet
                    heapq.heappush(frontier, (spent + feet, key))
        return [min(best[2 * at], best[2 * at + 1]) for at in range(len(self.squares))]

    def mark(self, squares: frozenset[Square], size: int) -> bytearray:
        """Per id: 1 where a ``size`` x ``size`` space with its top-left square there covers one of ``squares``."""
        out = bytearray(len(self.squares))
        for x, y in squares:
            for dy in range(size):
                for dx in range(size):
                    found = self.id_of((x - dx, y - dy))
                    if found is not None:
                        out[found] = 1
        return out


def index(state: EncounterState, mover: Combatant, size: int) -> BoardIndex:
    """:func:`adjacency` as a :class:`BoardIndex`, cached like it (built afresh while step costs are not cacheable)."""
    board = state.board
    assert board is not None
    rs = state.ruleset.turn
    key = (_keep(board), size, mover.creature.speeds.swim > 0, rs.diagonals, rs.water_cost)
    cacheable = board_only_costs(state)
    found = _INDEX.get(key) if cacheable else None
    if found is None:
        found = _build_index(board, adjacency(state, mover, size), rs.diagonals is Diagonals.ALTERNATING)
        if cacheable:
            _INDEX[key] = found
    return found


def _build_index(board: Board, adj: dict[Square, tuple[Edge, ...]], alternating: bool) -> BoardIndex:
    width = board.width
    squares = tuple((x, y) for y in range(board.height) for x in range(width))
    steps: list[tuple[tuple[int, int, int], ...]] = []
    for sq in squares:
        for parity in (0, 1):
            row = []
            for (x, y), diagonal, even, odd in adj.get(sq, ()):
                feet = odd if (alternating and parity and diagonal) else even
                if feet is not None:
                    row.append((y * width + x, int(diagonal), feet))
            steps.append(tuple(row))
    return BoardIndex(width, squares, tuple(steps), alternating)
