"""The Covering Fire talent's reaction in the compiled fight (SUP-11; :mod:`ashfall.sim.kernel_covering_lower`).

The compiled fight keeps who pinned whom in the Feint's ``[bearer, other]`` matrix of bits (``fx``, a scratch of
``ManeuverTables``), in bits of its own: :data:`FX_PINNED` on ``fx[a, s]`` while ``a`` is SUPPRESSED by ``s``'s
Covering Fire, :data:`FX_SHOT` once ``s``'s free attack on it is spent. :func:`offer` is the reaction as the engine
offers it on an attack's declaration (ATTACKED, in reactor order) and the AI takes it (nothing it prefers is
offered then); :func:`turn_starts` ends the effects of a shooter whose turn begins; :func:`pinned` is what
``suppressed`` reads (the attack tables' pinned rows); :func:`free_shooter` is ``_covering_hook``'s test after a
pinned creature's step.
"""

from __future__ import annotations

from ashfall.kernel.compiled import F64, I8, I64
from ashfall.kernel.compiled import jit as _jit

CovTab = tuple[I64, I64, I64, I64, I8, I64, I64, I64, I64, I64, F64, F64, F64, F64]
"""``kernel_covering_lower.CoveringTables.tab()``: ints, talent, ok, free, outcome, draws, dice, flat, dealt, low,
enemy_hit, melee_best, enemy_hit_prone, melee_best_prone."""
COV_ON, COV_NEED, COV_INTERCEPTS, COV_PROVOKES = 0, 1, 2, 3
"""Slots of the tables' ints (``kernel_covering_lower.COV_*``; a test holds them equal)."""
FX_PINNED, FX_SHOT = 16, 32
"""Bits of ``fx[a, s]``: ``a`` is pinned by ``s``'s Covering Fire; ``s``'s free attack on it is spent."""
ALIVE = 0


@_jit
def pinned(a: int, fx: I64) -> bool:
    """Whether ``a`` is SUPPRESSED by anyone's Covering Fire (disadvantage on all its attacks, ``suppressed``)."""
    found = False
    for o in range(fx.shape[0]):
        if fx[a, o] & FX_PINNED != 0:
            found = True
            break
    return found


@_jit
def offer(a: int, order: I64, side: I64, vit: I64, react: I64, px: I64, py: I64, ammo_left: I64, cov: CovTab,
          fx: I64) -> None:
    """``a`` declares an attack (``attack_declared``): Covering Fire offered to every creature that qualifies.

    In reactor order, each up with its reaction left, the talent, on another side, that has not pinned ``a`` already,
    sees it and has a gun loaded with the rounds that can shoot it from where they stand (``covering_weapon``: the
    first such gun, :func:`gun`): it spends its reaction and that gun's rounds (``spend_ammo``), and ``a`` is pinned
    until the start of its next turn.
    """
    ints, talent = cov[0], cov[1]
    if ints[COV_ON] == 0:
        return
    need = ints[COV_NEED]
    for idx in range(len(side)):
        r = order[idx]
        if talent[r, 0] == 0 or side[r] == side[a] or react[r] == 0 or vit[r] != ALIVE:
            continue
        if fx[a, r] & FX_PINNED != 0:
            continue
        g = gun(r, a, px, py, ammo_left, cov[2], cov)
        if g < 0:
            continue
        react[r] = 0
        ammo_left[r, talent[r, g] - 1] -= need
        fx[a, r] |= FX_PINNED


@_jit
def gun(s: int, t: int, px: I64, py: I64, ammo_left: I64, rows: I64, cov: CovTab) -> int:
    """``covering_weapon``: the index of ``s``'s gun that covers ``t``, -1: none.

    The first of its guns, as its weapons are listed, loaded with the rounds Covering Fire needs and able to shoot
    ``t`` from where they stand (``rows``: ``ok`` or ``free``).
    """
    talent, need = cov[1], cov[0][COV_NEED]
    found = -1
    for g in range(talent.shape[1]):
        if talent[s, g] == 0:
            break
        if ammo_left[s, talent[s, g] - 1] >= need and rows[s, g, px[s], py[s], px[t], py[t]] != 0:
            found = g
            break
    return found


@_jit
def turn_starts(c: int, fx: I64) -> None:
    """``c``'s turn begins: the Covering Fire it laid down ends (``Duration.start_of_next_turn``)."""
    for b in range(fx.shape[0]):
        fx[b, c] &= ~(FX_PINNED | FX_SHOT)


@_jit
def free_shooter(c: int, vit: I64, px: I64, py: I64, ammo_left: I64, cov: CovTab, fx: I64) -> tuple[int, int]:
    """After a step of ``c``: the shooter whose free attack it sets off and its gun, or ``(-1, -1)``.

    ``_covering_hook``: the shooter marked spent; the gun, an index into its guns, is the free attack tables' kind.

    The first pin on it whose free attack is not spent, its shooter up, ``c`` up, and ``covering_weapon`` finding a
    gun loaded with the rounds Covering Fire needs with ``c`` in range and not behind total cover (``free``,
    :func:`gun`); it spends one round of that gun. One pin: the kernel plays one shooter.
    """
    talent = cov[1]
    if vit[c] != ALIVE:
        return -1, -1
    for s in range(fx.shape[0]):
        if fx[c, s] & FX_PINNED == 0 or fx[c, s] & FX_SHOT != 0 or vit[s] != ALIVE:
            continue
        g = gun(s, c, px, py, ammo_left, cov[3], cov)
        if g < 0:
            continue
        fx[c, s] |= FX_SHOT
        ammo_left[s, talent[s, g] - 1] -= 1  # ``spend_ammo``: one round
        return s, g
    return -1, -1


__all__ = ["COV_INTERCEPTS", "COV_NEED", "COV_ON", "COV_PROVOKES", "FX_PINNED", "FX_SHOT", "CovTab", "free_shooter",
           "gun", "offer", "pinned", "turn_starts"]
