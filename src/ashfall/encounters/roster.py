"""The roster of an encounter: creatures resolved, ids and names numbered, squares checked and zones filled.

Ids: an entry with ``id`` and a count of 1 keeps that id. Every other creature is named after its
``id`` (or, without one, its creature id); a base used by one creature only stays bare (``warrior``),
a shared base is numbered in file order (``raider-1``, ``raider-2``). Names follow the same numbers
(``Raider 1``). Placement: explicit squares first, then zones in file order, each creature taking the
first free square of its zone in reading order (left to right, top to bottom).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ashfall.content.library import Library, UnknownIdError, close_matches, suggestion_text
from ashfall.content.loader import ID_PATTERN
from ashfall.content.schema import Creature
from ashfall.encounters.report import Report
from ashfall.encounters.riding import check_riding
from ashfall.encounters.schema import CombatantSpec
from ashfall.encounters.spec import RosterEntry, Tactics
from ashfall.families.attacks.rules_activities import ACTIVITIES, Activity, action_cost
from ashfall.files.yaml_marks import PathKey, dotted
from ashfall.grid.board import Board, Square, Terrain, footprint
from ashfall.ruleset import Ruleset

PLACEMENT_KEYS = ("position", "positions", "zone")


@dataclass(frozen=True, slots=True)
class Declared:
    """One combatants entry that passed the schema, with its creature if that resolved."""

    index: int
    spec: CombatantSpec
    creature: Creature | None

    @property
    def path(self) -> PathKey:
        """Its field path in the file."""
        return ("combatants", self.index)

    @property
    def count(self) -> int:
        """How many creatures it adds: ``count``, else one per square of ``positions``, else 1."""
        if self.spec.count is not None:
            return self.spec.count
        return len(self.spec.positions) if self.spec.positions else 1

    @property
    def keeps_id(self) -> bool:
        """Its ``id`` is used as written (a single creature with an explicit id)."""
        return self.spec.id is not None and self.count == 1


def resolve_creature(library: Library, spec: CombatantSpec, path: PathKey, report: Report,
                     unloaded: frozenset[str]) -> Creature | None:
    """The entry's stat block (inline blocks are in ``library`` already); unknown ids are reported.

    Ids in ``unloaded`` belong to content whose own problems are reported: they resolve to None silently.
    """
    wanted = spec.creature if isinstance(spec.creature, str) else spec.creature.get("id")
    if not isinstance(wanted, str) or wanted in unloaded:
        return None
    try:
        return library.creature(wanted)
    except UnknownIdError as err:
        if isinstance(spec.creature, str):
            report.add((*path, "creature"), err.message)
        return None


def build_roster(entries: Sequence[Declared], sides: Sequence[str] | None, ruleset: Ruleset, board: Board | None,
                 zones: Mapping[str, tuple[Square, ...]], report: Report, map_given: bool) -> tuple[RosterEntry, ...]:
    """Check every entry and lay out the roster (an empty tuple when anything is wrong).

    ``map_given`` with no ``board`` means the map itself is broken: placement is not checked then.
    ``sides`` is None when the file has no list of sides (that is reported already).
    """
    before = len(report.problems)
    tactics = {}
    for e in entries:
        _check_side(e, sides, report)
        _check_shape(e, board is not None, map_given and board is None, report)
        tactics[e.index] = _tactics(e, ruleset, report)
    ids = _ids(entries, report)
    riding = check_riding(entries, ids, report)
    squares = _placements(entries, ids, board, zones, report) if board is not None else {}
    if len(report.problems) > before or any(e.creature is None for e in entries):
        return ()
    out = []
    for e in entries:
        assert e.creature is not None
        for k, (cid, name) in enumerate(ids[e.index]):
            leader = e.creature.leader if e.spec.leader is None else e.spec.leader
            mount, station = riding.get((e.index, k), (None, ""))
            out.append(RosterEntry(cid, name, e.creature, e.spec.side, squares.get((e.index, k)), leader,
                                   tactics[e.index], dotted(e.path), mount, station, bool(e.spec.moving),
                                   e.spec.initiative_group))
    return tuple(out)


def _check_side(e: Declared, sides: Sequence[str] | None, report: Report) -> None:
    if sides is not None and e.spec.side not in sides:
        hint = suggestion_text(close_matches(e.spec.side, set(sides)))
        report.add((*e.path, "side"), f"side {e.spec.side!r} is not declared in sides{hint}")


def _check_shape(e: Declared, on_map: bool, map_broken: bool, report: Report) -> None:
    spec = e.spec
    given = [k for k in PLACEMENT_KEYS if getattr(spec, k) is not None]
    if len(given) > 1:
        report.add((*e.path, given[1]), f"give only one of position, positions and zone (found {', '.join(given)})")
    if not on_map and not map_broken:
        for key in given:
            report.add((*e.path, key), f"{key} needs a map (this encounter has none: theater of mind)")
    elif on_map and not given and spec.mounted_on is None:  # a rider takes its mount's square (MNT-4)
        report.add(e.path, "on a map every combatant needs a position, positions or a zone")
    if spec.position is not None and e.count > 1:
        report.add((*e.path, "count"), f"count is {e.count} but position gives one square: use positions "
                                       "(one square per creature) or a zone")
    if spec.positions is not None and len(spec.positions) != e.count:
        listed = len(spec.positions)
        report.add((*e.path, "positions"), f"count is {e.count} but positions lists {listed} "
                                           f"square{'' if listed == 1 else 's'}")
    if spec.id is not None and not ID_PATTERN.match(spec.id):
        report.add((*e.path, "id"), f"id {spec.id!r} is not lowercase words joined by hyphens (e.g. 'raider-boss')")


def _tactics(e: Declared, ruleset: Ruleset, report: Report) -> Tactics:
    plan = tuple(Activity(a.value) for a in e.spec.tactics or ())
    path = (*e.path, "tactics")
    for i, activity in enumerate(plan):
        removed = ACTIVITIES[activity].unavailable(ruleset)
        if removed is not None:
            report.add((*path, i), f"{activity.value} is not available under {ruleset.name} ({removed})")
    cost = sum(action_cost(a, ruleset) or 0 for a in plan)
    per_turn = ruleset.turn.actions_per_turn
    if cost > per_turn:
        report.add(path, f"the plan costs {cost} actions; a turn has {per_turn} (AE-1, MAA-1)")
    target = e.spec.target
    if target is not None and not plan:
        report.add((*e.path, "target"), "a target rule steers a tactics plan; with tactics: ai the AI chooses whom "
                   "to attack (give a plan, or drop target)")
    return Tactics(plan, target)


def _ids(entries: Sequence[Declared], report: Report) -> dict[int, list[tuple[str, str]]]:
    """(id, name) of every creature of every entry; duplicate ids are reported."""
    def base_of(e: Declared) -> str:
        return e.spec.id or (e.creature.id if e.creature else str(e.spec.creature))

    shared = Counter(base_of(e) for e in entries if not e.keeps_id for _ in range(e.count))
    numbers: Counter[str] = Counter()
    taken: dict[str, str] = {}
    out: dict[int, list[tuple[str, str]]] = {}
    for e in entries:
        base = base_of(e)
        display = e.spec.name or (e.creature.name if e.creature else base)
        made = []
        for _ in range(e.count):
            if e.keeps_id or shared[base] == 1:
                made.append((base, display))
            else:
                numbers[base] += 1
                made.append((f"{base}-{numbers[base]}", f"{display} {numbers[base]}"))
        for cid, _name in made:
            if cid in taken:
                report.add((*e.path, "id") if e.spec.id else e.path,
                           f"combatant id {cid!r} is already used by {taken[cid]}")
            taken.setdefault(cid, dotted(e.path))
        out[e.index] = made
    return out


def _placements(entries: Sequence[Declared], ids: Mapping[int, list[tuple[str, str]]], board: Board,
                zones: Mapping[str, tuple[Square, ...]], report: Report) -> dict[tuple[int, int], Square]:
    """Square of each (entry index, creature number): explicit squares first, then zones."""
    occupied: dict[Square, str] = {}
    placed: dict[tuple[int, int], Square] = {}
    for e in entries:
        explicit: list[tuple[PathKey, Square]] = []
        if e.spec.position is not None and e.count == 1:
            explicit = [((*e.path, "position"), e.spec.position)]
        elif e.spec.positions is not None and len(e.spec.positions) == e.count:
            explicit = [((*e.path, "positions", k), sq) for k, sq in enumerate(e.spec.positions)]
        for k, (path, origin) in enumerate(explicit):
            cid = ids[e.index][k][0]
            space = footprint(origin, e.creature.size.squares if e.creature else 1)
            reasons = [(sq, r) for sq in space if (r := _blocked(board, sq, occupied))]
            if reasons:
                sq, reason = reasons[0]
                where = "the square" if sq == origin else f"its space includes {list(sq)}, which"
                report.add(path, f"{cid} cannot stand at {list(origin)}: {where} {reason}")
                continue
            occupied.update((sq, f"{cid} ({dotted(e.path)})") for sq in space)
            placed[(e.index, k)] = origin
    for e in entries:
        if e.spec.zone is not None and e.spec.position is None and e.spec.positions is None:
            _fill_zone(e, ids[e.index], board, zones, occupied, placed, report)
    return placed


def _fill_zone(e: Declared, made: Sequence[tuple[str, str]], board: Board, zones: Mapping[str, tuple[Square, ...]],
               occupied: dict[Square, str], placed: dict[tuple[int, int], Square], report: Report) -> None:
    zone = e.spec.zone
    assert zone is not None
    path = (*e.path, "zone")
    if zone not in zones:
        listed = ", ".join(repr(z) for z in sorted(zones)) or "none"
        report.add(path, f"the map has no zone {zone!r} (zones: {listed})"
                         + suggestion_text(close_matches(zone, zones)))
        return
    squares = zones[zone]
    inside = set(squares)
    side = e.creature.size.squares if e.creature else 1
    for k, (cid, _name) in enumerate(made):
        spot = next((sq for sq in squares if all(s in inside and not _blocked(board, s, occupied)
                                                 for s in footprint(sq, side))), None)
        if spot is None:
            report.add(path, f"zone {zone!r} has no free space left for {cid} ({k} of {len(made)} placed)")
            return
        occupied.update((s, f"{cid} ({dotted(e.path)})") for s in footprint(spot, side))
        placed[(e.index, k)] = spot


def _blocked(board: Board, sq: Square, occupied: Mapping[Square, str]) -> str:
    """Why a creature cannot stand in a square, as a predicate ("is a wall"; "" if it can)."""
    if not board.in_bounds(sq):
        return f"is off the map ({board.width} wide, {board.height} high)"
    if sq in board.walls:
        return "is a wall"
    obj = board.cover.get(sq)
    if obj is not None and obj.blocks_movement:
        return f"holds a {obj.name}"
    if board.terrain_at(sq) is Terrain.IMPASSABLE:
        return "is impassable terrain"
    if sq in occupied:
        return f"is taken by {occupied[sq]}"
    return ""


__all__ = ["Declared", "build_roster", "resolve_creature"]
