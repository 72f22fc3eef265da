"""The compiled Stride search of the scripted approach, the AI's approach and the flight (``move_search``).

``move_search.shortest``'s Dijkstra over (square, diagonals mod 2): pushes ordered by (feet, push count) as ``heapq``
pops them, neighbours in the lowered ``offsets`` order, the goal tested as a node is popped on a square the mover may
stop on; enemies up or gone from the fight (``bars_passage``) bar the way and no living creature's square may end the
move (ACT-2, ``blocking``); then ``first_stride``: the longest start of the path within the mover's speed that ends
on a free square. :func:`stride_to` is the one copy ``ashfall.kernel.fight``'s approach and
``ashfall.kernel.flight``'s flight call, each with its own goal squares.
"""

from __future__ import annotations

import numpy as np

from ashfall.kernel.compiled import H_COUNT, H_P, H_TOTAL, H_X, H_Y, I64, heap_pop, heap_push, new_heap
from ashfall.kernel.compiled import jit as _jit

ALIVE, DEAD, LEFT = 0, 3, 4
"""Vitality codes (``ashfall.kernel.fight.ALIVE``, ``DEAD``; ``ashfall.kernel.morale.LEFT``)."""
FAR = 1 << 60


@_jit
def stride_to(c: int, goal: I64, side: I64, vit: I64, px: I64, py: I64, speed: int, price: I64, offsets: I64,
              path_x: I64, path_y: I64) -> int:
    """``path_to`` a ``goal`` square then ``first_stride`` along it; the count of squares kept (-1: no path).

    A path found whose affordable start ends on no free square gives 0 (``_retreat`` finds no Stride then).
    """
    width, height = goal.shape[0], goal.shape[1]
    sx, sy = px[c], py[c]
    occupied = np.zeros((width, height), np.int64)
    barred = np.zeros((width, height), np.int64)
    for o in range(len(side)):
        if o == c or vit[o] == DEAD:
            continue
        occupied[px[o], py[o]] = 1
        if side[o] != side[c] and (vit[o] == ALIVE or vit[o] == LEFT):
            barred[px[o], py[o]] = 1
    best = np.full((width, height, 2), FAR, np.int64)
    came = np.full((width, height, 2, 4), -1, np.int64)
    size = width * height * 2 * offsets.shape[0] + 1
    heap = new_heap(size)
    n = 1
    counter = 0
    best[sx, sy, 0] = 0
    heap[0, H_TOTAL], heap[0, H_COUNT], heap[0, H_X], heap[0, H_Y], heap[0, H_P] = 0, 0, sx, sy, 0
    end_x, end_y, end_p = -1, -1, -1
    while n > 0:
        spent, x, y, parity = heap[0, H_TOTAL], heap[0, H_X], heap[0, H_Y], heap[0, H_P]
        n = heap_pop(heap, n)
        if spent > best[x, y, parity]:
            continue
        if (x != sx or y != sy) and occupied[x, y] == 0 and goal[x, y] == 1:
            end_x, end_y, end_p = x, y, parity
            break
        for k in range(offsets.shape[0]):
            feet = price[c, x, y, k, parity]
            if feet < 0:
                continue
            nx, ny = x + offsets[k, 0], y + offsets[k, 1]
            if barred[nx, ny] == 1:
                continue
            total = spent + feet
            np_ = parity ^ offsets[k, 2]
            if best[nx, ny, np_] <= total:
                continue
            best[nx, ny, np_] = total
            came[nx, ny, np_, 0], came[nx, ny, np_, 1], came[nx, ny, np_, 2], came[nx, ny, np_, 3] = x, y, parity, feet
            counter += 1
            n = heap_push(heap, n, total, counter, nx, ny, np_)
    if end_x < 0:
        return -1
    steps = 0
    x, y, p = end_x, end_y, end_p
    while came[x, y, p, 0] >= 0:
        steps += 1
        x, y, p = came[x, y, p, 0], came[x, y, p, 1], came[x, y, p, 2]
    xs = np.zeros(steps, np.int64)
    ys = np.zeros(steps, np.int64)
    fs = np.zeros(steps, np.int64)
    x, y, p = end_x, end_y, end_p
    for s in range(steps - 1, -1, -1):
        xs[s], ys[s], fs[s] = x, y, came[x, y, p, 3]
        x, y, p = came[x, y, p, 0], came[x, y, p, 1], came[x, y, p, 2]
    keep = 0
    used = 0
    for s in range(steps):
        used += fs[s]
        if used > speed:
            break
        if occupied[xs[s], ys[s]] == 0:
            keep = s + 1
    for s in range(keep):
        path_x[s], path_y[s] = xs[s], ys[s]
    return keep


__all__ = ["stride_to"]
