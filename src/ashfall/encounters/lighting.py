"""Checking an encounter's ``light`` and ``obscured`` keys against its map, and filling in the environment.

:func:`vision_legend` lets map characters that only ``light`` or ``obscured`` use stand for plain floor;
:func:`check_vision` reports squares off the map, characters the map never draws and zones given more
than one way; :func:`apply_vision` sets the ambient light, per-square light and veils of a fight's
:class:`~ashfall.engine.environment.Environment` (where zones overlap, the heavier veil stays).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from ashfall.core.veils import Veil
from ashfall.encounters.lighting_spec import LightSpec, ObscuredSpec
from ashfall.encounters.maps import DEFAULT_LEGEND, drawn_squares, is_zone_char, rectangle
from ashfall.encounters.report import Report
from ashfall.encounters.schema import EncounterFile, LegendEntry, MapSpec
from ashfall.files.yaml_marks import PathKey
from ashfall.grid.board import Square

if TYPE_CHECKING:  # checking a file loads no engine module (the start-up budget of ashfall validate)
    from ashfall.engine.environment import Environment


def _parsed(model: type[BaseModel], raw: Any) -> Any:
    """A part validated on its own, or None (the whole file's validation reports its problems)."""
    try:
        return model.model_validate(raw)
    except ValidationError:
        return None


def _specs(data: Mapping[str, Any]) -> tuple[LightSpec | None, list[tuple[int, ObscuredSpec]]]:
    light = _parsed(LightSpec, data["light"]) if isinstance(data.get("light"), dict) else None
    raw = data.get("obscured")
    zones = [(i, z) for i, z in ((i, _parsed(ObscuredSpec, r)) for i, r in enumerate(raw if isinstance(raw, list)
                                                                                       else [])) if z is not None]
    return light, zones


def _chars(data: Mapping[str, Any]) -> list[str]:
    """Map characters ``light`` and ``obscured`` name, read leniently (the schema reports bad entries)."""
    light, zones = data.get("light"), data.get("obscured")
    legend = light.get("legend") if isinstance(light, dict) else None
    return [*(k for k in (legend if isinstance(legend, dict) else ()) if isinstance(k, str)),
            *(z["legend"] for z in (zones if isinstance(zones, list) else ())
              if isinstance(z, dict) and isinstance(z.get("legend"), str))]


def vision_legend(spec: MapSpec | None, data: Mapping[str, Any]) -> MapSpec | None:
    """The map with the characters only ``light``/``obscured`` use added to its legend as plain floor.

    Letters and digits stay spawn zones (a zone can be dim or foggy too).
    """
    if spec is None:
        return None
    known = {**DEFAULT_LEGEND, **spec.legend}
    extra = {ch: LegendEntry() for ch in _chars(data) if len(ch) == 1 and not is_zone_char(ch, known)
             and ch not in known and not ch.isspace()}
    return spec.model_copy(update={"legend": {**spec.legend, **extra}}) if extra else spec


def _light_parts(light: LightSpec) -> Iterator[tuple[PathKey, list[Square] | None, str | None]]:
    for level, squares in light.squares.items():
        yield ("light", "squares", level.value), list(squares), None
    for ch in light.legend:
        yield ("light", "legend", ch), None, ch


def check_vision(data: Mapping[str, Any], spec: MapSpec | None, size: tuple[int, int] | None,
                 report: Report) -> None:
    """Report every problem of ``light`` and ``obscured`` that needs the map (the schema checks the rest)."""
    light, zones = _specs(data)
    parts: list[tuple[PathKey, list[Square] | None, str | None]] = list(_light_parts(light) if light else ())
    for i, z in zones:
        given = [k for k, v in (("squares", z.squares), ("area", z.area), ("legend", z.legend)) if v]
        if len(given) != 1:
            report.add(("obscured", i), "give exactly one of squares, area and legend "
                                        f"({', '.join(given) if given else 'none given'})")
        if z.squares:
            parts.append((("obscured", i, "squares"), list(z.squares), None))
        if z.area is not None:
            parts.append((("obscured", i, "area"), list(z.area), None))
        if z.legend is not None:
            parts.append((("obscured", i, "legend"), None, z.legend))
    for path, squares, ch in parts:
        if spec is None or size is None:
            report.add(path, "squares and map characters need a map")
            continue
        if ch is not None and (len(ch) != 1 or not drawn_squares(spec, ch)):
            report.add(path, f"the map draws no square with {ch!r}")
        for j, sq in enumerate(squares or ()):
            if not (0 <= sq[0] < size[0] and 0 <= sq[1] < size[1]):
                report.add((*path, j), f"square {list(sq)} is off the map ({size[0]} wide, {size[1]} high)")


def apply_vision(document: EncounterFile, env: Environment) -> None:
    """Set the fight's ambient light, square light and obscured zones from the file."""
    light = document.light
    env.ambient = light.ambient
    for level, squares in light.squares.items():
        env.light.update(dict.fromkeys(squares, level))
    for ch, level in light.legend.items():
        env.light.update(dict.fromkeys(drawn_squares(document.map, ch), level))
    for zone in document.obscured:
        where = [*zone.squares, *(rectangle(zone.area) if zone.area else ()),
                 *(drawn_squares(document.map, zone.legend) if zone.legend else ())]
        veil = Veil(zone.level.obscurement, zone.cause)
        for sq in where:
            old = env.veils.get(sq)
            if old is None or old.level.value < veil.level.value:
                env.veils[sq] = veil


__all__ = ["apply_vision", "check_vision", "vision_legend"]
