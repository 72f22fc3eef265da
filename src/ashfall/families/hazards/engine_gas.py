"""Toxic gas (HAZG-1..6, G-29): clouds that fill a radius, poison those inside, grow, disperse or linger.

* **Release** (HAZG-1): :func:`release_gas` fills ``hazards.gas_radius_ft`` (10 ft) around the source.
  The gas flows: the radius is counted in 5-ft steps (a diagonal is 5 ft, G-37) through squares that
  are not walls, never squeezing between two walls at a corner, so it fills rooms and goes round
  corners but not through walls.
* **Exposure** (HAZG-2): a creature in the gas at the start of its turn makes a Fortitude save
  (``gas_save_dc`` 13). Failure: ``gas_damage`` (1d6 poison) and Poisoned; success: half damage, not
  poisoned. The poisoning lasts until the creature ends a turn outside the gas (G-29,
  ``gas_poison_ends``; the alternative ends it when it starts a turn outside).
* **End of round** (HAZ-0): strong wind (``environment.wind``) clears a cloud after
  ``gas_wind_rounds`` (1) (HAZG-5); a sealed cloud counts down its lingering rounds (1d4, HAZG-6);
  an enclosed cloud grows by ``gas_growth_ft`` (10 ft) (HAZG-3); a cloud in open air clears after
  ``gas_open_rounds`` (3) unless its source keeps producing (HAZG-4).
* **Sealing** (HAZG-6): :func:`seal_gas` stops the growth; what was released lingers 1d4 rounds.
"""

from __future__ import annotations

from dataclasses import replace

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import GasCloud
from ashfall.engine.harm import add
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.hazards.engine_kit import (
    changed,
    hazards_on,
    hurt,
    new_id,
    parts_of,
    roll_rounds,
    save,
)
from ashfall.grid.board import SQUARE_FT, Board, Square, neighbours
from ashfall.rules.condition_durations import AppliedCondition, Duration, DurationKind
from ashfall.ruleset.sections import GasPoisonEnds

HAZG_1, HAZG_2, HAZG_3, HAZG_4, HAZG_5, HAZG_6 = (rule(f"HAZG-{n}") for n in range(1, 7))
G_29 = rule("G-29")
GAS = "gas"
IN_GAS = "in-gas"
"""The WHILE predicate of gas poisoning (it ends when the creature is out of the gas at the end of a turn)."""


