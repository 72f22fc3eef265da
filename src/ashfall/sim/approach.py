"""Finding the way to an enemy: a shortest legal path to a square from which a target can be attacked.

The search uses :func:`ashfall.grid.paths.shortest_path` over the tactical AI's
:class:`~ashfall.ai.movement.MoveGraph`: the fast graph precomputes who stands where (the engine's
``blocking``, ACT-2) and prices steps on the map alone with :func:`ashfall.ai.board_cache.static_step` (the
engine's ``step_cost`` and ``squeezes_between_walls``: MOV-2..5, G-37; cached per board); the exact graph asks
the engine's ``entry_cost`` for every step. Policies search with the fast graph and fall back to the exact one
if the engine refuses the path found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ashfall.ai.movement import MoveGraph
from ashfall.engine import Combatant, EncounterState
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.grid.geometry import cover_between, space_distance_ft
from ashfall.grid.paths import Path, shortest_path


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
        space = graph.space(sq)
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
