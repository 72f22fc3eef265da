"""The compiled morale family: group checks after a drop, what a break does, and a cornered NPC's turn start (MOR).

It mirrors :mod:`ashfall.families.morale.engine` (and the cornered half of ``engine_fleeing``) in the fights the
kernel plays it in (:mod:`ashfall.sim.kernel_morale_lower` says which): scripted plans where nobody moves, and fights
on the move (the tactical AI's, scripted plans that walk) on a map without exits where nobody surrenders; no
Breaking Points, no rallies, no fear conditions. Every number and outcome comes from the lowered tables
(:class:`~ashfall.sim.kernel_morale_lower.MoraleTables`, filled by the rules' own functions); this module only
carries the logic between them:

* :func:`after_attack` runs after every attack: a group member or leader that dropped (killed, MOR-7) is one
  event. Per group, in roster order of its first member, the event's triggers (First Blood, Leader Down, Half
  Strength: MOR-7..9, the lowered ``triggers_for``) call for one check (MOR-11, MOR-12): a d20 for the group's
  shared Will (MOR-4: the value most checkers have, the lower on a tie) against the lowered DC (MOR-14, MOR-15,
  G-02, outnumbered as ``is_outnumbered``), its outcome (G-03) worsening each checker's status (``next_status``,
  MOR-20). A newly broken NPC does what its type does (MOR-24): an animal draws its random direction (one die of
  eight faces), a soldier surrenders and leaves the fight (MOR-23).
* :func:`turn_start` is the start-of-turn hook on a map: a falling-back or broken NPC on an exit square flees the
  battlefield (MOR-20); one that cannot reach any exit (enemies up bar their squares, allies do not: the lowered
  squares it may enter, searched as ``can_reach_exit`` searches them) is cornered (MOR-19, MOR-23: ``cornered``
  and ``cornered_behaviour``).
* :func:`may_act` says whether a broken NPC still attacks (a charging zealot does; the rest end their turn,
  MOR-21), :func:`reacts` whether it still takes reactions (a broken one does not, MOR-22), :func:`holds` whether
  it holds (the only status the kernel plays an AI turn in).

A creature that surrendered or fled takes vitality code :data:`LEFT` (out of the fight, never targeted, yet an
All-Out Attack's later attacks still land on one that surrendered, as on a creature that is not dead).
"""

from __future__ import annotations

import numpy as np

from ashfall.kernel.compiled import I64
from ashfall.kernel.compiled import jit as _jit
from ashfall.kernel.rng import roll

MoraleTab = tuple[I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64,
                  I64, I64, I64]
"""The lowered morale tables and the fight's morale state, in the order of
:meth:`ashfall.sim.kernel_morale_lower.MoraleTables.tab`."""