def spread_squares(board: Board | None, centre: Square, radius_ft: int) -> tuple[Square, ...]:
    """The squares gas from ``centre`` fills within ``radius_ft``, flowing around walls (HAZG-1, HAZG-3)."""
    if board is None:
        return (centre,)
    reached = {centre}
    frontier = [centre]
    for _ in range(radius_ft // SQUARE_FT):
        nxt: list[Square] = []
        for sq in frontier:
            for n in neighbours(sq):
                if n in reached or not board.in_bounds(n) or board.blocks_sight(n):
                    continue
                dx, dy = n[0] - sq[0], n[1] - sq[1]
                if dx and dy and board.blocks_sight((sq[0] + dx, sq[1])) and board.blocks_sight((sq[0], sq[1] + dy)):
                    continue  # between two walls meeting at a corner (G-37)
                reached.add(n)
                nxt.append(n)
        frontier = nxt
    return tuple(sorted(reached))


def release_gas(ctx: Context, centre: Square, rule_id: RuleId, enclosed: bool | None = None, *,
                radius_ft: int | None = None, producing: bool = False, cloud_id: str | None = None) -> str:
    """Release toxic gas at ``centre`` (a ruptured container, a vent, HAZG-1); returns the cloud id.

    Args:
        ctx: The resolution context.
        centre: The source's square.
        rule_id: What released it.
        enclosed: An enclosed space (it grows, HAZG-3); None takes the map's ``environment.enclosed``.
        radius_ft: The starting radius (default ``hazards.gas_radius_ft``).
        producing: The source keeps producing gas (open-air gas then never disperses by itself, HAZG-4).
        cloud_id: An id to use (default a fresh one).
    """
    state = ctx.state
    if not hazards_on(state):
        return ""
    radius = state.ruleset.hazards.gas_radius_ft if radius_ft is None else radius_ft
    key = cloud_id or new_id(ctx, GAS)
    closed = state.environment.enclosed if enclosed is None else enclosed
    cloud = GasCloud(key, centre, radius, spread_squares(state.board, centre, radius), closed, producing)
    changed(ctx, ev.GasChanged(key, cloud, rule_id))
    return key


def seal_gas(ctx: Context, cloud_id: str, rule_id: RuleId = HAZG_6) -> None:
    """Seal a cloud's source: it stops growing and producing; the gas lingers ``hazards.gas_linger`` rounds (HAZG-6)."""
    cloud = ctx.state.environment.gas_clouds.get(cloud_id)
    if cloud is None or cloud.sealed:
        return
    linger = roll_rounds(ctx, ctx.ruleset.hazards.gas_linger)
    changed(ctx, ev.GasChanged(cloud_id, replace(cloud, sealed=True, producing=False, linger=linger), rule_id))


def disperse(ctx: Context, cloud_id: str, rule_id: RuleId) -> None:
    """Clear a cloud at once (wind HAZG-5, dispersal HAZG-4, lingering over HAZG-6)."""
    if cloud_id in ctx.state.environment.gas_clouds:
        changed(ctx, ev.GasChanged(cloud_id, None, rule_id))


def gas_round(ctx: Context) -> None:
    """End of round (HAZ-0): each cloud clears in the wind, lingers, grows or disperses."""
    state = ctx.state
    if not hazards_on(state):
        return
    h = state.ruleset.hazards
    for key in sorted(state.environment.gas_clouds):
        cloud = state.environment.gas_clouds[key]
        rounds = cloud.rounds + 1
        if state.environment.wind and rounds >= h.gas_wind_rounds:
            disperse(ctx, key, HAZG_5)
        elif cloud.sealed:
            if cloud.linger - 1 <= 0:
                disperse(ctx, key, HAZG_6)
            else:
                changed(ctx, ev.GasChanged(key, replace(cloud, rounds=rounds, linger=cloud.linger - 1), HAZG_6))
        elif cloud.enclosed:
            radius = cloud.radius_ft + h.gas_growth_ft
            grown = replace(cloud, rounds=rounds, radius_ft=radius,
                            squares=spread_squares(state.board, cloud.centre, radius))
            changed(ctx, ev.GasChanged(key, grown, HAZG_3))
        elif not cloud.producing and rounds >= h.gas_open_rounds:
            disperse(ctx, key, HAZG_4)
        else:
            changed(ctx, ev.GasChanged(key, replace(cloud, rounds=rounds), HAZG_4))


# ----- exposure -----


def in_gas(state: EncounterState, c: Combatant) -> bool:
    """Whether a square of the creature's space is in gas."""
    gas = state.environment.gas
    return bool(gas) and any(sq in gas for sq in c.space)


def _gas_poisoning(c: Combatant) -> tuple[AppliedCondition, ...]:
    return tuple(a for a in c.conditions if a.condition is Condition.POISONED
                 and a.duration.kind is DurationKind.WHILE and a.duration.predicate == IN_GAS)


def gas_at_turn_start(ctx: Context, c: Combatant) -> None:
    """HAZG-2: the Fortitude save of a creature starting its turn in gas (and G-29's alternative ending)."""
    state = ctx.state
    h = state.ruleset.hazards
    if not in_gas(state, c):
        if h.gas_poison_ends is GasPoisonEnds.START_TURN_OUTSIDE:
            _end_poisoning(ctx, c)
        return
    if c.health.is_dead:
        return
    saved = save(ctx, c, Save.FORTITUDE, h.gas_save_dc, HAZG_2, "toxic gas")
    if not saved:
        add(ctx, c.id, AppliedCondition(Condition.POISONED, HAZG_2, None, Duration.while_(IN_GAS)))
    parts = parts_of(h.gas_damage, HAZG_2, "toxic gas")
    hurt(ctx, c.id, GAS, parts, divisor=ctx.ruleset.magic.save_half_divisor if saved else 1)


def gas_at_turn_end(ctx: Context, c: Combatant) -> None:
    """G-29: gas poisoning ends when the creature ends a turn outside the gas."""
    if ctx.ruleset.hazards.gas_poison_ends is GasPoisonEnds.END_TURN_OUTSIDE and not in_gas(ctx.state, c):
        _end_poisoning(ctx, c)


def _end_poisoning(ctx: Context, c: Combatant) -> None:
    for applied in _gas_poisoning(c):
        ctx.emit(ev.ConditionRemoved(c.id, applied, G_29))


__all__ = ["GAS", "IN_GAS", "disperse", "gas_at_turn_end", "gas_at_turn_start", "gas_round", "in_gas",
           "release_gas", "seal_gas", "spread_squares"]
