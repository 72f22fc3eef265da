"""The compiled fight: one fight of a lowered encounter (:mod:`ashfall.sim.kernel_lower`) from a trial seed.

It mirrors the reference engine's path through the fights the kernel supports, draw for draw
(:mod:`ashfall.kernel.rng`): initiative (a d20 and a tie-break draw per combatant in roster order, INIT-1..3),
rounds and turns (AE-1), each combatant's scripted plan (``ScriptedTactics``: the step it is on, the enemy its
target rule picks, the activity or a Strike when the activity is not possible), Strike, Power Strike and
All-Out Attack (ACT-7, MAA-5, MAA-7) with MAP counted per turn (MAP-1, MAP-5, E-01), attack outcomes and damage
from the lowered tables, temporary HP then HP (THP-1, G-39), death at 0 HP (G-38) or the dying track (DEATH-1:
death saves at the start of a dying creature's turn from the lowered ``death_save`` table, DEATH-2..9; damage
while dying, DEATH-10..12, DEATH-14, MASS-1; a natural 20 back up and standing, ACT-5), the victory check after
every action and between turns, and the round limit. On a grid without walls, cover objects or height, where
someone must move, the approach too: the enemy the target rule picks as positions change, the scripted policy's
Stride along its shortest path around the others (:func:`_approach`, ACT-2, MOV-1..5, G-37) while no enemy is in
reach, Attacks of Opportunity on leaving an enemy's reach (RX-21) in reactor order, Intercept as the AI judges it
(:func:`_intercept`, RX-26) and the attack's situation read off the squares (:func:`_situation`: flanking, POS-1;
within 5 ft).

:func:`play` has two modes in one compiled function: with ``record`` it writes every step (the rows the
differential harness compares) into ``steps``; without, it only counts. Either way it returns the outcome in
``out``. The arrays are those of :class:`~ashfall.sim.kernel_lower.Lowered`.
"""

from __future__ import annotations

import numpy as np

from ashfall.grid.board import SQUARE_FT
from ashfall.kernel import ai as kai
from ashfall.kernel import brace as kbr
from ashfall.kernel import covering as kcov
from ashfall.kernel import flight as kfl
from ashfall.kernel import maneuvers as kmv
from ashfall.kernel import morale as kmor
from ashfall.kernel import paths as kpa
from ashfall.kernel import surprise as ksur
from ashfall.kernel.compiled import F64, I8, I64
from ashfall.kernel.compiled import entry as _entry
from ashfall.kernel.compiled import jit as _jit
from ashfall.kernel.rng import reseed, roll

OptTab = tuple[I64, I64, I64, F64, F64, I64, F64, F64, I64, I8, I64, I64, I64, I64, I64, I64, I64, F64, I64, F64, I64,
              kai.BurstTab, I64, I64]
"""The further ways to attack (``kernel_weapons_lower.OptionTables``, its fields in order)."""
RangedTab = tuple[I64, I64, I64, I64, I64, I64, I8, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64]
"""Ammunition and Return Fire (``kernel_ranged_lower.RangedTables``: ammo, capacity, reload, slots, label,
fire_back, outcome, draws, dice, flat, dealt, low, intercepts, fire_slot, threat_slot, fire_ints, fire_clear); rounds
per creature and further option slot (G-31)."""
WdTab = tuple[F64, F64, I64, I64, I64, I64, I64]  # way_mean: [enemy, combatant, way, situation, prone]
"""The AI with allies (``kernel_allies_lower.WithdrawTables``: config, way_mean, way_ft, medic, medic_hp,
medic_ints, way_melee)."""
GuardTab = tuple[F64, F64, I64, I64]
"""What the AI's Intercept weighs (``kernel_lower.Lowered``: guard_hit, guard_shot, guard_view, guard_seen): the
attacker's best melee hit and its gun's (RX-26, ``_worth_intercepting``), and whether the interceptor sees it."""
CrowdTab = tuple[I64, I64, I64, I64, GuardTab, I64, int, I64]
"""What :func:`_intercept` reads besides the creatures (order, flank_geo, flanker, threat_ft, guard, guard_reach,
intercept_ft, sight)."""
AiTab = tuple[F64, F64, I64, F64, F64, I64, I64, I64, F64, F64, I64, F64, I64, OptTab, RangedTab, WdTab,
              kai.BurstTab]
"""The tactical AI's tables (``kernel_ai_lower.AiTables`` after ``on``): plan_frac, plan_drop, plan_first,
enemy_hit, config, ints, view, wind, open_frac, open_drop, open_first, enemy_hit_prone, chooser, options, ranged,
withdraw, sweep."""


# step kinds (column 0 of a step row)
INITIATIVE, ACTIONS, ATTACK, DAMAGE, DEATH_SAVE, MOVED = 0, 1, 2, 3, 4, 5
# vitality codes (``vit``): where a creature stands on the life track (DEATH-1)
ALIVE, DYING, STABILISED, DEAD = 0, 1, 2, 3
# slots of ``dying_rules`` (:class:`~ashfall.sim.kernel_lower.Lowered`)
DR_MASSIVE, DR_AFTER_TEMP, DR_DAMAGE_FAILURES, DR_CRIT_FAILURES, DR_FAILURES_TO_DIE, DR_RESUMES = 0, 1, 2, 3, 4, 5
STEP_HEAD = 5
"""A step row: kind, actor, target (-1: none), label (activity code; All-Out Attack: 2 + 10 × attack number),
number of faces, then the faces."""
STEP_FACES = 64
"""Faces a step row holds (a damage roll with more dice cannot be recorded: the caller sees -2)."""

# outcome slots (``out``): winner side (-1: none), rounds, timed out, attack rolls, steps written (-1: full)
OUT_WINNER, OUT_ROUNDS, OUT_TIMED_OUT, OUT_ATTACKS, OUT_STEPS = 0, 1, 2, 3, 4
OUT_LEN = 5
STRIKE, POWER, ALL_OUT, STAND, STRIDE = 0, 1, 2, 3, 4
AOO = 3
"""The Attack of Opportunity's activity code in the attack tables (and its attack label)."""
RETURN_FIRE = 4
"""Return Fire's attack label (``kernel_lower.ATTACK_LABELS``, RX-29)."""
BURST_LABEL = 5
"""Full Auto Burst's attack label (``kernel_lower.ATTACK_LABELS``, ``kernel_burst_rolls.BURST_LABEL``)."""
COVERING_LABEL = 6
"""Covering Fire's free attack's label (``kernel_lower.ATTACK_LABELS``, SUP-11)."""
SIGHT_TOTAL = 1
"""The flag of a ``sight`` entry (``kernel_lower.SIGHT_TOTAL``): total cover."""
FAR = 1 << 60


@_jit
def _record(steps: I64, at: int, kind: int, actor: int, target: int, label: int, faces: I64, nfaces: int) -> int:
    if at < 0 or at >= steps.shape[0] or nfaces > STEP_FACES:
        return -1
    steps[at, 0] = kind
    steps[at, 1] = actor
    steps[at, 2] = target
    steps[at, 3] = label
    steps[at, 4] = nfaces
    for f in range(nfaces):
        steps[at, STEP_HEAD + f] = faces[f]
    return at + 1


@_jit
def _zero(a: I64) -> None:
    """Set every element of a 1-D array to 0.

    Element by element: numba compiles each slice assignment (``a[:] = 0``) through a helper pipeline of its own,
    about half a second of the kernel's first use each.
    """
    for i in range(len(a)):
        a[i] = 0


@_jit
def _standing(side: I64, vit: I64) -> int:
    """The one side still fighting (-1 when two or more are, -2 when none is): up means alive (DEATH-1)."""
    found = -2
    for i in range(len(side)):
        if vit[i] == ALIVE:
            if found == -2:
                found = side[i]
            elif side[i] != found:
                return -1
    return found


@_jit
def _harm(t: int, final: int, crit: int, hp: I64, temp: I64, max_hp: I64, vit: I64, succ: I64, fail: I64,
          prone: I64, dropped: I64, falls: I64, rules: I64) -> int:
    """Apply one hit's damage after the ledger's steps 1-6, as ``apply_damage`` does by the target's vitality.

    Temporary HP, then HP, then massive damage and the dying track (G-39, MASS-1, DEATH-1, DEATH-10..12,
    DEATH-14, G-38, G-50). Returns what reached temporary HP and HP.
    """
    before = hp[t]
    to_temp = min(temp[t], final)
    left = final - to_temp
    to_hp = min(hp[t], left)
    temp[t] -= to_temp
    hp[t] -= to_hp
    counted = left if rules[DR_AFTER_TEMP] == 1 else final
    v = vit[t]
    if v == ALIVE or v == kmor.LEFT:
        if rules[DR_MASSIVE] == 1 and counted > 0 and before - counted <= -max_hp[t]:
            hp[t] = 0
            vit[t] = DEAD  # MASS-1
        elif hp[t] > 0 or left <= 0:
            pass
        elif falls[t] == 1:
            vit[t] = DYING  # DEATH-1: unconscious and prone
            succ[t] = 0
            fail[t] = 0
            prone[t] = 1
        else:
            vit[t] = DEAD  # G-38
    elif v == DYING or (v == STABILISED and counted > 0):
        if v == STABILISED:
            if rules[DR_MASSIVE] == 1 and counted >= max_hp[t]:
                hp[t] = 0
                vit[t] = DEAD  # MASS-3
                counted = 0
            elif rules[DR_RESUMES] == 1:
                vit[t] = DYING  # DEATH-14: damage starts the dying again
                succ[t] = 0
                fail[t] = 0
            else:
                counted = 0
        if counted > 0 and vit[t] == DYING:
            if counted >= max_hp[t]:
                hp[t] = 0
                vit[t] = DEAD  # DEATH-12
            else:
                fail[t] += rules[DR_CRIT_FAILURES] if crit == 1 else rules[DR_DAMAGE_FAILURES]  # DEATH-10, 11
                if fail[t] >= rules[DR_FAILURES_TO_DIE]:
                    hp[t] = 0
                    vit[t] = DEAD  # DEATH-3
    if hp[t] == 0:
        dropped[t] = 1
    return int(to_temp + to_hp)


@_jit
def _attack(mt: I64, a: int, t: int, k: int, v: int, label: int, outcome: I8, draws: I64, dice: I64, flat: I64,
            dealt: I64, low: int, hp: I64, temp: I64, max_hp: I64, vit: I64, succ: I64, fail: I64, prone: I64,
            dropped: I64, falls: I64, rules: I64, dealt_by: I64, taken: I64, record: bool, steps: I64, at: int,
            faces: I64, code: int, fx: I64) -> int:
    return _attack_hit(mt, a, t, k, v, label, outcome, draws, dice, flat, dealt, low, hp, temp, max_hp, vit, succ,
                       fail, prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, code, fx)[0]


@_jit
def _attack_hit(mt: I64, a: int, t: int, k: int, v: int, label: int, outcome: I8, draws: I64, dice: I64, flat: I64,
                dealt: I64, low: int, hp: I64, temp: I64, max_hp: I64, vit: I64, succ: I64, fail: I64, prone: I64,
                dropped: I64, falls: I64, rules: I64, dealt_by: I64, taken: I64, record: bool, steps: I64, at: int,
                faces: I64, code: int, fx: I64) -> tuple[int, bool]:
    """One attack roll and its damage from the tables: ``(steps written, whether it hit)``."""
    # the target's state in the tables: up, down (dying or stabilised, prone), dead, dead after falling dying
    down = 0
    if vit[t] == DEAD:
        down = 3 if prone[t] == 1 else 2
    elif vit[t] != ALIVE and vit[t] != kmor.LEFT:  # one that surrendered is attacked as one up (MOR-23)
        down = 1
    if draws.shape[4] > kmv.BASE_STATES:  # edition 2's Trip: a prone target up, a prone attacker (C-PRO)
        if down == 0 and prone[t] == 1:
            down = kmv.PRONE_UP
        if prone[a] == 1 and vit[a] == ALIVE:
            down += kmv.ATTACKER_PRONE
    if draws.shape[4] > kmv.ADVANTAGED and fx[a, t] & kmv.FX_NEXT_ATTACK != 0:
        # a Feint's advantage on this attack (FNT-3, FNT-5), used up by it (``next_attack_sources``)
        fx[a, t] &= ~kmv.FX_NEXT_ATTACK
        down += kmv.ADVANTAGED
    if kcov.pinned(a, fx):  # pinned by Covering Fire: its rows with disadvantage (``suppressed``, SUP-11)
        k += outcome.shape[2] // 2
    first = roll(mt, 20)
    second = 1
    if draws[a, t, k, v, down, code] == 2:  # advantage or disadvantage: both faces, in the order drawn
        second = roll(mt, 20)
    if record:
        faces[0] = first
        faces[1] = second
        at = _record(steps, at, ATTACK, a, t, label, faces, draws[a, t, k, v, down, code])
    result = outcome[a, t, k, v, down, code, first - 1, second - 1]
    if result == 0:
        return at, False
    at = _damage(mt, a, t, k, 1 if result == 2 else 0, dice, flat, dealt, low, hp, temp, max_hp, vit, succ, fail,
                 prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces)
    return at, True


