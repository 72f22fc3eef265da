"""The compiled flight toward an exit: where a broken NPC played by the tactical AI Strides next (MOR-20, MOR-21).

It mirrors ``TacticalPolicy._flee`` and ``_retreat`` for a broken NPC (reason FLEE: no Step, no Dodge, every action
a Stride, MOR-21): ``flee_path`` (the cheapest path to an exit no enemy is nearer to than the mover, else to any
exit; enemies up or gone, ``is_active``, count as near and bar the way) and ``first_stride`` (as far along it as its
speed allows, ending on a free square). The exits are the lowered ``exits_of`` (MOR-20: the encounter's, else the
map's passable edge), which is what the AI flees to when it is given none of its own. The search is
``move_search.shortest``'s: Dijkstra over (square, diagonals mod 2), pushes ordered by (feet, push count), neighbours
in the lowered ``offsets`` order, the goal tested as a node is popped on a square the mover may stop on.
"""

from __future__ import annotations

import numpy as np

from ashfall.kernel import paths
from ashfall.kernel.compiled import I64
from ashfall.kernel.compiled import jit as _jit

ALIVE, DEAD, LEFT = 0, 3, 4
"""Vitality codes (``ashfall.kernel.fight.ALIVE``, ``DEAD``; ``ashfall.kernel.morale.LEFT``)."""
FAR = 1 << 60
NO_ENEMY = 10_000
"""``nearest_enemy_ft`` with no enemy left."""


@_jit
def _nearest_enemy(c: int, x: int, y: int, side: I64, vit: I64, px: I64, py: I64, dist: I64) -> int:
    """Feet from ``(x, y)`` to ``c``'s nearest enemy still active (up, or gone from the fight: ``is_active``)."""
    best = NO_ENEMY
    for e in range(len(side)):
        if side[e] != side[c] and (vit[e] == ALIVE or vit[e] == LEFT):
            best = min(best, int(dist[abs(px[e] - x), abs(py[e] - y)]))
    return best


@_jit
def flee_stride(c: int, doors: I64, side: I64, vit: I64, px: I64, py: I64, speed: int, price: I64, offsets: I64,
                dist: I64, path_x: I64, path_y: I64) -> int:
    """The squares of ``c``'s next Stride toward an exit into ``path_x``/``path_y``; returns their count (0: none)."""
    width, height = dist.shape[0], dist.shape[1]
    sx, sy = px[c], py[c]
    if doors[sx, sy] == 1:
        return 0
    here = _nearest_enemy(c, sx, sy, side, vit, px, py, dist)
    safe = np.zeros((width, height), np.int64)
    any_safe = False
    for x in range(width):
        for y in range(height):
            if doors[x, y] == 1 and _nearest_enemy(c, x, y, side, vit, px, py, dist) >= min(
                    here, int(dist[abs(x - sx), abs(y - sy)])):
                safe[x, y] = 1
                any_safe = True
    went = -1
    if any_safe:
        went = paths.stride_to(c, safe, side, vit, px, py, speed, price, offsets, path_x, path_y)
    if went < 0:
        went = paths.stride_to(c, doors, side, vit, px, py, speed, price, offsets, path_x, path_y)
    return max(went, 0)


__all__ = ["flee_stride"]
