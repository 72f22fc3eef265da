"""The tactical AI's turn in the compiled fight: its first slice (:mod:`ashfall.sim.kernel_ai_lower` says which).

:func:`decide` mirrors ``TacticalPolicy.choose`` for a creature alone on its side with one melee weapon, on a
grid the kernel's approach plays: every way to attack this turn — stay, a Step (ACT-3) or one or two Strides
to a square within reach of a target (the AI's ``routes``: its search over (square, diagonals mod 2) with heap
ties by push order, the nearest ``max_routes`` squares, the way that provokes nothing when there is one, the
enemies whose reach a way leaves, RX-21) — every target within reach from there and the best plan of the
actions left (looked up in the lowered ``plan_*`` tables: the AI's own ``plans_for`` and ``plan_key``), valued
net of the Attacks of Opportunity the route provokes and of the attacks its square invites
(``_best_candidates``, ``ranged_threat``'s melee part), ranked as ``targeting.rank`` ranks them; then focus fire
(``targeting.focus``), the first step of the winner (a Step, the part of the way one Stride covers, or the
plan's first action), else closing in along the shortest path (``_approach``). The floats are summed in the
AI's order and rounded as it rounds them (:func:`round9`), so every comparison is the AI's.

The decision reads the state and the lowered tables only; ``ashfall.kernel.fight`` plays the turn with it
(``_ai_turn``: the Stride's Attacks of Opportunity, attacks and MAP as for scripted plans, the approach's way).
A choice outside the slice (the AI would Dodge: nothing to attack and no way to close in) stops the fight and
says so (``BAIL``).
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np

from ashfall.kernel import covering as kcov
from ashfall.kernel.brace import FX_BRACED
from ashfall.kernel.compiled import F64, H_COUNT, H_P, H_TOTAL, H_X, H_Y, I8, I64, heap_pop, heap_push, new_heap
from ashfall.kernel.compiled import jit as _jit

# decisions (``decide``'s first value)
END, ATTACK, STEP, STRIDE, APPROACH = 0, 1, 2, 3, 4
BAIL = 5
"""A choice outside the slice (``ashfall.kernel.fight`` returns it when the approach finds no way)."""
RELOAD = 6
"""Nothing to attack: reload the option ``activity`` (``TacticalPolicy._idle``, G-31)."""
RELOAD_BLOCK = 4
"""A further option's first block Reload (G-31; ``kernel_ranged_lower.RELOAD``)."""
MODES = 3
"""Settings of a ranged option's plans (``kernel_weapons_lower.MODES``): one block of them per round loaded."""
ALIVE, DEAD = 0, 3
"""The fight's vitality codes it reads (``ashfall.kernel.fight.ALIVE``, ``DEAD``; a test holds them equal)."""
LEFT = 4
"""``ashfall.kernel.morale.LEFT``: fled or surrendered, not down, so it still bars the way (ACT-2)."""
BESIDE = 2
"""The situation code's "within 5 ft" (its own melee attacks from beside the target; a reach weapon's from 10 ft lack
it); flanking adds 1 where an ally helps (``flank``)."""
# the AI turn's status (``ashfall.kernel.fight``)
GOES_ON, ENDED, BAILED = 0, 1, 2
STEP_LABEL = 5
"""The Step's index in ``Lowered.action_names`` (after the activities, Stand and Stride)."""
MOVED_STEP = 1
"""A ``MOVED`` row's label for a square entered by a Step (0: by a Stride)."""
CFG_SELF, CFG_THREAT, CFG_DROP, CFG_ROUTES, CFG_WIND, CFG_LEAD, CFG_OPEN = 0, 1, 2, 3, 4, 5, 6
WD_ON, WD_BELOW = 0, 1
"""Slots of the lowered withdrawal config (``kernel_allies_lower.WD_*``; a test holds them equal)."""
MED_ON, MED_COST, MED_REACH = 0, 1, 2
"""Slots of the lowered Medicine check's ints (``kernel_allies_lower.MED_*``; a test holds them equal)."""
MEDICINE_CHECK = 31
"""The step kind of edition 1's Medicine check on a dying ally (E-31; ``ashfall.kernel.fight``'s step rows)."""
MEDICINE_LABEL = -3
"""The ``ACTIONS`` row label of that action (its name is the lowering's ``medic_name``)."""
WIND_ON, WIND_USES, WIND_COST, WIND_DICE, WIND_SIDES, WIND_FLAT, WIND_TEMP = 0, 1, 2, 3, 4, 5, 6
"""Slots of the lowered Second Wind table (``kernel_ai_lower.WIND_*``; a test holds them equal)."""
WIND_LABEL = 6
"""Second Wind's index in ``Lowered.action_names`` (after the Step)."""
INT_PER_ROLL, INT_ALTERNATING, INT_STEP_COST = 0, 1, 2
FEET = 5
"""Feet of one square (``SQUARE_FT``): a Step moves this far, on a square that costs no more (ACT-3)."""
OPTION = 10
"""A further option's first block is returned as ``OPTION * (option + 1) + block`` (``decide``)."""
AIM_BLOCK = 3
"""A further option's first block Aim (E-05; ``kernel_weapons_lower.AIM``)."""
PRONE = 3
"""Added to a further option's setting against a prone target (``kernel_weapons_lower.PRONE``)."""
OPEN_UP, OPEN_PRONE, MOVED_PRONE = 0, 1, 2
"""Variants of the opener tables (``kernel_maneuvers``): where it stands against a target up or prone, and from a
square it moves to against a prone target."""
FEINTED_UP, ADV_UP, ADV_PRONE, ADV_MOVED_UP = 3, 4, 5, 6
"""Variants after a Feint on the target this turn (``kernel_maneuvers``): where it stands against it up with nothing
won, and with the Feint's advantage where it stands against it up, against it prone, and moved against it up."""
FX_ADV, FX_FEINTED = 1, 8
"""Bits of the Feint's effects (``ashfall.kernel.maneuvers.FX_*``; a test holds them equal)."""


@_jit
def round9(x: float) -> float:
    """``round(x, 9)`` exactly as CPython rounds it (the nearest float to the correctly rounded decimal).

    ``rint(x * 1e9) / 1e9`` is that result unless the product lies within its own rounding error of a half;
    there CPython itself answers.
    """
    y = x * 1e9
    r = np.rint(y)
    if abs(abs(y - r) - 0.5) < 1e-5:
        with numba.objmode(z="float64"):
            z = round(x, 9)
        return float(z)
    return float(r) / 1e9


