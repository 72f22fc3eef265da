"""Structural collapse (HAZC-1..6, C-BUR, G-18, G-30, X-22): the countdown, the fall, Buried and rubble.

* **Start** (HAZC-1, HAZC-2): :func:`start_collapse` marks the zone — every square within the radius
  (``hazards.collapse_radius_ft``, 20 ft, or the caller's) that is not a wall — and rolls the countdown
  (``collapse_countdown``, 1d4), announced in the log.
* **Countdown** (G-30): it ticks down at the end of each round with the other hazards; at 0 the
  ceiling comes down (HAZC-3). With ``hazards.collapse_trigger_round_ticks`` off the round it
  started in does not count (one more tick).
* **The fall** (HAZC-3): every creature with a square in the zone makes a Reflex save
  (``collapse_save_dc`` 15; no cover bonus and no reactions: nothing is aimed). The damage
  (``collapse_damage``, 4d10 bludgeoning) is rolled once for all. Failure: full damage and
  **Buried** (restrained, cannot breathe, G-18). Success: half damage and a free move of up to
  ``collapse_dodge_ft`` (5 ft) toward the edge of the zone (the creature's controller picks the
  square, or stays); it provokes nothing.
* **Aftermath** (HAZC-5): the zone becomes rubble, greater difficult terrain
  (:mod:`ashfall.families.movement.engine_terrain`).
* **Buried** (HAZC-6, G-18): 1d6 bludgeoning at the start of each of its turns
  (``conditions.buried_damage``) until dug out with 1 action, its own or an adjacent ally's, no
  check (HAZC-4, X-22: the Dig Out action). Holding its breath is the breath rules' business (UW-1).
"""

from __future__ import annotations

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.decisions import Decision, Option
from ashfall.engine.environment import Collapse
from ashfall.engine.harm import add, end_conditions
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import damage_rolled
from ashfall.families.hazards.engine_kit import (
    changed,
    creatures_in,
    hazards_on,
    hurt,
    new_id,
    parts_of,
    roll_rounds,
    save,
)
from ashfall.grid.areas import burst
from ashfall.grid.board import SQUARE_FT, Square, footprint, neighbours
from ashfall.rules.condition_durations import AppliedCondition, EndEvent, turn_start_damage
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage_ledger import roll_damage

HAZC_1, HAZC_2, HAZC_3, HAZC_4, HAZC_5, HAZC_6 = (rule(f"HAZC-{n}") for n in range(1, 7))
G_18, G_30 = rule("G-18"), rule("G-30")
COLLAPSE = "collapse"


def collapse_zone(state: EncounterState, centre: Square, radius_ft: int) -> tuple[Square, ...]:
    """The squares a collapse around ``centre`` covers: within the radius, on the map, not walls (HAZC-1)."""
    board = state.board
    squares = burst(centre, radius_ft)
    if board is not None:
        squares = frozenset(sq for sq in squares if board.in_bounds(sq) and not board.blocks_sight(sq))
    return tuple(sorted(squares))


def start_collapse(ctx: Context, centre: Square, radius_ft: int | None, rule_id: RuleId,
                   collapse_id: str | None = None, countdown: int | None = None) -> str:
    """Begin a structural collapse around ``centre`` (a support destroyed, CHN-9); returns its id.

    Args:
        ctx: The resolution context.
        centre: The destroyed element's square.
        radius_ft: The zone's radius (None: ``hazards.collapse_radius_ft``, HAZC-1).
        rule_id: What started it.
        collapse_id: An id to use (default a fresh one).
        countdown: Rounds before it comes down (None: roll ``hazards.collapse_countdown``, HAZC-2).
    """
    state = ctx.state
    if not hazards_on(state):
        return ""
    h = state.ruleset.hazards
    radius = h.collapse_radius_ft if radius_ft is None else radius_ft
    key = collapse_id or new_id(ctx, COLLAPSE)
    rounds = roll_rounds(ctx, h.collapse_countdown) if countdown is None else countdown
    if not h.collapse_trigger_round_ticks:
        rounds += 1  # G-30's alternative: the round it started in does not count
    changed(ctx, ev.CollapseChanged(key, Collapse(key, centre, radius, collapse_zone(state, centre, radius)), rule_id))
    ctx.emit(ev.CountdownChanged(key, rounds, "collapse", HAZC_2))
    return key


