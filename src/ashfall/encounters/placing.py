"""Putting a checked encounter's riders, hazards and objects on the battlefield when its fight is built.

:func:`apply_riding` seats riders and vehicle crews and sets the water; :func:`apply_hazards` fills the fight's
:class:`~ashfall.engine.environment.Environment` (flammable and burning squares, gas clouds, water and its
depths, drains, suppression systems, hazardous terrain, collapses counting down); :func:`apply_objects` places
fresh objects (OBJ-1, G-25). These are the encounter modules that need the turn engine; checking the same keys
(:mod:`~ashfall.encounters.riding`, :mod:`~ashfall.encounters.hazards`, :mod:`~ashfall.encounters.objects`)
needs none, so ``ashfall validate`` starts without it.
"""

from __future__ import annotations

from typing import Any

from ashfall.content.library import Library
from ashfall.encounters.hazards import squares_of
from ashfall.encounters.hazards_spec import HazardsSpec
from ashfall.encounters.objects import placed
from ashfall.encounters.schema import EncounterFile
from ashfall.encounters.spec import EncounterSpec
from ashfall.engine import EncounterState
from ashfall.engine.apply import water_depths
from ashfall.engine.environment import Collapse, Drain, Flood, GasCloud, Suppressor, WaterType
from ashfall.engine.records import Tally, with_key
from ashfall.families.hazards.engine_collapse import collapse_zone
from ashfall.families.hazards.engine_gas import spread_squares
from ashfall.families.objects.engine import make_object


def apply_riding(spec: EncounterSpec, state: EncounterState) -> None:
    """Seat the riders on their mounts and crews aboard their vehicles; set the water (before the engine exists)."""
    for entry in spec.roster:
        c = state.get(entry.id)
        if entry.moving:
            c.supplies = with_key(c.supplies, Tally.MOVING, 1)
        if entry.mounted_on is not None:
            c.mounted_on, c.station = entry.mounted_on, entry.station
            c.position = state.get(entry.mounted_on).position
    if spec.document.underwater is not None:
        state.environment.underwater = WaterType(spec.document.underwater.value)


def apply_hazards(document: EncounterFile, state: EncounterState) -> None:
    """Put the file's hazards on the battlefield (before the fight starts; defaults from the ruleset)."""
    h: HazardsSpec = document.hazards
    env, rs, board, m = state.environment, state.ruleset.hazards, state.board, document.map
    env.enclosed = env.enclosed or h.enclosed
    env.wind = env.wind or h.wind
    env.flammable |= set(squares_of(h.flammable, m))
    env.fire.update(dict.fromkeys(squares_of(h.burning, m), 0))
    for i, g in enumerate(h.gas):
        radius = rs.gas_radius_ft if g.radius is None else g.radius
        key = f"gas:{i + 1}"
        env.gas_clouds[key] = GasCloud(key, g.at, radius, spread_squares(board, g.at, radius),
                                       h.enclosed if g.enclosed is None else g.enclosed, g.producing)
    for key in sorted(env.gas_clouds, reverse=True):
        env.gas.update(dict.fromkeys(env.gas_clouds[key].squares, key))
    if h.water is not None:
        rise = rs.flood_rise_ft if h.water.rise is None else h.water.rise
        area = squares_of(h.water.area, m) if h.water.area is not None else ()
        env.floods["flood"] = Flood("flood", rise if h.water.level is None else h.water.level, rise, h.water.max, area)
        env.water_depth = water_depths(state)
    for key, d in h.drains.items():
        env.drains[key] = Drain(key, d.at, rs.drain_ft if d.rate is None else d.rate, d.open, d.find_dc == 0,
                                d.dc or 0, d.find_dc)
    for key, s in h.suppression.items():
        env.suppressors[key] = Suppressor(key, squares_of(s.area, m), s.control)
    for t in h.terrain:
        env.hazard_terrain.update(dict.fromkeys(squares_of(t.where, m), t.type.value))
    for i, c in enumerate(h.collapse):
        radius = rs.collapse_radius_ft if c.radius is None else c.radius
        key = f"collapse:{i + 1}"
        env.collapses[key] = Collapse(key, c.at, radius, collapse_zone(state, c.at, radius))
        env.countdowns[key] = c.countdown


def apply_objects(document: Any, library: Library, state: EncounterState) -> None:
    """Put a checked encounter document's objects on the battlefield (before the fight starts)."""
    data = {"objects": [p.model_dump(exclude_none=True) for p in document.objects]}
    for o in placed(data, document.map):
        state.environment.objects[o.id] = make_object(library.object(o.template), o.id, o.at, state.ruleset,
                                                      holds=o.holds)


__all__ = ["apply_hazards", "apply_objects", "apply_riding"]
