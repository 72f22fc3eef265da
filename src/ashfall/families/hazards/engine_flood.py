"""Flooding (HAZW-1..5, G-16, X-04, EX-7, EX-9): rising water, shallow and deep water, swimming, drains.

* **Level** (HAZW-1, X-04): a flood has a water level in feet; a square's depth is the level minus
  its elevation, so the water fills the lowest points first. :func:`start_flood` puts the first
  ``rise_ft`` of water in at once (the example's round 1 already has 1 ft, EX-7); the level rises by
  ``rise_ft`` (``hazards.flood_rise_ft``: 1 ft, X-04; the rule text says 5) at the end of each round,
  up to ``max_ft`` if the hazard has one.
* **Shallow water** (HAZW-2): ``shallow_water_ft``–3 ft is difficult terrain; **deep water**
  (``deep_water_ft``, 4 ft and more) is swum: ×2 movement without a swim speed, ×1 with one (X-03).
  Creatures with a fly speed hover above it (``fliers_above_water``, as the example's drones do).
* **Staying afloat** (HAZW-3, HAZW-4, G-16): a creature that starts its turn in deep water and has no
  swim speed makes an Athletics check (``swim_dc`` 12; heavy armor: disadvantage). Failure: it begins
  Drowning (its breath then runs out under the breath rules, UW-1, G-15). A Drowning creature's
  success ends it; so does leaving deep water (G-16).
* **Drains** (HAZW-5, EX-9): each open drain lowers every flood by its rate (``hazards.drain_ft``, 2 ft)
  at the end of each round, after the rise. Drains are opened with the Open Drain action (MIG check
  DC 12 with a tool, EX-9) or made by the GM / a destroyed floor (:func:`add_drain`); a hidden drain
  must first be found (Find Drain: Perception against its DC).
* **Water and fire** (HAZF-2, HAZF-4): squares the water covers put their fire out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ashfall.content.schema import ArmorCategory
from ashfall.core.modifiers import dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import Drain, Flood
from ashfall.engine.harm import add, end_conditions
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.hazards.engine_fire import extinguish
from ashfall.families.hazards.engine_kit import changed, creatures_in, hazards_on, new_id
from ashfall.grid.board import Square
from ashfall.rules.checks import ability_check
from ashfall.rules.condition_durations import AppliedCondition, EndEvent, drowning_escape_dc
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.dc import fixed_dc

HAZW_1, HAZW_2, HAZW_3, HAZW_4, HAZW_5 = (rule(f"HAZW-{n}") for n in range(1, 6))
HAZF_4, G_16 = rule("HAZF-4"), rule("G-16")
FLOOD = "flood"


def start_flood(ctx: Context, rate_ft: int | None, rule_id: RuleId, *, level_ft: int | None = None,
                max_ft: int = 0, squares: Iterable[Square] = (), flood_id: str | None = None) -> str:
    """Water starts coming in (a burst pipe, a spring, HAZW-1); returns the flood's id.

    Args:
        ctx: The resolution context.
        rate_ft: Feet it rises each round (None: ``hazards.flood_rise_ft``, X-04).
        rule_id: What started it.
        level_ft: The water level now (None: one round's rise).
        max_ft: The highest it rises (0: no limit).
        squares: The flooded area (empty: the whole map).
        flood_id: An id to use (default a fresh one).
    """
    state = ctx.state
    if not hazards_on(state):
        return ""
    rate = state.ruleset.hazards.flood_rise_ft if rate_ft is None else rate_ft
    key = flood_id or new_id(ctx, FLOOD)
    level = rate if level_ft is None else level_ft
    changed(ctx, ev.WaterChanged(key, Flood(key, level, rate, max_ft, tuple(sorted(set(squares)))), rule_id))
    after_water(ctx)
    return key


def add_drain(ctx: Context, at: Square, rule_id: RuleId = HAZW_5, rate_ft: int | None = None,
              drain_id: str | None = None) -> str:
    """An open drain appears (a destroyed floor section or wall, HAZW-5); returns its id."""
    rate = ctx.ruleset.hazards.drain_ft if rate_ft is None else rate_ft
    key = drain_id or new_id(ctx, "drain")
    changed(ctx, ev.DrainChanged(Drain(key, at, rate, open=True), rule_id))
    return key


def open_drain(ctx: Context, drain_id: str, rule_id: RuleId = HAZW_5) -> None:
    """Open a drain: water runs out through it from the end of this round (HAZW-5)."""
    drain = ctx.state.environment.drains[drain_id]
    if not drain.open:
        changed(ctx, ev.DrainChanged(replace(drain, open=True, found=True), rule_id))


def drained_ft(state: EncounterState) -> int:
    """Feet of water the open drains take away each round (HAZW-5)."""
    return sum(d.rate_ft for d in state.environment.drains.values() if d.open)


def flood_round(ctx: Context) -> None:
    """End of round (HAZ-0): each flood rises (HAZW-1) and the open drains lower it (HAZW-5)."""
    state = ctx.state
    if not state.environment.floods or not hazards_on(state):
        return
    drain = drained_ft(state)
    for key in sorted(state.environment.floods):
        flood = state.environment.floods[key]
        level = flood.level_ft + flood.rise_ft
        if flood.max_ft:
            level = min(level, flood.max_ft)
        level = max(level - drain, 0)
        if level != flood.level_ft:
            why = HAZW_5 if level < flood.level_ft else HAZW_1
            changed(ctx, ev.WaterChanged(key, replace(flood, level_ft=level), why))
    after_water(ctx)


def after_water(ctx: Context) -> None:
    """Water puts out the fire it covers (HAZF-4) and creatures no longer in deep water stop drowning (G-16)."""
    state = ctx.state
    env = state.environment
    wet = [sq for sq in env.fire if env.water_depth.get(sq, 0) >= state.ruleset.hazards.water_stops_fire]
    if wet:
        extinguish(ctx, wet, HAZF_4, "water")
    for c in list(state.combatants.values()):
        if c.has(Condition.DROWNING) and env.underwater is None and not in_deep_water(state, c):
            end_conditions(ctx, c.id, EndEvent(EndTrigger.SURFACES), G_16)


# ----- creatures in water -----


def depth_at(state: EncounterState, c: Combatant) -> int:
    """The deepest water in the creature's space (0 for a flier hovering above it, ``fliers_above_water``)."""
    depths = state.environment.water_depth
    if not depths or not c.space or (state.ruleset.hazards.fliers_above_water and c.creature.speeds.fly > 0):
        return 0
    return max(depths.get(sq, 0) for sq in c.space)


def in_deep_water(state: EncounterState, c: Combatant) -> bool:
    """Whether the creature is in water it must swim (HAZW-3)."""
    return depth_at(state, c) >= state.ruleset.hazards.deep_water_ft


def swim_at_turn_start(ctx: Context, c: Combatant) -> None:
    """HAZW-3 / HAZW-4 / G-16: the Athletics check to stay afloat (or to surface when drowning) in deep water."""
    state = ctx.state
    h = state.ruleset.hazards
    if c.health.is_dead or state.environment.underwater is not None or not in_deep_water(state, c):
        return
    if c.creature.speeds.swim > 0:
        return  # a swimmer moves through water without Athletics checks (1203)
    drowning = c.has(Condition.DROWNING)
    dc = drowning_escape_dc(state.ruleset) if drowning else fixed_dc(h.swim_dc, HAZW_3, "stay afloat")
    heavy = c.armor is not None and c.armor.category is ArmorCategory.HEAVY and h.swim_heavy_armor_disadvantage
    sources = (dis(HAZW_4, "heavy armor"),) if heavy else ()
    roller = ctx.roller(c.id, "check", dc.rule)
    result = ability_check(c.creature, Skill.ATHLETICS, dc, roller, state.ruleset, conditions=c.condition_set,
                           sources=sources)
    label = "Athletics: surface (drowning)" if drowning else "Athletics: stay afloat in deep water"
    ctx.emit(ev.CheckRolled(c.id, label, ev.RollRecord.of(result.roll), dc.total, result.success,
                            G_16 if drowning else HAZW_3))
    if drowning and result.success:
        end_conditions(ctx, c.id, EndEvent(EndTrigger.SURFACES), G_16)
    elif not drowning and not result.success:
        add(ctx, c.id, AppliedCondition(Condition.DROWNING, G_16))


def water_after_move(ctx: Context, c: Combatant) -> None:
    """Leaving deep water ends Drowning (G-16)."""
    if c.has(Condition.DROWNING) and ctx.state.environment.underwater is None and not in_deep_water(ctx.state, c):
        end_conditions(ctx, c.id, EndEvent(EndTrigger.SURFACES), G_16)


def wet_creatures(state: EncounterState) -> list[Combatant]:
    """Creatures standing in water (for conduction, EX-8 / X-18, which the chain-reaction rules decide)."""
    return [c for c in creatures_in(state, state.environment.water_depth) if depth_at(state, c) > 0]


__all__ = ["FLOOD", "add_drain", "after_water", "depth_at", "drained_ft", "flood_round", "in_deep_water",
           "open_drain", "start_flood", "swim_at_turn_start", "water_after_move", "wet_creatures"]