@_jit
def _thrown_at(c: int, e: int, x: int, y: int, gap: int, side: I64, vit: I64, px: I64, py: I64, dist: I64, view: I64,
               throw_hit: F64) -> float:
    """What enemy ``e``'s thrown option would deal ``c`` on ``(x, y)`` (``_enemy_value`` in the AI's situation).

    "A hostile within 5 ft" of the thrower (AMOD-7): ``c`` there, or another of its enemies up where it stands.
    """
    hostile = 1 if gap <= FEET else 0
    if hostile == 0:
        for o in range(len(side)):
            if o != c and side[o] != side[e] and vit[o] == ALIVE and \
                    dist[abs(px[o] - px[e]), abs(py[o] - py[e])] <= FEET:
                hostile = 1
    return float(throw_hit[e, c, hostile + (2 if gap <= FEET else 0) + 4 * view[px[e], py[e], x, y]])


@_jit
def _tier(p_drop: float, drop_step: float) -> int:
    """``drop_tier``: the drop chance in steps of ``drop_step``."""
    if drop_step > 0:
        return int(p_drop / drop_step + 1e-9)
    return 0


@_jit
def _beats(t1: int, r1: float, a1: int, f1: int, y1: int, x1: int, t2: int, r2: float, a2: int, f2: int, y2: int,
           x2: int) -> bool:
    """Whether rank ``(t1, (r1, -a1, -f1, -y1, -x1))`` is greater than the second (``targeting.rank``)."""
    if t1 != t2:
        return t1 > t2
    if r1 != r2:
        return r1 > r2
    if a1 != a2:
        return a1 < a2
    if f1 != f2:
        return f1 < f2
    if y1 != y2:
        return y1 < y2
    return x1 < x2


@_jit
def _search(c: int, budget: int, blocked: I64, keep: I64, limit: int, bits: I64, safe: bool, alternating: int,
            price: I64, offsets: I64, best: I64, came: I64, kept: I64) -> tuple[int, bool]:
    """``move_search.search``: cheapest ways within ``budget`` from ``c``'s square, keeping squares flagged in ``keep``.

    Heap entries ordered by (feet, push count), steps in ``offsets`` order, a square kept when first settled;
    with ``safe`` no step leaves a reach in ``bits``. ``best``/``came`` (per node ``x, y, parity``; ``came``
    holds the node before it, -1 for none) and ``kept`` (``x, y, parity, feet`` in settling order) are filled;
    returns the count kept and whether a step that leaves a reach was taken.
    """
    width, height = best.shape[0], best.shape[1]
    # element by element: numba compiles a slice assignment (``best[:] = ...``) through a helper pipeline of its
    # own, about half a second of first use each
    for x in range(width):
        for y in range(height):
            for p in range(best.shape[2]):
                best[x, y, p] = budget + 1
                for k in range(came.shape[3]):
                    came[x, y, p, k] = -1
    settled = np.zeros((width, height), np.int64)
    size = width * height * 2 * offsets.shape[0] + 1
    heap = new_heap(size)
    sx, sy = kept[0, 0], kept[0, 1]  # the caller puts the start in the first row
    best[sx, sy, 0] = 0
    heap[0, H_TOTAL], heap[0, H_COUNT], heap[0, H_X], heap[0, H_Y], heap[0, H_P] = 0, 0, sx, sy, 0
    n = 1
    counter = 0
    count = 0
    left = False
    while n > 0:
        spent, x, y, parity = heap[0, H_TOTAL], heap[0, H_X], heap[0, H_Y], heap[0, H_P]
        n = heap_pop(heap, n)
        if spent > best[x, y, parity]:
            continue
        if settled[x, y] == 0:
            settled[x, y] = 1
            if keep[x, y] == 1:
                kept[count, 0], kept[count, 1], kept[count, 2], kept[count, 3] = x, y, parity, spent
                count += 1
                if count >= limit:
                    break
        inside = bits[x, y]
        for k in range(offsets.shape[0]):
            diagonal = offsets[k, 2]
            feet = price[c, x, y, k, parity if alternating == 1 and diagonal == 1 else 0]
            if feet < 0:
                continue
            nx, ny = x + offsets[k, 0], y + offsets[k, 1]
            total = spent + feet
            if total > budget or blocked[nx, ny] == 1:
                continue
            leaves = inside & ~bits[nx, ny]
            if leaves != 0 and safe:
                continue
            np_ = parity ^ diagonal if alternating == 1 else 0
            if best[nx, ny, np_] <= total:
                continue
            if leaves != 0:
                left = True
            best[nx, ny, np_] = total
            came[nx, ny, np_, 0], came[nx, ny, np_, 1], came[nx, ny, np_, 2] = x, y, parity
            counter += 1
            n = heap_push(heap, n, total, counter, nx, ny, np_)
    return count, left


BURST = 5
"""A further option's first block Full Auto Burst (``kernel_burst_lower.BURST``; a test holds them equal)."""
BurstTab = tuple[I64, I64, F64, F64, I64, I64, I64, I64, F64, F64, I64, I8, I64]
"""The burst tables as the compiled turn takes them (``kernel_burst_lower.BurstTables``' fields in order)."""
# fields of the burst tables (``kernel_burst_lower.BurstTables``, in order): literal, so each is typed
B_ON: Final = 0
B_INTS: Final = 1
B_WORTH: Final = 2
B_FURTHER: Final = 3
B_LISTS: Final = 4
B_START: Final = 5
B_SIZE: Final = 6
B_DRAFTS: Final = 7
B_OPENED: Final = 8
B_VALS: Final = 9
B_ROLL_DRAWS: Final = 10
B_ROLL_OUTCOME: Final = 11
B_RULES: Final = 12
D_ACTIONS, D_FIRST, D_MINE, D_WON, D_NUMBER = 0, 1, 2, 3, 4
"""Columns of a burst draft row (``kernel_burst_lower.D_*``)."""


