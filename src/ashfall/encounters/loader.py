"""Loading an encounter file into an :class:`~ashfall.encounters.spec.EncounterSpec`, all-or-nothing.

Every problem in the file (and in the content and house-rule files it names) is collected and
raised together as one :class:`~ashfall.files.yaml_marks.InputError`, each naming the file, the
field path and the line: unknown keys, bad values, unknown creature ids (with close matches),
squares off the map or inside walls, two creatures in one square, zones the map lacks, a count
that does not match its positions, sides used but not declared, fewer than two sides.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ashfall.content.library import Library, close_matches, suggestion_text
from ashfall.content.loader import (
    CONTENT_SUFFIXES,
    content_files,
    default_library,
    library_from_marked,
    load_content_files,
    validation_problems,
)
from ashfall.content.schema import Model
from ashfall.encounters.hazards import check_hazards, hazards_legend
from ashfall.encounters.lighting import check_vision, vision_legend
from ashfall.encounters.maps import MapResult, build_map
from ashfall.encounters.objects import check_objects, check_standing, objects_legend
from ashfall.encounters.report import Report, moved, subtree
from ashfall.encounters.roster import Declared, build_roster, resolve_creature
from ashfall.encounters.schema import MAX_COMBATANTS, CombatantSpec, EncounterFile, MapSpec, SideSpec
from ashfall.encounters.spec import EncounterSpec
from ashfall.files.paths import Folders, walk
from ashfall.files.yaml_marks import InputError, Marked, PathKey, Problem, load_yaml, parse_yaml
from ashfall.ruleset import PRESETS, Ruleset, load_ruleset, preset, ruleset_from_data

RULESET_SUFFIXES = (".yaml", ".yml")
_INLINE_PATH = re.compile(r"^creatures\[(\d+)\]")


def load_encounter(path: Path | str, allow_dirs: Sequence[Path | str] = ()) -> EncounterSpec:
    """Read and check an encounter file; relative ``content`` and ruleset paths are resolved from its folder.

    The files it names are read only from inside its folder (after following links and ``..``), or from
    inside ``allow_dirs``; only regular files, never devices or FIFOs (see :mod:`ashfall.files.paths`).

    Raises:
        InputError: With every problem found; nothing is returned on error.
    """
    path = Path(path)
    return _load(load_yaml(path), path.parent, allow_dirs)


def encounter_from_text(text: str, file: str = "<string>", base_dir: Path | None = None,
                        allow_dirs: Sequence[Path | str] = ()) -> EncounterSpec:
    """Like :func:`load_encounter` for YAML text (tests and the docs examples); paths resolve from ``base_dir``."""
    return _load(parse_yaml(text, file), base_dir or Path.cwd(), allow_dirs)


def encounter_from_marked(marked: Marked, base_dir: Path, allow_dirs: Sequence[Path | str] = ()) -> EncounterSpec:
    """Like :func:`load_encounter` for data already read with its lines (a variant of a file, changed in memory)."""
    return _load(marked, base_dir, allow_dirs)


def validate_encounter(path: Path | str, allow_dirs: Sequence[Path | str] = ()) -> list[Problem]:
    """Every problem of an encounter file (an empty list when it loads)."""
    try:
        load_encounter(path, allow_dirs)
    except InputError as err:
        return list(err.problems)
    return []


# ----- the pipeline -----


def _load(marked: Marked, base_dir: Path, allow_dirs: Sequence[Path | str]) -> EncounterSpec:
    report = Report(marked)
    data = marked.data
    if not isinstance(data, dict):
        empty = "the file is empty: " if data is None else ""
        report.add((), f"{empty}an encounter file is a mapping with name, sides and combatants "
                       "(see docs/encounters.md)")
        raise InputError(report.sorted())
    folders = Folders.of(base_dir, allow_dirs)
    document = _validate(EncounterFile, data, marked, (), report)
    library, unloaded = _library(data, marked, base_dir, folders, report)
    ruleset = _ruleset(data.get("ruleset"), marked, base_dir, folders, report)
    # the parts come from the whole file when it validated (no second validation, no validator of their own to
    # build); else each part is validated alone so the checks below still see the parts that are right
    raw_map = data.get("map")
    map_spec = vision_legend(None if raw_map is None else document.map if document is not None
                             else _part(MapSpec, raw_map), data)
    map_spec = hazards_legend(map_spec, data)
    map_spec = objects_legend(map_spec, data)
    layout = build_map(map_spec, report) if map_spec is not None else None
    check_vision(data, map_spec, (layout.board.width, layout.board.height) if layout else None, report)
    check_hazards(data, map_spec, (layout.board.width, layout.board.height) if layout else None, report)
    check_objects(data, map_spec, layout.board if layout else None, library, report)
    sides = _sides(data.get("sides"), data.get("combatants"), report)
    entries = [Declared(i, spec, resolve_creature(library, spec, ("combatants", i), report, unloaded))
               for i, spec in (enumerate(document.combatants) if document is not None
                               else _items(CombatantSpec, data.get("combatants")))]
    _check_total(entries, report)
    roster = build_roster(entries, sides, ruleset, layout.board if layout else None, _zones(layout), report,
                          map_given="map" in data and data["map"] is not None)
    check_standing(data, map_spec, roster, library, report)
    if report or document is None:
        raise InputError(report.sorted())
    return EncounterSpec(marked.file, document, ruleset, library, layout.board if layout else None,
                         _zones(layout), roster, layout.exits if layout else ())


def _validate(model: type[Model], data: Any, marked: Marked, prefix: PathKey, report: Report) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        report.extend(validation_problems(err, marked, prefix, model))
        return None


def _part(model: type[BaseModel], data: Any) -> Any:
    """A part validated on its own (its problems are already reported by the whole file's validation)."""
    try:
        return model.model_validate(data)
    except ValidationError:
        return None


def _items(model: type[BaseModel], data: Any) -> list[tuple[int, Any]]:
    """The list items that validate, with their index in the file."""
    items = data if isinstance(data, list) else []
    return [(i, v) for i, v in ((i, _part(model, raw)) for i, raw in enumerate(items)) if v is not None]


def _zones(layout: MapResult | None) -> dict[str, Any]:
    return dict(layout.zones) if layout else {}


# ----- library: shipped + content files + inline stat blocks -----


def _library(data: dict[str, Any], marked: Marked, base_dir: Path, folders: Folders,
             report: Report) -> tuple[Library, frozenset[str]]:
    """The library for this encounter, and the creature ids of content that did not load.

    Those ids are not reported again as unknown where combatants use them.
    """
    library = default_library()
    unloaded: set[str] = set()
    content = data.get("content")
    paths = []
    for i, name in enumerate(content if isinstance(content, list) else []):
        if not isinstance(name, str):
            continue
        path = base_dir / name
        refused = folders.refusal(name, path) or _itself(name, path, marked.file)
        skipped = walk(path, CONTENT_SUFFIXES).skipped if refused is None and path.is_dir() else ()
        if refused is not None:
            report.add(("content", i), refused)
        elif not path.exists():
            report.add(("content", i), f"no such content file or folder: {path}")
        elif skipped:
            report.extend(Problem(marked.file, f"content[{i}]", marked.line_of(("content", i)), f"{file}: {why}")
                          for file, why in skipped)
        else:
            paths.append(path)
    if paths:
        try:
            library = library.merge(load_content_files(paths, library))
        except InputError as err:
            report.extend(err.problems)
            unloaded |= _raw_creature_ids(paths)
    inline = [(i, c["creature"]) for i, c in enumerate(data.get("combatants") or [])
              if isinstance(c, dict) and isinstance(c.get("creature"), dict)]
    if not inline:
        return library, frozenset(unloaded)
    lines: dict[PathKey, int] = {(): marked.line_of(()) or 1, ("creatures",): marked.line_of(("combatants",)) or 1}
    for k, (i, _raw) in enumerate(inline):
        lines.update({("creatures", k, *p): n for p, n in subtree(marked, ("combatants", i, "creature")).lines.items()})
    rerooted = Marked({"creatures": [raw for _i, raw in inline]}, lines, marked.file)
    try:
        return library.merge(library_from_marked(rerooted, library)), frozenset(unloaded)
    except InputError as err:
        report.extend(_inline_problem(p, inline) for p in err.problems)
        return library, frozenset(unloaded | {str(raw.get("id")) for _i, raw in inline})


def _itself(name: str, path: Path, file: str) -> str | None:
    """Why a content path that names the encounter file or its own folder is refused (else None)."""
    real = os.path.realpath(path)
    if real == os.path.realpath(file):
        return f"{name!r} is the encounter file itself, not a content file"
    if real == os.path.realpath(Path(file).parent):
        return f"{name!r} is the encounter's own folder (which holds the encounter file): put content in a subfolder"
    return None


def _raw_creature_ids(paths: Sequence[Path]) -> set[str]:
    """Creature ids written in content files, read without checking them."""
    ids: set[str] = set()
    for file in (f for p in paths for f in content_files(p)):
        try:
            data = load_yaml(file).data
        except InputError:
            continue
        creatures = data.get("creatures") if isinstance(data, dict) else None
        ids |= {c["id"] for c in (creatures if isinstance(creatures, list) else [])
                if isinstance(c, dict) and isinstance(c.get("id"), str)}
    return ids


def _inline_problem(problem: Problem, inline: Sequence[tuple[int, Any]]) -> Problem:
    found = _INLINE_PATH.match(problem.path)
    if not found:
        return moved(problem, "creatures", "combatants")
    index = inline[int(found.group(1))][0]
    return moved(problem, found.group(0), f"combatants[{index}].creature")


def _check_total(entries: list[Declared], report: Report) -> None:
    """An encounter fields at most MAX_COMBATANTS creatures: the AI weighs every foe on every turn."""
    total = sum(e.count for e in entries)
    if total > MAX_COMBATANTS:
        report.add(("combatants",), f"the combatants add {total} creatures; an encounter fields at most "
                                    f"{MAX_COMBATANTS}")


# ----- ruleset -----


def _ruleset(raw: Any, marked: Marked, base_dir: Path, folders: Folders, report: Report) -> Ruleset:
    if raw is None or (isinstance(raw, str) and raw in PRESETS):
        return preset(raw) if raw else preset()
    if isinstance(raw, str) and raw.endswith(RULESET_SUFFIXES):
        path = base_dir / raw
        refused = folders.refusal(raw, path)
        if refused is not None:
            report.add(("ruleset",), refused)
            return preset()
        if not path.exists():
            report.add(("ruleset",), f"no such house-rule file: {path}")
            return preset()
        if not path.is_file():
            report.add(("ruleset",), f"{raw!r} is a folder, not a house-rule file")
            return preset()
        try:
            return load_ruleset(path)
        except InputError as err:
            report.extend(err.problems)
            return preset()
    if isinstance(raw, str):
        hint = suggestion_text(close_matches(raw, PRESETS))
        report.add(("ruleset",), f"unknown ruleset preset {raw!r} (presets: {', '.join(PRESETS)}; or name a "
                                 f"house-rule .yaml file){hint}")
        return preset()
    if isinstance(raw, dict):
        try:
            return ruleset_from_data(subtree(marked, ("ruleset",)))
        except InputError as err:
            report.extend(moved(p, "", "ruleset") for p in err.problems)
    return preset()


# ----- sides -----


def _sides(raw: Any, combatants: Any, report: Report) -> list[str] | None:
    """The declared side names (also from entries that failed the schema, to avoid follow-on problems).

    None when ``sides`` is not a list (missing or malformed, which the schema reports).
    """
    if not isinstance(raw, list):
        return None
    names = [str(item["name"]) for item in raw if isinstance(item, dict) and isinstance(item.get("name"), str)]
    if len(raw) < 2:
        report.add(("sides",), f"an encounter needs at least two sides; this one declares {len(raw)}")
    used = {c.get("side") for c in (combatants if isinstance(combatants, list) else []) if isinstance(c, dict)}
    first: dict[str, int] = {}
    ambusher: int | None = None
    for i, side in _items(SideSpec, raw):
        if side.name in first:
            report.add(("sides", i, "name"), f"side {side.name!r} is declared twice "
                                             f"(first at sides[{first[side.name]}])")
        elif side.name not in used and isinstance(combatants, list):
            report.add(("sides", i, "name"), f"side {side.name!r} has no combatants")
        first.setdefault(side.name, i)
        if side.ambush and ambusher is not None:
            report.add(("sides", i, "ambush"), f"only one side can ambush (SUR-1); sides[{ambusher}] already does")
        if side.ambush and ambusher is None:
            ambusher = i
    return names


__all__ = ["encounter_from_marked", "encounter_from_text", "load_encounter", "validate_encounter"]