def collapse_round(ctx: Context) -> None:
    """End of round (G-30): every countdown ticks; a collapse at 0 comes down (HAZC-3)."""
    env = ctx.state.environment
    for key in sorted(env.collapses):
        left = env.countdowns.get(key, 0) - 1
        if left > 0:
            ctx.emit(ev.CountdownChanged(key, left, "collapse", G_30))
            continue
        ctx.emit(ev.CountdownChanged(key, None, "collapse", G_30))
        come_down(ctx, env.collapses[key])


def come_down(ctx: Context, collapse: Collapse) -> None:
    """HAZC-3: Reflex saves, 4d10 (half on a success), Buried on a failure, the dodge; then rubble (HAZC-5)."""
    state = ctx.state
    h = state.ruleset.hazards
    zone = frozenset(collapse.squares)
    caught = creatures_in(state, zone)
    saved = {c.id: save(ctx, c, Save.REFLEX, h.collapse_save_dc, HAZC_3, "collapse") for c in caught}
    if caught:
        parts = parts_of(h.collapse_damage, HAZC_3, "collapse")
        damage = roll_damage(parts, ctx.rng, ctx.ruleset, critical=False)
        ctx.emit(damage_rolled(f"hazard:{COLLAPSE}", collapse.id, damage))
        for c in caught:
            if c.health.is_dead:
                continue
            ok = saved[c.id]
            hurt(ctx, c.id, COLLAPSE, parts, divisor=ctx.ruleset.magic.save_half_divisor if ok else 1, rolled=damage)
            if not ok and not c.health.is_dead:
                add(ctx, c.id, AppliedCondition(Condition.BURIED, HAZC_3))
            elif ok and c.is_active:
                dodge(ctx, c, zone)
    changed(ctx, ev.RubbleAdded(tuple(sorted(zone)), HAZC_5))
    changed(ctx, ev.CollapseChanged(collapse.id, None, HAZC_3))


def _steps_out(zone: frozenset[Square], sq: Square) -> int:
    """Steps from ``sq`` to the nearest square outside the zone (0 when outside)."""
    if sq not in zone:
        return 0
    seen, frontier, steps = {sq}, [sq], 0
    while frontier:
        steps += 1
        nxt = []
        for s in frontier:
            for n in neighbours(s):
                if n not in zone:
                    return steps
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return steps


def dodge_squares(state: EncounterState, c: Combatant, zone: frozenset[Square]) -> list[Square]:
    """Where a creature that saved may move (HAZC-3): adjacent squares it can enter, nearer the edge, best first."""
    from ashfall.families.movement.moves import entry_cost

    here = c.position
    if here is None or state.board is None or state.ruleset.hazards.collapse_dodge_ft < SQUARE_FT:
        return []
    side = c.creature.size.squares

    def out(sq: Square) -> int:
        return max(_steps_out(zone, s) for s in footprint(sq, side))

    now = out(here)
    found = [sq for sq in neighbours(here)
             if out(sq) < now and isinstance(entry_cost(state, c, here, sq, 0, final=True), int)]
    return sorted(found, key=lambda sq: (out(sq), sq[1], sq[0]))


def dodge(ctx: Context, c: Combatant, zone: frozenset[Square]) -> None:
    """The free 5-ft move toward the edge that a successful save allows (HAZC-3)."""
    choices = dodge_squares(ctx.state, c, zone)
    if not choices or c.position is None:
        return
    decision = Decision(c.id, "collapse-dodge", f"{c.name} may move 5 ft toward the edge of the collapse",
                        tuple(Option(f"{x},{y}", f"move to ({x}, {y})", str(HAZC_3)) for x, y in choices), True,
                        str(HAZC_3))
    picked = ctx.decide(decision)
    if picked is None:
        return
    x, y = (int(v) for v in picked.split(","))
    ctx.emit(ev.Moved(c.id, c.position, (x, y), 0, "collapse-dodge", HAZC_3))


def buried_at_turn_start(ctx: Context, c: Combatant) -> None:
    """HAZC-6 / G-18: a buried creature takes 1d6 bludgeoning at the start of each of its turns."""
    if c.health.is_dead or not c.has(Condition.BURIED):
        return
    parts = turn_start_damage(tuple(a for a in c.conditions if a.condition is Condition.BURIED), ctx.ruleset)
    if parts:
        hurt(ctx, c.id, "buried", parts)


def dig_out(ctx: Context, target: str, rule_id: RuleId = HAZC_4) -> None:
    """End Buried (HAZC-4, G-18): no check."""
    end_conditions(ctx, target, EndEvent(EndTrigger.DUG_OUT), rule_id)


__all__ = ["COLLAPSE", "buried_at_turn_start", "collapse_round", "collapse_zone", "come_down", "dig_out",
           "dodge_squares", "start_collapse"]
