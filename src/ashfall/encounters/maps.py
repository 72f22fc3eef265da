"""Turning an encounter's ``map`` into a :class:`~ashfall.grid.board.Board` and its spawn zones.

The primary form is an ASCII grid (``rows``) read through a legend: :data:`DEFAULT_LEGEND` plus the
file's own ``legend`` entries. Letters and digits the legend does not define mark spawn zones.
Explicit lists (``walls``, ``terrain``, ``cover``, ``elevation``, ``zones``, ``exits``) are applied
after the grid, so a map can be drawn, then refined. Square ``[x, y]`` is column ``x``, row ``y``,
counted from 0 at the top-left corner. Exits are where fleeing creatures leave the battlefield
(MOR-20); a map that marks none has every enterable edge square as an exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ashfall.encounters.report import Report
from ashfall.encounters.schema import CoverName, LegendEntry, MapSpec
from ashfall.files.yaml_marks import PathKey
from ashfall.grid.board import Board, CoverObject, Square, Terrain

DEFAULT_LEGEND: Mapping[str, LegendEntry] = MappingProxyType({
    ".": LegendEntry.model_construct(),
    ":": LegendEntry.model_construct(terrain=Terrain.DIFFICULT),
    ";": LegendEntry.model_construct(terrain=Terrain.GREATER_DIFFICULT),
    "~": LegendEntry.model_construct(terrain=Terrain.DIFFICULT),
    "%": LegendEntry.model_construct(terrain=Terrain.IMPASSABLE),
    "#": LegendEntry.model_construct(wall=True),
    "=": LegendEntry.model_construct(cover=CoverName.PARTIAL, name="low wall"),
    "+": LegendEntry.model_construct(cover=CoverName.PARTIAL, name="barricade", light=True),
    "H": LegendEntry.model_construct(cover=CoverName.HEAVY, name="heavy cover"),
    ">": LegendEntry.model_construct(exit=True),
})
"""The built-in map characters. ``~`` (water) is difficult terrain for walkers (X-03, MOV-3)."""

MAP: tuple[str] = ("map",)


@dataclass(frozen=True, slots=True)
class MapResult:
    """The board, its spawn zones and its exits (squares in reading order)."""

    board: Board
    zones: Mapping[str, tuple[Square, ...]]
    exits: tuple[Square, ...] = ()


@dataclass(slots=True)
class _Draft:
    """The board being assembled."""

    width: int
    height: int
    terrain: dict[Square, Terrain] = field(default_factory=dict)
    walls: set[Square] = field(default_factory=set)
    cover: dict[Square, CoverObject] = field(default_factory=dict)
    elevation: dict[Square, int] = field(default_factory=dict)
    zones: dict[str, list[Square]] = field(default_factory=dict)
    exits: set[Square] = field(default_factory=set)

    def place(self, sq: Square, entry: LegendEntry) -> None:
        if entry.wall:
            self.walls.add(sq)
            return
        if entry.terrain is not Terrain.NORMAL:
            self.terrain[sq] = entry.terrain
        if entry.cover is not None:
            self.cover[sq] = CoverObject(entry.cover.level, entry.blocks_movement,
                                         entry.name or f"{entry.cover.value} cover", entry.light)
        if entry.height:
            self.elevation[sq] = entry.height
        if entry.exit:
            self.exits.add(sq)

    def board(self) -> Board:
        return Board(self.width, self.height, dict(self.terrain), frozenset(self.walls), dict(self.cover),
                     dict(self.elevation))


def drawn_squares(spec: MapSpec | None, ch: str) -> list[Square]:
    """Every square drawn with ``ch`` in the map's rows, in reading order (none without rows)."""
    rows = spec.rows if spec is not None and spec.rows is not None else ()
    return [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == ch]


def rectangle(area: tuple[Square, Square]) -> list[Square]:
    """Every square of the rectangle between two corner squares (either order), in reading order."""
    (x0, y0), (x1, y1) = area
    return [(x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1)]


def is_zone_char(ch: str, legend: Mapping[str, LegendEntry]) -> bool:
    """Whether a map character marks a spawn zone: an ASCII letter or digit the legend does not define."""
    return ch.isascii() and ch.isalnum() and ch not in legend


def build_map(spec: MapSpec, report: Report) -> MapResult | None:
    """The board and zones a valid ``map`` describes; problems go to ``report`` (None if no size is known)."""
    legend = {**DEFAULT_LEGEND, **spec.legend}
    _check_legend(spec, report)
    size = _size(spec, report)
    if size is None:
        return None
    draft = _Draft(*size)
    if spec.rows is not None:
        _draw(spec.rows, legend, draft, report)
    _apply_lists(spec, draft, report)
    zones = {name: tuple(sorted(squares, key=reading_order)) for name, squares in draft.zones.items()}
    board = draft.board()
    exits = draft.exits or {sq for sq in edge_squares(board) if board.terrain_at(sq) is not Terrain.IMPASSABLE}
    return MapResult(board, MappingProxyType(zones), tuple(sorted(exits, key=reading_order)))