@_jit
def _damage(mt: I64, a: int, t: int, k: int, crit: int, dice: I64, flat: I64, dealt: I64, low: int, hp: I64,
            temp: I64, max_hp: I64, vit: I64, succ: I64, fail: I64, prone: I64, dropped: I64, falls: I64, rules: I64,
            dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64) -> int:
    """A hit's damage roll from the tables, dealt (``deal_hit``); returns the steps written."""
    total = flat[a, k, crit]
    nf = 0
    for g in range(dice.shape[3]):
        count = dice[a, k, crit, g, 0]
        sides = dice[a, k, crit, g, 1]
        for _ in range(count):
            face = roll(mt, sides)
            total += face
            if nf < faces.shape[0]:
                faces[nf] = face
            nf += 1
    if record:
        at = _record(steps, at, DAMAGE, a, t, -1, faces, nf)
    amount = _harm(t, dealt[a, k, t, crit, total - low], crit, hp, temp, max_hp, vit, succ, fail, prone, dropped,
                   falls, rules)
    dealt_by[a] += amount
    taken[t] += amount
    return at


@_jit
def _gap(a: int, b: int, px: I64, py: I64, dist: I64) -> int:
    """Feet between two creatures' squares (``space_distance_ft``, lowered into ``dist``)."""
    return int(dist[abs(px[a] - px[b]), abs(py[a] - py[b])])


@_jit
def _view(ax: int, ay: int, tx: int, ty: int, sight: I64, col: int) -> int:
    """What lies between an attacker at ``(ax, ay)`` and a target at ``(tx, ty)`` (the lowered ``sight``).

    Column 0: the view (cover and high ground, the situation code's ``code // 4``); column 1: the flags
    (``SIGHT_TOTAL``).
    """
    r = (sight.shape[2] - 1) // 2
    return int(sight[ax, ay, tx - ax + r, ty - ay + r, col])


@_jit
def _flanked(a: int, t: int, side: I64, vit: I64, prone: I64, px: I64, py: I64, dist: I64, flank_geo: I64,
             flanker: I64, threat_ft: I64) -> int:
    """Whether ``a`` flanks ``t`` (``_flanking``).

    An ally of ``a``, not dead and able to flank in its state (POS-3, E-22), threatening ``t`` (POS-1: within its
    threat reach, 10 ft with a halberd), with ``a`` across ``t`` from it (the lowered ``flanks``).
    """
    return _flanked_at(a, px[a], py[a], t, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft)


@_jit
def _flanked_at(a: int, ax: int, ay: int, t: int, side: I64, vit: I64, prone: I64, px: I64, py: I64, dist: I64,
                flank_geo: I64, flanker: I64, threat_ft: I64) -> int:
    """:func:`_flanked` with ``a`` on the square ``(ax, ay)`` (where it stands, or a what-if of the AI's ``Sights``)."""
    r = (flank_geo.shape[2] - 1) // 2  # the fight's longest threat reach in squares
    for b in range(len(side)):
        if b == a or side[b] != side[a] or vit[b] == DEAD:
            continue
        state = 2 if vit[b] != ALIVE else (1 if prone[b] == 1 else 0)
        if flanker[b, state] == 0 or _gap(b, t, px, py, dist) > threat_ft[b]:
            continue
        dx = px[b] - px[t]
        dy = py[b] - py[t]
        if abs(dx) > r or abs(dy) > r:
            continue
        if flank_geo[px[t], py[t], dx + r, dy + r, ax, ay] == 1:
            return 1
    return 0


@_jit
def _situation(a: int, t: int, moves: int, side: I64, vit: I64, prone: I64, px: I64, py: I64, dist: I64,
               flank_geo: I64, flanker: I64, threat_ft: I64, sight: I64) -> int:
    """The attack's situation code (``kernel_lower.SITUATIONS``); 0 where nobody moves.

    Flanking, plus 2 when within 5 ft, plus 4 times the view between the squares (cover, high ground).
    """
    if moves == 0:
        return 0
    code = _flanked(a, t, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft)
    if _gap(a, t, px, py, dist) <= SQUARE_FT:
        code += 2
    return code + 4 * _view(px[a], py[a], px[t], py[t], sight, 0)


