"""Checking an encounter's ``hazards`` key against its map.

:func:`hazards_legend` lets map characters that only ``hazards`` uses stand for plain floor;
:func:`check_hazards` reports squares off the map and characters the map never draws;
:mod:`ashfall.encounters.placing` puts them on the battlefield when a fight is built (apart, so that
checking a file does not import the turn engine).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from ashfall.encounters.hazards_spec import NO_SQUARES, HazardsSpec, Squares
from ashfall.encounters.maps import DEFAULT_LEGEND, drawn_squares, is_zone_char, rectangle
from ashfall.encounters.report import Report
from ashfall.encounters.schema import LegendEntry, MapSpec
from ashfall.files.yaml_marks import PathKey
from ashfall.grid.board import Square

HAZARDS: PathKey = ("hazards",)


def _spec(data: Mapping[str, Any]) -> HazardsSpec | None:
    raw = data.get("hazards")
    if not isinstance(raw, dict):
        return None
    try:
        return HazardsSpec.model_validate(raw)
    except ValidationError:
        return None  # the whole file's validation reports it


def _sets(h: HazardsSpec) -> Iterator[tuple[PathKey, Squares]]:
    yield (*HAZARDS, "flammable"), h.flammable
    yield (*HAZARDS, "burning"), h.burning
    if h.water is not None and h.water.area is not None:
        yield (*HAZARDS, "water", "area"), h.water.area
    for key, s in h.suppression.items():
        yield (*HAZARDS, "suppression", key, "area"), s.area
    for i, t in enumerate(h.terrain):
        yield (*HAZARDS, "terrain", i, "where"), t.where


def _points(h: HazardsSpec) -> Iterator[tuple[PathKey, Square]]:
    for i, g in enumerate(h.gas):
        yield (*HAZARDS, "gas", i, "at"), g.at
    for key, d in h.drains.items():
        yield (*HAZARDS, "drains", key, "at"), d.at
    for key, s in h.suppression.items():
        if s.control is not None:
            yield (*HAZARDS, "suppression", key, "control"), s.control
    for i, c in enumerate(h.collapse):
        yield (*HAZARDS, "collapse", i, "at"), c.at


def hazards_legend(spec: MapSpec | None, data: Mapping[str, Any]) -> MapSpec | None:
    """The map with the characters only ``hazards`` uses added to its legend as plain floor."""
    h = _spec(data)
    if spec is None or h is None:
        return spec
    known = {**DEFAULT_LEGEND, **spec.legend}
    extra = {s.legend: LegendEntry() for _p, s in _sets(h) if s.legend is not None and len(s.legend) == 1
             and s.legend not in known and not is_zone_char(s.legend, known) and not s.legend.isspace()}
    return spec.model_copy(update={"legend": {**spec.legend, **extra}}) if extra else spec


def squares_of(s: Squares, spec: MapSpec | None) -> tuple[Square, ...]:
    """Every square a :class:`Squares` names, sorted."""
    found = {*s.squares, *(rectangle(s.area) if s.area else ()), *(drawn_squares(spec, s.legend) if s.legend else ())}
    return tuple(sorted(found))


def check_hazards(data: Mapping[str, Any], spec: MapSpec | None, size: tuple[int, int] | None,
                  report: Report) -> None:
    """Report every problem of ``hazards`` that needs the map (the schema checks the rest)."""
    h = _spec(data)
    if h is None:
        return
    if spec is None or size is None:
        if any(s != NO_SQUARES for _p, s in _sets(h)) or any(True for _ in _points(h)):
            report.add(HAZARDS, "hazards placed on squares need a map")
        return
    width, height = size

    def on_map(path: PathKey, sq: Square) -> None:
        if not (0 <= sq[0] < width and 0 <= sq[1] < height):
            report.add(path, f"square {list(sq)} is off the map ({width} wide, {height} high)")

    for path, s in _sets(h):
        if s.legend is not None and (len(s.legend) != 1 or not drawn_squares(spec, s.legend)):
            report.add((*path, "legend"), f"the map draws no square with {s.legend!r}")
        for j, sq in enumerate(s.squares):
            on_map((*path, "squares", j), sq)
        for j, sq in enumerate(s.area or ()):
            on_map((*path, "area", j), sq)
    for path, sq in _points(h):
        on_map(path, sq)


__all__ = ["check_hazards", "hazards_legend", "squares_of"]