LEFT = 4
"""The vitality code of a creature that left the fight by surrendering (MOR-23): it neither acts nor holds its side."""
DEAD = 3
"""``ashfall.kernel.fight.DEAD`` (the same vitality code)."""
ALIVE = 0
"""``ashfall.kernel.fight.ALIVE``."""
MORALE_STEP = 20
"""The step kind of a morale check (column 0 of a step row; far from ``ashfall.kernel.fight``'s own kinds)."""
# status codes: ``Status`` in its order (HOLD, FALL_BACK, BROKEN, ROUTED, SURRENDERED)
HOLD, FALL_BACK, BROKEN, ROUTED, SURRENDERED = 0, 1, 2, 3, 4
# ``conf`` slots: morale on, on a map (fleeing NPCs leave by an exit or are cornered), the CHARGE style's code, the
# AI's broken NPCs Stride toward an exit (exits on the move, :mod:`ashfall.kernel.flight`)
CONF_ON, CONF_MAP, CONF_CHARGE, CONF_FLEE = 0, 1, 2, 3
# ``style_rule`` columns: sides of the die a breaking NPC rolls (0: none), it surrenders at once
SR_DRAW, SR_SURRENDERS = 0, 1
# ``acts`` columns: it still attacks (MOR-21), it still takes reactions (MOR-22)
ACT_ATTACKS, ACT_REACTS = 0, 1
# ``state`` columns: status, break style (-1: none), already counted down, fled (MOR-20), the reaction it would have
# but for morale's veto (MOR-22: back when rallied, G-04)
ST_STATUS, ST_STYLE, ST_DOWN, ST_FLED, ST_HAD = 0, 1, 2, 3, 4
# ``gstate`` columns: casualties so far, First Blood done, the group's status, the DC it last failed (an index into
# the lowered DCs, -1: none), its successful rallies (MOR-26)
GS_CASUALTIES, GS_FIRST_BLOOD, GS_STATUS, GS_DC, GS_RALLIES = 0, 1, 2, 3, 4
# ``rally_rules``: the Rally's action cost, the successful rallies a group may have (G-04, MOR-26)
RR_COST, RR_MAX = 0, 1
RALLY_LABEL = -40
"""The action label of a Rally (G-04) in a step row (the lowered ``rally_name`` names it)."""
HOLD_OUTCOME = 0
"""The check outcome code of a check passed (``Outcome.HOLD``, the first of ``kernel_morale_lower.OUTCOMES``)."""
NEVER_GIVES_UP = -2
"""``corner_style``: a broken NPC of that style is never cornered into giving up (a charging zealot, MOR-24)."""


@_jit
def _record_check(steps: I64, at: int, record: bool, actor: int, g: int, face: int, head: int) -> int:
    """A morale check's one d20 as a step (``MORALE_STEP``: the roller, or -1 for a group's; the group; the face)."""
    if not record:
        return at
    if at < 0 or at >= steps.shape[0]:
        return -1
    steps[at, 0] = MORALE_STEP
    steps[at, 1] = actor
    steps[at, 2] = -1
    steps[at, 3] = g
    steps[at, 4] = 1
    steps[at, head] = face
    return at + 1


@_jit
def reset(mor: MoraleTab) -> None:
    """A fresh fight: every NPC holds (MOR-20), no casualties, no First Blood."""
    state, gstate = mor[13], mor[14]
    for i in range(state.shape[0]):
        state[i, ST_STATUS] = HOLD
        state[i, ST_STYLE] = -1
        state[i, ST_DOWN] = 0
        state[i, ST_FLED] = 0
        state[i, ST_HAD] = 1
    for g in range(gstate.shape[0]):
        gstate[g, GS_CASUALTIES] = 0
        gstate[g, GS_FIRST_BLOOD] = 0
        gstate[g, GS_STATUS] = HOLD
        gstate[g, GS_DC] = -1
        gstate[g, GS_RALLIES] = 0


@_jit
def may_act(mor: MoraleTab, c: int) -> bool:
    """Whether its morale lets ``c`` attack this turn (``behaviour(...).may_attack``: not broken, MOR-21)."""
    conf, acts, state = mor[0], mor[9], mor[13]
    if conf[CONF_ON] == 0:
        return True
    return bool(acts[state[c, ST_STATUS], state[c, ST_STYLE] + 1, ACT_ATTACKS] == 1)


@_jit
def _breaks(mt: I64, mor: MoraleTab, m: int, vit: I64) -> None:
    """A newly broken NPC acts by its type (MOR-24): its style, an animal's direction die, a soldier's surrender."""
    style, style_rule, state = mor[7], mor[8], mor[13]
    s = style[m]
    state[m, ST_STYLE] = s
    if style_rule[s, SR_DRAW] > 0:
        roll(mt, style_rule[s, SR_DRAW])  # the direction it flees in: logged, not a step
    if style_rule[s, SR_SURRENDERS] == 1:
        state[m, ST_STATUS] = SURRENDERED
        vit[m] = LEFT


