"""Shortest paths over the board (MOV-1..5, G-37): Dijkstra over squares with the caller's step cost.

Pure: the caller says what entering a square from the one before costs (``None`` when it cannot be
entered) and which squares are goals, so terrain, walls, creatures in the way and the diagonal rule
stay with the movement rules. Ties are broken by a fixed neighbour order (straight steps before
diagonal ones) and insertion order, so the same board always gives the same path.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ashfall.grid.board import Square, neighbours

StepCost = Callable[[Square, Square, int], int | None]
"""Feet to enter the second square from the first, given the diagonals taken so far (mod 2); None if blocked."""

Goal = Callable[[Square], bool]
"""Whether a square ends the search."""

Expand = Callable[[Square, int], Sequence[tuple[Square, int, int]]]
"""The steps out of a square given the diagonals taken so far (mod 2): ``(square, feet, diagonal)`` for every
neighbour in :data:`STEP_OFFSETS` order whose :data:`StepCost` is not None (diagonal is 1 for a diagonal step)."""

STEP_OFFSETS = tuple((dx, dy, int(dx != 0 and dy != 0))
                     for dx, dy in sorted(neighbours((0, 0)), key=lambda n: n[0] != 0 and n[1] != 0))
"""Neighbour offsets ``(dx, dy, diagonal)`` in search order (straight before diagonal, else ``neighbours`` order)."""
_STEPS = STEP_OFFSETS


@dataclass(frozen=True, slots=True)
class Path:
    """A path: the squares entered in order (the start excluded) and what each step cost in feet."""

    squares: tuple[Square, ...]
    costs: tuple[int, ...]

    @property
    def cost(self) -> int:
        """Total feet."""
        return sum(self.costs)

    def prefix(self, budget_ft: int, can_end: Goal | None = None) -> Path:
        """The longest start of the path costing at most ``budget_ft`` that ends where ``can_end`` allows."""
        best = 0
        spent = 0
        for i, feet in enumerate(self.costs):
            spent += feet
            if spent > budget_ft:
                break
            if can_end is None or can_end(self.squares[i]):
                best = i + 1
        return Path(self.squares[:best], self.costs[:best])


def shortest_path(start: Square, goal: Goal, cost: StepCost, budget_ft: int | None = None, *,
                  expand: Expand | None = None) -> Path | None:
    """The cheapest path from ``start`` to a square where ``goal`` holds, or None.

    Args:
        start: Where the mover stands (an empty path when it is already a goal).
        goal: Whether a square is a destination.
        cost: Feet to enter a square from a neighbour given the diagonals taken so far mod 2 (G-37).
        budget_ft: Give up on paths dearer than this (None: no limit).
        expand: The same step costs, listed a square at a time (see :data:`Expand`); when given it is used
            instead of ``cost``, for callers that keep a square's steps ready. The search and its answer are
            the same: the steps are weighed in the same order.
    """
    if goal(start):
        return Path((), ())
    return _search(start, [goal], expand or _expand_by(cost), budget_ft)[0]


def _expand_by(cost: StepCost) -> Expand:
    """The steps out of a square priced by ``cost``, in :data:`STEP_OFFSETS` order (unpriceable ones left out)."""
    def expand(here: Square, parity: int) -> list[tuple[Square, int, int]]:
        x, y = here
        found = []
        for dx, dy, diagonal in _STEPS:
            nxt = (x + dx, y + dy)
            feet = cost(here, nxt, parity)
            if feet is not None:
                found.append((nxt, feet, diagonal))
        return found
    return expand


def shortest_paths(start: Square, goals: Sequence[Goal], cost: StepCost) -> list[Path | None]:
    """For each goal, the path :func:`shortest_path` would find (no budget), from one search shared by all.

    The search pops squares in the same order as each single search would (the goals only decide when to stop),
    and a popped square's way back never changes afterwards, so each answer is exactly the single search's. The
    search stops once every goal is met.
    """
    found: list[Path | None] = [None] * len(goals)
    todo = []
    for i, goal in enumerate(goals):
        if goal(start):
            found[i] = Path((), ())
        else:
            todo.append(i)
    if todo:
        for i, path in zip(todo, _search(start, [goals[i] for i in todo], _expand_by(cost), None), strict=True):
            found[i] = path
    return found


def _search(start: Square, goals: Sequence[Goal], expand: Expand, limit: int | None) -> list[Path | None]:
    """The search of :func:`shortest_path` and :func:`shortest_paths`: cheapest first, ties in push order.

    Each goal's answer is the way back to the first popped square (other than ``start``) where it holds; the
    search ends when every goal is met or nothing within ``limit`` feet is left.
    """
    found: list[Path | None] = [None] * len(goals)
    todo = list(range(len(goals)))
    counter = 0
    frontier: list[tuple[int, int, Square, int]] = [(0, counter, start, 0)]
    came: dict[tuple[Square, int], tuple[tuple[Square, int], int]] = {}
    best: dict[tuple[Square, int], int] = {(start, 0): 0}
    pop, push, known = heapq.heappop, heapq.heappush, best.get
    while frontier:
        spent, _, here, parity = pop(frontier)
        if spent > known((here, parity), spent):
            continue
        if here != start:
            met = [i for i in todo if goals[i](here)]
            if met:
                way = _walk_back(came, (here, parity))
                for i in met:
                    found[i] = way
                    todo.remove(i)
                if not todo:
                    break
        node = (here, parity)
        for nxt, feet, diagonal in expand(here, parity):
            total = spent + feet
            if limit is not None and total > limit:
                continue
            key = (nxt, parity ^ diagonal)
            seen = known(key)
            if seen is not None and seen <= total:
                continue
            best[key] = total
            came[key] = (node, feet)
            counter += 1
            push(frontier, (total, counter, nxt, key[1]))
    return found


def reachable(start: Square, goal: Goal, cost: StepCost) -> bool:
    """Whether :func:`shortest_path` (without a budget) would find a path: the same graph and goals, no costs weighed.

    A plain graph search over (square, diagonals taken mod 2), the states the shortest-path search visits, for
    callers that only ask whether a goal can be reached at all (a cornered NPC, MOR-23).
    """
    if goal(start):
        return True
    seen = {(start, 0)}
    todo = [(start, 0)]
    while todo:
        here, parity = todo.pop()
        if here != start and goal(here):
            return True
        x, y = here
        for dx, dy, diagonal in _STEPS:
            nxt = (x + dx, y + dy)
            if cost(here, nxt, parity) is None:
                continue
            key = (nxt, parity ^ diagonal)
            if key not in seen:
                seen.add(key)
                todo.append(key)
    return False


def _walk_back(came: dict[tuple[Square, int], tuple[tuple[Square, int], int]], end: tuple[Square, int]) -> Path:
    squares: list[Square] = []
    costs: list[int] = []
    node = end
    while node in came:
        previous, feet = came[node]
        squares.append(node[0])
        costs.append(feet)
        node = previous
    return Path(tuple(reversed(squares)), tuple(reversed(costs)))
