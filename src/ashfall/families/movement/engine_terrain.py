"""What the hazard layers do to movement costs: rubble (HAZC-5) and water (HAZW-2, HAZW-3, X-03).

:func:`hazard_multiplier` is read by the movement cost of every step (``moves.movement.step_cost``):

* collapse rubble is greater difficult terrain, ×3 (HAZC-5, MOV-4);
* shallow water (``hazards.shallow_water_ft`` up to deep) is difficult terrain, ×2 (HAZW-2, MOV-3);
* deep water (``hazards.deep_water_ft`` and more) is swum: ×``turn.water_cost`` (2) without a swim speed,
  ×1 with one (X-03);
* a creature with a fly speed hovers above water (``hazards.fliers_above_water``).

The strongest multiplier wins (they never stack with each other or with the map's own terrain).
"""

from __future__ import annotations

from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import Square, Terrain

_RUBBLE = Terrain.GREATER_DIFFICULT.multiplier or 1
_SHALLOW = Terrain.DIFFICULT.multiplier or 1


def hazard_multiplier(state: EncounterState, sq: Square, mover: Combatant | None = None) -> int:
    """The movement multiplier the hazard layers put on entering ``sq`` (1 when none)."""
    env = state.environment
    mult = _RUBBLE if sq in env.rubble else 1
    depth = env.water_depth.get(sq, 0) if env.water_depth else 0
    if not depth:
        return mult
    h = state.ruleset.hazards
    if mover is not None and h.fliers_above_water and mover.creature.speeds.fly > 0:
        return mult
    if depth >= h.deep_water_ft:
        swims = mover is not None and mover.creature.speeds.swim > 0
        return max(mult, 1 if swims else state.ruleset.turn.water_cost)
    if depth >= h.shallow_water_ft:
        return max(mult, _SHALLOW)
    return mult


__all__ = ["hazard_multiplier"]