@_jit
def _burst_order(c: int, xo: int, x: int, y: int, hostile: int, nt: int, targets: I64, px: I64, py: I64, hp: I64,
                 temp: I64, dist: I64, view: I64, x_limit: I64, worth: F64, order: I64, codes: I64,
                 ranked: I64, prone: I64, ints: I64) -> int:
    """The targets ``c`` can shoot from ``(x, y)`` with option ``xo``, ranked for a burst's group.

    ``order``/``codes``: those with a base, in roster order, and their codes (``TurnView._bases_at``; plus half the
    codes where the target lies prone, beside edition 2's openers: ``ints[2]``, E-37, C-PRO); ``ranked`` their
    positions by worth at their HP now, the first of equals first (``multi_targets``' stable sort). Returns how many.
    """
    half = worth.shape[3] // 2 if ints.shape[0] > 2 and ints[2] == 1 else 0
    nb = 0
    for q in range(nt):
        t = targets[q]
        g = dist[abs(x - px[t]), abs(y - py[t])]
        if g > x_limit[c, xo]:
            continue
        code = hostile + (2 if g <= FEET else 0) + 4 * view[x, y, px[t], py[t]] + (half if prone[t] == 1 else 0)
        if worth[c, xo, t, code, 0] < 0.0:
            continue  # no base in that code: it cannot be shot from here
        order[nb], codes[nb] = t, code
        nb += 1
    _rank(c, xo, nb, order, codes, hp, temp, worth, ranked)
    return nb


@_jit
def _rank(c: int, xo: int, nb: int, order: I64, codes: I64, hp: I64, temp: I64, worth: F64, ranked: I64) -> None:
    """Rank the ``nb`` targets in ``order`` into ``ranked`` by worth at their HP now (``multi_targets``' stable sort).

    The first of equals stays first.
    """
    w = np.zeros(max(1, nb), np.float64)
    for k in range(nb):
        t = order[k]
        w[k] = worth[c, xo, t, codes[k], max(1, hp[t] + temp[t]) - 1]
        ranked[k] = k
    for k in range(1, nb):  # insertion sort: stable, as ``sorted`` is
        v = ranked[k]
        m = k
        while m > 0 and w[ranked[m - 1]] < w[v]:
            ranked[m] = ranked[m - 1]
            m -= 1
        ranked[m] = v


SWEEP = 7
"""A plan's first block Sweeping Strike (``kernel_sweep_lower.SWEEP``; a test holds them equal)."""


@_jit
def _sweep_order(c: int, slot: int, x: int, y: int, limit_ft: int, nt: int, targets: I64, px: I64, py: I64,
                 hp: I64, temp: I64, prone: I64, dist: I64, view: I64, flank: I64, worth: F64, order: I64,
                 codes: I64, ranked: I64) -> int:
    """The targets ``c`` can attack from ``(x, y)`` with melee option ``slot``, ranked for a Sweeping Strike's group.

    As ``TurnView._bases_at`` and ``multi_targets`` find them (``kernel_sweep_lower``). Each code is the AI's melee
    code (within 5 ft, flanking where an ally helps, the view), plus the codes' count where the target lies prone
    (its odds inputs read prone, C-PRO). Returns how many.
    """
    half = worth.shape[3] // 2
    nb = 0
    for q in range(nt):
        t = targets[q]
        g = dist[abs(x - px[t]), abs(y - py[t])]
        if g > limit_ft:
            continue
        code = (BESIDE if g <= FEET else 0) + flank[x, y, t] + 4 * view[x, y, px[t], py[t]] + \
            (half if prone[t] == 1 else 0)
        if worth[c, slot, t, code, 0] < 0.0:
            continue  # no odds inputs in that code: it cannot be attacked from here
        order[nb], codes[nb] = t, code
        nb += 1
    _rank(c, slot, nb, order, codes, hp, temp, worth, ranked)
    return nb


@_jit
def _burst_group(p: int, nb: int, order: I64, ranked: I64, px: I64, py: I64, limit: int, spread: int,
                 group: I64) -> int:
    """The further targets a burst takes with the ``p``-th shootable target (``multi_targets``, MAA-2, X-12).

    Each next best within ``spread`` feet of every one chosen so far (``TurnView.gap``: 5-ft diagonals), up to
    ``limit`` in all; their positions in ``order`` into ``group``. Returns how many (0: no group).
    """
    if nb < 2:
        return 0
    count = 0
    for k in range(nb):
        other = ranked[k]
        if other == p or count + 1 >= limit:
            continue
        taken = False
        for m in range(count):
            if group[m] == other:
                taken = True
        if taken:
            continue
        near = True
        for m in range(count + 1):
            at = p if m == 0 else group[m - 1]
            a, b = order[other], order[at]
            if max(abs(px[a] - px[b]), abs(py[a] - py[b])) * FEET > spread:
                near = False
        if near:
            group[count] = other
            count += 1
    return count


@_jit
def _burst_best(c: int, xo: int, lst: int, hp_p: int, count: int, group: I64, order: I64, codes: I64, hp: I64,
                temp: I64, burst: BurstTab, drop_step: float) -> tuple[int, float, float]:
    """``best_valued`` of a setting's drafts from their parts (``kernel_burst_lower.best_of_parts``).

    ``Draft.valued``'s arithmetic in its order (each target's capped share added to 0.0, the primary first, then
    the further targets in group order; an opened draft ``p * win + (1 - p) * fail``), ranked by ``plan_key``, the
    first of equals kept. Returns ``(row, frac, p_drop)``, row -1 for none.
    """
    further, start, size, drafts, opened, vals = burst[B_FURTHER], burst[B_START], burst[B_SIZE], \
        burst[B_DRAFTS], burst[B_OPENED], burst[B_VALS]
    best = -1
    b_tier, b_frac, b_drop, b_actions = 0, 0.0, 0.0, 0
    r_frac, r_drop = 0.0, 0.0
    for k in range(size[lst]):
        row = start[lst] + k
        mine = drafts[row, D_MINE]
        frac = 0.0 + vals[mine, 0, hp_p - 1] / hp_p
        drop = vals[mine, 1, hp_p - 1]
        number = drafts[row, D_NUMBER]
        if number >= 0:
            for m in range(count):
                o = order[group[m]]
                h = max(1, hp[o] + temp[o])
                frac += further[c, xo, o, codes[group[m]], number, h - 1] / h
        p = opened[row]
        if p >= 0.0:
            won = drafts[row, D_WON]
            w_frac = 0.0 + vals[won, 0, hp_p - 1] / hp_p
            frac = p * w_frac + (1 - p) * frac
            drop = p * vals[won, 1, hp_p - 1] + (1 - p) * drop
        tier = _tier(drop, drop_step)
        rf, rd, actions = round9(frac), round9(drop), drafts[row, D_ACTIONS]
        if best < 0 or tier > b_tier or (tier == b_tier and (rf > b_frac or (rf == b_frac and (
                rd > b_drop or (rd == b_drop and actions < b_actions))))):
            best, b_tier, b_frac, b_drop, b_actions = row, tier, rf, rd, actions
            r_frac, r_drop = frac, drop
    return best, r_frac, r_drop