@_jit
def after_attack(mt: I64, mor: MoraleTab, side: I64, vit: I64, react: I64, record: bool, steps: I64, at: int,
                 head: int) -> int:
    """The morale event of one attack, if it dropped a group member or a leader (MOR-7..12); returns ``at``.

    A morale check is recorded as a step (:data:`MORALE_STEP`, no actor: the group rolls, its face). A member it
    leaves broken loses its reaction (``react`` 0: a broken NPC makes none, MOR-22).
    """
    conf, group, leader, will_idx, trig, outcome, nxt = mor[0], mor[1], mor[2], mor[3], mor[4], mor[5], mor[6]
    outn, state, gstate = mor[12], mor[13], mor[14]
    if conf[CONF_ON] == 0:
        return at
    n = len(side)
    any_new = False
    for i in range(n):
        if (group[i] >= 0 or leader[i] == 1) and state[i, ST_DOWN] == 0 and vit[i] == DEAD:
            any_new = True
    if not any_new:
        return at
    newly = np.zeros(n, np.bool_)  # which dropped now
    for i in range(n):
        if (group[i] >= 0 or leader[i] == 1) and state[i, ST_DOWN] == 0 and vit[i] == DEAD:
            state[i, ST_DOWN] = 1
            newly[i] = True
    wills = outcome.shape[0]
    counts = np.zeros(max(1, wills), np.int64)
    olds = np.zeros(n, np.int64)
    was = np.zeros(n, np.bool_)  # it took reactions before this check
    for g in range(gstate.shape[0]):
        first = -1
        size = 0
        new = 0
        for i in range(n):
            if group[i] == g:
                if first < 0:
                    first = i
                size += 1
                if newly[i]:
                    new += 1
        g_side = side[first]
        leader_down = 0
        for i in range(n):
            if newly[i] and leader[i] == 1 and side[i] == g_side:
                leader_down = 1
        before = gstate[g, GS_CASUALTIES]
        mask = trig[g, before, new, leader_down, gstate[g, GS_FIRST_BLOOD]]
        if new > 0:
            gstate[g, GS_CASUALTIES] = before + new
            gstate[g, GS_FIRST_BLOOD] = 1
        checkers = 0
        for w in range(wills):
            counts[w] = 0
        for i in range(n):
            if group[i] == g and vit[i] == ALIVE and state[i, ST_STATUS] <= FALL_BACK:
                checkers += 1
                counts[will_idx[i]] += 1
        if mask == 0 or checkers == 0:
            continue
        shared = 0  # the Will most checkers have; the lower (earlier: sorted) on a tie (MOR-4)
        for w in range(wills):
            if counts[w] > counts[shared]:
                shared = w
        own = 0
        others = 0
        for i in range(n):
            if vit[i] == ALIVE:
                if side[i] == g_side:
                    own += 1
                else:
                    others += 1
        face = roll(mt, 20)
        at = _record_check(steps, at, record, -1, g, face, head)
        against = outn[own, others]
        result = outcome[shared, mask, against, face - 1]
        table = mor[21] if gstate[g, GS_RALLIES] > 0 else nxt  # failing after a rally routs (MOR-26)
        gstate[g, GS_STATUS] = table[gstate[g, GS_STATUS], result]  # the group's record (``after_check``)
        if result != HOLD_OUTCOME:
            gstate[g, GS_DC] = mor[20][mask, against]  # the DC a rally must meet (G-04)
        for i in range(n):  # every member still fighting takes the outcome (G-03, MOR-20) ...
            if group[i] == g and vit[i] == ALIVE:
                old = state[i, ST_STATUS]
                was[i] = reacts(mor, i)
                state[i, ST_STATUS] = table[old, result]
                olds[i] = old
        for i in range(n):  # ... then each newly broken one acts by its type, in roster order (MOR-24)
            if group[i] == g and vit[i] == ALIVE:
                new_status = state[i, ST_STATUS]
                if new_status in (BROKEN, ROUTED) and olds[i] not in (BROKEN, ROUTED):
                    _breaks(mt, mor, i, vit)
                if was[i] and not reacts(mor, i):  # vetoed now (MOR-22): a rally gives back one not spent
                    state[i, ST_HAD] = react[i]
                    react[i] = 0
    return at


