"""Edition 2's Trip in the compiled fight (:mod:`ashfall.sim.kernel_maneuvers` lowers it; E-37, TRP-1..4).

:func:`trip_contest` rolls the Trip contest as the rules' ``contest`` rolls it: the initiator's d20s, then the
defender's, each side's total read off the lowered ``contest_total``, again while the margin does not settle it
(a tie under ``checks.contest_tie = reroll``, G-45); the faces of the last roll are what the log shows.
:func:`turn_starts` keeps Dazed (G-13): it lasts until the end of the creature's next turn, which is over when
the next turn begins. ``ashfall.kernel.fight`` applies the result (Prone, TRP-3; Prone and Dazed, TRP-4) and
reads prone creatures' attacks off the target states :data:`PRONE_UP` and :data:`ATTACKER_PRONE`.
"""

from __future__ import annotations

from ashfall.kernel.compiled import I64
from ashfall.kernel.compiled import jit as _jit
from ashfall.kernel.rng import roll

MvTab = tuple[I64, I64, I64, I64, I64, I64]
"""Trip's tables (``kernel_maneuvers.ManeuverTables``): ints, contest_draws, contest_total, margins, check_label,
dazed (a scratch row)."""
MV_ON, MV_TRIP_LABEL, MV_TRIP_COST, MV_DAZED_ACTIONS, MV_MARGIN_OFF = 0, 1, 2, 3, 4
MARGIN_SETTLED, MARGIN_WINS, MARGIN_CRIT = 0, 1, 2
TRIP_FIRST = 9
PRONE_UP, ATTACKER_PRONE = 4, 5
BASE_STATES = 4
"""Target states of the attack tables without Trip (``kernel_lower.TARGET_STATES``); the codes above are the
lowering's (``kernel_maneuvers``; a test holds them equal)."""
CHECK = 11
"""A step row's kind for a ``check-rolled`` step of a contest (label: an index of ``check_names``)."""
MISSED, TRIPPED, TRIPPED_HARD = 0, 1, 2
"""What a Trip did: nothing (TRP-3), Prone, Prone and Dazed (won by the degree margin, TRP-4)."""


@_jit
def trip_contest(mt: I64, a: int, t: int, dazed: I64, draws: I64, totals: I64, margins: I64, ints: I64,
                 faces: I64) -> int:
    """``a``'s Trip on ``t``: :data:`MISSED`, :data:`TRIPPED` or :data:`TRIPPED_HARD`.

    ``faces[0:2]`` get the initiator's faces of the roll that settled it, ``faces[2:4]`` the defender's.
    """
    state = 1 if dazed[a] != 0 else 0
    ni, nd = draws[a, t, state, 0], draws[a, t, state, 1]
    off = ints[MV_MARGIN_OFF]
    while True:
        i1 = roll(mt, 20)
        i2 = roll(mt, 20) if ni == 2 else 1
        d1 = roll(mt, 20)
        d2 = roll(mt, 20) if nd == 2 else 1
        m = totals[a, t, state, 0, i1 - 1, i2 - 1] - totals[a, t, state, 1, d1 - 1, d2 - 1] + off
        if margins[MARGIN_SETTLED, m] == 1:
            break
    faces[0], faces[1], faces[2], faces[3] = i1, i2, d1, d2
    if margins[MARGIN_WINS, m] == 0:
        return MISSED
    return TRIPPED_HARD if margins[MARGIN_CRIT, m] == 1 else TRIPPED


@_jit
def turn_starts(c: int, alive: bool, dazed: I64) -> None:
    """A turn begins: the last one is over (its Dazed ends, G-13); ``c`` starts a Dazed turn if it is Dazed."""
    for o in range(len(dazed)):
        if dazed[o] == 2:
            dazed[o] = 0
    if alive and dazed[c] == 1:
        dazed[c] = 2


__all__ = ["CHECK", "MvTab", "trip_contest", "turn_starts"]
