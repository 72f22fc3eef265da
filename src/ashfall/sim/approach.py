"""Finding the way to an enemy: a shortest legal path to a square from which a target can be attacked.

The search uses :func:`ashfall.grid.paths.shortest_path` with the engine's movement costs. A fast
graph precomputes who stands where and prices steps with the engine's ``step_cost`` and
``squeezes_between_walls`` (the same checks as ``path_cost``: MOV-2..5, ACT-2, G-37); the exact
graph asks the engine's ``entry_cost`` for every step. Policies search with the fast graph and fall
back to the exact one if the engine refuses the path found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ashfall.engine.actions import Refused
from ashfall.engine.moves.movement import board_only_costs, entry_cost, space_step_cost, squeezes_between_walls
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import SQUARE_FT, Board, CoverLevel, Square, Terrain, footprint
from ashfall.grid.geometry import cover_between, space_distance_ft
from ashfall.grid.paths import STEP_OFFSETS, Expand, Path, StepCost, shortest_path


@dataclass(frozen=True, slots=True)
class MoveGraph:
    """How one creature may walk the board now.

    Attributes:
        state: The encounter.
        mover: The walker.
        blocked: Squares it cannot pass through (enemies still standing, ACT-2).
        occupied: Squares it cannot stop on (any other living creature, ACT-2).
        size: The mover's space is ``size`` × ``size`` squares.
        exact: Price every step with the engine's ``entry_cost`` instead.
    """

    state: EncounterState
    mover: Combatant
    blocked: frozenset[Square]
    occupied: frozenset[Square]
    size: int = 1
    exact: bool = False
    steps: dict[tuple[Square, Square, int], int | None] | None = None
    """Map-only step prices shared by every search on the same map (see :func:`_static_steps`), or None."""
    moves: dict[tuple[Square, int], tuple[tuple[Square, int, int], ...]] | None = None
    """The same map-only prices listed a square at a time (``(square, diagonals mod 2)`` -> the enterable
    neighbours as ``(square, feet, diagonal)``), shared and invalidated with ``steps``; None with it."""

    @classmethod
    def of(cls, state: EncounterState, mover: Combatant, *, exact: bool = False) -> MoveGraph:
        """The graph for the mover in the current state."""
        others = [o for o in state.combatants.values()
                  if o.id != mover.id and not o.health.is_dead and o.mounted_on != mover.id]
        blocked = frozenset(sq for o in others if o.side != mover.side and not o.health.is_down for sq in o.space)
        occupied = frozenset(sq for o in others for sq in o.space)
        size = mover.creature.size.squares
        tables = None if exact else _static_steps(state, mover, size)
        if tables is None:
            return cls(state, mover, blocked, occupied, size, exact)
        return cls(state, mover, blocked, occupied, size, exact, tables[0], tables[1])

    def space_at(self, sq: Square) -> tuple[Square, ...]:
        """The squares the mover would occupy with its top-left square at ``sq``."""
        return (sq,) if self.size == 1 else footprint(sq, self.size)

    def _open(self, sq: Square) -> bool:
        board = self.state.board
        assert board is not None
        return board.in_bounds(sq) and board.terrain_at(sq) is not Terrain.IMPASSABLE

    def price(self, frm: Square, to: Square, parity: int) -> int | None:
        """Feet to step from ``frm`` into ``to`` (None if it cannot be entered)."""
        if self.exact:
            cost = entry_cost(self.state, self.mover, frm, to, parity, final=False)
            return None if isinstance(cost, Refused) else cost
        blocked = self.blocked
        if blocked and (to in blocked if self.size == 1 else any(sq in blocked for sq in self.space_at(to))):
            return None
        steps = self.steps
        if steps is None:
            return self._static_price(frm, to, parity)
        key = (frm, to, parity)
        found = steps.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = steps[key] = self._static_price(frm, to, parity)
        return found

    def pricer(self) -> StepCost:
        """:meth:`price` as a plain function, with the common case (one square, shared table) unwrapped.

        Same answers as :meth:`price`; the search calls it for every step it weighs, so the graph's fields
        are read once here instead of on every call.
        """
        steps = self.steps
        if self.exact or steps is None or self.size != 1:
            return self.price
        blocked, static = self.blocked, self._static_price

        def price(frm: Square, to: Square, parity: int) -> int | None:
            if to in blocked:
                return None
            key = (frm, to, parity)
            found = steps.get(key, _UNKNOWN)
            if found is _UNKNOWN:
                found = steps[key] = static(frm, to, parity)
            return found

        return price

    def expander(self) -> Expand | None:
        """The steps out of a square (:data:`~ashfall.grid.paths.Expand`) as :meth:`price` prices them, or None.

        Only for the common case (one square, shared tables). A square's map-only steps are listed once per map
        (``moves``); the creatures standing in the way now (``blocked``) are left out on every call, as
        :meth:`price` checks them before the map. Steps are weighed in the search's neighbour order.
        """
        steps, moves = self.steps, self.moves
        if self.exact or steps is None or moves is None or self.size != 1:
            return None
        blocked, static = self.blocked, self._static_price

        def expand(here: Square, parity: int) -> tuple[tuple[Square, int, int], ...] | list[tuple[Square, int, int]]:
            found = moves.get((here, parity))
            if found is None:
                x, y = here
                listed: list[tuple[Square, int, int]] = []
                for dx, dy, diagonal in STEP_OFFSETS:
                    to = (x + dx, y + dy)
                    key = (here, to, parity)
                    feet = steps.get(key, _UNKNOWN)
                    if feet is _UNKNOWN:
                        feet = steps[key] = static(here, to, parity)
                    if feet is not None:
                        listed.append((to, feet, diagonal))
                found = moves[(here, parity)] = tuple(listed)
            if not blocked:
                return found
            return [m for m in found if m[0] not in blocked]

        return expand

    def _static_price(self, frm: Square, to: Square, parity: int) -> int | None:
        """What a step costs on the map alone, creatures ignored (the engine's checks; see :meth:`price`)."""
        space = self.space_at(to)
        board = self.state.board
        assert board is not None
        for sq in space:  # what _open checks, inlined: this runs for every step a search weighs
            if not board.in_bounds(sq) or board.terrain_at(sq) is Terrain.IMPASSABLE:
                return None
        if frm[0] != to[0] and frm[1] != to[1] and squeezes_between_walls(self.state, self.mover, frm, to):
            return None
        return space_step_cost(self.state, frm, to, self.size, parity, self.mover) or None

    def can_stop(self, sq: Square) -> bool:
        """Whether the mover may end its move with its space at ``sq``."""
        if self.exact:
            return not isinstance(entry_cost(self.state, self.mover, sq, sq, 0, final=True), Refused)
        return all(self._open(s) and s not in self.occupied for s in self.space_at(sq))


_UNKNOWN = -1
"""A cached price that was never computed (prices are feet or None, never negative)."""
_StepTable = dict[tuple[Square, Square, int], int | None]
_MoveTable = dict[tuple[Square, int], tuple[tuple[Square, int, int], ...]]
_STEPS: dict[tuple[int, int, bool, int, str], tuple[Board, _StepTable, _MoveTable]] = {}
_STEPS_MAX = 64


def _static_steps(state: EncounterState, mover: Combatant, size: int) -> tuple[_StepTable, _MoveTable] | None:
    """The shared tables of map-only step prices for this map, mover size and swimming, or None when uncacheable.

    Two views of the same prices: by step, and by square (the steps out of it, for :meth:`MoveGraph.expander`).

    Why: every Stride the scripted policies plan searches the same map again, pricing the same steps with the
    engine's ``step_cost`` and ``squeezes_between_walls``. On a quiet battlefield those prices depend only on
    the board (frozen), the mover's size and swim speed and the ruleset's water cost and diagonal rule, which
    are all in the key (the board is kept alive and compared by identity, so its id is never reused). What
    invalidates it: any environmental layer ``step_cost`` reads (underwater, rubble, flood water, debris,
    objects) can change during the fight, so while any is present no table is used (None) and every step is
    priced afresh. Creatures are never cached: :meth:`MoveGraph.price` checks them first.
    """
    board = state.board
    if board is None or not board_only_costs(state):
        return None
    rs = state.ruleset.turn
    key = (id(board), size, mover.creature.speeds.swim > 0, rs.water_cost, rs.diagonals)
    found = _STEPS.get(key)
    if found is None or found[0] is not board:
        if len(_STEPS) >= _STEPS_MAX:
            _STEPS.clear()
        found = _STEPS[key] = (board, {}, {})
    return found[1], found[2]


def can_attack_from(state: EncounterState, space: Sequence[Square], target: Sequence[Square], distance_ft: int) -> bool:
    """Whether a target's space is within ``distance_ft`` of a space and not behind total cover (COV-3)."""
    if space_distance_ft(space, target) > distance_ft:
        return False
    board = state.board
    return board is None or cover_between(board, space, target)[0] is not CoverLevel.TOTAL


def approach(graph: MoveGraph, targets: Iterable[Combatant], distance_ft: int) -> Path | None:
    """The cheapest path to a square from which one of ``targets`` is within ``distance_ft``, or None."""
    state, mover = graph.state, graph.mover
    if state.board is None or mover.position is None:
        return None
    foes = [t.space for t in targets if t.space]
    # one-square mover and foes (the usual case): the distance test inlined, as space_distance_ft computes it
    points = [t[0] for t in foes] if graph.size == 1 and all(len(t) == 1 for t in foes) else None
    squares = distance_ft // SQUARE_FT

    def goal(sq: Square) -> bool:
        # can_stop and can_attack_from are pure, so the cheap distance test may come first: most squares fail it
        if points is not None:
            x, y = sq
            if not any(abs(x - fx) <= squares and abs(y - fy) <= squares for fx, fy in points):
                return False  # no foe within distance_ft: can_attack_from would say no to each
        space = graph.space_at(sq)
        return any(can_attack_from(state, space, t, distance_ft) for t in foes) and graph.can_stop(sq)

    return shortest_path(mover.position, goal, graph.pricer(), expand=graph.expander())


def stride_path(state: EncounterState, mover: Combatant, targets: Sequence[Combatant], distance_ft: int,
                budget_ft: int, *, exact: bool = False) -> tuple[Square, ...]:
    """The affordable start of the way towards the targets (empty when there is none)."""
    graph = MoveGraph.of(state, mover, exact=exact)
    path = approach(graph, targets, distance_ft)
    if path is None:
        return ()
    return path.prefix(budget_ft, graph.can_stop).squares