@_jit
def _swept(c: int, slot: int, var: int, t: int, code: int, steps_map: int, rest: int, hp_t: int, nb: int, order: I64,
           ranked: I64, codes: I64, group: I64, px: I64, py: I64, hp: I64, temp: I64, sweep: BurstTab,
           drop_step: float, first: int, frac: float, drop: float) -> tuple[int, float, float, int]:
    """The best plan on ``t`` where its setting has a Sweeping Strike's group (``multi_targets``, SWP-1..3).

    ``order``/``ranked``/``codes``: :func:`_sweep_order`'s; ``var`` 1 where ``t`` lies prone. Where ``t`` has a group
    the best of the setting's drafts from their parts (:func:`_burst_best`), else the plan given (``first``,
    ``frac``, ``drop``). Returns the plan and the further targets its first block takes (0: none, or no sweep).
    """
    count = 0
    for k in range(nb):
        if order[k] == t:
            count = _burst_group(k, nb, order, ranked, px, py, sweep[B_INTS][0], sweep[B_INTS][1], group)
    if count == 0:
        return first, frac, drop, 0
    lst = sweep[B_LISTS][c, slot, var, t, code, steps_map, rest, count - 1]
    if lst < 0:
        return -1, frac, drop, 0  # a setting never lowered has no plan (it never occurs: every one met is)
    row, frac, drop = _burst_best(c, slot, lst, hp_t, count, group, order, codes, hp, temp, sweep, drop_step)
    if row < 0:
        return -1, frac, drop, 0
    return sweep[B_DRAFTS][row, D_FIRST], frac, drop, count if sweep[B_DRAFTS][row, D_NUMBER] >= 0 else 0


@_jit
def _sweeps(sweep: BurstTab, c: int, slot: int) -> bool:
    """Whether ``c`` weighs a Sweeping Strike among several enemies with its melee option ``slot``."""
    on = sweep[B_ON]
    return bool(c < on.shape[0] and slot < on.shape[1] and on[c, slot] == 1)


@_jit
def _path(x: int, y: int, p: int, came: I64, best: I64, out: I64) -> int:
    """The squares entered on the way to node ``(x, y, p)``, in order, into ``out`` (rows ``x, y, feet so far``)."""
    steps = 0
    cx, cy, cp = x, y, p
    while came[cx, cy, cp, 0] >= 0:
        steps += 1
        cx, cy, cp = came[cx, cy, cp, 0], came[cx, cy, cp, 1], came[cx, cy, cp, 2]
    cx, cy, cp = x, y, p
    for s in range(steps - 1, -1, -1):
        out[s, 0], out[s, 1], out[s, 2] = cx, cy, best[cx, cy, cp]
        cx, cy, cp = came[cx, cy, cp, 0], came[cx, cy, cp, 1], came[cx, cy, cp, 2]
    return steps


@_jit
def _loaded(ammo_left: I64, threat_slot: I64, e: int, k: int) -> bool:
    """Whether enemy ``e``'s ranged option in its ``k``-th fire row is loaded or counts no rounds (``_attackers``)."""
    return bool(threat_slot[e, k] < 0 or ammo_left[e, threat_slot[e, k]] != 0)


