"""What the compiled modules share: array types, the ``jit`` decorator (:mod:`ashfall.kernel.jit`) and a heap.

The scripted approach (:mod:`ashfall.kernel.fight`) and the AI's move search (:mod:`ashfall.kernel.ai`) both
search (square, diagonals mod 2) nodes with a binary heap ordered as Python's ``heapq`` orders the engine's and
the AI's ``(feet, push counter, node)`` tuples: fewer feet first, then the earlier push. Both use
:func:`heap_push` and :func:`heap_pop`, so the two searches break ties the same way by construction.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ashfall.kernel.jit import entry, jit

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
I8 = npt.NDArray[np.int8]


@jit
def _before(a_total: int, a_count: int, b_total: int, b_count: int) -> bool:
    """Heap order: fewer feet, then earlier push (``heapq`` on ``(feet, counter, node)``)."""
    return a_total < b_total or (a_total == b_total and a_count < b_count)


@jit
def _swap(h_total: I64, h_count: I64, h_node: I64, i: int, j: int) -> None:
    """Swap two heap entries (used by both sift directions)."""
    for col in range(3):
        h_node[i, col], h_node[j, col] = h_node[j, col], h_node[i, col]
    h_total[i], h_total[j] = h_total[j], h_total[i]
    h_count[i], h_count[j] = h_count[j], h_count[i]


@jit
def heap_pop(h_total: I64, h_count: I64, h_node: I64, n: int) -> int:
    """Drop the root of a heap of ``n`` entries (read it first): the last entry moves up and sifts down.

    Returns:
        The new number of entries.
    """
    n -= 1
    h_total[0], h_count[0] = h_total[n], h_count[n]
    h_node[0, 0], h_node[0, 1], h_node[0, 2] = h_node[n, 0], h_node[n, 1], h_node[n, 2]
    i = 0
    while True:
        left, right, least = 2 * i + 1, 2 * i + 2, i
        if left < n and _before(h_total[left], h_count[left], h_total[least], h_count[least]):
            least = left
        if right < n and _before(h_total[right], h_count[right], h_total[least], h_count[least]):
            least = right
        if least == i:
            return n
        _swap(h_total, h_count, h_node, i, least)
        i = least


@jit
def heap_push(h_total: I64, h_count: I64, h_node: I64, n: int, total: int, counter: int, x: int, y: int,
              parity: int) -> int:
    """Add node ``(x, y, parity)`` reached for ``total`` feet as push number ``counter``, and sift it up.

    Returns:
        The new number of entries.
    """
    j = n
    h_total[j], h_count[j] = total, counter
    h_node[j, 0], h_node[j, 1], h_node[j, 2] = x, y, parity
    while j > 0:
        up = (j - 1) // 2
        if not _before(h_total[j], h_count[j], h_total[up], h_count[up]):
            break
        _swap(h_total, h_count, h_node, j, up)
        j = up
    return n + 1


__all__ = ["F64", "I8", "I64", "entry", "heap_pop", "heap_push", "jit"]
