"""Surprise in the compiled fight (SUR-1..3; :mod:`ashfall.sim.kernel_surprise_lower` lowers its table).

:func:`ambush` rolls the ambushers' Stealth right after initiative, as ``resolve_surprise`` does: each ambusher in
roster order draws its d20s and its total is read off the lowered table; the lowest total against each other
creature's lowered threshold decides who is surprised (SUR-1, G-45). A surprised creature holds no reaction in round
1 (:func:`hold`, SUR-2: ``react`` 0, so every reaction the fight offers passes it by), its round-1 turn is skipped
after its start (:func:`skips`) and its reaction is back as round 2 begins (:func:`wake`, SUR-3): the reference's
``reaction_available`` was never spent, only ``can_react`` barred it.
"""

from __future__ import annotations

from ashfall.kernel import morale as kmor
from ashfall.kernel.compiled import I64
from ashfall.kernel.compiled import jit as _jit
from ashfall.kernel.rng import roll

SUR_DRAWS, SUR_FROM, SUR_TOTALS = 0, 1, 2
"""Columns of the table (``kernel_surprise_lower.SUR_*``; a test holds them equal)."""
STEALTH = 41
"""The step kind of an ambusher's Stealth check (``kernel_surprise_lower.STEALTH_STEP``)."""


@_jit
def ambush(mt: I64, sur: I64, surprised: I64, react: I64, record: bool, steps: I64, at: int, head: int) -> int:
    """The ambushers' Stealth against every other creature's threshold (SUR-1); returns ``at``.

    ``surprised[c]`` is set (1) for each creature surprised, whose reaction is held (SUR-2). Each roll is a step.
    """
    n = sur.shape[0]
    lowest = 0
    rolled = False
    for c in range(n):
        surprised[c] = 0
    for c in range(n):
        k = sur[c, SUR_DRAWS]
        if k == 0:
            continue
        first = roll(mt, 20)
        second = roll(mt, 20) if k == 2 else 1
        total = sur[c, SUR_TOTALS + (first - 1) * 20 + second - 1]
        if not rolled or total < lowest:
            lowest = total
        rolled = True
        if record:
            if at < 0 or at >= steps.shape[0]:
                at = -1
            else:
                steps[at, 0] = STEALTH
                steps[at, 1] = c
                steps[at, 2] = -1
                steps[at, 3] = 0
                steps[at, 4] = k
                steps[at, head] = first
                steps[at, head + 1] = second
                at += 1
    if not rolled:
        return at
    for c in range(n):
        if sur[c, SUR_DRAWS] == 0 and lowest >= sur[c, SUR_FROM]:
            surprised[c] = 1
            react[c] = 0
    return at


@_jit
def hold(c: int, rnd: int, surprised: I64, react: I64) -> None:
    """``c``'s turn starts: surprised in round 1 it still cannot react (SUR-2)."""
    if rnd == 1 and surprised[c] == 1:
        react[c] = 0


@_jit
def skips(c: int, rnd: int, surprised: I64) -> bool:
    """Whether ``c``'s turn is skipped: surprised, in round 1 (SUR-2)."""
    return rnd == 1 and surprised[c] == 1


@_jit
def wake(surprised: I64, react: I64, mor: kmor.MoraleTab) -> None:
    """Round 2 begins: each surprised creature's reaction, never spent, is back (SUR-3).

    Where its morale bars reactions now (MOR-22), it is kept for a rally instead.
    """
    for c in range(len(surprised)):
        if surprised[c] == 1:
            if kmor.reacts(mor, c):
                react[c] = 1
            else:
                mor[13][c, kmor.ST_HAD] = 1


__all__ = ["STEALTH", "SUR_DRAWS", "SUR_FROM", "SUR_TOTALS", "ambush", "hold", "skips", "wake"]