@_jit
def decide(c: int, left: int, rolls: int, strikes: int, side: I64, vit: I64, prone: I64, hp: I64, temp: I64,
           react: I64, px: I64, py: I64, dist: I64, reach_ft: I64, speed: I64, price: I64, offsets: I64,
           plan_frac: F64, plan_drop: F64, plan_first: I64, value: F64, config: F64, ints: I64, path_x: I64,
           path_y: I64, view: I64, x_count: I64, x_ranged: I64, x_limit: I64, x_frac: F64, x_drop: F64,
           x_first: I64, mvalue: F64, throw_hit: F64, throw_ft: I64, aimed: int, open_frac: F64, open_drop: F64,
           open_first: I64, openers: int, flank: I64, throw_hit_prone: F64, shot: int, ammo_left: I64,
           x_slots: I64, capacity: I64, drop_of: F64,
           more: tuple[F64, I64, F64, BurstTab, I64, I64, I64, BurstTab, I64], feint: I64) -> tuple[int, int, int, int]:
    """The AI's next choice for ``c`` with ``left`` actions: ``(kind, target, activity, squares)``.

    ``value[e]``: what each enemy still up would deal ``c`` with one attack where both stand (the lowered
    ``enemy_hit`` in their situation now, ``aoo_damage``). ``ATTACK`` on ``target`` with ``activity``; ``STEP``
    to ``path_x[0], path_y[0]``; ``STRIDE`` along the first ``squares`` of ``path_x``/``path_y``; ``APPROACH``:
    nothing to attack, close in to within its melee reach of a target, or within ``squares`` feet where that target is
    not behind total cover (``_approach``: the longest normal reach of its ranged options, ``normal_reach``; 0 for
    none; the caller searches the way); ``END`` the turn. ``view``: the
    lowered view index between two squares as the AI reads it (cover and high ground; its own attacks are made
    in situation ``BESIDE + 4 * view`` from beside the target, ``4 * view`` from further within a reach weapon's
    10 ft, ATK-1; a target behind total cover has no plan). ``flank[x, y, t]``: 1 where an
    ally of ``c`` makes its attack on ``t`` from ``(x, y)`` a flanking one (situation code + 1, with any of its melee
    options; all 0 for a creature alone on its side).

    Further ways to attack (``kernel_weapons_lower``): ``x_*`` its further options' best plans, weighed after the
    first option at each square, a thrown one only where it stands or Steps to (``_candidates``) unless some thrown
    option has no target within its limit from where it stands (``_wanted``: then the walks are weighed to squares
    within the normal range ``more[5][c, xo]`` of those options, and every ranged option from them), its first block
    returned as ``10 * (option + 1) + block`` (block 3: Aim, E-05; ``aimed``: it has aimed this turn); ``mvalue[e]``
    the enemy's best melee option where both stand and ``throw_hit``/``throw_ft`` its thrown option, for the fire a
    square invites (``ranged_threat``).

    With ``openers`` (edition 2's Trip and Feint, E-37) the plans where it stands and against prone targets are the
    ``open_*`` tables' (``kernel_maneuvers.opener_tables``), and the further options' settings are those of
    ``kernel_weapons_lower._option_settings``: a melee option may open with a Trip where it stands (its first block
    ``TRIP_FIRST``), and every option has its plans against a prone target (setting + ``PRONE``); a prone enemy's
    throw is ``throw_hit_prone``'s. With ``shot`` (E-18) a throw is weighed net of the Attacks of Opportunity it
    provokes from the enemies whose reach holds the square (``TurnView.in_reach_of``, each one's ``aoo_damage``).

    Ammunition (``kernel_ranged_lower``, G-31): ``ammo_left[e, xo]`` the rounds loaded in each creature's further
    options with ammunition (-1: none counted; two guns count theirs apart), ``x_slots[c, xo]`` the highest
    ammunition slot of a further option's plans (-1: none; the plans with ``r`` rounds loaded are at
    ``MODES * min(r, slots)`` plus the setting, ``2 * MODES`` with ``openers``: each load's settings against a target
    up, then prone), ``capacity[c, xo]`` a full load. An enemy's empty gun invites no fire (``_attackers``: the slot
    of its ``throw_hit`` and ``throw2_hit`` guns is ``more[8][e]``); with nothing to attack it returns ``RELOAD`` of
    the first empty gun before closing in, and of the first partly spent one when it cannot move (``_idle``).

    ``more``: ``(throw2_hit, throw2_ft, throw2_hit_prone, burst, burst_out, normal, total, sweep)``: an enemy's thrown
    weapon beside its gun (``throw_hit`` then holds the gun, ``kernel_weapons_lower.gun_first``; a prone enemy's throw
    is ``throw2_hit_prone``'s, C-PRO); the AI's Full Auto Burst among several enemies where it stands
    (``kernel_burst_lower``, G-35, MAA-2, X-12: the targets' worth, the group of each primary target, the best of the
    setting's drafts from their parts), and ``burst_out`` gets the further targets of a chosen burst (first block
    ``BURST``), -1 after the last; ``normal[c, xo]`` each further option's normal reach (``normal_reach``);
    ``total[v]`` 1 where the view index ``v`` is total cover (COV-3): a ranged option has no target in range where it
    stands but one it could hit (``_wanted``: ``setting`` needs a base, and none is had behind total cover);
    ``sweep`` a scripted plan's target choice weighing a Sweeping Strike among several enemies with each melee option
    where it stands beside the openers (``kernel_sweep_lower``, SWP-1..3: the group and parts as a burst's, first
    block ``SWEEP``, its further targets into ``burst_out``); ``threat_slot`` (``more[8]``) as above.

    ``drop_of[0]`` gets the chosen candidate's chance to drop its target (``Plan.p_drop``) when it attacks, Steps or
    Strides: a creature with allies withdraws only below an even chance (``TacticalPolicy._withdraw``).

    ``feint[c, t]``: its Feint's effects on ``t`` this turn (``ashfall.kernel.maneuvers.FX_*``): after a Feint
    (FNT-7) its plans are the opener tables' that offer none, with the advantage won (FNT-3) those that hold it.
    """
    n = len(side)
    width, height = dist.shape[0], dist.shape[1]
    sx, sy = px[c], py[c]
    throw2 = (more[0], more[1], more[2])
    burst, burst_out, normal, total, sweep, threat_slot = more[3], more[4], more[5], more[6], more[7], more[8]
    s_order = np.zeros(n, np.int64)  # a Sweeping Strike's targets in reach, their codes, ranks and one group
    s_codes = np.zeros(n, np.int64)
    s_ranked = np.zeros(n, np.int64)
    s_group = np.zeros(n, np.int64)
    b_order = np.zeros(n, np.int64)  # a burst's shootable targets, their codes, ranks and one group
    b_codes = np.zeros(n, np.int64)
    b_ranked = np.zeros(n, np.int64)
    b_group = np.zeros(n, np.int64)
    b_groups = np.full((n, n), -1, np.int64)  # the further targets of each target's best candidate (-1: none)
    hp_c = max(1, hp[c] + temp[c])
    weight = config[c, CFG_SELF] / hp_c
    tw = config[c, CFG_THREAT] * weight
    drop_step = config[c, CFG_DROP]
    steps_map = rolls if ints[INT_PER_ROLL] == 1 else strikes
    # the targets: enemies still up, roster order
    targets = np.zeros(n, np.int64)
    nt = 0
    for e in range(n):
        if side[e] != side[c] and vit[e] == ALIVE:
            targets[nt] = e
            nt += 1
    if nt == 0:
        return END, -1, -1, 0
    occupied = np.zeros((width, height), np.int64)
    barred = np.zeros((width, height), np.int64)
    for o in range(n):
        if o == c or vit[o] == DEAD:
            continue
        occupied[px[o], py[o]] = 1
        if side[o] != side[c] and (vit[o] == ALIVE or vit[o] == LEFT):  # ``bars_passage``: not down
            barred[px[o], py[o]] = 1
    # the enemies that could take an Attack of Opportunity (``threats``): one bit each, in roster order
    bits = np.zeros((width, height), np.int64)
    threat_of = np.full(n, -1, np.int64)
    nthreats = 0
    for e in range(n):
        if side[e] == side[c] or vit[e] != ALIVE or react[e] == 0:
            continue
        threat_of[nthreats] = e
        for x in range(width):
            for y in range(height):
                if dist[abs(x - px[e]), abs(y - py[e])] <= reach_ft[e]:
                    bits[x, y] |= 1 << nthreats
        nthreats += 1
    # the routes: stay, every Step, then the Strides' squares (``routes``)
    most = 9 + int(config[c, CFG_ROUTES]) + 1
    r_x = np.zeros(most, np.int64)
    r_y = np.zeros(most, np.int64)
    r_actions = np.zeros(most, np.int64)
    r_feet = np.zeros(most, np.int64)
    r_way = np.full(most, -1, np.int64)  # -1 none (stay or a Step), 0 the plain search, 1 the safe one
    r_p = np.zeros(most, np.int64)
    r_aoo = np.zeros(most, np.float64)
    r_seen = np.zeros(most, np.int64)  # the enemies whose reach the way leaves (``Route.provokers``), as ``bits``
    r_x[0], r_y[0] = sx, sy
    nr = 1
    best0 = np.zeros((width, height, 2), np.int64)
    came0 = np.zeros((width, height, 2, 3), np.int64)
    best1 = np.zeros((width, height, 2), np.int64)
    came1 = np.zeros((width, height, 2, 3), np.int64)
    cells = width * height + 1
    kept0 = np.zeros((cells, 4), np.int64)
    kept1 = np.zeros((cells, 4), np.int64)
    way = np.zeros((cells, 3), np.int64)
    alternating = ints[INT_ALTERNATING]
    shoot_anywhere = 0  # ``_wanted``: a ranged option with no target in range from here: walks to throw or shoot from
    if left > 1 and prone[c] == 0 and speed[c] > 0:
        for k in range(offsets.shape[0]):
            nx, ny = sx + offsets[k, 0], sy + offsets[k, 1]
            if price[c, sx, sy, k, 0] == FEET and barred[nx, ny] == 0 and occupied[nx, ny] == 0:
                r_x[nr], r_y[nr], r_actions[nr], r_feet[nr] = nx, ny, 1, FEET
                nr += 1
        reach = reach_ft[c]
        for xo in range(x_count[c]):
            if x_ranged[c, xo] == 0:
                continue
            in_range = False  # ``setting(None, o)``: a target within its limit and not behind total cover (COV-3)
            for q in range(nt):
                t = targets[q]
                if dist[abs(sx - px[t]), abs(sy - py[t])] <= x_limit[c, xo] and \
                        total[view[sx, sy, px[t], py[t]]] == 0:
                    in_range = True
                    break
            if not in_range:  # no setting where it stands: walks to within its normal range are worth weighing
                shoot_anywhere = 1
                reach = max(reach, normal[c, xo])
        keep = np.zeros((width, height), np.int64)
        for x in range(width):
            for y in range(height):
                if occupied[x, y] == 1 or (x == sx and y == sy):
                    continue
                for q in range(nt):
                    t = targets[q]
                    if dist[abs(x - px[t]), abs(y - py[t])] <= reach:
                        keep[x, y] = 1
                        break
        spd = speed[c]
        budget = spd * min(left - 1, 2)
        kept0[0, 0], kept0[0, 1] = sx, sy
        count, left_reach = _search(c, budget, barred, keep, int(config[c, CFG_ROUTES]), bits, False, alternating,
                                    price, offsets, best0, came0, kept0)
        count1 = 0
        if left_reach and nthreats > 0:
            only = np.zeros((width, height), np.int64)
            goals = 0
            for g in range(count):
                gx, gy = kept0[g, 0], kept0[g, 1]
                stepped = False
                for r in range(1, nr):
                    if r_x[r] == gx and r_y[r] == gy and r_actions[r] == 1 and r_feet[r] == FEET:
                        stepped = True
                if not stepped:
                    only[gx, gy] = 1
                    goals += 1
            if goals > 0:
                kept1[0, 0], kept1[0, 1] = sx, sy
                count1, _ = _search(c, budget, barred, only, cells, bits, True, alternating, price, offsets, best1,
                                    came1, kept1)
        steps_end = nr
        for g in range(count):
            gx, gy, gp, spent = kept0[g, 0], kept0[g, 1], kept0[g, 2], kept0[g, 3]
            stepped = False
            for r in range(1, steps_end):
                if r_x[r] == gx and r_y[r] == gy:
                    stepped = True
            if stepped:
                continue
            use = 0
            for h in range(count1):
                if kept1[h, 0] == gx and kept1[h, 1] == gy:
                    use = 1
                    gp, spent = kept1[h, 2], kept1[h, 3]
                    break
            steps = _path(gx, gy, gp, came1, best1, way) if use == 1 else _path(gx, gy, gp, came0, best0, way)
            actions = 1 if spent <= spd else 2
            if actions == 2:
                stops = False  # ``Search.stops_within``: a square on the way it may end on within one Stride
                for s in range(steps):
                    if way[s, 2] <= spd and occupied[way[s, 0], way[s, 1]] == 0:
                        stops = True
                if not stops:
                    continue
            aoo = 0.0
            seen = 0
            if left_reach:  # ``provokers_along``: each enemy whose reach the way leaves, once, in order met
                hx, hy = sx, sy
                first_met = True
                for s in range(steps):
                    for b in range(nthreats):
                        e = threat_of[b]
                        if seen & (1 << b) != 0:
                            continue
                        if dist[abs(hx - px[e]), abs(hy - py[e])] <= reach_ft[e] and \
                                dist[abs(way[s, 0] - px[e]), abs(way[s, 1] - py[e])] > reach_ft[e]:
                            seen |= 1 << b
                            aoo = value[e] if first_met else aoo + value[e]
                            first_met = False
                    hx, hy = way[s, 0], way[s, 1]
            r_x[nr], r_y[nr], r_actions[nr], r_feet[nr] = gx, gy, actions, spent
            r_way[nr], r_p[nr], r_aoo[nr], r_seen[nr] = use, gp, aoo, seen
            nr += 1
    # the best candidate against each target (``_best_candidates``)
    has = np.zeros(n, np.int64)
    b_tier = np.zeros(n, np.int64)
    b_r = np.zeros(n, np.float64)
    b_route = np.zeros(n, np.int64)
    b_first = np.zeros(n, np.int64)
    b_drop = np.zeros(n, np.float64)
    for r in range(nr):
        rest = left - r_actions[r]
        if rest <= 0:
            continue
        x, y = r_x[r], r_y[r]
        threat = 0.0
        if tw != 0.0:  # ``ranged_threat``: each enemy's best attack on the square, its melee where it could walk
            for e in range(n):
                if side[e] == side[c] or vit[e] != ALIVE:
                    continue
                best_e = 0.0
                gap_e = dist[abs(x - px[e]), abs(y - py[e])]
                if gap_e <= reach_ft[e] + speed[e] and mvalue[e] > best_e:
                    best_e = mvalue[e]
                if throw_ft[e] >= 0 and gap_e <= throw_ft[e] and _loaded(ammo_left, threat_slot, e, 0):
                    hits = throw_hit_prone if openers == 1 and prone[e] == 1 else throw_hit  # C-PRO
                    thrown = _thrown_at(c, e, x, y, gap_e, side, vit, px, py, dist, view, hits)
                    if thrown > best_e:
                        best_e = thrown
                if throw2[1][e] >= 0 and gap_e <= throw2[1][e] and _loaded(ammo_left, threat_slot, e, 1):
                    hits2 = throw2[2] if openers == 1 and prone[e] == 1 else throw2[0]  # C-PRO
                    thrown = _thrown_at(c, e, x, y, gap_e, side, vit, px, py, dist, view, hits2)
                    if thrown > best_e:
                        best_e = thrown
                threat += best_e
        penalty = weight * r_aoo[r]
        s_nb = 0  # where it stands a scripted plan's target choice weighs a Sweeping Strike (``multi_targets``)
        if openers == 1 and r_actions[r] == 0 and _sweeps(sweep, c, 0):
            s_nb = _sweep_order(c, 0, x, y, reach_ft[c], nt, targets, px, py, hp, temp, prone, dist, view, flank,
                                sweep[B_WORTH], s_order, s_codes, s_ranked)
        # the plan tables' second half: ``c`` pinned (``kernel_covering_lower.pinned_plans``; only there a pin happens)
        pin_half = plan_frac.shape[2] // 2 if kcov.pinned(c, feint) else 0
        for q in range(nt):
            t = targets[q]
            g = dist[abs(x - px[t]), abs(y - py[t])]
            if g > reach_ft[c]:
                continue
            code = (BESIDE if g <= FEET else 0) + flank[x, y, t] + 4 * view[x, y, px[t], py[t]]  # reach: 10 ft
            hp_t = max(1, hp[t] + temp[t])
            lying = prone[t] == 1 and vit[t] == ALIVE
            fxt = feint[c, t]
            if openers == 1 and (r_actions[r] == 0 or lying or fxt & FX_ADV != 0):
                var = (OPEN_PRONE if lying else OPEN_UP) if r_actions[r] == 0 else MOVED_PRONE
                if fxt & FX_ADV != 0:  # its Feint's advantage on its next melee attack on t (FNT-3), no Feint again
                    var = ADV_PRONE if lying else (ADV_UP if r_actions[r] == 0 else ADV_MOVED_UP)
                elif fxt & FX_FEINTED != 0 and r_actions[r] == 0:  # it feinted t this turn: no Feint again (FNT-7)
                    var = MOVED_PRONE if lying else FEINTED_UP
                first = open_first[var, c, t, code, steps_map, rest, hp_t]
                frac = open_frac[var, c, t, code, steps_map, rest, hp_t]
                drop = open_drop[var, c, t, code, steps_map, rest, hp_t]
            else:
                pc = code + pin_half  # a creature pinned by Covering Fire plans at disadvantage (SUP-11)
                first = plan_first[c, t, pc, steps_map, rest, hp_t]
                frac = plan_frac[c, t, pc, steps_map, rest, hp_t]
                drop = plan_drop[c, t, pc, steps_map, rest, hp_t]
            s_count = 0
            if s_nb > 1 and fxt == 0:  # a chooser never holds a Feint's effects (``feint_problem``)
                first, frac, drop, s_count = _swept(c, 0, 1 if lying else 0, t, code, steps_map, rest, hp_t, s_nb,
                                                    s_order, s_ranked, s_codes, s_group, px, py, hp, temp, sweep,
                                                    drop_step, first, frac, drop)
            if first < 0:
                continue
            net = frac - penalty
            scored = net - tw * threat
            tier = _tier(drop, drop_step)
            rounded = round9(scored)
            if has[t] == 0 or _beats(tier, rounded, r_actions[r], r_feet[r], y, x, b_tier[t], b_r[t],
                                     r_actions[b_route[t]], r_feet[b_route[t]], r_y[b_route[t]],
                                     r_x[b_route[t]]):
                has[t] = 1
                b_tier[t], b_r[t], b_route[t], b_first[t] = tier, rounded, r, first
                b_drop[t] = drop
                for m in range(n):
                    b_groups[t, m] = s_order[s_group[m]] if m < s_count else -1
        for xo in range(x_count[c]):  # the further options, in the AI's order (``_candidates``)
            ranged = x_ranged[c, xo]
            if ranged == 1 and r_way[r] >= 0 and shoot_anywhere == 0:
                continue  # a thrown option from where it stands or a Step's square only (it has a throw from here)
            mode = 0
            if ranged == 1:
                mode = 2 if aimed == 1 else (1 if r_actions[r] == 0 else 0)
            elif openers == 1 and r_actions[r] == 0:
                mode = 1  # where it stands a melee option may open (E-37)
            if ranged == 1 and x_slots[c, xo] >= 0:  # the plans with the rounds loaded (G-31), each load's settings
                mode += MODES * (2 if openers == 1 else 1) * min(ammo_left[c, xo], x_slots[c, xo])  # up, then prone
            nb = 0
            if ranged == 1 and r_actions[r] == 0 and xo < burst[B_ON].shape[1] and burst[B_ON][c, xo] == 1:
                hostile = 0  # a hostile within 5 ft of where it stands (AMOD-7)
                for e in range(n):
                    if side[e] != side[c] and vit[e] == ALIVE and dist[abs(x - px[e]), abs(y - py[e])] <= FEET:
                        hostile = 1
                nb = _burst_order(c, xo, x, y, hostile, nt, targets, px, py, hp, temp, dist, view, x_limit,
                                  burst[B_WORTH], b_order, b_codes, b_ranked, prone, burst[B_INTS])
            s_nb = 0
            if ranged == 0 and openers == 1 and r_actions[r] == 0 and _sweeps(sweep, c, xo + 1):
                s_nb = _sweep_order(c, xo + 1, x, y, x_limit[c, xo], nt, targets, px, py, hp, temp, prone, dist,
                                    view, flank, sweep[B_WORTH], s_order, s_codes, s_ranked)
            x_penalty = penalty
            if ranged == 1 and shot == 1:  # the throw provokes from each enemy whose reach holds the square (E-18)
                shooting = 0.0  # but those the way there provoked already
                for b in range(nthreats):
                    if bits[x, y] & (1 << b) != 0 and r_seen[r] & (1 << b) == 0:
                        shooting += value[threat_of[b]]
                x_penalty = weight * (r_aoo[r] + shooting)
            for q in range(nt):
                t = targets[q]
                g = dist[abs(x - px[t]), abs(y - py[t])]
                if g > x_limit[c, xo]:
                    continue
                at_mode = mode + (PRONE if openers == 1 and prone[t] == 1 else 0)  # targets are up: prone, not down
                if ranged == 1:
                    hostile = 0  # a hostile within 5 ft of the square (AMOD-7), the others where they stand
                    for e in range(n):
                        if side[e] != side[c] and vit[e] == ALIVE and dist[abs(x - px[e]), abs(y - py[e])] <= FEET:
                            hostile = 1
                    code = hostile + (2 if g <= FEET else 0) + 4 * view[x, y, px[t], py[t]]
                else:  # flanking where an ally helps (POS-1; 0 for a creature the AI plays alone on its side)
                    code = (BESIDE if g <= FEET else 0) + flank[x, y, t] + 4 * view[x, y, px[t], py[t]]
                hp_t = max(1, hp[t] + temp[t])
                first = x_first[c, xo, at_mode, t, code, steps_map, rest, hp_t]
                frac = x_frac[c, xo, at_mode, t, code, steps_map, rest, hp_t]
                drop = x_drop[c, xo, at_mode, t, code, steps_map, rest, hp_t]
                s_count = 0
                if s_nb > 1:  # a Sweeping Strike among several enemies where it stands (a chooser's melee option)
                    first, frac, drop, s_count = _swept(c, xo + 1, 1 if prone[t] == 1 else 0, t, code, steps_map,
                                                        rest, hp_t, s_nb, s_order, s_ranked, s_codes, s_group, px,
                                                        py, hp, temp, sweep, drop_step, first, frac, drop)
                count = 0
                for k in range(nb):  # a burst among several enemies where it stands: the group, then the parts
                    if b_order[k] == t:
                        count = _burst_group(k, nb, b_order, b_ranked, px, py, burst[B_INTS][0], burst[B_INTS][1],
                                             b_group)
                if count > 0:
                    lst = burst[B_LISTS][c, xo, at_mode, t, code, steps_map, rest, count - 1]
                    row = -1  # a setting never lowered has no plan (it never occurs: every one met is)
                    if lst >= 0:
                        row, frac, drop = _burst_best(c, xo, lst, hp_t, count, b_group, b_order, b_codes, hp, temp,
                                                      burst, drop_step)
                    first = burst[B_DRAFTS][row, D_FIRST] if row >= 0 else -1
                    if row < 0 or burst[B_DRAFTS][row, D_NUMBER] < 0:
                        count = 0  # its best plan takes no further target
                if first < 0:
                    continue
                net = frac - x_penalty
                scored = net - tw * threat
                tier = _tier(drop, drop_step)
                rounded = round9(scored)
                # a gun the AI lists before its melee option (``kernel_option_slots``; the Gunslinger's two) takes
                # a tie with that option's plan from the same square: the AI keeps the first of equals
                # (``_best_candidates``); of two such guns the first keeps a tie (``_beats`` is strict)
                lead = xo < config[c, CFG_LEAD] and has[t] == 1 and b_route[t] == r and \
                    b_first[t] < OPTION and tier == b_tier[t] and rounded == b_r[t]
                if has[t] == 0 or lead or _beats(tier, rounded, r_actions[r], r_feet[r], y, x, b_tier[t], b_r[t],
                                                 r_actions[b_route[t]], r_feet[b_route[t]], r_y[b_route[t]],
                                                 r_x[b_route[t]]):
                    has[t] = 1
                    b_tier[t], b_r[t], b_route[t], b_first[t] = tier, rounded, r, OPTION * (xo + 1) + first
                    b_drop[t] = drop  # the target's own stance
                    for m in range(n):
                        if s_count > 0:
                            b_groups[t, m] = s_order[s_group[m]] if m < s_count else -1
                        else:
                            b_groups[t, m] = b_order[b_group[m]] if m < count else -1
    # focus fire, then the winner's first step (a Stride that covers nothing drops that target)
    while True:
        pick = -1
        for q in range(nt):
            t = targets[q]
            if has[t] == 0:
                continue
            if pick < 0:
                pick = t
                continue
            if b_tier[t] != b_tier[pick]:
                better = b_tier[t] > b_tier[pick]
            elif b_r[t] != b_r[pick]:
                better = b_r[t] > b_r[pick]
            else:
                better = dist[abs(px[c] - px[t]), abs(py[c] - py[t])] < dist[abs(px[c] - px[pick]),
                                                                             abs(py[c] - py[pick])]
            if better:
                pick = t
        if pick < 0:
            break
        r = b_route[pick]
        if r_actions[r] > 0 and feint[c, c] & FX_BRACED != 0:
            has[pick] = 0  # a Brace stopped it this turn: the move is refused (``view.legal``, X-20)
            continue
        drop_of[0] = b_drop[pick]
        if r_actions[r] == 0:
            for m in range(len(burst_out)):  # a burst's further targets (``Plan.others``)
                burst_out[m] = b_groups[pick, m] if m < n else -1
            return ATTACK, pick, b_first[pick], 0
        if r_way[r] < 0:
            path_x[0], path_y[0] = r_x[r], r_y[r]
            return STEP, pick, -1, 1
        if r_way[r] == 1:
            steps = _path(r_x[r], r_y[r], r_p[r], came1, best1, way)
        else:
            steps = _path(r_x[r], r_y[r], r_p[r], came0, best0, way)
        part = 0  # ``first_stride``: the longest start within speed that ends where it may stop
        for s in range(steps):
            if way[s, 2] > speed[c]:
                break
            if occupied[way[s, 0], way[s, 1]] == 0:
                part = s + 1
        if part > 0:
            for s in range(part):
                path_x[s], path_y[s] = way[s, 0], way[s, 1]
            return STRIDE, pick, -1, part
        has[pick] = 0
    # nothing to attack this turn: reload an empty weapon, close in (``_approach``), reload, else it would Dodge
    for xo in range(x_count[c]):
        if x_slots[c, xo] >= 0 and ammo_left[c, xo] == 0:
            return RELOAD, -1, xo, 0
    if prone[c] == 0 and speed[c] > 0:
        # ``_approach``'s goal: within the reach of a melee option, or within the normal range of a ranged one
        # (``normal_reach``) with a line of fire (no total cover, COV-3); the caller has the melee reach
        closer = 0
        for xo in range(x_count[c]):
            if x_ranged[c, xo] == 1:
                closer = max(closer, normal[c, xo])
        return APPROACH, -1, -1, closer
    for xo in range(x_count[c]):
        if x_slots[c, xo] >= 0 and 0 < ammo_left[c, xo] < capacity[c, xo]:
            return RELOAD, -1, xo, 0
    return BAIL, -1, -1, 0



__all__ = ["APPROACH", "ATTACK", "BAIL", "BAILED", "BURST", "END", "ENDED", "GOES_ON", "RELOAD", "STEP", "STRIDE",
           "SWEEP", "BurstTab", "decide", "round9"]
