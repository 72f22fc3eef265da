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

MvTab = tuple[I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64]
"""Trip's and Feint's tables (``kernel_maneuvers.ManeuverTables``): ints, contest_draws, contest_total, margins,
check_label, dazed (a scratch row), the Feint's effects (a scratch ``[bearer, other]`` matrix of ``FX_*`` bits), and
the Feint contest's draws, totals, check labels and margins (``kernel_maneuvers.FeintContest``)."""
MV_ON, MV_TRIP_LABEL, MV_TRIP_COST, MV_DAZED_ACTIONS, MV_MARGIN_OFF = 0, 1, 2, 3, 4
MV_FEINT_LABEL, MV_FEINT_COST, MV_FEINT_OFF = 5, 6, 7
MARGIN_SETTLED, MARGIN_WINS, MARGIN_CRIT = 0, 1, 2
TRIP_FIRST = 9
FEINT_FIRST = 8
PRONE_UP, ATTACKER_PRONE = 4, 5
ADVANTAGED = 10
"""Added to a target state when a Feint gives the attacker advantage on this attack (``kernel_maneuvers``)."""
FEINTED_UP, ADV_UP, ADV_PRONE, ADV_MOVED_UP = 3, 4, 5, 6
"""The opener tables' variants after a Feint on the target this turn (``kernel_maneuvers``)."""
FEINT_NOTHING, FEINT_WON, FEINT_BACKFIRED = 0, 1, 2
"""What a Feint did (FNT-4, FNT-3, FNT-5)."""
FX_ADV, FX_BACK, FX_BACK_ENDING, FX_FEINTED = 1, 2, 4, 8
"""Bits of the Feint's effects ``fx[bearer, other]``: advantage on the bearer's next melee attack on ``other``
until its turn ends (FNT-3); advantage on its next attack on ``other`` until its next turn ends (FNT-5), and the
same during that turn; the bearer feinted ``other`` this turn (FNT-7)."""
FX_NEXT_ATTACK = FX_ADV | FX_BACK | FX_BACK_ENDING
"""The bits an attack of the bearer on ``other`` uses up (``next_attack_sources``)."""
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


@_jit
def feint_contest(mt: I64, a: int, t: int, draws: I64, totals: I64, margins: I64, off: int, faces: I64) -> int:
    """``a``'s Feint on ``t`` (FNT-2): :data:`FEINT_NOTHING`, :data:`FEINT_WON` or :data:`FEINT_BACKFIRED`.

    As :func:`trip_contest`: the feinter's d20s, then the target's, again while the margin does not settle it;
    ``faces[0:2]`` get the feinter's faces of the last roll, ``faces[2:4]`` the target's.
    """
    ni, nd = draws[a, t, 0], draws[a, t, 1]
    while True:
        i1 = roll(mt, 20)
        i2 = roll(mt, 20) if ni == 2 else 1
        d1 = roll(mt, 20)
        d2 = roll(mt, 20) if nd == 2 else 1
        m = totals[a, t, 0, i1 - 1, i2 - 1] - totals[a, t, 1, d1 - 1, d2 - 1] + off
        if margins[MARGIN_SETTLED, m] == 1:
            break
    faces[0], faces[1], faces[2], faces[3] = i1, i2, d1, d2
    return int(margins[1, m])


@_jit
def feint_turn_starts(c: int, fx: I64) -> None:
    """A turn begins: the last one is over, and with it its Feint effects; ``c``'s answers now last this turn.

    Over with the last turn: a Feint's advantage (FNT-3), the answer a lost Feint gave for that turn (FNT-5) and who
    feinted whom (FNT-7).
    """
    n = fx.shape[0]
    for b in range(n):
        for o in range(n):
            if fx[b, o] != 0:
                fx[b, o] &= ~(FX_ADV | FX_BACK_ENDING | FX_FEINTED)
    for o in range(n):
        if fx[c, o] & FX_BACK != 0:
            fx[c, o] = (fx[c, o] & ~FX_BACK) | FX_BACK_ENDING


__all__ = ["CHECK", "MvTab", "feint_contest", "feint_turn_starts", "trip_contest", "turn_starts"]