def reading_order(sq: Square) -> tuple[int, int]:
    """Sort key: top to bottom, then left to right."""
    return sq[1], sq[0]


def edge_squares(board: Board) -> set[Square]:
    """The squares on the map's border."""
    w, h = board.width, board.height
    return {(x, y) for x in range(w) for y in (0, h - 1)} | {(x, y) for y in range(h) for x in (0, w - 1)}


def _check_legend(spec: MapSpec, report: Report) -> None:
    for ch, entry in spec.legend.items():
        path = (*MAP, "legend", ch)
        if len(ch) != 1 or ch.isspace():
            report.add(path, f"legend keys are single visible characters, not {ch!r}")
        if entry.wall and (entry.cover is not None or entry.terrain is not Terrain.NORMAL or entry.exit):
            report.add(path, "a wall is impassable and gives total cover already: give wall, or terrain, cover "
                             "and exit")


def _size(spec: MapSpec, report: Report) -> tuple[int, int] | None:
    if spec.rows is None:
        if spec.width is None or spec.height is None:
            report.add(MAP, "a map needs width and height, or rows")
            return None
        return spec.width, spec.height
    if not spec.rows:
        report.add((*MAP, "rows"), "rows is empty")
        return None
    width, height = len(spec.rows[0]), len(spec.rows)
    for key, given, drawn in (("width", spec.width, width), ("height", spec.height, height)):
        if given is not None and given != drawn:
            report.add((*MAP, key), f"{key} is {given} but the rows draw a map {width} wide and {height} high")
    return width, height


def _row_line(report: Report, y: int) -> int | None:
    """The line of row ``y``: its own list item, or (a block of text) the line after ``rows:`` plus ``y``."""
    rows_path = (*MAP, "rows")
    raw = report.marked.data.get("map", {}).get("rows") if isinstance(report.marked.data, dict) else None
    if isinstance(raw, str):
        start = report.marked.line_of(rows_path)
        return None if start is None else start + 1 + y
    return report.marked.line_of((*rows_path, y))


def _draw(rows: tuple[str, ...], legend: Mapping[str, LegendEntry], draft: _Draft, report: Report) -> None:
    path = (*MAP, "rows")
    for y, row in enumerate(rows):
        line = _row_line(report, y)
        if len(row) != draft.width:
            report.add((*path, y), f"row {y} is {len(row)} characters wide; the first row is {draft.width}", line)
        unknown: dict[str, int] = {}
        for x, ch in enumerate(row[:draft.width]):
            entry = legend.get(ch)
            if entry is not None:
                draft.place((x, y), entry)
            elif is_zone_char(ch, legend):
                draft.zones.setdefault(ch, []).append((x, y))
            else:
                unknown.setdefault(ch, x)
        if unknown:
            found = ", ".join(f"{ch!r} at column {x}" for ch, x in unknown.items())
            report.add((*path, y), f"unknown map character {found} (legend: {''.join(sorted(legend))!r}; letters "
                                   "and digits mark zones)", line)


def _apply_lists(spec: MapSpec, draft: _Draft, report: Report) -> None:
    def on_map(path: PathKey, sq: Square) -> bool:
        if 0 <= sq[0] < draft.width and 0 <= sq[1] < draft.height:
            return True
        report.add(path, f"square {list(sq)} is off the map ({draft.width} wide, {draft.height} high)")
        return False

    for i, sq in enumerate(spec.walls):
        if on_map((*MAP, "walls", i), sq):
            draft.walls.add(sq)
    for terrain, squares in spec.terrain.items():
        for i, sq in enumerate(squares):
            if on_map((*MAP, "terrain", terrain.value, i), sq):
                draft.terrain.pop(sq, None)
                if terrain is not Terrain.NORMAL:
                    draft.terrain[sq] = terrain
    for i, c in enumerate(spec.cover):
        path = (*MAP, "cover", i, "at")
        if on_map(path, c.at):
            if c.at in draft.walls:
                report.add(path, f"square {list(c.at)} is a wall; cover goes beside it")
            draft.cover[c.at] = CoverObject(c.level.level, c.blocks_movement, c.name, c.light)
    for i, e in enumerate(spec.elevation):
        if on_map((*MAP, "elevation", i, "at"), e.at):
            draft.elevation[e.at] = e.height
    for name, squares in spec.zones.items():
        for i, sq in enumerate(squares):
            zone_path: PathKey = (*MAP, "zones", name, i)
            if not on_map(zone_path, sq):
                continue
            if sq in draft.walls:
                report.add(zone_path, f"square {list(sq)} is a wall")
            zone = draft.zones.setdefault(name, [])
            if sq not in zone:
                zone.append(sq)
    for i, sq in enumerate(spec.exits):
        if on_map((*MAP, "exits", i), sq):
            if sq in draft.walls:
                report.add((*MAP, "exits", i), f"exit {list(sq)} is a wall")
            draft.exits.add(sq)


__all__ = ["DEFAULT_LEGEND", "MapResult", "build_map", "edge_squares", "is_zone_char", "reading_order"]
