"""The AI's path searches on a :class:`~ashfall.ai.board_cache.BoardIndex`: Dijkstra over integer squares.

:class:`~ashfall.ai.movement.MoveGraph` asks these for the squares it can reach (:func:`search`) and for a
shortest path to a goal (:func:`shortest`). Both replay the plain searches they replace step for step (the
same pops, pushes and tie-breaks by push order, so the same squares, feet and paths) on flat lists instead of
dicts of ``(square, parity)`` tuples. A search node is ``id * 2 + parity`` (the diagonals taken so far, mod 2,
G-37); creatures come in as per-id flags (``blocked``: a blocking enemy under the mover's space, ACT-2;
``taken``: a creature there, so the mover cannot end there) and enemies' reaches as per-id bits (RX-21).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ashfall.ai.board_cache import FAR, BoardIndex
from ashfall.grid.board import Square


@dataclass(slots=True)
class Search:
    """What one search found: the nodes kept (nearest first, with their feet) and how to walk back to them.

    Attributes:
        squares: Each id's square.
        best: Per node: its cheapest feet found (final for every node the search settled).
        came: Per node: the node it was reached from (-1: none).
        kept: The nodes kept and their feet, in the order they were settled.
        left_reach: Whether the search took a step that leaves an enemy's reach. When it took none, a safe search
            would have made exactly the same moves: it only skips such steps, and each one this search weighed
            it dropped as well (over budget, blocked, or no cheaper).
    """

    squares: tuple[Square, ...]
    best: list[int]
    came: list[int]
    kept: list[tuple[int, int]]
    left_reach: bool

    def path(self, node: int) -> tuple[Square, ...]:
        """The squares entered on the way to a node, in order (a settled node's way never changes)."""
        came, squares = self.came, self.squares
        out: list[Square] = []
        while (before := came[node]) >= 0:
            out.append(squares[node >> 1])
            node = before
        out.reverse()
        return tuple(out)

    def stops_within(self, node: int, budget_ft: int, taken: bytearray) -> bool:
        """Whether the way to a node passes (or ends on) a square the mover may end on within ``budget_ft``.

        The same as a non-empty ``Path(path, costs).prefix(budget_ft, can_end)`` when ``costs`` are the search's
        step prices: the feet spent up to each node of the way are its settled ``best``.
        """
        came, best = self.came, self.best
        while came[node] >= 0:
            if best[node] <= budget_ft and not taken[node >> 1]:
                return True
            node = came[node]
        return False


def reach_bits(ix: BoardIndex, insides: Sequence[Collection[Square]]) -> list[int]:
    """Per id: one bit per reach (in order) whose squares (``Reach.inside``) hold it.

    A step leaves a reach (``ashfall.ai.movement.leaving``) exactly when ``bits[here] & ~bits[next]`` is not 0.
    """
    bits = [0] * len(ix.squares)
    for i, inside in enumerate(insides):
        flag = 1 << i
        for sq in inside:
            at = ix.id_of(sq)
            if at is not None:
                bits[at] |= flag
    return bits


def goals(ix: BoardIndex, pool: Collection[Square], origin: int, budget_ft: int, blocked: bytearray,
          taken: bytearray | None, fences: Sequence[Collection[Square]]) -> tuple[bytearray, int]:
    """Which ids a search keeps (those in ``pool``, less ``taken`` ones), and how many of them it can reach.

    A square cannot be reached when the budget does not reach it even with no creature in the way
    (:meth:`BoardIndex.floor`), when a blocking enemy stands under it, or, searching safely, when it lies outside
    a reach the mover stands in (``fences``: no step may leave it). The search may stop once it kept that many.
    """
    width, height = ix.width, len(ix.squares) // ix.width
    floor = ix.floor(origin)
    keep = bytearray(len(ix.squares))
    count = 0
    for sq in pool:
        x, y = sq
        if not (0 <= x < width and 0 <= y < height):
            continue
        at = y * width + x
        if taken is not None and taken[at]:
            continue
        keep[at] = 1
        if at == origin or blocked[at] or floor[at] > budget_ft or any(sq not in inside for inside in fences):
            continue
        count += 1
    keep[origin] = 0
    return keep, count


def search(ix: BoardIndex, origin: int, budget_ft: int, blocked: bytearray, keep: bytearray, stop: int | None,
           bits: list[int] | None, safe: bool) -> Search:
    """Cheapest ways within ``budget_ft`` from ``origin``, keeping settled ids flagged in ``keep``.

    ``MoveGraph.nodes`` as it was: heap entries ``(feet, push counter, node)``, steps in ``ORDER``, a square kept
    when first settled, stopping once ``stop`` were kept. With ``safe`` no step leaves a reach in ``bits``.
    """
    steps, alternating = ix.steps, ix.alternating
    size = 2 * len(ix.squares)
    best = [budget_ft + 1] * size
    came = [-1] * size
    settled = bytearray(size >> 1)
    kept: list[tuple[int, int]] = []
    pop, push = heapq.heappop, heapq.heappush
    start = origin * 2
    best[start] = 0
    frontier: list[tuple[int, int, int]] = [(0, 0, start)]
    counter = 0
    left = False
    limit = size if stop is None else stop
    fence = bits if bits is not None else [0] * (size >> 1)
    while frontier:
        spent, _, node = pop(frontier)
        if spent > best[node]:
            continue
        here = node >> 1
        if not settled[here]:
            settled[here] = 1
            if keep[here]:
                kept.append((node, spent))
                if len(kept) >= limit:
                    break
        inside = fence[here]
        odd = node & 1
        for nxt, diagonal, feet in steps[node]:
            total = spent + feet
            if total > budget_ft or blocked[nxt]:
                continue
            leaves = inside & ~fence[nxt]
            if leaves and safe:
                continue
            key = nxt * 2 + (odd ^ diagonal if alternating else 0)
            if best[key] <= total:
                continue
            if leaves:
                left = True
            best[key] = total
            came[key] = node
            counter += 1
            push(frontier, (total, counter, key))
    return Search(ix.squares, best, came, kept, left)


def shortest(ix: BoardIndex, origin: int, goal: Callable[[Square], bool], blocked: bytearray,
             taken: bytearray) -> tuple[Square, ...] | None:
    """The way :func:`~ashfall.grid.paths.shortest_path` finds with ``MoveGraph.cost`` (None: none; empty: here).

    It leads to the nearest square where the mover may end and ``goal`` holds.

    Like it, the search tells nodes apart by the diagonals taken (mod 2) even where they do not change prices.
    Only for movers whose steps the index prices as ``MoveGraph.cost`` does (see ``ashfall.ai.movement``).
    """
    squares = ix.squares
    if not taken[origin] and goal(squares[origin]):
        return ()
    steps = ix.steps
    size = 2 * len(squares)
    best = [FAR] * size
    came = [-1] * size
    pop, push = heapq.heappop, heapq.heappush
    start = origin * 2
    best[start] = 0
    frontier: list[tuple[int, int, int]] = [(0, 0, start)]
    counter = 0
    while frontier:
        spent, _, node = pop(frontier)
        if spent > best[node]:
            continue
        here = node >> 1
        if here != origin and not taken[here] and goal(squares[here]):
            return Search(squares, best, came, [], False).path(node)
        parity = node & 1
        for nxt, diagonal, feet in steps[node]:
            if blocked[nxt]:
                continue
            total = spent + feet
            key = nxt * 2 + (parity ^ diagonal)
            if best[key] <= total:
                continue
            best[key] = total
            came[key] = node
            counter += 1
            push(frontier, (total, counter, key))
    return None
