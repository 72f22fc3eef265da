"""Checking an encounter's ``objects`` against the library and the map.

:func:`objects_legend` lets map characters that only ``objects`` uses stand for plain floor;
:func:`check_objects` reports unknown object ids (with close matches), objects without a map, squares
off the map or in walls, characters the map never draws, bad or repeated ids and ``holds`` naming no
object; :func:`check_standing` reports a creature placed where an object fills the square;
:func:`ashfall.encounters.placing.apply_objects` puts them on the battlefield when the fight is built.
Ids default to the object id and a number in file order (``fuel-barrel-1``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ashfall.content.library import Library, UnknownIdError
from ashfall.content.loader import ID_PATTERN
from ashfall.encounters.maps import DEFAULT_LEGEND, drawn_squares, is_zone_char
from ashfall.encounters.objects_spec import ObjectPlacement
from ashfall.encounters.report import Report
from ashfall.encounters.schema import LegendEntry, MapSpec
from ashfall.encounters.spec import RosterEntry
from ashfall.files.yaml_marks import PathKey
from ashfall.grid.board import Board, Square, footprint

OBJECTS: PathKey = ("objects",)


@dataclass(frozen=True, slots=True)
class Placed:
    """One object as it will stand: its id, library object, top-left square and what it holds."""

    path: PathKey
    id: str
    template: str
    at: Square
    holds: str


def _entries(data: Mapping[str, Any]) -> list[tuple[int, ObjectPlacement]]:
    raw = data.get("objects")
    out: list[tuple[int, ObjectPlacement]] = []
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        try:
            out.append((i, ObjectPlacement.model_validate(item)))
        except ValidationError:
            continue  # the whole file's validation reports it
    return out


def objects_legend(spec: MapSpec | None, data: Mapping[str, Any]) -> MapSpec | None:
    """The map with the characters only ``objects`` uses added to its legend as plain floor."""
    if spec is None:
        return None
    known = {**DEFAULT_LEGEND, **spec.legend}
    extra = {p.legend: LegendEntry() for _i, p in _entries(data) if p.legend is not None and len(p.legend) == 1
             and p.legend not in known and not is_zone_char(p.legend, known) and not p.legend.isspace()}
    return spec.model_copy(update={"legend": {**spec.legend, **extra}}) if extra else spec


def placed(data: Mapping[str, Any], spec: MapSpec | None) -> list[Placed]:
    """Every object the file places, with its final id, in file (then reading) order."""
    counts: dict[str, int] = {}
    out: list[Placed] = []
    for i, p in _entries(data):
        squares = [p.at] if p.at is not None else drawn_squares(spec, p.legend) if p.legend is not None else []
        for k, sq in enumerate(squares):
            counts[p.object] = counts.get(p.object, 0) + 1
            given = p.id if p.id is not None and len(squares) == 1 else None
            obj_id = given or (f"{p.id}-{k + 1}" if p.id is not None else f"{p.object}-{counts[p.object]}")
            out.append(Placed((*OBJECTS, i), obj_id, p.object, sq, p.holds or ""))
    return out


def check_objects(data: Mapping[str, Any], spec: MapSpec | None, board: Board | None, library: Library,
                  report: Report) -> None:
    """Report every problem of ``objects`` that needs the library or the map (the schema checks the rest)."""
    entries = _entries(data)
    if not entries:
        return
    if spec is None or board is None:
        report.add(OBJECTS, "objects stand on squares: they need a map")
        return
    for i, p in entries:
        path = (*OBJECTS, i)
        if (p.at is None) == (p.legend is None):
            report.add(path, "give the object's square as at, or a map character as legend (one of them)")
        try:
            library.object(p.object)
        except UnknownIdError as err:
            report.add((*path, "object"), err.message)
        if p.legend is not None and not drawn_squares(spec, p.legend):
            report.add((*path, "legend"), f"the map draws no square with {p.legend!r}")
        if p.at is not None and not board.in_bounds(p.at):
            report.add((*path, "at"), f"square {list(p.at)} is off the map ({board.width} wide, {board.height} high)")
        elif p.at is not None and board.blocks_sight(p.at):
            report.add((*path, "at"), f"square {list(p.at)} is a wall")
    _check_ids(placed(data, spec), report)


def _check_ids(objects: list[Placed], report: Report) -> None:
    first: dict[str, PathKey] = {}
    for o in objects:
        if not ID_PATTERN.match(o.id):
            report.add((*o.path, "id"), f"id {o.id!r} is not lowercase words joined by hyphens (e.g. 'barrel-1')")
        elif o.id in first:
            report.add((*o.path, "id"), f"object id {o.id!r} is used twice")
        first.setdefault(o.id, o.path)
    for o in objects:
        if o.holds and o.holds not in first:
            report.add((*o.path, "holds"), f"no object {o.holds!r} is placed (ids: {', '.join(sorted(first))})")


def check_standing(data: Mapping[str, Any], spec: MapSpec | None, roster: Sequence[RosterEntry], library: Library,
                   report: Report) -> None:
    """Report a creature placed on the square of an object that fills it (``blocks_movement``)."""
    taken = {sq: e for e in roster if e.position is not None
             for sq in footprint(e.position, e.creature.size.squares)}
    for o in placed(data, spec):
        template = library.object_map.get(o.template)
        if template is None or not template.blocks_movement:
            continue
        squares = [(o.at[0] + dx, o.at[1] + dy) for dy in range(template.depth) for dx in range(template.width)]
        for sq in squares:
            if sq in taken:
                report.add(o.path, f"{taken[sq].name} stands at {list(sq)}, where the {template.name} stands: "
                                   "move one of them")
                break


__all__ = ["check_objects", "check_standing", "objects_legend", "placed"]