@_jit
def refresh_reaction(mor: MoraleTab, c: int, react: I64) -> None:
    """``c``'s turn starts: its reaction is back (AE-2, RX-1), unless its morale vetoes it (MOR-22) for now."""
    if reacts(mor, c):
        react[c] = 1
    else:
        react[c] = 0
        mor[13][c, ST_HAD] = 1


@_jit
def rally_group(mor: MoraleTab, c: int, side: I64, left: int) -> int:
    """The group ``c`` (a leader of the AI's) rallies now, or -1 (``_rally_candidates`` then ``_rally_check``).

    The first group of its side, in roster order, whose record falls back or is broken after a failed check, not
    rallied as often as the ruleset allows (MOR-26); ``left`` actions must pay for it (G-04).
    """
    group, gstate, rally, rules = mor[1], mor[14], mor[18], mor[22]
    if mor[0][CONF_ON] == 0 or rally[c] < 0 or left < rules[RR_COST]:
        return -1
    for g in range(gstate.shape[0]):
        first = -1
        for i in range(len(group)):
            if group[i] == g:
                first = i
                break
        if first < 0 or side[first] != side[c]:
            continue
        status = gstate[g, GS_STATUS]
        if status in (FALL_BACK, BROKEN) and gstate[g, GS_DC] >= 0 and gstate[g, GS_RALLIES] < rules[RR_MAX]:
            return g
    return -1


@_jit
def rally(mt: I64, mor: MoraleTab, c: int, g: int, vit: I64, react: I64, record: bool, steps: I64, at: int,
          head: int) -> int:
    """``c`` rallies group ``g``: its morale check against the DC the group failed (G-04); returns ``at``.

    The check is a step (:data:`MORALE_STEP`, the leader its actor). On a success every member still fighting that falls
    back or is broken holds again, its break style cleared and its reaction back unless spent (MOR-22), and the group
    holds, rallied once more (MOR-26: its next failure routs).
    """
    group, state, gstate, rally_ok = mor[1], mor[13], mor[14], mor[19]
    face = roll(mt, 20)
    at = _record_check(steps, at, record, c, g, face, head)  # the leader rolls (a group's own check has no actor)
    if rally_ok[mor[18][c], gstate[g, GS_DC], face - 1] == 0:
        return at
    for i in range(len(group)):
        if group[i] == g and vit[i] == ALIVE and (state[i, ST_STATUS] == FALL_BACK or state[i, ST_STATUS] == BROKEN):
            state[i, ST_STATUS] = HOLD
            state[i, ST_STYLE] = -1
            react[i] = state[i, ST_HAD]
    gstate[g, GS_STATUS] = HOLD
    gstate[g, GS_RALLIES] += 1
    return at


@_jit
def reacts(mor: MoraleTab, c: int) -> bool:
    """Whether its morale lets ``c`` take reactions (``behaviour(...).reactions``: not broken, MOR-22, MOR-23)."""
    conf, acts, state = mor[0], mor[9], mor[13]
    return bool(conf[CONF_ON] == 0 or acts[state[c, ST_STATUS], state[c, ST_STYLE] + 1, ACT_REACTS] == 1)


@_jit
def holds(mor: MoraleTab, c: int) -> bool:
    """Whether ``c`` holds (MOR-20): the only status the kernel plays an AI turn in (else it stops the fight)."""
    conf, state = mor[0], mor[13]
    return bool(conf[CONF_ON] == 0 or state[c, ST_STATUS] == HOLD)


