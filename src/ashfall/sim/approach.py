"""Finding the way to an enemy: a shortest legal path to a square from which a target can be attacked.

The search uses :func:`ashfall.grid.paths.shortest_path` with the engine's movement costs. A fast
graph precomputes who stands where and prices steps on the map alone with
:func:`ashfall.ai.board_cache.static_step` (the engine's ``step_cost`` and ``squeezes_between_walls``, the same
checks as ``path_cost``: MOV-2..5, ACT-2, G-37; cached per board, shared with the tactical AI); the exact
graph asks the engine's ``entry_cost`` for every step. Policies search with the fast graph and fall
back to the exact one if the engine refuses the path found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ashfall.ai.board_cache import adjacency, static_step
from ashfall.engine import Combatant, EncounterState, Refused
from ashfall.engine.moves.movement import board_only_costs, entry_cost
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square, Terrain, footprint
from ashfall.grid.geometry import cover_between, space_distance_ft
from ashfall.grid.paths import Expand, Path, shortest_path


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

    @classmethod
    def of(cls, state: EncounterState, mover: Combatant, *, exact: bool = False) -> MoveGraph:
        """The graph for the mover in the current state."""
        others = [o for o in state.combatants.values()
                  if o.id != mover.id and not o.health.is_dead and o.mounted_on != mover.id]
        blocked = frozenset(sq for o in others if o.side != mover.side and not o.health.is_down for sq in o.space)
        occupied = frozenset(sq for o in others for sq in o.space)
        return cls(state, mover, blocked, occupied, mover.creature.size.squares, exact)

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
        return static_step(self.state, self.mover, self.size, frm, to, parity)

    def expander(self) -> Expand | None:
        """The steps out of a square (:data:`~ashfall.grid.paths.Expand`) as :meth:`price` prices them, or None.

        Only for a one-square mover on a map whose step prices are cached (``board_only_costs``): the board's
        :func:`~ashfall.ai.board_cache.adjacency` lists each square's steps in the search's neighbour order;
        the creatures standing in the way now (``blocked``) are left out on every call, as :meth:`price` checks
        them before the map.
        """
        if self.exact or self.size != 1 or not board_only_costs(self.state):
            return None
        edges, blocked = adjacency(self.state, self.mover, 1), self.blocked

        def expand(here: Square, parity: int) -> list[tuple[Square, int, int]]:
            return [(to, feet, diagonal) for to, diagonal, even, odd in edges.get(here, ())
                    if (feet := odd if parity and diagonal else even) is not None and to not in blocked]

        return expand

    def can_stop(self, sq: Square) -> bool:
        """Whether the mover may end its move with its space at ``sq``."""
        if self.exact:
            return not isinstance(entry_cost(self.state, self.mover, sq, sq, 0, final=True), Refused)
        return all(self._open(s) and s not in self.occupied for s in self.space_at(sq))


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

    return shortest_path(mover.position, goal, graph.price, expand=graph.expander())


def stride_path(state: EncounterState, mover: Combatant, targets: Sequence[Combatant], distance_ft: int,
                budget_ft: int, *, exact: bool = False) -> tuple[Square, ...]:
    """The affordable start of the way towards the targets (empty when there is none)."""
    graph = MoveGraph.of(state, mover, exact=exact)
    path = approach(graph, targets, distance_ft)
    if path is None:
        return ()
    return path.prefix(budget_ft, graph.can_stop).squares
