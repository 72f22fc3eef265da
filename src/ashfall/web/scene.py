"""The battlefield's layers beyond the board (light, fire, gas, veils, water, hazards) as data for the pages' map.

The board itself (walls, terrain, cover, heights) is :func:`ashfall.web.views.map_view`; this adds the
environment the engine changes during a fight. It reads the state only and decides nothing.
"""

from __future__ import annotations

from typing import Any

from ashfall.engine import EncounterState


def scene(state: EncounterState) -> dict[str, Any]:
    """The battlefield's layers beyond the board, as data for the map: light, fire, gas, veils, water, hazards."""
    env = state.environment
    return {
        "ambient": env.ambient.value,
        "light": sorted([[*sq, lvl.value] for sq, lvl in env.light.items()]),
        "fire": sorted([list(sq) for sq in env.fire]),
        "gas": sorted([list(sq) for sq in env.gas]),
        "veils": sorted([[*sq, v.cause.value, v.level.value] for sq, v in env.veils.items()]),
        "water": sorted([[*sq, d] for sq, d in env.water_depth.items()]),
        "hazards": sorted([[*sq, kind] for sq, kind in env.hazard_terrain.items()]),
        "rubble": sorted([list(sq) for sq in env.rubble | env.debris]),
    }


__all__ = ["scene"]