@_jit
def _intercept(a: int, t: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64, temp: I64, react: I64,
               px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, guard_hit: GuardTab,
               guard_reach: I64, intercept_ft: int, sight: I64, aim: int, pin: int) -> int:
    """Intercept (RX-26) offered for ``a``'s attack on ``t``, as the engine offers it and the AI takes it.

    Every creature on ``t``'s side within range of ``t``, in reactor order (initiative order), with its reaction
    left and up, that sees ``a`` (no wall in the way, COV-3, at any distance: ``guard_seen``), is asked; it takes it
    when an ally of its own within range and within ``a``'s reach would likely drop from a hit that it can take
    (``_worth_intercepting``: mean hit, in that situation, at least the ally's HP and temporary HP, its own more than
    twice that; the attacker's gun counts at any distance, ``aim`` 1 while its Aim lasts, E-05). Each that takes it
    spends its reaction; the first redirects the attack. Melee attacks, and under edition 1 shots too (E-19:
    :func:`_shot`). ``pin`` 1: ``a`` is pinned by Covering Fire (SUP-11), its melee hits read in the table's second
    half (``kernel_covering_lower.pinned_guard``). Returns the new target, or ``t``.
    """
    n = len(side)
    to = t
    melee, shots, gview, seen = guard_hit
    half = pin * (melee.shape[2] // 2)
    walls = seen.shape[0] > 1  # a single entry: no wall on the map, everyone sees everyone
    hostile = 0  # "a hostile within 5 ft" of the attacker, for its gun's hit (AMOD-7)
    for o in range(n):
        if side[o] != side[a] and vit[o] == ALIVE and _gap(a, o, px, py, dist) <= SQUARE_FT:
            hostile = 1
    for idx in range(n):
        r = order[idx]
        if r == t or side[r] != side[t] or react[r] == 0 or vit[r] != ALIVE:
            continue
        if _gap(r, t, px, py, dist) > intercept_ft:
            continue
        if walls and seen[px[r], py[r], px[a], py[a]] == 0:
            continue  # "a creature you can see" (RX-26): a wall between them, however far the attacker stands
        worth = False
        for ally in range(n):
            if ally == r or side[ally] != side[r] or vit[ally] != ALIVE:
                continue
            if _gap(ally, r, px, py, dist) > intercept_ft:
                continue
            hit = 0.0  # the best mean hit of its options: melee within its reach, its gun at any distance
            gap = _gap(a, ally, px, py, dist)
            if gap <= guard_reach[a]:
                hit = melee[a, ally, half + _flanked(a, ally, side, vit, prone, px, py, dist, flank_geo, flanker,
                                                     threat_ft) + 2 * _view(px[a], py[a], px[ally], py[ally], sight, 0)]
            if shots.shape[0] == n:
                shot = shots[a, ally, hostile + (2 if gap <= SQUARE_FT else 0) + 4 * aim +
                             8 * gview[px[a], py[a], px[ally], py[ally]]]
                if shot > hit:
                    hit = shot
            if hit != 0.0 and hit >= hp[ally] + temp[ally] and hp[r] + temp[r] > 2 * hit:
                worth = True
                break
        if worth:
            react[r] = 0
            if to == t:
                to = r
    return to


@_jit
def _approach(c: int, wanted: I64, side: I64, vit: I64, px: I64, py: I64, reach: int, speed: int, price: I64,
              offsets: I64, dist: I64, path_x: I64, path_y: I64, sight: I64, far: int, view: I64, walled: I64) -> int:
    """The scripted approach (``stride_path``) into ``path_x``/``path_y``; returns its squares' count.

    The search (:func:`ashfall.kernel.paths.stride_to`) to the cheapest square from which a ``wanted`` creature is
    within ``reach``, not behind total cover (``can_attack_from``, COV-3), and ``c`` may stop; then the longest start
    of it within ``speed`` that ends where ``c`` may stop. Enemies still up bar passage; no living creature's square
    may end the move (ACT-2, ``blocking``).

    The AI's approach (``TacticalPolicy._approach``) also takes a square from which the creature is within ``far``
    (its ranged options' longest normal range; -1 for the scripted approach) with a line of fire: ``walled`` of the
    AI's ``view`` between the squares 0 (no total cover, COV-3, read at any distance).
    """
    width, height = dist.shape[0], dist.shape[1]
    goal = np.zeros((width, height), np.int64)  # the squares it may attack a wanted creature from
    for x in range(width):
        for y in range(height):
            for o in range(len(wanted)):
                if wanted[o] == 0:
                    continue
                gap = dist[abs(x - px[o]), abs(y - py[o])]
                if (gap <= reach and not _view(x, y, px[o], py[o], sight, 1) & SIGHT_TOTAL) or \
                        (gap <= far and walled[view[x, y, px[o], py[o]]] == 0):
                    goal[x, y] = 1
                    break
    return max(kpa.stride_to(c, goal, side, vit, px, py, speed, price, offsets, path_x, path_y), 0)


@_jit
def _foes(a: int, near: I64, hp: I64, vit: I64, rule: int, threat: F64, out: I64, moves: int,
          side: I64, px: I64, py: I64, dist: I64) -> int:
    """The enemies still fighting, the one to attack first: nearest first, stably sorted by the target rule.

    Where creatures move, "nearest" is where they stand now (``enemies_by_distance``: roster order among equals).
    """
    n = 0
    if moves == 1:
        for i in range(len(side)):
            if side[i] != side[a] and vit[i] == ALIVE:
                cur = i
                y = n - 1
                while y >= 0 and _gap(a, out[y], px, py, dist) > _gap(a, cur, px, py, dist):
                    out[y + 1] = out[y]
                    y -= 1
                out[y + 1] = cur
                n += 1
    else:
        for j in range(near.shape[1]):
            i = near[a, j]
            if i < 0:
                break
            if vit[i] == ALIVE:
                out[n] = i
                n += 1
    if rule == 0 or n < 2:
        return n
    for x in range(1, n):  # insertion sort: stable, like Python's sorted
        cur = out[x]
        y = x - 1
        while y >= 0:
            prev = out[y]
            if rule == 1:
                later = hp[prev] > hp[cur]
            elif rule == 2:
                later = hp[prev] < hp[cur]
            else:
                later = threat[prev] < threat[cur]
            if not later:
                break
            out[y + 1] = prev
            y -= 1
        out[y + 1] = cur
    return n


@_jit
def _melee(mt: I64, a: int, t: int, k: int, v: int, label: int, moves: int, order: I64, side: I64, vit: I64,
           prone: I64, hp: I64, temp: I64, react: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64,
           threat_ft: I64, guard_hit: GuardTab, guard_reach: I64, intercept_ft: int, outcome: I8, draws: I64, dice: I64,
           flat: I64, dealt: I64, low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64,
           dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64, sight: I64, fx: I64) -> int:
    """One melee attack as ``perform_attack`` makes it.

    Intercept offered on a grid where creatures move (RX-26), the situation read off the squares, then the roll
    and damage (:func:`_attack`).
    """
    if moves == 1:
        t = _intercept(a, t, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft,
                       guard_hit, guard_reach, intercept_ft, sight, 0, 1 if kcov.pinned(a, fx) else 0)
    code = _situation(a, t, moves, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, sight)
    return _attack(mt, a, t, k, v, label, outcome, draws, dice, flat, dealt, low, hp, temp, max_hp, vit, succ, fail,
                   prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, code, fx)


@_jit
def _option_attack(mt: I64, a: int, t: int, kx: int, v: int, label: int, ranged: int, aim: int, side: I64, vit: I64,
                   prone: I64, hp: I64, temp: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64,
                   threat_ft: I64, sight: I64, eview: I64, outcome: I8, draws: I64, dice: I64, flat: I64, dealt: I64,
                   low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64, dealt_by: I64,
                   taken: I64, record: bool, steps: I64, at: int, faces: I64, fx: I64, order: I64, react: I64,
                   guard_hit: GuardTab, guard_reach: I64, intercept_ft: int) -> int:
    """One attack with a further option (``kernel_weapons_lower``) as ``perform_attack`` makes it.

    A thrown attack's situation: "a hostile within 5 ft" of the thrower (an enemy up, AMOD-7), within 5 ft, Aim's
    bonus (``aim``, E-05) and the engine's cover and high ground between the squares (``eview``); a melee one's as
    :func:`_situation` reads it, after the Intercept it offers as the first option's swing does (:func:`_melee`,
    RX-26: a second melee weapon's swing at a creature with allies, the Warrior's Javelin in hand).
    """
    if ranged == 1:
        hostile = 0
        for o in range(len(side)):
            if side[o] != side[a] and vit[o] == ALIVE and _gap(a, o, px, py, dist) <= SQUARE_FT:
                hostile = 1
        code = hostile + (2 if _gap(a, t, px, py, dist) <= SQUARE_FT else 0) + 4 * aim + \
            8 * eview[px[a], py[a], px[t], py[t]]
    else:
        t = _intercept(a, t, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft,
                       guard_hit, guard_reach, intercept_ft, sight, 0, 1 if kcov.pinned(a, fx) else 0)
        code = _situation(a, t, 1, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, sight)
    return _attack(mt, a, t, kx, v, label, outcome, draws, dice, flat, dealt, low, hp, temp, max_hp, vit, succ, fail,
                   prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, code, fx)


@_jit
def _stride_along(mt: I64, c: int, went: int, moves: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64,
                  temp: I64, react: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64,
                  guard_hit: GuardTab, guard_reach: I64, intercept_ft: int, reach_ft: I64, outcome: I8, draws: I64,
                  dice: I64, flat: I64, dealt: I64, low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64,
                  falls: I64, rules: I64, dealt_by: I64, taken: I64, path_x: I64, path_y: I64, record: bool,
                  steps: I64, at: int, faces: I64, sight: I64, fx: I64, mor: kmor.MoraleTab, ammo_left: I64,
                  cov: kcov.CovTab, eview: I64, br: kbr.BraceTab) -> tuple[int, int]:
    """``c`` Strides along the first ``went`` squares of ``path_x``/``path_y``: ``(steps written, attack rolls)``.

    Before each square, every enemy up whose reach the step leaves makes its Attack of Opportunity, asked in
    reactor order, one reaction a round (RX-21), unless the mover is behind total cover from it (COV-3); a mover
    that falls stops where it is. Each attack that drops a group member or leader is a morale event then and
    there (MOR-7..12, :func:`ashfall.kernel.morale.after_attack`). The scripted plans' Stride and the AI's play it
    alike. Each Attack of Opportunity is declared first (Covering Fire, SUP-11: :func:`ashfall.kernel.covering.offer`);
    after each square entered a mover pinned by Covering Fire sets off the shooter's free attack
    (:func:`_covering_shot`), and stops there if it falls. A Stride walked to its end, the mover up, offers Brace
    (:func:`_braced`, RX-12).
    """
    attacks = 0
    sx, sy = px[c], py[c]
    entered = 0
    for s in range(went):
        nx, ny = path_x[s], path_y[s]
        for idx in range(len(side)):
            r = order[idx]
            if side[r] == side[c] or vit[r] != ALIVE or react[r] == 0:
                continue
            if _gap(r, c, px, py, dist) > reach_ft[r]:
                continue
            if dist[abs(px[r] - nx), abs(py[r] - ny)] <= reach_ft[r]:
                continue
            if _view(px[r], py[r], px[c], py[c], sight, 1) & SIGHT_TOTAL:
                continue  # the mover cannot be targeted (COV-3): no Attack of Opportunity
            react[r] = 0
            kcov.offer(r, order, side, vit, react, px, py, ammo_left, cov, fx)
            at = _melee(mt, r, c, AOO, 0, AOO, moves, order, side, vit, prone, hp, temp, react, px, py, dist,
                        flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft, outcome, draws, dice,
                        flat, dealt, low, max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps,
                        at, faces, sight, fx)
            at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
            attacks += 1
        if vit[c] != ALIVE and vit[c] != kmor.LEFT:
            break  # it fell: the move ends (one that fled walks on, MOR-20)
        px[c], py[c] = nx, ny
        if record:
            at = _record(steps, at, MOVED, c, -1, -1, faces, 0)
        kmor.stepped(mor, c, nx, ny, vit)  # a fleeing NPC on an exit has fled (MOR-20)
        if cov[0][kcov.COV_ON] == 1:
            s_, g_ = kcov.free_shooter(c, vit, px, py, ammo_left, cov, fx)
            if s_ >= 0:
                at, made = _covering_shot(mt, s_, g_, c, order, side, vit, prone, hp, temp, react, px, py, dist,
                                          flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft, outcome,
                                          draws, dice, flat, dealt, low, eview, max_hp, succ, fail, dropped, falls,
                                          rules, dealt_by, taken, record, steps, at, faces, sight, fx, mor, ammo_left,
                                          cov)
                attacks += made
                if vit[c] != ALIVE:
                    break  # it fell: the move ends (``walk``)
        entered += 1
    if entered == went and went > 0 and vit[c] == ALIVE and br[0][kbr.BR_ON] == 1:
        at, made = _braced(mt, c, sx, sy, went, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                           flanker, threat_ft, guard_hit, guard_reach, intercept_ft, max_hp, succ, fail, dropped,
                           falls, rules, dealt_by, taken, path_x, path_y, record, steps, at, faces, sight, fx, mor,
                           ammo_left, cov, br)
        attacks += made
    return at, attacks


@_jit
def _braced(mt: I64, c: int, sx: int, sy: int, went: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64,
            temp: I64, react: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64,
            guard_hit: GuardTab, guard_reach: I64, intercept_ft: int, max_hp: I64, succ: I64, fail: I64,
            dropped: I64, falls: I64, rules: I64, dealt_by: I64, taken: I64, path_x: I64, path_y: I64, record: bool,
            steps: I64, at: int, faces: I64, sight: I64, fx: I64, mor: kmor.MoraleTab, ammo_left: I64,
            cov: kcov.CovTab, br: kbr.BraceTab) -> tuple[int, int]:
    """The end of ``c``'s Stride from ``(sx, sy)``: Brace offered (CHARGE_ENDS, RX-12..14, X-20).

    In reactor order each creature :func:`ashfall.kernel.brace.bracer` finds spends its reaction and makes the Brace
    attack as ``perform_attack`` makes it (declared: Covering Fire, SUP-11; Intercept, RX-26; the roll and damage from
    the Brace tables, Activity.BRACE, RX-13; the morale event of a drop, MOR-7); on a hit on ``c`` itself (not on
    an interceptor, RX-27) with ``c`` still up and of its size or smaller, ``c`` saves (a recorded d20, RX-14) and
    on a failure cannot move again this turn (X-20, when ``turn.brace_stops_turn_movement``). Returns the steps
    written and the attack rolls made.
    """
    ints, size_ok, save_ok = br[0], br[3], br[4]
    made = 0
    idx = kbr.bracer(c, 0, sx, sy, went, path_x, path_y, order, side, vit, react, px, py, dist, sight, br)
    while idx >= 0:
        r = order[idx]
        react[r] = 0
        kcov.offer(r, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared (SUP-11)
        if vit[r] == ALIVE:
            t = _intercept(r, c, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker,
                           threat_ft, guard_hit, guard_reach, intercept_ft, sight, 0, 1 if kcov.pinned(r, fx) else 0)
            code = _situation(r, t, 1, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, sight)
            at, hit = _attack_hit(mt, r, t, 0, 0, kbr.BRACE_LABEL, br[5], br[6], br[7], br[8], br[9], ints[kbr.BR_LOW],
                                  hp, temp, max_hp, vit, succ, fail, prone, dropped, falls, rules, dealt_by, taken,
                                  record, steps, at, faces, code, fx)
            at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
            made += 1
            # a hit on the charger itself (one an ally Intercepted stops nobody, RX-27), still up, of r's size or less
            if hit and t == c and vit[c] == ALIVE and size_ok[r, c] == 1:
                face = roll(mt, 20)
                if record:
                    faces[0] = face
                    at = _record(steps, at, kbr.SAVE, c, -1, -1, faces, 1)
                if save_ok[c, r, face - 1] == 0 and ints[kbr.BR_STOPS] == 1:
                    kbr.stop(c, fx)
        idx = kbr.bracer(c, idx + 1, sx, sy, went, path_x, path_y, order, side, vit, react, px, py, dist, sight, br)
    return at, made


@_jit
def _covering_shot(mt: I64, s: int, g: int, c: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64, temp: I64,
                   react: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64,
                   guard_hit: GuardTab, guard_reach: I64, intercept_ft: int, outcome: I8, draws: I64, dice: I64,
                   flat: I64, dealt: I64, low: int, eview: I64, max_hp: I64, succ: I64, fail: I64, dropped: I64,
                   falls: I64, rules: I64, dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64,
                   sight: I64, fx: I64, mor: kmor.MoraleTab, ammo_left: I64, cov: kcov.CovTab) -> tuple[int, int]:
    """``s``'s free attack with its ``g``-th gun on the pinned mover ``c`` (``_covering_hook``, SUP-11).

    ``Activity.READIED``, no MAP.

    As ``perform_attack`` makes it: declared (under edition 1 an ally of ``c`` may Intercept it, E-19, RX-26), then
    the Attacks of Opportunity a ranged attack in reach provokes (edition 2, E-18: :func:`_shot_in_reach`; a shooter
    they drop makes no attack), then the roll, its situation :func:`_ranged_code`'s, never aimed. Nobody it may hit
    has a gun to Return Fire with (``covering_problem``). Returns the steps written and the attack rolls made.
    """
    made = 0
    ints = cov[0]
    if ints[kcov.COV_INTERCEPTS] == 1:
        c = _intercept(s, c, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft,
                       guard_hit, guard_reach, intercept_ft, sight, 0, 0)  # the shooter: never pinned (one talent)
    if ints[kcov.COV_PROVOKES] == 1:
        at, made = _shot_in_reach(mt, s, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker,
                                  threat_ft, guard_hit, guard_reach, intercept_ft, outcome, draws, dice, flat, dealt,
                                  low, max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps, at,
                                  faces, sight, fx, mor, ammo_left, cov)
        if vit[s] != ALIVE:
            return at, made
    code = _ranged_code(s, c, 0, side, vit, px, py, dist, eview)
    at = _attack(mt, s, c, g, 0, COVERING_LABEL, cov[4], cov[5], cov[6], cov[7], cov[8], cov[9][0], hp, temp, max_hp,
                 vit, succ, fail, prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, code, fx)
    at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
    return at, made + 1


@_entry
def play(mt: I64, seed: int, side: I64, agi: I64, init_bonus: I64, tiebreak_sides: int, hp0: I64, temp0: I64,
         near: I64, plan: I64, plan_len: I64, step_actions: I64, target_rule: I64, threat: F64,
         act_cost: I64, act_legal: I64, counts: I64, actions: int, map_index: I64, all_out_index: I64,
         outcome: I8, draws: I64, dice: I64, flat: I64, dealt: I64, low: int, max_hp: I64, falls: I64, saves: I64,
         save_table: I64, dying_rules: I64, stand_cost: I64, moves: int, pos: I64, reach_ft: I64, speed: I64,
         stride_cost: I64, price: I64, offsets: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64,
         guard_hit: GuardTab, guard_reach: I64, intercept_ft: int, sight: I64, round_limit: int, ai_on: I64,
         ai_tab: AiTab,
         hp: I64, temp: I64, vit: I64, prone: I64, dropped: I64, dealt_by: I64, taken: I64, out: I64, record: bool,
         steps: I64, mv: kmv.MvTab, mor: kmor.MoraleTab, cov: kcov.CovTab, br: kbr.BraceTab, sur: I64) -> None:
    """Play one fight with ``seed``.

    The end state goes into ``hp``, ``temp``, ``vit`` (vitality codes), ``prone``, ``dropped`` (ever at 0 HP),
    ``dealt_by``, ``taken`` and ``out``, and every step into ``steps`` when ``record``. A creature with
    ``ai_on`` plays the tactical AI's turn (:func:`_ai_turn`); a choice outside its slice stops the
    fight with ``out[OUT_TIMED_OUT]`` 2. ``mor`` holds the morale family's tables and its state at the end
    (:mod:`ashfall.kernel.morale`); ``cov`` the Covering Fire talent's (:mod:`ashfall.kernel.covering`, SUP-11);
    ``br`` Brace's (:mod:`ashfall.kernel.brace`, RX-12..14, X-20); ``sur`` an ambush's (:mod:`ashfall.kernel.surprise`,
    SUR-1..3).
    """
    plan_frac, plan_drop, plan_first, enemy_hit, ai_config, ai_ints, ai_view, ai_wind = ai_tab[:8]
    mv_ints, dazed, fx = mv[0], mv[5], mv[6]
    _zero(dazed)  # Dazed (G-13, TRP-4), kept as the fight goes
    for i in range(fx.shape[0]):  # a Feint's effects (FNT-3, FNT-5, FNT-7), kept as the fight goes
        _zero(fx[i])
    ai_chooser = ai_tab[12]
    wind_left = ai_wind[:, kai.WIND_USES].copy()  # Second Wind's uses (HEAL-5), spent as the fight goes
    ammo_left = ai_tab[14][0].copy()  # rounds loaded per gun (G-31, ``[c, xo]``), spent and reloaded as it goes
    reseed(mt, seed)
    kmor.reset(mor)
    n = len(side)
    faces = np.zeros(STEP_FACES, np.int64)
    foes = np.zeros(n, np.int64)
    nearest = np.zeros(n, np.int64)
    wanted = np.zeros(n, np.int64)
    react = np.ones(n, np.int64)  # a reaction left this round (AE-2, RX-1): back at the start of its turn
    succ = np.zeros(n, np.int64)
    fail = np.zeros(n, np.int64)
    px = pos[:, 0].copy()
    py = pos[:, 1].copy()
    mpx, mpy = px, py  # where morale reads the squares: the fight's, or its own where nobody moves (these are 0)
    if moves == 0:
        mpx, mpy = mor[17][:, 0].copy(), mor[17][:, 1].copy()
    path_x = np.zeros(dist.shape[0] * dist.shape[1] * 2 + 1, np.int64)
    path_y = np.zeros(dist.shape[0] * dist.shape[1] * 2 + 1, np.int64)
    for i in range(n):
        hp[i] = hp0[i]
        temp[i] = temp0[i]
        vit[i] = ALIVE
        prone[i] = 0
        dropped[i] = 0
        dealt_by[i] = 0
        taken[i] = 0
    at = 0
    attacks = 0
    # initiative (INIT-1..3): a d20 and the engine's tie-break draw each, in roster order
    totals = np.zeros(n, np.int64)
    flips = np.zeros(n, np.int64)
    for i in range(n):
        d = roll(mt, 20)
        totals[i] = d + init_bonus[i]
        flips[i] = roll(mt, tiebreak_sides)
        if record:
            faces[0] = d
            faces[1] = flips[i]
            at = _record(steps, at, INITIATIVE, i, -1, -1, faces, 2)
    order = np.arange(n)
    for x in range(1, n):  # sorted by (-total, -AGI, -flip, roster index)
        cur = order[x]
        y = x - 1
        while y >= 0:
            p = order[y]
            if totals[p] != totals[cur]:
                later = totals[p] < totals[cur]
            elif agi[p] != agi[cur]:
                later = agi[p] < agi[cur]
            elif flips[p] != flips[cur]:
                later = flips[p] < flips[cur]
            else:
                later = p > cur
            if not later:
                break
            order[y + 1] = p
            y -= 1
        order[y + 1] = cur
    surprised = np.zeros(n, np.int64)
    at = ksur.ambush(mt, sur, surprised, react, record, steps, at, STEP_HEAD)  # Stealth vs passive Perception (SUR-1)
    rnd = 1
    index = 0
    winner = -1
    timed_out = 0
    ended = False
    while not ended:
        standing = _standing(side, vit)
        if standing != -1:
            winner = standing if standing >= 0 else -1
            break
        if index >= n:
            standing = _standing(side, vit)  # after the end-of-round hooks (none here)
            if standing != -1:
                winner = standing if standing >= 0 else -1
                break
            rnd += 1
            index = 0
            if rnd == 2:
                ksur.wake(surprised, react, mor)  # from round 2 the fight runs normally (SUR-3)
            continue
        c = order[index]
        kmv.turn_starts(c, vit[c] != DEAD, dazed)
        kmv.feint_turn_starts(c, fx)
        kcov.turn_starts(c, fx)  # the Covering Fire it laid down ends (SUP-11)
        kbr.turn_starts(c, fx)  # a Brace's stop lasted its last turn (X-20)
        if vit[c] == DEAD:
            index += 1
            continue
        kmor.turn_start(mor, c, side, vit, mpx, mpy)  # a fleeing NPC flees by an exit or is cornered (MOR-20, MOR-23)
        kmor.refresh_reaction(mor, c, react)  # its reaction is back, unless it is broken (MOR-22)
        ksur.hold(c, rnd, surprised, react)  # ... or surprised in round 1 (SUR-2)
        if vit[c] == DYING and saves[c] == 1:  # DEATH-2: a death save as its turn starts, before anything else
            face = roll(mt, 20)
            if record:
                faces[0] = face
                at = _record(steps, at, DEATH_SAVE, c, -1, -1, faces, 1)
            vit[c] = save_table[c, succ[c], fail[c], face - 1, 0]
            hp[c] = save_table[c, succ[c], fail[c], face - 1, 3]
            s_after = save_table[c, succ[c], fail[c], face - 1, 1]
            fail[c] = save_table[c, succ[c], fail[c], face - 1, 2]
            succ[c] = s_after
        if vit[c] != ALIVE:  # dying, stabilised or dead: it cannot act (C-INC)
            index += 1
            continue
        if ksur.skips(c, rnd, surprised):  # surprised: no turn in round 1 (SUR-2)
            index += 1
            continue
        if rnd > round_limit:  # the simulator stops before the first intent of the round after the limit
            timed_out = 1
            break
        broken = not kmor.may_act(mor, c)
        if broken and ai_on[c] == 0:  # broken: its plan ends the turn at once (MOR-21)
            index += 1
            continue
        left = actions
        if dazed[c] != 0:  # a Dazed creature's actions (G-13)
            left = min(left, mv_ints[kmv.MV_DAZED_ACTIONS])
        spent = 0
        rolls = 0
        strikes = 0
        if prone[c] == 1:  # back up after a natural 20 (DEATH-7): the plan stands first (ACT-5)
            if stand_cost[c] > left:
                index += 1
                continue
            if record:
                at = _record(steps, at, ACTIONS, c, -1, STAND, faces, 0)
            left -= stand_cost[c]
            prone[c] = 0
        if broken:  # the AI's broken creature stood up: every action a Stride toward an exit (``_flee``, MOR-21)
            while kmor.flees(mor, c) and left >= stride_cost[c] and vit[c] == ALIVE:
                went = kfl.flee_stride(c, mor[15], side, vit, px, py, speed[c], price, offsets, dist, path_x, path_y)
                if went == 0:
                    break
                if record:
                    at = _record(steps, at, ACTIONS, c, -1, STRIDE, faces, 0)
                left -= stride_cost[c]
                at, made = _stride_along(mt, c, went, moves, order, side, vit, prone, hp, temp, react, px, py, dist,
                                         flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                         reach_ft, outcome, draws, dice, flat, dealt, low, max_hp, succ, fail,
                                         dropped, falls, dying_rules, dealt_by, taken, path_x, path_y, record, steps,
                                         at, faces, sight, fx, mor, ammo_left, cov, ai_tab[13][15], br)
                attacks += made
                if _standing(side, vit) != -1:
                    break
            standing = _standing(side, vit)
            if standing != -1:
                winner = standing if standing >= 0 else -1
                break
            index += 1
            continue
        if ai_on[c] == 1:  # the tactical AI's turn (``_ai_turn``, ``ashfall.kernel.ai``)
            at, made, status = _ai_turn(mt, c, left, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                                       flanker, threat_ft, guard_hit, guard_reach, intercept_ft, reach_ft, speed,
                                       stride_cost, price, offsets, act_cost, counts, map_index, all_out_index,
                                       outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped, falls,
                                       dying_rules, dealt_by, taken, plan_frac, plan_drop, plan_first, enemy_hit,
                                       ai_config, ai_ints, path_x, path_y, record, steps, at, faces, sight,
                                       ai_view, ai_wind, wind_left, ai_tab, mv, ammo_left, mor, cov, br)
            attacks += made
            if status == kai.BAILED:
                timed_out = 2
                break
            if status == kai.ENDED:
                standing = _standing(side, vit)
                winner = standing if standing >= 0 else -1
                break
            index += 1
            continue
        while left > 0 and kmor.may_act(mor, c):  # broken mid-turn: the plan ends the turn (MOR-21)
            # the plan step it is on: actions spent on the plan this turn against the steps' action counts
            step = -1
            total = 0
            for s in range(plan_len[c]):
                total += step_actions[c, s]
                if spent < total:
                    step = plan[c, s]
                    break
            if step < 0:
                break
            nf = _foes(c, near, hp, vit, target_rule[c], threat, foes, moves, side, px, py, dist)
            if nf == 0:
                break
            if ai_chooser[c] == 1 and nf > 1:  # no target rule: the AI's pick first, the others nearest first
                pick = _chosen(c, left, rolls, strikes, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                               flanker, threat_ft, reach_ft, speed, price, offsets, plan_frac, plan_drop, plan_first,
                               enemy_hit, ai_config, ai_ints, ai_view, path_x, path_y, ai_tab, ammo_left, fx, cov)
                for q in range(1, nf):
                    if foes[q] == pick:
                        for r in range(q, 0, -1):
                            foes[r] = foes[r - 1]
                        foes[0] = pick
                        break
            t = -1  # the first enemy in the rule's order within reach and not behind total cover (COV-3)
            for q in range(nf):
                if moves == 0 or (_gap(c, foes[q], px, py, dist) <= reach_ft[c] and
                                  not _view(px[c], py[c], px[foes[q]], py[foes[q]], sight, 1) & SIGHT_TOTAL):
                    t = foes[q]
                    break
            if t < 0:
                # out of reach: Stride (the policy's approach), which does not advance the plan; towards the one
                # it means to attack when that is not the nearest, else (or when that finds no way) towards any
                if stride_cost[c] > left or kbr.stopped(c, fx):  # a Brace stopped it: its Stride is refused (X-20)
                    break
                _foes(c, near, hp, vit, 0, threat, nearest, moves, side, px, py, dist)
                went = 0
                if foes[0] != nearest[0]:
                    _zero(wanted)
                    wanted[foes[0]] = 1
                    went = _approach(c, wanted, side, vit, px, py, reach_ft[c], speed[c], price, offsets, dist,
                                     path_x, path_y, sight, -1, ai_view, ai_tab[13][23])
                if went == 0:
                    _zero(wanted)
                    for q in range(nf):
                        wanted[foes[q]] = 1
                    went = _approach(c, wanted, side, vit, px, py, reach_ft[c], speed[c], price, offsets, dist,
                                     path_x, path_y, sight, -1, ai_view, ai_tab[13][23])
                if went == 0:
                    break
                if record:
                    at = _record(steps, at, ACTIONS, c, -1, STRIDE, faces, 0)
                left -= stride_cost[c]
                at, made = _stride_along(mt, c, went, moves, order, side, vit, prone, hp, temp, react, px, py, dist,
                                         flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                         reach_ft, outcome, draws, dice, flat, dealt, low, max_hp, succ, fail,
                                         dropped, falls, dying_rules, dealt_by, taken, path_x, path_y, record, steps,
                                         at, faces, sight, fx, mor, ammo_left, cov, ai_tab[13][15], br)
                attacks += made
                standing = _standing(side, vit)
                if standing != -1:
                    winner = standing if standing >= 0 else -1
                    ended = True
                    break
                if vit[c] != ALIVE:
                    break
                continue
            k = step if act_legal[c, step] == 1 and act_cost[step] <= left else STRIKE
            cost = act_cost[k]
            if record:
                at = _record(steps, at, ACTIONS, c, -1, k, faces, 0)
            left -= cost
            spent += cost
            if k == ALL_OUT:
                for i in range(len(all_out_index)):
                    if vit[t] == DEAD:  # the later attacks go on against a dying target, not a dead one (MAA-7)
                        continue
                    kcov.offer(c, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared (SUP-11)
                    at = _melee(mt, c, t, k, all_out_index[i], ALL_OUT + 10 * (i + 1), moves, order, side, vit, prone,
                                hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft, guard_hit, guard_reach,
                                intercept_ft, outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped,
                                falls, dying_rules, dealt_by, taken, record, steps, at, faces, sight, fx)
                    at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
                    attacks += 1
                    rolls += counts[k]
                strikes += len(all_out_index)
            else:
                v = map_index[min(rolls, map_index.shape[0] - 1), min(strikes, map_index.shape[1] - 1)]
                kcov.offer(c, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared (SUP-11)
                at = _melee(mt, c, t, k, v, k, moves, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                            flanker, threat_ft, guard_hit, guard_reach, intercept_ft, outcome, draws, dice, flat,
                            dealt, low, max_hp, succ, fail, dropped, falls, dying_rules, dealt_by, taken, record,
                            steps, at, faces, sight, fx)
                at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
                attacks += 1
                rolls += counts[k]
                strikes += 1
            standing = _standing(side, vit)
            if standing != -1:
                winner = standing if standing >= 0 else -1
                ended = True
                break
        index += 1
    out[OUT_WINNER] = -1 if timed_out else winner
    out[OUT_ROUNDS] = rnd - 1 if timed_out else rnd
    out[OUT_TIMED_OUT] = timed_out
    out[OUT_ATTACKS] = attacks
    out[OUT_STEPS] = at


@_entry
def play_batch(mt: I64, seeds: I64, side: I64, agi: I64, init_bonus: I64, tiebreak_sides: int, hp0: I64, temp0: I64,
               near: I64, plan: I64, plan_len: I64, step_actions: I64, target_rule: I64,
               threat: F64, act_cost: I64, act_legal: I64, counts: I64, actions: int,
               map_index: I64, all_out_index: I64, outcome: I8, draws: I64, dice: I64, flat: I64, dealt: I64,
               low: int, max_hp: I64, falls: I64, saves: I64, save_table: I64, dying_rules: I64, stand_cost: I64,
               moves: int, pos: I64, reach_ft: I64, speed: I64, stride_cost: I64, price: I64, offsets: I64,
               dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, guard_hit: GuardTab, guard_reach: I64,
               intercept_ft: int, sight: I64, round_limit: int, ai_on: I64, ai_tab: AiTab,
               hp: I64, temp: I64, vit: I64, prone: I64, dropped: I64, dealt_by: I64, taken: I64, out: I64,
               mv: kmv.MvTab, mor: kmor.MoraleTab, mor_out: I64, cov: kcov.CovTab, br: kbr.BraceTab, sur: I64) -> None:
    """Play one fight per seed in a compiled loop (no steps): row ``i`` of each output is the fight of ``seeds[i]``.

    The outputs are 2-D: ``[trial, combatant]`` (``out``: ``[trial, OUT_LEN]``; ``mor_out``: ``[trial, combatant,
    (morale status, break style)]``). The simulator's fast path.
    """
    no_steps = np.zeros((1, STEP_HEAD + STEP_FACES), np.int64)
    for i in range(len(seeds)):
        play(mt, seeds[i], side, agi, init_bonus, tiebreak_sides, hp0, temp0, near, plan, plan_len, step_actions,
             target_rule, threat, act_cost, act_legal, counts, actions, map_index, all_out_index, outcome, draws,
             dice, flat, dealt, low, max_hp, falls, saves, save_table, dying_rules, stand_cost, moves, pos, reach_ft,
             speed, stride_cost, price, offsets, dist, flank_geo, flanker, threat_ft, guard_hit, guard_reach,
             intercept_ft, sight, round_limit, ai_on, ai_tab, hp[i], temp[i], vit[i], prone[i], dropped[i],
             dealt_by[i], taken[i], out[i], False, no_steps, mv, mor, cov, br, sur)
        state = mor[13]
        for j in range(mor_out.shape[1]):
            for col in range(mor_out.shape[2]):
                mor_out[i, j, col] = state[j, col]


@_jit
def _ai_turn(mt: I64, c: int, left: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64, temp: I64, react: I64,
             px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, guard_hit: GuardTab,
             guard_reach: I64, intercept_ft: int, reach_ft: I64, speed: I64, stride_cost: I64, price: I64, offsets: I64,
             act_cost: I64, counts: I64, map_index: I64, all_out_index: I64, outcome: I8, draws: I64, dice: I64,
             flat: I64, dealt: I64, low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64,
             dealt_by: I64, taken: I64, plan_frac: F64, plan_drop: F64, plan_first: I64, enemy_hit: F64, config: F64,
             ints: I64, path_x: I64, path_y: I64, record: bool, steps: I64, at: int, faces: I64, sight: I64,
             ai_view: I64, wind: I64, wind_left: I64, ai_tab: AiTab, mv: kmv.MvTab,
             ammo_left: I64, mor: kmor.MoraleTab, cov: kcov.CovTab, br: kbr.BraceTab) -> tuple[int, int, int]:
    """The AI creature ``c``'s turn with ``left`` actions: ``(steps written, attack rolls, status)``.

    Each action is :func:`ashfall.kernel.ai.decide`'s choice (what each enemy's attack on ``c`` is worth where
    they stand, ``enemy_hit`` in the situation the AI reads: flanking and "within 5 ft" as :func:`_situation`
    reads them, the view the AI's own ``ai_view``, is filled in first; before it, Second Wind below its share of
    maximum HP while a use is left, HEAL-5, as ``families.dying.ai.second_wind``), then played as
    the engine plays it: closing in along :func:`_approach`'s way, a Step (no Attack of
    Opportunity, ACT-3), a Stride with the Attacks of Opportunity of leaving reach in reactor order (RX-21) and a
    mover that falls stopping there, or an attack (Strike, Power Strike, All-Out Attack with MAP, as
    :func:`ashfall.kernel.fight.play`). Status ``ENDED`` when one side is left, ``BAILED`` for a choice outside
    the slice.

    Further ways to attack (``ai_tab``'s options): an attack with another option is :func:`_option_attack`; Aim
    (E-05) adds its bonus to the next thrown attack this turn unless the creature moves first, and is used up by it.
    A shot with ammunition spends a round of ``ammo_left`` (``spend_ammo``, G-31); a Reload (the plan's first block,
    or the AI's idle choice, ``TacticalPolicy._idle``) costs its actions and fills the weapon (:func:`_reload`).

    Morale (``mor``, :mod:`ashfall.kernel.morale`): every attack that drops a group member or leader is a morale
    event then and there (MOR-7..12); a creature that no longer holds (its group fell back or broke while it
    acted, MOR-17, MOR-21) stops the fight (``BAILED``).
    """
    (x_count, x_ranged, x_limit, x_frac, x_drop, x_first, melee_best, throw_hit, throw_ft, x_outcome, x_draws,
     x_dice, x_flat, x_dealt, x_low, eview, x_aim, prone_fire, shot, throw2_hit, throw2_ft, burst,
     x_normal, x_total) = ai_tab[13]
    burst_out = np.full(len(side), -1, np.int64)  # a burst's further targets (``decide`` writes them)
    no_group = np.full(1, -1, np.int64)  # a single attack's further targets: none
    capacity, reload_cost, x_slots, reload_label = ai_tab[14][1], ai_tab[14][2], ai_tab[14][3], ai_tab[14][4]
    aimed = 0  # it has aimed this turn (the effect lasts to the turn's end or the next thrown attack)
    aim_live = 0  # and has not moved since (E-05)
    mvalue = np.zeros(len(side), np.float64)
    n = len(side)
    value = np.zeros(n, np.float64)
    wanted = np.zeros(n, np.int64)
    open_frac, open_drop, open_first, enemy_hit_prone = ai_tab[8], ai_tab[9], ai_tab[10], ai_tab[11]
    mv_ints, fx = mv[0], mv[6]
    contest_faces = np.zeros(4, np.int64)
    own_flank = np.zeros((dist.shape[0], dist.shape[1], n), np.int64)  # alone on its side: it never flanks
    withdraw = ai_tab[15]
    with_allies = withdraw[0][c, kai.WD_ON] == 1.0  # its allies may flank with it; it may withdraw (DOD-1)
    drop_of = np.zeros(1, np.float64)
    rolls = 0
    strikes = 0
    attacks = 0
    tried_rally = False  # a leader tries to rally at most once a turn (G-04)
    while left > 0:
        if not kmor.holds(mor, c):  # falling back or broken mid-turn (MOR-17, MOR-21): not in the slice
            return at, attacks, kai.BAILED
        g = -1 if tried_rally else kmor.rally_group(mor, c, side, left)
        if g >= 0:  # a leader rallies its side's falling-back or broken group before all else (G-04, MOR-25)
            tried_rally = True
            if record:
                at = _record(steps, at, ACTIONS, c, -1, kmor.RALLY_LABEL, faces, 0)
            left -= mor[22][kmor.RR_COST]
            at = kmor.rally(mt, mor, c, g, vit, react, record, steps, at, STEP_HEAD)
            continue
        if with_allies and withdraw[3][c, 0] == 1 and left >= withdraw[5][kai.MED_COST]:
            p = _dying_beside(c, side, vit, px, py, dist, withdraw[5][kai.MED_REACH])
            if p >= 0:  # edition 1's Medicine check on a dying ally beside it (E-31, ``heal``), before all else
                if record:
                    at = _record(steps, at, ACTIONS, c, -1, kai.MEDICINE_LABEL, faces, 0)
                left -= withdraw[5][kai.MED_COST]
                face = roll(mt, 20)
                if record:
                    faces[0] = face
                    at = _record(steps, at, kai.MEDICINE_CHECK, c, -1, -1, faces, 1)
                if withdraw[3][c, face] == 1:  # stabilised (DEATH-9): no more death saves, counters reset
                    vit[p] = STABILISED
                    hp[p] = withdraw[4][p]
                    succ[p] = 0
                    fail[p] = 0
                continue
        if wind[c, kai.WIND_ON] == 1 and wind_left[c] > 0 and hp[c] < max_hp[c] * config[c, kai.CFG_WIND] and \
                left >= wind[c, kai.WIND_COST]:
            if record:
                at = _record(steps, at, ACTIONS, c, -1, kai.WIND_LABEL, faces, 0)
            left -= wind[c, kai.WIND_COST]
            total = wind[c, kai.WIND_FLAT]
            for _ in range(wind[c, kai.WIND_DICE]):
                total += roll(mt, wind[c, kai.WIND_SIDES])
            hp[c] = min(max_hp[c], hp[c] + max(0, total))  # ``heal``: up to the maximum
            if wind[c, kai.WIND_TEMP] > temp[c]:  # ``grant_temp_hp`` (THP-5): the higher stays, never stacked (THP-2)
                temp[c] = wind[c, kai.WIND_TEMP]
            wind_left[c] -= 1
            continue
        _enemy_values(c, value, mvalue, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, ai_view,
                      enemy_hit, enemy_hit_prone, mv_ints[kmv.MV_ON], melee_best, prone_fire[0], fx, cov)
        if with_allies:
            _own_flanks(c, own_flank, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, reach_ft)
        kind, t, k, went = kai.decide(c, left, rolls, strikes, side, vit, prone, hp, temp, react, px, py, dist,
                                      reach_ft, speed, price, offsets, plan_frac, plan_drop, plan_first, value, config,
                                      ints, path_x, path_y, ai_view, x_count, x_ranged, x_limit, x_frac, x_drop,
                                      x_first, mvalue, throw_hit, throw_ft, aimed, open_frac, open_drop, open_first,
                                      mv_ints[kmv.MV_ON], own_flank, prone_fire[1], shot[0], ammo_left, x_slots,
                                      capacity, drop_of,
                                      (throw2_hit, throw2_ft, prone_fire[2], burst, burst_out, x_normal, x_total,
                                       ai_tab[16], ai_tab[14][14]), fx)
        if with_allies and _withdraws(c, kind, drop_of[0], side, vit, prone, hp, temp, max_hp, px, py, dist,
                                      flank_geo, flanker, threat_ft, ai_view, withdraw, fx):
            return at, attacks, kai.BAILED  # it would Dodge, then move away (DOD-1, DOD-2): not played
        if kind == kai.APPROACH:
            for e in range(n):
                wanted[e] = 1 if side[e] != side[c] and vit[e] == ALIVE else 0
            # to within the normal reach of any of its options (``TacticalPolicy._approach``: ``decide`` says it)
            went = _approach(c, wanted, side, vit, px, py, reach_ft[c], speed[c], price, offsets, dist, path_x, path_y,
                             sight, went, ai_view, x_total)
            if kbr.stopped(c, fx):  # a Brace stopped it: the Stride is refused, ``_idle`` goes on (X-20)
                went = 0
            kind = kai.STRIDE if went > 0 else kai.BAIL
            if went == 0:  # no way to close in: top up the first partly spent gun (``_idle``)
                for xo in range(ammo_left.shape[1]):
                    if 0 < ammo_left[c, xo] < capacity[c, xo]:
                        kind, k = kai.RELOAD, xo
                        break
        if kind == kai.RELOAD:  # the gun ``k`` (the Reload intent names the weapon)
            at = _reload(c, k, ammo_left, capacity, reload_label[0], record, steps, at, faces)
            left -= reload_cost[c, k]
            continue
        if kind == kai.END:
            break
        if kind == kai.BAIL:
            return at, attacks, kai.BAILED
        if kind == kai.STEP:
            if record:
                at = _record(steps, at, ACTIONS, c, -1, kai.STEP_LABEL, faces, 0)
            left -= ints[kai.INT_STEP_COST]
            aim_live = 0
            px[c], py[c] = path_x[0], path_y[0]
            if record:
                at = _record(steps, at, MOVED, c, -1, kai.MOVED_STEP, faces, 0)
            if cov[0][kcov.COV_ON] == 1:  # a Step is a move too (ACT-3): a pinned creature's draws the free shot
                s_, g_ = kcov.free_shooter(c, vit, px, py, ammo_left, cov, fx)
                if s_ >= 0:
                    at, made = _covering_shot(mt, s_, g_, c, order, side, vit, prone, hp, temp, react, px, py, dist,
                                              flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                              outcome, draws, dice, flat, dealt, low, eview, max_hp, succ, fail,
                                              dropped, falls, rules, dealt_by, taken, record, steps, at, faces, sight,
                                              fx, mor, ammo_left, cov)
                    attacks += made
                    if _standing(side, vit) != -1:
                        return at, attacks, kai.ENDED
                    if vit[c] != ALIVE:
                        break
            continue
        if kind == kai.STRIDE:
            if record:
                at = _record(steps, at, ACTIONS, c, -1, STRIDE, faces, 0)
            left -= stride_cost[c]
            aim_live = 0
            at, made = _stride_along(mt, c, went, 1, order, side, vit, prone, hp, temp, react, px, py, dist,
                                     flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft, reach_ft,
                                     outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped, falls, rules,
                                     dealt_by, taken, path_x, path_y, record, steps, at, faces, sight, fx, mor,
                                     ammo_left, cov, eview, br)
            attacks += made
            if _standing(side, vit) != -1:
                return at, attacks, kai.ENDED
            if vit[c] != ALIVE:
                break
            continue
        if k == kmv.TRIP_FIRST:  # edition 2's Trip (TRP-1..4): the contest, then Prone, Dazed on a big win
            at = _trip(mt, c, t, prone, react, mv, contest_faces, record, steps, at)
            left -= mv_ints[kmv.MV_TRIP_COST]
            continue
        if k == kmv.FEINT_FIRST:  # edition 2's Feint (FNT-1..7): the contest, then its effect
            at = _feint(mt, c, t, mv, contest_faces, record, steps, at)
            left -= mv_ints[kmv.MV_FEINT_COST]
            continue
        if k >= kai.OPTION:  # a further way to attack (``kernel_weapons_lower``), or Aim
            xo, act = k // kai.OPTION - 1, k % kai.OPTION
            if act == kai.BURST:  # a Full Auto Burst among several enemies (G-35, MAA-2, X-12)
                rules_b = burst[kai.B_RULES]
                if record:
                    at = _record(steps, at, ACTIONS, c, -1, rules_b[2], faces, 0)
                left -= rules_b[0]
                count = 1
                for m in range(len(burst_out)):
                    if burst_out[m] >= 0:
                        count += 1
                if x_slots[c, xo] >= 0:
                    ammo_left[c, xo] -= rules_b[1] * count  # a round per target, spent first (``spend_ammo``, G-35)
                v = map_index[min(rolls, map_index.shape[0] - 1), min(strikes, map_index.shape[1] - 1)]
                aim = aim_live if aimed == 1 else 0  # the Aim still holds (E-05)
                crowd = (order, flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft, sight)
                t0 = _declared(c, t, burst_out, aim, side, vit, prone, hp, temp, react, px, py, dist,
                                     ai_tab[14], crowd)
                if shot[0] == 1:  # the Attacks of Opportunity the burst in reach provokes, offered once (E-18)
                    at, made = _shot_in_reach(mt, c, order, side, vit, prone, hp, temp, react, px, py, dist,
                                              flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                              outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped,
                                              falls, rules, dealt_by, taken, record, steps, at, faces, sight, fx, mor,
                                              ammo_left, cov)
                    attacks += made
                if vit[c] == ALIVE:  # a shooter that fell first makes no burst (``perform_multi_attack``)
                    at, made = _burst(mt, c, t0, burst_out, 3 * xo, v, aim, side, vit, prone,
                                      hp, temp, react, px, py, dist, eview, burst, x_dice, x_flat, x_dealt, x_low[0],
                                      max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps, at,
                                      faces, ammo_left, ai_tab[14], crowd, fx)
                    attacks += made
                aimed, aim_live = 0, 0
                rolls += rules_b[3]  # one attack for MAP (G-41)
                strikes += 1  # ``count_strike_action``
                if _standing(side, vit) != -1:
                    return at, attacks, kai.ENDED
                if vit[c] != ALIVE:
                    break
                continue
            if act == kmv.TRIP_FIRST:  # a Trip with a further melee option: the same contest (TRP-1..4)
                at = _trip(mt, c, t, prone, react, mv, contest_faces, record, steps, at)
                left -= mv_ints[kmv.MV_TRIP_COST]
                continue
            if act == kai.RELOAD_BLOCK:  # the plan reloads first (G-31)
                at = _reload(c, xo, ammo_left, capacity, reload_label[0], record, steps, at, faces)
                left -= reload_cost[c, xo]
                continue
            if act == kai.AIM_BLOCK:
                if record:
                    at = _record(steps, at, ACTIONS, c, -1, x_aim[2], faces, 0)
                left -= x_aim[0]
                aimed, aim_live = 1, 1
                continue
            if record:
                at = _record(steps, at, ACTIONS, c, -1, act, faces, 0)
            left -= act_cost[act]
            ranged = x_ranged[c, xo]
            kx = 3 * xo + act
            aim = 0
            if ranged == 1 and aimed == 1:
                aim = aim_live
            if act == ALL_OUT:
                for i in range(len(all_out_index)):
                    if vit[t] == DEAD:  # the later attacks go on against a dying target, not a dead one (MAA-7)
                        continue
                    if ranged == 1 and x_slots[c, xo] >= 0 and ammo_left[c, xo] > 0:
                        ammo_left[c, xo] -= 1  # the shot's round, spent before it provokes (``spend_ammo``, G-31)
                    t_at = t
                    if ranged == 1:  # an Intercept first, then the Attacks of Opportunity (``perform_attack``)
                        t_at = _declared(c, t, no_group, aim, side, vit, prone, hp, temp, react, px, py, dist,
                                         ai_tab[14], (order, flank_geo, flanker, threat_ft, guard_hit, guard_reach,
                                                      intercept_ft, sight))
                    if ranged == 1 and shot[0] == 1:
                        at, made = _shot_in_reach(mt, c, order, side, vit, prone, hp, temp, react, px, py, dist,
                                                  flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                                  outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped,
                                                  falls, rules, dealt_by, taken, record, steps, at, faces, sight, fx,
                                                  mor, ammo_left, cov)
                        attacks += made
                        if vit[c] != ALIVE:
                            break  # it fell before the throw (``perform_attack`` returns None)
                    if ranged == 1:  # a shot or throw, answered by Return Fire where it hits (RX-29)
                        at = _shot(mt, c, t_at, kx, all_out_index[i], ALL_OUT + 10 * (i + 1), aim, side, vit, prone,
                                   hp, temp, react, px, py, dist, eview, x_outcome, x_draws, x_dice, x_flat, x_dealt,
                                   x_low[0], max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps,
                                   at, faces, ammo_left, ai_tab[14],
                                   (order, flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft, sight),
                                   fx)
                    else:
                        at = _option_attack(mt, c, t, kx, all_out_index[i], ALL_OUT + 10 * (i + 1), ranged, aim,
                                            side, vit, prone, hp, temp, px, py, dist, flank_geo, flanker, threat_ft,
                                            sight, eview, x_outcome, x_draws, x_dice, x_flat, x_dealt, x_low[0],
                                            max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps,
                                            at, faces, fx, order, react, guard_hit, guard_reach, intercept_ft)
                    at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
                    if ranged == 1:
                        aimed, aim_live, aim = 0, 0, 0  # the first thrown attack uses the Aim up (E-05)
                    attacks += 1
                    rolls += counts[act]
                strikes += len(all_out_index)
            else:
                v = map_index[min(rolls, map_index.shape[0] - 1), min(strikes, map_index.shape[1] - 1)]
                fell = False
                if ranged == 1 and x_slots[c, xo] >= 0 and ammo_left[c, xo] > 0:  # a throw spends none
                    ammo_left[c, xo] -= 1  # the shot's round, spent before it provokes (``spend_ammo``, G-31)
                t_at = t
                if ranged == 1:  # an Intercept first (E-19), then the Attacks of Opportunity (``perform_attack``)
                    t_at = _declared(c, t, no_group, aim, side, vit, prone, hp, temp, react, px, py, dist, ai_tab[14],
                                     (order, flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                      sight))
                if ranged == 1 and shot[0] == 1:  # the Attacks of Opportunity a throw in reach provokes (E-18)
                    at, made = _shot_in_reach(mt, c, order, side, vit, prone, hp, temp, react, px, py, dist,
                                              flank_geo, flanker, threat_ft, guard_hit, guard_reach, intercept_ft,
                                              outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped,
                                              falls, rules, dealt_by, taken, record, steps, at, faces, sight, fx, mor,
                                              ammo_left, cov)
                    attacks += made
                    fell = vit[c] != ALIVE  # it fell before the throw (``perform_attack`` returns None)
                if not fell:
                    if ranged == 1:  # a shot or throw, answered by Return Fire where it hits (RX-29)
                        at = _shot(mt, c, t_at, kx, v, act, aim, side, vit, prone, hp, temp, react, px, py, dist, eview,
                                   x_outcome, x_draws, x_dice, x_flat, x_dealt, x_low[0], max_hp, succ, fail,
                                   dropped, falls, rules, dealt_by, taken, record, steps, at, faces, ammo_left,
                                   ai_tab[14], (order, flank_geo, flanker, threat_ft, guard_hit, guard_reach,
                                                intercept_ft, sight), fx)
                    else:
                        at = _option_attack(mt, c, t, kx, v, act, ranged, aim, side, vit, prone, hp, temp, px, py,
                                            dist, flank_geo, flanker, threat_ft, sight, eview, x_outcome, x_draws,
                                            x_dice, x_flat, x_dealt, x_low[0], max_hp, succ, fail, dropped, falls,
                                            rules, dealt_by, taken, record, steps, at, faces, fx, order, react,
                                            guard_hit, guard_reach, intercept_ft)
                    at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
                    if ranged == 1:
                        aimed, aim_live = 0, 0
                    attacks += 1
                    rolls += counts[act]
                    strikes += 1
            if _standing(side, vit) != -1:
                return at, attacks, kai.ENDED
            if vit[c] != ALIVE:
                break
            continue
        if record:
            at = _record(steps, at, ACTIONS, c, -1, k, faces, 0)
        left -= act_cost[k]
        if k == ALL_OUT:
            for i in range(len(all_out_index)):
                if vit[t] == DEAD:  # the later attacks go on against a dying target, not a dead one (MAA-7)
                    continue
                kcov.offer(c, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared (SUP-11)
                at = _melee(mt, c, t, k, all_out_index[i], ALL_OUT + 10 * (i + 1), 1, order, side, vit, prone,
                               hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft, guard_hit, guard_reach,
                               intercept_ft, outcome, draws, dice, flat, dealt, low, max_hp, succ, fail, dropped, falls,
                               rules, dealt_by, taken, record, steps, at, faces, sight, fx)
                at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
                attacks += 1
                rolls += counts[k]
            strikes += len(all_out_index)
        else:
            v = map_index[min(rolls, map_index.shape[0] - 1), min(strikes, map_index.shape[1] - 1)]
            kcov.offer(c, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared (SUP-11)
            at = _melee(mt, c, t, k, v, k, 1, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                           flanker, threat_ft, guard_hit, guard_reach, intercept_ft, outcome, draws, dice, flat, dealt,
                           low, max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps, at, faces,
                           sight, fx)
            at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
            attacks += 1
            rolls += counts[k]
            strikes += 1
        if _standing(side, vit) != -1:
            return at, attacks, kai.ENDED
    return at, attacks, kai.GOES_ON

@_jit
def _shot_in_reach(mt: I64, c: int, order: I64, side: I64, vit: I64, prone: I64, hp: I64, temp: I64, react: I64,
                   px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, guard_hit: GuardTab,
                   guard_reach: I64, intercept_ft: int, outcome: I8, draws: I64, dice: I64, flat: I64, dealt: I64,
                   low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64, dealt_by: I64,
                   taken: I64, record: bool, steps: I64, at: int, faces: I64, sight: I64, fx: I64,
                   mor: kmor.MoraleTab, ammo_left: I64, cov: kcov.CovTab) -> tuple[int, int]:
    """``c`` makes a ranged attack: the Attacks of Opportunity it provokes first (E-18, RX-21, RX-22).

    Each enemy up that may react and has ``c`` within its melee reach (``melee_reach``), not behind total cover from
    it (COV-3), in reactor order, attacks with its first melee weapon (``best_melee``, no MAP); returns the steps
    written and the attacks made. Every reactor is asked, even after an earlier one dropped ``c`` (the reference's
    ``offer`` asks each eligible creature; a creature at 0 HP can be attacked, C-UNC); a shooter or thrower that fell
    then makes no attack (the caller checks).
    """
    made = 0
    for idx in range(len(side)):
        r = order[idx]
        if side[r] == side[c] or vit[r] != ALIVE or react[r] == 0:
            continue  # a shooter an earlier reactor dropped is still attacked (the reference asks each: X-16)
        if _gap(r, c, px, py, dist) > threat_ft[r]:
            continue
        if _view(px[r], py[r], px[c], py[c], sight, 1) & SIGHT_TOTAL:
            continue
        react[r] = 0
        kcov.offer(r, order, side, vit, react, px, py, ammo_left, cov, fx)  # declared: Covering Fire (SUP-11)
        at = _melee(mt, r, c, AOO, 0, AOO, 1, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo,
                    flanker, threat_ft, guard_hit, guard_reach, intercept_ft, outcome, draws, dice, flat, dealt, low,
                    max_hp, succ, fail, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, sight, fx)
        at = kmor.after_attack(mt, mor, side, vit, react, record, steps, at, STEP_HEAD)
        made += 1
    return at, made


@_jit
def _ranged_code(a: int, t: int, aim: int, side: I64, vit: I64, px: I64, py: I64, dist: I64, eview: I64) -> int:
    """A ranged attack's table code (``kernel_weapons_lower``'s codes).

    "A hostile within 5 ft" of the shooter (AMOD-7), within 5 ft, aimed (E-05), and the engine's cover and high
    ground between the squares.
    """
    hostile = 0
    for o in range(len(side)):
        if side[o] != side[a] and vit[o] == ALIVE and _gap(a, o, px, py, dist) <= SQUARE_FT:
            hostile = 1
    view = int(eview[px[a], py[a], px[t], py[t]])
    return hostile + (2 if _gap(a, t, px, py, dist) <= SQUARE_FT else 0) + 4 * aim + 8 * view


@_jit
def _shot(mt: I64, a: int, t: int, kx: int, v: int, label: int, aim: int, side: I64, vit: I64, prone: I64, hp: I64,
          temp: I64, react: I64, px: I64, py: I64, dist: I64, eview: I64, outcome: I8, draws: I64, dice: I64,
          flat: I64, dealt: I64, low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64,
          dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64, ammo_left: I64,
          rf: RangedTab, crowd: CrowdTab, fx: I64) -> int:
    """``a``'s ranged attack on ``t`` with a further option, then the Return Fire a hit sets off.

    The caller has spent the shot's round, declared it (:func:`_declared`: ``t`` is the target after an Intercept,
    E-19) and played the Attacks of Opportunity it provokes (E-18), in the reference's order (``perform_attack``):
    a Return Fire never provokes one here (``kernel_ranged_lower._answer_provokes`` names the fights where it could).

    The one hit, and under edition 2 each ally within 30 ft of it (E-20, G-56), fires back if it is up, has its
    reaction (AE-2) and a gun loaded with the shooter within its normal range (:func:`_answered`: ``fire_back``, the
    first such in the engine's order, ``return_fire_weapon``, RX-31; the AI takes it, ``reactions.ai``): one attack
    from the ``rf`` tables of that gun (RX-30: its penalty, no MAP, a round of that gun spent), which may in turn set
    off the first shooter's side's (each has one reaction a round).
    ``crowd`` is what :func:`_intercept` reads (for Return Fire under edition 1, E-19).
    """
    code = _ranged_code(a, t, aim, side, vit, px, py, dist, eview)
    at, hit = _attack_hit(mt, a, t, kx, v, label, outcome, draws, dice, flat, dealt, low, hp, temp, max_hp, vit,
                          succ, fail, prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces, code, fx)
    if not hit:
        return at
    return _answered(mt, a, t, side, vit, prone, hp, temp, react, px, py, dist, eview, max_hp, succ, fail, dropped,
                     falls, rules, dealt_by, taken, record, steps, at, faces, ammo_left, rf, crowd, fx)


@_jit
def _answered(mt: I64, a: int, t: int, side: I64, vit: I64, prone: I64, hp: I64, temp: I64, react: I64, px: I64,
              py: I64, dist: I64, eview: I64, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64,
              dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64, ammo_left: I64,
              rf: RangedTab, crowd: CrowdTab, fx: I64) -> int:
    """The Return Fire ``a``'s ranged hit on ``t`` sets off (RX-29..31, E-20), and the answers to it (:func:`_shot`).

    As the engine's ``offer`` asks: every creature in reactor order (initiative order) that is up with its reaction
    left (AE-2), hostile to the shooter, and either the creature hit or, under edition 2, of its side within
    ``fire_ints[0]`` feet of it (E-20, G-56), with a gun loaded and the shooter within its normal range (``fire_back``,
    the first such in the engine's order, ``return_fire_weapon``, RX-31) and a clear line to it (``fire_clear``: sight,
    total cover, the AI's ``_walled_off``), fires back (the AI takes it, ``reactions.ai``): one attack from the ``rf``
    tables of that gun (RX-30: its penalty, no MAP, a round of that gun spent), at the shooter however an earlier
    answer left it (``_hostile`` asks only its side). Its hit is answered in turn, before the next creature is asked
    (a stack of offers: each entry spends a reaction, so at most one per creature).
    ``crowd`` is what :func:`_intercept` reads (for Return Fire under edition 1, E-19).
    """
    order, flank_geo, flanker, threat_ft, guard, guard_reach, intercept_ft, sight = crowd
    intercepts = rf[12][0] == 1
    fire_back, rf_outcome, rf_draws, rf_dice, rf_flat, rf_dealt, rf_low = rf[5], rf[6], rf[7], rf[8], rf[9], rf[10], \
        rf[11]
    fire_slot, ally_ft, clear = rf[13], rf[15][0], rf[16]
    walls = clear.shape[0] > 1  # a single entry: no wall on the map, every responder has a line of fire
    n = len(side)
    shooters = np.zeros(n + 1, np.int64)  # the offers still asking: who shot, whom it hit, the next asked
    hits = np.zeros(n + 1, np.int64)
    nexts = np.zeros(n + 1, np.int64)
    shooters[0], hits[0] = a, t
    depth = 1
    while depth > 0:
        f = depth - 1
        if nexts[f] >= n:
            depth -= 1
            continue
        r = order[nexts[f]]
        nexts[f] += 1
        s, h = shooters[f], hits[f]
        if vit[r] != ALIVE or react[r] == 0 or side[r] == side[s]:
            continue
        if r != h and (ally_ft < 0 or side[r] != side[h] or _gap(r, h, px, py, dist) > ally_ft):
            continue
        gun = -1  # ``return_fire_weapon``: the first gun loaded with the shooter within its normal range (RX-31)
        gap = _gap(r, s, px, py, dist)
        for g in range(fire_back.shape[1]):
            if fire_back[r, g] >= 0 and ammo_left[r, fire_slot[r, g]] > 0 and gap <= fire_back[r, g]:
                gun = g
                break
        if gun < 0 or (walls and clear[px[r], py[r], px[s], py[s]] == 0):
            continue
        react[r] = 0
        ammo_left[r, fire_slot[r, gun]] -= 1  # ``spend_ammo`` (RX-30: it uses ammunition normally)
        to = s
        if intercepts:
            to = _intercept(r, s, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker,
                            threat_ft, guard, guard_reach, intercept_ft, sight, 0, 1 if kcov.pinned(r, fx) else 0)
        code = _ranged_code(r, to, 0, side, vit, px, py, dist, eview)
        at, hit = _attack_hit(mt, r, to, gun, 0, RETURN_FIRE, rf_outcome, rf_draws, rf_dice, rf_flat, rf_dealt,
                              rf_low[0], hp, temp, max_hp, vit, succ, fail, prone, dropped, falls, rules, dealt_by,
                              taken, record, steps, at, faces, code, fx)
        if hit:  # its hit offers Return Fire in turn, before the next creature is asked here
            shooters[depth], hits[depth], nexts[depth] = r, to, 0
            depth += 1
    return at


@_jit
def _declared(a: int, t: int, group: I64, aim: int, side: I64, vit: I64, prone: I64, hp: I64, temp: I64,
                    react: I64, px: I64, py: I64, dist: I64, rf: RangedTab, crowd: CrowdTab) -> int:
    """The (first) target of ``a``'s ranged attack on ``t`` once declared (``attack_declared``), before it provokes.

    Under edition 1 a shot or a throw may be Intercepted (E-19, RX-26: ``rf``'s ``intercepts``): the interceptor
    becomes the target; a Full Auto Burst's first target is redirected unless the interceptor is one of its further
    targets ``group`` already (then nothing changes; -1 after the last, all -1 for a single attack).
    """
    if rf[12][0] != 1:
        return t
    order, flank_geo, flanker, threat_ft, guard, guard_reach, intercept_ft, sight = crowd
    r = _intercept(a, t, order, side, vit, prone, hp, temp, react, px, py, dist, flank_geo, flanker, threat_ft,
                   guard, guard_reach, intercept_ft, sight, aim, 0)  # a shooter Covering Fire may pin has no gun
    if r == t:
        return t
    for m in range(len(group)):
        if group[m] < 0:
            break
        if group[m] == r:
            return t
    return r


@_jit
def _burst(mt: I64, a: int, t: int, group: I64, kx: int, v: int, aim: int, side: I64, vit: I64, prone: I64,
           hp: I64, temp: I64, react: I64, px: I64, py: I64, dist: I64, eview: I64, burst: kai.BurstTab, dice: I64,
           flat: I64, dealt: I64, low: int, max_hp: I64, succ: I64, fail: I64, dropped: I64, falls: I64, rules: I64,
           dealt_by: I64, taken: I64, record: bool, steps: I64, at: int, faces: I64, ammo_left: I64,
           rf: RangedTab, crowd: CrowdTab, fx: I64) -> tuple[int, int]:
    """``a``'s Full Auto Burst on ``t`` and its further targets ``group`` (-1 after the last): steps, attack rolls.

    As ``perform_multi_attack`` plays it (G-35, MAA-2, X-12).

    The caller has spent the rounds (one per target, ``spend_ammo``), declared it (:func:`_declared`: ``t``
    is the first target after an Intercept, E-19), played the Attacks of Opportunity it provokes once (E-18, RX-21)
    and counts MAP once. Then one d20 (two with
    advantage or disadvantage, as the first target's situation says) judged against each target's DV in its own
    situation (``kernel_burst_rolls``), one attack row per target with the same faces; then each hit target in
    order takes the Strike's damage of the gun (``kx``) and may fire back (:func:`_answered`).
    """
    n = len(side)
    ids = np.zeros(n + 1, np.int64)
    ids[0] = t
    count = 1
    for m in range(len(group)):
        if group[m] < 0:
            break
        ids[count] = group[m]
        count += 1
    t0 = ids[0]
    ints = burst[kai.B_INTS]  # beside edition 2's openers a prone target's codes are in a second half (C-PRO)
    half = burst[kai.B_ROLL_DRAWS].shape[3] // 2 if ints.shape[0] > 2 and ints[2] == 1 else 0
    code0 = _ranged_code(a, t0, aim, side, vit, px, py, dist, eview) + (half if prone[t0] == 1 else 0)
    draws = burst[kai.B_ROLL_DRAWS][a, t0, v, code0]
    first = roll(mt, 20)
    second = 1
    if draws == 2:
        second = roll(mt, 20)
    results = np.zeros(count, np.int64)
    for m in range(count):
        code = _ranged_code(a, ids[m], 0, side, vit, px, py, dist, eview) + (half if prone[ids[m]] == 1 else 0)
        results[m] = burst[kai.B_ROLL_OUTCOME][a, t0, ids[m], v, code0, code, first - 1, second - 1]
        if record:
            faces[0] = first
            faces[1] = second
            at = _record(steps, at, ATTACK, a, ids[m], BURST_LABEL, faces, draws)
    for m in range(count):
        if results[m] > 0:
            at = _damage(mt, a, ids[m], kx, 1 if results[m] == 2 else 0, dice, flat, dealt, low, hp, temp, max_hp,
                         vit, succ, fail, prone, dropped, falls, rules, dealt_by, taken, record, steps, at, faces)
            at = _answered(mt, a, ids[m], side, vit, prone, hp, temp, react, px, py, dist, eview, max_hp, succ, fail,
                           dropped, falls, rules, dealt_by, taken, record, steps, at, faces, ammo_left, rf, crowd, fx)
    return at, count


@_jit
def _reload(c: int, xo: int, ammo_left: I64, capacity: I64, label: int, record: bool, steps: I64, at: int,
            faces: I64) -> int:
    """``c`` reloads its gun in further option slot ``xo`` to a full load (G-31, E-03); returns the steps written."""
    if record:
        at = _record(steps, at, ACTIONS, c, -1, label, faces, 0)
    ammo_left[c, xo] = capacity[c, xo]
    return at


@_jit
def _trip(mt: I64, c: int, t: int, prone: I64, react: I64, mv: kmv.MvTab, cf: I64, record: bool, steps: I64,
          at: int) -> int:
    """``c`` Trips ``t`` (TRP-2..4); returns the steps written.

    The action, the contest's two checks as the log shows them, then Prone, and Dazed on a win by the degree
    margin: no reactions until its next turn ends (G-13).
    """
    ints, draws, totals, margins, labels, dazed = mv[0], mv[1], mv[2], mv[3], mv[4], mv[5]
    if record:
        at = _record(steps, at, ACTIONS, c, -1, ints[kmv.MV_TRIP_LABEL], cf, 0)
    result = kmv.trip_contest(mt, c, t, dazed, draws, totals, margins, ints, cf)
    if record:
        state = 1 if dazed[c] != 0 else 0
        at = _record(steps, at, kmv.CHECK, c, -1, labels[c, t, 0], cf, draws[c, t, state, 0])
        at = _record(steps, at, kmv.CHECK, t, -1, labels[c, t, 1], cf[2:], draws[c, t, state, 1])
    if result != kmv.MISSED:
        prone[t] = 1
    if result == kmv.TRIPPED_HARD:
        dazed[t] = 1
        react[t] = 0
    return at


@_jit
def _feint(mt: I64, c: int, t: int, mv: kmv.MvTab, cf: I64, record: bool, steps: I64, at: int) -> int:
    """``c`` Feints ``t`` (FNT-1..5, FNT-7); returns the steps written.

    The action, the contest's two checks as the log shows them (Deception against Insight, FNT-2), then the
    effect: advantage on ``c``'s next melee attack on ``t`` this turn on a win (FNT-3), ``t``'s advantage on its
    next attack on ``c`` until its next turn ends on a loss by the degree margin (FNT-5, CON-5), nothing else
    (FNT-4); ``c`` feints ``t`` no more this turn (FNT-7).
    """
    ints, labels, fx, f_draws = mv[0], mv[9], mv[6], mv[7]
    if record:
        at = _record(steps, at, ACTIONS, c, -1, ints[kmv.MV_FEINT_LABEL], cf, 0)
    result = kmv.feint_contest(mt, c, t, f_draws, mv[8], mv[10], ints[kmv.MV_FEINT_OFF], cf)
    if record:
        at = _record(steps, at, kmv.CHECK, c, -1, labels[c, t, 0], cf, f_draws[c, t, 0])
        at = _record(steps, at, kmv.CHECK, t, -1, labels[c, t, 1], cf[2:], f_draws[c, t, 1])
    fx[c, t] |= kmv.FX_FEINTED
    if result == kmv.FEINT_WON:
        fx[c, t] |= kmv.FX_ADV
    elif result == kmv.FEINT_BACKFIRED:
        fx[t, c] |= kmv.FX_BACK
    return at

@_jit
def _enemy_values(c: int, value: F64, mvalue: F64, side: I64, vit: I64, prone: I64, px: I64, py: I64, dist: I64,
                  flank_geo: I64, flanker: I64, threat_ft: I64, ai_view: I64, enemy_hit: F64, enemy_hit_prone: F64,
                  prone_on: int, melee_best: F64, melee_best_prone: F64, fx: I64, cov: kcov.CovTab) -> None:
    """What one attack of each enemy up would deal ``c`` where both stand, as the AI values it, into ``value``.

    ``enemy_hit`` in the situation the AI reads (``aoo_damage``, ``ranged_threat``'s melee part): flanking and
    "within 5 ft" as :func:`_situation` reads them, the view the AI's own ``ai_view``; 0 for the others. With
    edition 2's Trip in play (``prone_on``) a prone enemy's attack is weighed at disadvantage (C-PRO,
    ``enemy_hit_prone``). ``mvalue`` gets each enemy's best melee option instead where the further options are
    lowered (``melee_best``, ``kernel_weapons_lower``), else the same value. An enemy pinned by Covering Fire is
    weighed with its disadvantage (``base_for`` reads ``suppressed``: ``cov``'s ``enemy_hit`` and ``melee_best``,
    SUP-11).
    """
    n = len(side)
    for e in range(n):
        value[e] = 0.0
        mvalue[e] = 0.0
        if side[e] != side[c] and vit[e] == ALIVE:
            code = _flanked(e, c, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft)
            if _gap(e, c, px, py, dist) <= SQUARE_FT:
                code += 2
            code += 4 * ai_view[px[e], py[e], px[c], py[c]]
            value[e] = enemy_hit_prone[e, c, code] if prone[e] == 1 and prone_on == 1 else enemy_hit[e, c, code]
            if cov[0][kcov.COV_ON] == 1 and kcov.pinned(e, fx):  # SUPPRESSED: its attacks at disadvantage
                lying = prone[e] == 1 and prone_on == 1  # and lying prone (C-PRO)
                value[e] = cov[12][e, c, code] if lying else cov[10][e, c, code]
                if melee_best.shape[0] != n:
                    mvalue[e] = value[e]
                else:
                    mvalue[e] = cov[13][e, c, code] if lying else cov[11][e, c, code]
            elif melee_best.shape[0] != n:
                mvalue[e] = value[e]
            elif prone[e] == 1 and prone_on == 1:  # its best melee option lying prone (C-PRO)
                mvalue[e] = melee_best_prone[e, c, code]
            else:
                mvalue[e] = melee_best[e, c, code]


@_jit
def _chosen(c: int, left: int, rolls: int, strikes: int, side: I64, vit: I64, prone: I64, hp: I64, temp: I64,
            react: I64, px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, reach_ft: I64,
            speed: I64, price: I64, offsets: I64, plan_frac: F64, plan_drop: F64, plan_first: I64, enemy_hit: F64,
            config: F64, ints: I64, ai_view: I64, path_x: I64, path_y: I64, ai_tab: AiTab, ammo_left: I64,
            fx: I64, cov: kcov.CovTab) -> int:
    """Whom the AI would attack now for the scripted ``c`` (``TacticalPolicy.preferred_target``), or -1 for nobody.

    The AI's focus-fire pick among its best candidate against each target (:func:`ashfall.kernel.ai.decide`, the
    same decision the AI's own turn makes, with ``c``'s tables lowered under the AI's default config), with
    ``c``'s own attacks flanking where an ally of its helps from the square it would attack from (POS-1, the
    AI's ``Sights``). A plan without a target rule attacks it first (``ScriptedTactics._ordered``).
    ``path_x``/``path_y`` are scratch. Its further ways to attack (another melee weapon, a thrown weapon's throw,
    Aim first where it stands, E-05) and each enemy's (its best melee option, its gun while loaded, ``ammo_left``,
    G-31, and a throw beside it) are weighed from ``ai_tab``'s options as for a creature the AI plays. Under edition 2
    (``config[c, CFG_OPEN]``) its plans where it stands open with Trip and Feint and a prone enemy's attacks are
    weighed lying prone, as for a creature the AI plays (E-37: the opener tables hold its rows), and with its melee
    options there a Sweeping Strike among several enemies (``ai_tab``'s sweep, SWP-1..3). It never aims nor feints
    nor sweeps, so nothing it has aimed and no Feint's effect counts.
    """
    opt = ai_tab[13]
    n = len(side)
    openers = int(config[c, kai.CFG_OPEN])
    value = np.zeros(n, np.float64)
    mvalue = np.zeros(n, np.float64)  # each enemy's best melee option (``melee_best``), for the fire a square invites
    _enemy_values(c, value, mvalue, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, ai_view,
                  enemy_hit, ai_tab[11], openers, opt[6], opt[17][0], fx, cov)
    own_flank = np.zeros((dist.shape[0], dist.shape[1], n), np.int64)
    _own_flanks(c, own_flank, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft, reach_ft)
    braced = fx[c, c] & kbr.FX_BRACED
    fx[c, c] &= ~kbr.FX_BRACED  # the pick weighs every way, legal or not (``preferred_target``: no ``legal``)
    kind, t, _, _ = kai.decide(c, left, rolls, strikes, side, vit, prone, hp, temp, react, px, py, dist, reach_ft,
                               speed, price, offsets, plan_frac, plan_drop, plan_first, value, config, ints, path_x,
                               path_y, ai_view, opt[0], opt[1], opt[2], opt[3], opt[4], opt[5], mvalue, opt[7],
                               opt[8], 0, ai_tab[8], ai_tab[9], ai_tab[10], openers, own_flank, opt[17][1],
                               opt[18][0],
                               ammo_left, ai_tab[14][3], ai_tab[14][1], np.zeros(1, np.float64),
                               (opt[19], opt[20], opt[17][2], opt[21], np.full(n, -1, np.int64), opt[22],
                                opt[23], ai_tab[16], ai_tab[14][14]), fx)
    fx[c, c] |= braced
    if kind == kai.ATTACK or kind == kai.STEP or kind == kai.STRIDE:
        return int(t)
    return -1


@_jit
def _own_flanks(c: int, own_flank: I64, side: I64, vit: I64, prone: I64, px: I64, py: I64, dist: I64,
                flank_geo: I64, flanker: I64, threat_ft: I64, reach_ft: I64) -> None:
    """Where an ally of ``c`` would make its attack on each enemy up a flanking one, into ``own_flank[x, y, t]``.

    For every square within ``c``'s reach of the enemy (the AI's ``Sights``: an ally threatening the target and able to
    flank in its state, POS-1, POS-3, E-22, with ``c``'s square across the target from it).
    """
    width, height = dist.shape[0], dist.shape[1]
    for t in range(len(side)):
        for x in range(width):  # element by element (a slice assignment costs its own compile, ``_zero``)
            for y in range(height):
                own_flank[x, y, t] = 0
        if side[t] == side[c] or vit[t] != ALIVE:
            continue
        for x in range(width):
            for y in range(height):
                if dist[abs(x - px[t]), abs(y - py[t])] <= reach_ft[c] and (x != px[t] or y != py[t]):
                    own_flank[x, y, t] = _flanked_at(c, x, y, t, side, vit, prone, px, py, dist, flank_geo, flanker,
                                                     threat_ft)


@_jit
def _withdraws(c: int, kind: int, drop: float, side: I64, vit: I64, prone: I64, hp: I64, temp: I64, max_hp: I64,
               px: I64, py: I64, dist: I64, flank_geo: I64, flanker: I64, threat_ft: I64, ai_view: I64,
               withdraw: WdTab, fx: I64) -> bool:
    """Whether the AI would withdraw ``c`` now rather than take ``decide``'s choice (``TacticalPolicy._withdraw``).

    At or below its share of maximum HP (``withdraw_below``), with an ally still up, unless its attack (``kind``)
    has an even chance or better to drop the target (``drop``), when the enemies' one-turn damage reaches its HP left
    (``outmatched.incoming``: each enemy up, the best of its turns of Strikes with each of its ways to attack that
    reaches, a melee way walking up first, a ranged one from where it stands, loaded or not; each the plain mean in
    the situation the AI reads where both stand, summed in roster order; a pinned enemy's at disadvantage, SUP-11:
    ``way_mean``'s last axis prone + 2 pinned, ``kernel_covering_lower.pinned_withdraw``). DOD-1, DOD-2.
    """
    config, way_mean, way_ft, way_melee = withdraw[0], withdraw[1], withdraw[2], withdraw[6]
    n = len(side)
    if hp[c] > max_hp[c] * config[c, kai.WD_BELOW]:
        return False
    ally = False
    for a in range(n):
        if a != c and side[a] == side[c] and vit[a] == ALIVE:
            ally = True
    if not ally:
        return False
    if (kind == kai.ATTACK or kind == kai.STEP or kind == kai.STRIDE) and drop >= 0.5:
        return False
    total = 0.0
    for e in range(n):
        if side[e] == side[c] or vit[e] != ALIVE:
            continue
        gap = _gap(e, c, px, py, dist)
        view = ai_view[px[e], py[e], px[c], py[c]]
        close = 2 if gap <= SQUARE_FT else 0
        lying = 1 if prone[e] == 1 else 0  # a prone enemy's turn is at disadvantage (C-PRO)
        if kcov.pinned(e, fx):
            lying += 2  # so is a pinned one's (SUP-11; only where Covering Fire is lowered does a pin happen)
        melee = -1  # its melee situation code (flanking), read once a melee way reaches
        ranged = -1  # its ranged one: "a hostile within 5 ft" of it (AMOD-7), c or one of c's allies up
        best = 0.0
        for w in range(way_ft.shape[1]):
            if way_ft[e, w] < 0 or gap > way_ft[e, w]:
                continue
            if way_melee[e, w] == 1:
                if melee < 0:
                    melee = _flanked(e, c, side, vit, prone, px, py, dist, flank_geo, flanker, threat_ft) + close + \
                        4 * view
                code = melee
            else:
                if ranged < 0:
                    hostile = 0
                    for o in range(n):
                        if side[o] != side[e] and vit[o] == ALIVE and _gap(e, o, px, py, dist) <= SQUARE_FT:
                            hostile = 1
                    ranged = hostile + close + 4 * view
                code = ranged
            if way_mean[e, c, w, code, lying] > best:
                best = way_mean[e, c, w, code, lying]
        total += best
    return bool(total >= max(1, hp[c] + temp[c]))


@_jit
def _dying_beside(c: int, side: I64, vit: I64, px: I64, py: I64, dist: I64, reach: int) -> int:
    """The first dying ally of ``c`` in roster order within ``reach`` (touch range), or -1 (``heal``'s order)."""
    for a in range(len(side)):
        if a != c and side[a] == side[c] and vit[a] == DYING and _gap(a, c, px, py, dist) <= reach:
            return a
    return -1


__all__ = ["ACTIONS", "ALIVE", "ATTACK", "DAMAGE", "DEAD", "DEATH_SAVE", "DYING", "INITIATIVE", "MOVED", "OUT_LEN",
           "STABILISED", "STEP_FACES", "STEP_HEAD", "play", "play_batch"]
