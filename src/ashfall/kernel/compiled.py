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


H_TOTAL, H_COUNT, H_X, H_Y, H_P = 0, 1, 2, 3, 4
"""Columns of a heap row: feet, push counter, node ``(x, y, parity)``."""
HEAP_COLS = 5


@jit
def new_heap(size: int) -> I64:
    """Room for ``size`` heap rows, uninitialised: a row is read only after :func:`heap_push` (or the caller) wrote it.

    One array, not one per column: a compiled call counts the references of each array it is passed, on entry and
    on exit, and the heap calls come once per node.
    """
    return np.empty((size, HEAP_COLS), np.int64)


@jit
def _before(a_total: int, a_count: int, b_total: int, b_count: int) -> bool:
    """Heap order: fewer feet, then earlier push (``heapq`` on ``(feet, counter, node)``)."""
    return a_total < b_total or (a_total == b_total and a_count < b_count)


@jit
def _swap(h: I64, i: int, j: int) -> None:
    """Swap two heap rows (used by both sift directions)."""
    for col in range(HEAP_COLS):
        h[i, col], h[j, col] = h[j, col], h[i, col]


@jit
def heap_pop(h: I64, n: int) -> int:
    """Drop the root of a heap of ``n`` rows (read it first): the last row moves up and sifts down.

    Returns:
        The new number of rows.
    """
    n -= 1
    for col in range(HEAP_COLS):
        h[0, col] = h[n, col]
    i = 0
    while True:
        left, right, least = 2 * i + 1, 2 * i + 2, i
        if left < n and _before(h[left, H_TOTAL], h[left, H_COUNT], h[least, H_TOTAL], h[least, H_COUNT]):
            least = left
        if right < n and _before(h[right, H_TOTAL], h[right, H_COUNT], h[least, H_TOTAL], h[least, H_COUNT]):
            least = right
        if least == i:
            return n
        _swap(h, i, least)
        i = least


@jit
def heap_push(h: I64, n: int, total: int, counter: int, x: int, y: int, parity: int) -> int:
    """Add node ``(x, y, parity)`` reached for ``total`` feet as push number ``counter``, and sift it up.

    Returns:
        The new number of rows.
    """
    j = n
    h[j, H_TOTAL], h[j, H_COUNT], h[j, H_X], h[j, H_Y], h[j, H_P] = total, counter, x, y, parity
    while j > 0:
        up = (j - 1) // 2
        if not _before(h[j, H_TOTAL], h[j, H_COUNT], h[up, H_TOTAL], h[up, H_COUNT]):
            break
        _swap(h, j, up)
        j = up
    return n + 1


__all__ = ["F64", "H_COUNT", "H_P", "H_TOTAL", "H_X", "H_Y", "I8", "I64", "entry", "heap_pop", "heap_push", "jit",
           "new_heap"]
