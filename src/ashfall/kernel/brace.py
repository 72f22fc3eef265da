"""Brace in the compiled fight (RX-12..15, X-20; :mod:`ashfall.sim.kernel_brace_lower` lowers its tables).

:func:`charge_feet` is ``charge_ft`` on a Stride's path (its last straight run, each step closer to the reactor, read
off the lowered ``closer`` table); :func:`bracer` finds the next creature, in reactor order, that the end of a Stride
offers Brace to and that takes it (``_brace_ok`` and the AI's ``_reaction``); the attack and the save are played by
``ashfall.kernel.fight`` (``_braced``). A charger Brace stops (X-20) is marked :data:`FX_BRACED` on its own entry of
the ``fx`` matrix until its turn ends: :func:`stopped` is what ``path_cost`` refuses its Strides and Steps by.
"""

from __future__ import annotations

from ashfall.kernel.compiled import I8, I64
from ashfall.kernel.compiled import jit as _jit

BraceTab = tuple[I64, I64, I64, I64, I64, I8, I64, I64, I64, I64]
"""``kernel_brace_lower.BraceTables.tab()``: ints, reach, closer, size_ok, save_ok, outcome, draws, dice, flat,
dealt."""
BR_ON, BR_CHARGE, BR_STEP, BR_STOPS, BR_LOW = 0, 1, 2, 3, 4
"""Slots of the tables' ints (``kernel_brace_lower.BR_*``; a test holds them equal)."""
FX_BRACED = 64
"""The bit of ``fx[c, c]`` while ``c`` cannot move again this turn (X-20)."""
SAVE = 12
"""The step kind of the charger's Fortitude save (``kernel_brace_lower.SAVE_STEP``)."""
BRACE_LABEL = 7
"""The Brace attack's label (``kernel_lower.ATTACK_LABELS``)."""
ALIVE = 0
SIGHT_TOTAL = 1


@_jit
def turn_starts(c: int, fx: I64) -> None:
    """``c``'s turn begins: a stop from its last turn is over (X-20: "this turn")."""
    fx[c, c] &= ~FX_BRACED


@_jit
def stopped(c: int, fx: I64) -> bool:
    """Whether ``c`` cannot move again this turn (Brace's failed save, X-20)."""
    return bool(fx[c, c] & FX_BRACED != 0)


@_jit
def stop(c: int, fx: I64) -> None:
    """``c`` cannot move again this turn (X-20)."""
    fx[c, c] |= FX_BRACED


@_jit
def charge_feet(r: int, sx: int, sy: int, went: int, path_x: I64, path_y: I64, px: I64, py: I64, closer: I64,
                step_ft: int) -> int:
    """``charge_ft`` of the Stride from ``(sx, sy)`` along the first ``went`` squares, toward ``r``'s square."""
    w = (closer.shape[0] + 1) // 2
    h = (closer.shape[1] + 1) // 2
    last_x = path_x[went - 1]
    last_y = path_y[went - 1]
    before_x = sx if went == 1 else path_x[went - 2]
    before_y = sy if went == 1 else path_y[went - 2]
    dx, dy = last_x - before_x, last_y - before_y
    run = 0
    for s in range(went - 1, -1, -1):
        ax = sx if s == 0 else path_x[s - 1]
        ay = sy if s == 0 else path_y[s - 1]
        if path_x[s] - ax != dx or path_y[s] - ay != dy:
            break
        if closer[ax - px[r] + w - 1, ay - py[r] + h - 1, dx + 1, dy + 1] == 0:
            break
        run += 1
    return run * step_ft


@_jit
def bracer(c: int, start: int, sx: int, sy: int, went: int, path_x: I64, path_y: I64, order: I64, side: I64,
           vit: I64, react: I64, px: I64, py: I64, dist: I64, sight: I64, br: BraceTab) -> int:
    """The index in ``order``, from ``start``, of the next creature that Braces ``c``'s charge, or -1.

    Asked in reactor order, each up with its reaction left (``can_react``): on another side, with a bracing weapon
    whose reach holds ``c`` (``_brace_ok``), the charge long enough, and ``c`` not behind total cover from it (the AI
    declines then, ``_walled_off``).
    """
    ints, reach, closer = br[0], br[1], br[2]
    for idx in range(start, len(order)):
        r = order[idx]
        if side[r] == side[c] or vit[r] != ALIVE or react[r] == 0 or reach[r] < 0:
            continue
        if dist[abs(px[r] - px[c]), abs(py[r] - py[c])] > reach[r]:
            continue
        if charge_feet(r, sx, sy, went, path_x, path_y, px, py, closer, ints[BR_STEP]) < ints[BR_CHARGE]:
            continue
        r_ = sight.shape[2] // 2
        ddx, ddy = px[c] - px[r], py[c] - py[r]
        if abs(ddx) <= r_ and abs(ddy) <= r_ and sight[px[r], py[r], ddx + r_, ddy + r_, 1] & SIGHT_TOTAL:
            continue  # the AI does not Brace a charger it cannot attack (COV-3)
        return idx
    return -1


__all__ = [
    "BRACE_LABEL",
    "BR_CHARGE",
    "BR_LOW",
    "BR_ON",
    "BR_STEP",
    "BR_STOPS",
    "FX_BRACED",
    "SAVE",
    "BraceTab",
    "bracer",
    "charge_feet",
    "stop",
    "stopped",
    "turn_starts",
]