@_jit
def _reaches_exit(mor: MoraleTab, c: int, side: I64, vit: I64, pos_x: I64, pos_y: I64) -> bool:
    """Whether ``c`` could reach an exit at all (``can_reach_exit``): its enemies still up bar their squares."""
    exit_sq, enter_ok = mor[15], mor[16]
    width, height = enter_ok.shape[0], enter_ok.shape[1]
    barred = np.zeros((width, height), np.int64)
    for o in range(len(side)):
        if side[o] != side[c] and (vit[o] == ALIVE or vit[o] == LEFT):  # ``is_active``: up, surrendered too
            barred[pos_x[o], pos_y[o]] = 1
    seen = np.zeros((width, height), np.int64)
    todo_x = np.zeros(width * height, np.int64)
    todo_y = np.zeros(width * height, np.int64)
    todo_x[0], todo_y[0] = pos_x[c], pos_y[c]
    seen[pos_x[c], pos_y[c]] = 1
    n = 1
    while n > 0:
        n -= 1
        x, y = todo_x[n], todo_y[n]
        if exit_sq[x, y] == 1:
            return True
        for dx in range(-1, 2):
            for dy in range(-1, 2):
                nx, ny = x + dx, y + dy
                if (dx == 0 and dy == 0) or nx < 0 or ny < 0 or nx >= width or ny >= height:
                    continue
                if enter_ok[nx, ny] == 0 or barred[nx, ny] == 1 or seen[nx, ny] == 1:
                    continue
                seen[nx, ny] = 1
                todo_x[n], todo_y[n] = nx, ny
                n += 1
    return False


@_jit
def _fleeing(mor: MoraleTab, c: int, vit: I64) -> bool:
    """Whether ``c`` is a falling-back or broken NPC still on the battlefield that flees (``_fleeing``, MOR-20)."""
    conf, group, state = mor[0], mor[1], mor[13]
    if conf[CONF_ON] == 0 or conf[CONF_MAP] == 0 or group[c] < 0 or vit[c] != ALIVE:
        return False
    old = state[c, ST_STATUS]
    return bool(old in (FALL_BACK, BROKEN) and state[c, ST_STYLE] != conf[CONF_CHARGE])  # a zealot never flees


@_jit
def stepped(mor: MoraleTab, c: int, x: int, y: int, vit: I64) -> None:
    """``c`` entered ``(x, y)``: a fleeing NPC that steps onto an exit has fled (MOR-20, the movement hook).

    It is out of the fight (vitality :data:`LEFT`) yet still walks the rest of its Stride, as the engine's walk goes
    on with a creature that is not down.
    """
    if _fleeing(mor, c, vit) and mor[15][x, y] == 1:
        mor[13][c, ST_FLED] = 1
        vit[c] = LEFT


@_jit
def flees(mor: MoraleTab, c: int) -> bool:
    """Whether the AI's broken ``c`` Strides toward an exit on its turn (MOR-21; else it stands where it is)."""
    return bool(mor[0][CONF_FLEE] == 1)


@_jit
def turn_start(mor: MoraleTab, c: int, side: I64, vit: I64, pos_x: I64, pos_y: I64) -> None:
    """A falling-back or broken NPC on an exit flees (MOR-20); one with no exit to reach is cornered (MOR-23)."""
    corner, corner_style, state, exit_sq = mor[10], mor[11], mor[13], mor[15]
    if not _fleeing(mor, c, vit):
        return
    old = state[c, ST_STATUS]
    style = state[c, ST_STYLE]
    if exit_sq[pos_x[c], pos_y[c]] == 1:
        state[c, ST_FLED] = 1  # it left the battlefield (MOR-20)
        vit[c] = LEFT
        return
    if _reaches_exit(mor, c, side, vit, pos_x, pos_y):
        return
    give_up = corner_style[style + 1]
    if old == BROKEN and give_up == NEVER_GIVES_UP:
        return
    new = corner[old]
    state[c, ST_STATUS] = new
    if new == SURRENDERED:
        if old == BROKEN and give_up >= 0:
            state[c, ST_STYLE] = give_up  # a cornered animal cowers (MOR-23)
        vit[c] = LEFT


__all__ = ["LEFT", "MORALE_STEP", "RALLY_LABEL", "MoraleTab", "after_attack", "flees", "holds", "may_act", "rally",
           "rally_group", "reacts", "refresh_reaction", "reset", "stepped", "turn_start"]
