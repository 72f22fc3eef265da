"""Spreading hazards (HAZ-0): the public API other layers call, hazardous terrain, and when hazards act.

The API (each takes the resolution context and the rule that set it off):

* :func:`ignite` / :func:`extinguish` — fire (:mod:`.engine_fire`, HAZF); :func:`suppress` — a suppression
  system's whole area (HAZF-4);
* :func:`release_gas` / :func:`seal_gas` — toxic gas (:mod:`.engine_gas`, HAZG);
* :func:`start_collapse` / :func:`dig_out` — structural collapse (:mod:`.engine_collapse`, HAZC, C-BUR);
* :func:`start_flood` / :func:`add_drain` / :func:`open_drain` — flooding (:mod:`.engine_flood`, HAZW).

**When hazards act.** At the end of each round, after every creature has acted (HAZ-0), the
end-of-round hooks run in the fixed order ``turns.END_OF_ROUND_ORDER``: ``chains`` (pending chain
reactions, the objects layer), ``fire``, ``gas``, ``collapse``, ``flood``. At the start of each turn
(after its boundary) the creature suffers, in this order: a burning square (HAZF-1), hazardous
terrain (MOV-6), gas (HAZG-2), being buried (HAZC-6), deep water (HAZW-3). At the end of its turn gas
poisoning may end (G-29). After each step of movement: entering a burning square (HAZF-1) or
hazardous terrain (MOV-6), leaving deep water (G-16) — that hook lives in
:mod:`ashfall.families.hazards.moves` with the hazard actions.

**Hazardous terrain** (MOV-6, G-29): a square of ``environment.hazard_terrain`` deals
``hazards.terrain_damage`` (1d6) of its type to a creature that enters it or starts its turn there, at
most once per turn (as fire, G-51).
"""

from __future__ import annotations

from collections.abc import Iterable

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.hazards.engine_collapse import buried_at_turn_start, collapse_round, dig_out, start_collapse
from ashfall.families.hazards.engine_fire import (
    extinguish,
    fire_at_turn_start,
    fire_on_entering,
    fire_round,
    ignite,
)
from ashfall.families.hazards.engine_flood import (
    add_drain,
    flood_round,
    in_deep_water,
    open_drain,
    start_flood,
    swim_at_turn_start,
    water_after_move,
)
from ashfall.families.hazards.engine_gas import gas_at_turn_end, gas_at_turn_start, gas_round, release_gas, seal_gas
from ashfall.families.hazards.engine_kit import hazards_on, hurt, once_this_turn, parts_of, turn_of
from ashfall.grid.board import Square, footprint

MOV_6, G_29, HAZF_4 = rule("MOV-6"), rule("G-29"), rule("HAZF-4")
TERRAIN = "terrain"


def suppress(ctx: Context, system: str | Iterable[Square], rule_id: RuleId = HAZF_4) -> tuple[Square, ...]:
    """A fire-suppression system (by id) or a large water source (an area) puts out all fire in its area (HAZF-4)."""
    area = ctx.state.environment.suppressors[system].squares if isinstance(system, str) else tuple(system)
    return extinguish(ctx, area, rule_id, "suppression")


# ----- hazardous terrain (MOV-6, G-29) -----


def _terrain_hurt(ctx: Context, c: Combatant, squares: Iterable[Square], whose: str) -> None:
    kinds = sorted({ctx.state.environment.hazard_terrain[sq] for sq in squares
                    if sq in ctx.state.environment.hazard_terrain})
    if not kinds or c.health.is_dead or not once_this_turn(ctx, TERRAIN, c.id, whose, MOV_6):
        return
    text = ctx.ruleset.hazards.terrain_damage
    parts = tuple(p for k in kinds for p in parts_of(text, G_29, f"hazardous terrain ({k})", DamageType.parse(k)))
    hurt(ctx, c.id, TERRAIN, parts)


# ----- when hazards act -----


def _start_of_turn(ctx: Context, cid: str) -> None:
    state = ctx.state
    if not hazards_on(state):
        return
    c = state.get(cid)
    if not c.space or c.health.is_dead:
        return
    fire_at_turn_start(ctx, c)
    if state.environment.hazard_terrain:
        _terrain_hurt(ctx, c, c.space, cid)
    gas_at_turn_start(ctx, c)
    buried_at_turn_start(ctx, c)
    swim_at_turn_start(ctx, c)


def _end_of_turn(ctx: Context, cid: str) -> None:
    if hazards_on(ctx.state):
        gas_at_turn_end(ctx, ctx.state.get(cid))


def after_step(ctx: Context, cid: str, frm: Square | None, to: Square | None) -> None:
    """After one step of movement: the squares newly entered burn (HAZF-1) or hurt (MOV-6); deep water left (G-16)."""
    state = ctx.state
    if to is None or frm is None or not hazards_on(state):
        return
    c = state.get(cid)
    side = c.creature.size.squares
    entered = [sq for sq in footprint(to, side) if sq not in set(footprint(frm, side))]
    whose = turn_of(state, cid)
    fire_on_entering(ctx, c, entered, whose)
    if state.environment.hazard_terrain:
        _terrain_hurt(ctx, c, entered, whose)
    water_after_move(ctx, c)


def dangerous(state: EncounterState, sq: Square) -> bool:
    """Whether standing in ``sq`` hurts or threatens: fire, gas, hazardous terrain or a pending collapse."""
    env = state.environment
    return (sq in env.fire or sq in env.gas or sq in env.hazard_terrain
            or any(sq in col.squares for col in env.collapses.values()))


def install(book: RulebookDraft) -> None:
    """Add the spreading hazards' end-of-round steps (HAZ-0) and their start- and end-of-turn effects."""
    for name, hook in (("fire", fire_round), ("gas", gas_round), ("collapse", collapse_round),
                       ("flood", flood_round)):
        book.end_of_round(name, hook)
    book.start_of_turn("hazards", _start_of_turn)
    book.end_of_turn("hazards", _end_of_turn)

__all__ = ["add_drain", "after_step", "dangerous", "dig_out", "extinguish", "ignite", "in_deep_water", "open_drain",
           "release_gas", "seal_gas", "start_collapse", "start_flood", "suppress"]
