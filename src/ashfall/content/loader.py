"""Loading content YAML into a :class:`~ashfall.content.library.Library`, all-or-nothing.

A content file is a mapping with any of the keys ``creatures``, ``weapons``, ``armor``,
``shields`` and ``objects``, each a list of entries (see docs/content.md). Loading validates every entry with the
schema, checks that ids are well formed and unique, and resolves every reference (a creature's
weapons, armor and shield). Every problem in every file is collected and raised together as one
:class:`~ashfall.files.yaml_marks.InputError` naming the file, the field path and the line; nothing
half-loads.

The shipped library lives in the repository's top-level ``content/`` folder (a checkout or an
editable install) or in the wheel's ``ashfall/_content`` copy; :func:`default_library` loads it once.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType, UnionType
from typing import Any

from pydantic import BaseModel, ValidationError

import ashfall
from ashfall.content.library import Kind, Library, Origin, close_matches, suggestion_text
from ashfall.content.names import TALENT_NAMES
from ashfall.content.schema import Armor, Creature, Model, ObjectTemplate, Shield, Weapon
from ashfall.core.types import Condition
from ashfall.files.paths import Folders, walk
from ashfall.files.yaml_marks import InputError, Marked, PathKey, Problem, dotted, load_yaml, parse_yaml
from ashfall.files.yaml_marks import problems_from_validation as _raw_problems

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""Ids are lowercase words and digits joined by hyphens: ``bandit-leader``, ``submachine-gun``."""

SECTIONS: Mapping[str, tuple[Kind, type[Model]]] = MappingProxyType({
    "creatures": ("creature", Creature),
    "weapons": ("weapon", Weapon),
    "armor": ("armor", Armor),
    "shields": ("shield", Shield),
    "objects": ("object", ObjectTemplate),
})
"""The keys a content file may have, with the kind and schema of their entries."""

CONTENT_SUFFIXES = (".yaml", ".yml")

CONDITION_NAMES = frozenset(c.value for c in Condition)
"""What ``condition_immunities`` may name."""

PROFICIENCY_NAMES = frozenset({"simple", "martial", "exotic", "improvised", "shields"})
"""Categories ``weapon_proficiencies`` may name (besides weapon ids)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """One list item of a content file: its raw data and, if it validated, its model."""

    kind: Kind
    marked: Marked
    path: PathKey
    raw: Any
    model: Any  # None when the entry failed validation

    @property
    def raw_id(self) -> str | None:
        value = self.raw.get("id") if isinstance(self.raw, dict) else None
        return value if isinstance(value, str) else None

    def raw_field(self, name: str) -> Any:
        return self.raw.get(name) if isinstance(self.raw, dict) else None

    def origin(self) -> Origin:
        return Origin(self.marked.file, self.marked.line_of(self.path), dotted(self.path))

    def problem(self, *sub: str | int, message: str) -> Problem:
        full = (*self.path, *sub)
        return Problem(self.marked.file, dotted(full), self.marked.line_of(full), message)


# ----- where the shipped library is -----


def library_root() -> Path:
    """The folder of the shipped content.

    The repository's top-level ``content/`` when running from a checkout or an editable install,
    else the copy that the wheel carries as ``ashfall/_content``.
    """
    package = Path(ashfall.__file__).resolve().parent
    checkout = package.parents[1]
    if (checkout / "content").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout / "content"
    return package / "_content"


def content_files(root: Path) -> list[Path]:
    """Every content file under ``root`` (recursively, sorted; hidden files skipped, symbolic links not followed)."""
    if root.is_file():
        return [root]
    return list(walk(root, CONTENT_SUFFIXES).files)


def _skipped(roots: Iterable[Path]) -> list[Problem]:
    """A problem for each link or non-regular file met while walking the folders (they are not read)."""
    return [Problem(str(path), "", None, why) for root in roots if root.is_dir()
            for path, why in walk(root, CONTENT_SUFFIXES).skipped]


def _outside(paths: Iterable[Path], within: Sequence[Path] | None) -> list[Problem]:
    """A problem for each path that does not lead inside ``within`` (or is not a file or folder)."""
    if within is None:
        return []
    folders = Folders(tuple(within))
    return [Problem(str(p), "", None, why) for p in paths
            if (why := folders.refusal(str(p), p)) is not None]


# ----- public loaders -----


def load_library(root: Path | None = None) -> Library:
    """Load every content file under ``root`` (default: :func:`library_root`) into a library.

    Only regular files under ``root`` are read: symbolic links met while walking it are reported, not followed.

    Raises:
        InputError: With every problem found in every file; nothing is returned on error.
    """
    root = library_root() if root is None else root
    if not root.exists():
        raise InputError([Problem(str(root), "", None, "no such content folder")])
    skipped = _skipped([root])
    if skipped:
        raise InputError(skipped)
    return _build([str(p) for p in content_files(root)], _read, Library())


@cache
def default_library() -> Library:
    """The shipped library, loaded once and cached."""
    return load_library()


def load_content_files(paths: Iterable[Path], base: Library | None = None, *,
                       within: Sequence[Path] | None = None) -> Library:
    """Load user content files (or folders of them) that add to ``base`` (default: the shipped library).

    The returned library holds only the new entries; their references may name entries of
    ``base`` or of any of ``paths``. Combine with ``base.merge(fragment)`` (or use
    :func:`extended_library`). Folders are walked without following symbolic links; devices and FIFOs
    are never read.

    Args:
        paths: Content files or folders of them.
        base: The library they add to.
        within: When given, every path must lead (links and ``..`` followed) inside one of these folders:
            pass the folder of the file that named the paths, plus any folders the user allowed.

    Raises:
        InputError: With every problem, including ids that clash with ``base`` and paths outside ``within``.
    """
    paths = list(paths)
    refused = _outside(paths, within) + _skipped(paths)
    if refused:
        raise InputError(refused)
    names = [str(f) for p in paths for f in (content_files(p) if p.is_dir() else [p])]
    return _build(names, _read, default_library() if base is None else base)


def load_content_file(path: Path, base: Library | None = None) -> Library:
    """Load one user content file that adds to ``base`` (see :func:`load_content_files`)."""
    return load_content_files([path], base)


def library_from_text(text: str, file: str = "<string>", base: Library | None = None) -> Library:
    """Like :func:`load_content_file` for YAML text (used by tests and the docs examples)."""
    return _build([file], lambda name: parse_yaml(text, name), default_library() if base is None else base)


def library_from_marked(marked: Marked, base: Library | None = None) -> Library:
    """Like :func:`library_from_text` for data already parsed with line marks (e.g. re-rooted inline stat blocks)."""
    return _build([marked.file], lambda _: marked, default_library() if base is None else base)


def extended_library(paths: Iterable[Path], base: Library | None = None) -> Library:
    """``base`` (default: the shipped library) plus the entries of user content files."""
    base = default_library() if base is None else base
    return base.merge(load_content_files(paths, base))


# ----- the pipeline -----


def _read(name: str) -> Marked:
    return load_yaml(Path(name))


def _build(names: Sequence[str], read: Callable[[str], Marked], base: Library) -> Library:
    problems: list[Problem] = []
    entries: list[_Entry] = []
    for name in names:
        try:
            marked = read(name)
        except InputError as err:
            problems.extend(err.problems)
            continue
        found, wrong = _entries_of(marked)
        entries.extend(found)
        problems.extend(wrong)
    library, wrong = _assemble(entries, base)
    problems.extend(wrong)
    if problems:
        order = {name: i for i, name in enumerate(names)}
        raise InputError(sorted(problems, key=lambda p: (order.get(p.file, len(order)), p.line or 0)))
    return library


def _entries_of(marked: Marked) -> tuple[list[_Entry], list[Problem]]:
    data = marked.data
    if data is None:  # an empty content file is a placeholder in a library folder, not a mistake
        return [], []
    keys = ", ".join(SECTIONS)
    if not isinstance(data, dict):
        return [], [Problem(marked.file, "", marked.line_of(()), f"a content file is a mapping with the keys {keys}")]
    entries: list[_Entry] = []
    problems: list[Problem] = []
    for key, items in data.items():
        if key not in SECTIONS:
            hint = suggestion_text(close_matches(str(key), SECTIONS))
            problems.append(Problem(marked.file, str(key), marked.line_of((key,)),
                                    f"unknown key {key!r} (a content file has {keys}){hint}"))
            continue
        if items is None:
            continue
        kind, schema = SECTIONS[key]
        if not isinstance(items, list):
            problems.append(Problem(marked.file, key, marked.line_of((key,)), f"{key} is a list of {kind} entries"))
            continue
        for index, item in enumerate(items):
            path: PathKey = (key, index)
            model: Any = None
            try:
                model = schema.model_validate(item)
            except ValidationError as err:
                problems.extend(_validation_problems(err, marked, path, schema))
            entry = _Entry(kind, marked, path, item, model)
            entries.append(entry)
            problems.extend(_id_problems(entry))
    return entries, problems


def _id_problems(entry: _Entry) -> list[Problem]:
    ids: list[tuple[PathKey, str]] = [(("id",), entry.raw_id)] if entry.raw_id else []
    naturals = entry.raw_field("natural_weapons") if entry.kind == "creature" else None
    if isinstance(naturals, list):
        ids += [(("natural_weapons", i, "id"), w["id"]) for i, w in enumerate(naturals)
                if isinstance(w, dict) and isinstance(w.get("id"), str)]
    return [entry.problem(*sub, message=f"id {value!r} is not lowercase words joined by hyphens (e.g. 'bandit-leader')")
            for sub, value in ids if not ID_PATTERN.match(value)]


def _assemble(entries: list[_Entry], base: Library) -> tuple[Library, list[Problem]]:
    """Check ids and references across all entries; build the library from the valid ones."""
    problems: list[Problem] = []
    chosen: dict[Kind, dict[str, _Entry]] = {"creature": {}, "weapon": {}, "armor": {}, "shield": {}, "object": {}}
    for entry in entries:
        entry_id = entry.raw_id
        if entry_id is None:
            continue
        earlier = chosen[entry.kind].get(entry_id)
        if earlier is not None:
            problems.append(entry.problem("id", message=f"duplicate {entry.kind} id {entry_id!r} "
                                                       f"(first defined at {earlier.origin()})"))
        elif base.has(entry.kind, entry_id):
            where = base.origin(entry.kind, entry_id)
            problems.append(entry.problem("id", message=f"{entry.kind} id {entry_id!r} is already in the library"
                                                       + (f" (at {where})" if where else "")))
        else:
            chosen[entry.kind][entry_id] = entry
    known: dict[Kind, set[str]] = {kind: set(base.ids(kind)) | set(chosen[kind]) for kind in chosen}
    for entry in entries:
        if entry.kind == "creature":
            problems.extend(_reference_problems(entry, known))
    valid = {kind: {k: e for k, e in items.items() if e.model is not None} for kind, items in chosen.items()}
    library = Library(
        creature_map={k: e.model for k, e in valid["creature"].items()},
        weapon_map={k: e.model for k, e in valid["weapon"].items()},
        armor_map={k: e.model for k, e in valid["armor"].items()},
        shield_map={k: e.model for k, e in valid["shield"].items()},
        object_map={k: e.model for k, e in valid["object"].items()},
        origins={(kind, k): e.origin() for kind, items in valid.items() for k, e in items.items()},
    )
    return library, problems


def _reference_problems(entry: _Entry, known: Mapping[Kind, set[str]]) -> list[Problem]:
    """Unknown or repeated weapon ids, unknown armor and shield, natural weapons that reuse an id."""
    problems: list[Problem] = []
    listed: set[str] = set()
    weapons = entry.raw_field("weapons")
    for index, weapon_id in enumerate(weapons if isinstance(weapons, list) else []):
        if not isinstance(weapon_id, str):
            continue
        if weapon_id not in known["weapon"]:
            problems.append(entry.problem("weapons", index, message=_unknown("weapon", weapon_id, known["weapon"])))
        elif weapon_id in listed:
            problems.append(entry.problem("weapons", index, message=f"weapon {weapon_id!r} is listed twice"))
        listed.add(weapon_id)
    naturals = entry.raw_field("natural_weapons")
    for index, natural in enumerate(naturals if isinstance(naturals, list) else []):
        natural_id = natural.get("id") if isinstance(natural, dict) else None
        if isinstance(natural_id, str) and natural_id in listed:
            problems.append(entry.problem("natural_weapons", index, "id",
                                          message=f"the creature already has a weapon with id {natural_id!r}"))
        listed.add(str(natural_id))
    problems.extend(_name_problems(entry, "condition_immunities", "condition", CONDITION_NAMES))
    problems.extend(_name_problems(entry, "talents", "talent or spell", TALENT_NAMES))
    problems.extend(_name_problems(entry, "weapon_proficiencies", "weapon category or weapon id",
                                   PROFICIENCY_NAMES | known["weapon"]))
    gear: tuple[tuple[str, Kind], ...] = (("armor", "armor"), ("shield", "shield"))
    for field, kind in gear:
        ref = entry.raw_field(field)
        if isinstance(ref, str) and ref not in known[kind]:
            problems.append(entry.problem(field, message=_unknown(kind, ref, known[kind])))
    return problems


def _name_problems(entry: _Entry, field: str, what: str, allowed: set[str] | frozenset[str]) -> list[Problem]:
    """Free-text names in a list field that are not among ``allowed``."""
    names = entry.raw_field(field)
    return [entry.problem(field, index, message=_unknown(what, name, allowed))
            for index, name in enumerate(names if isinstance(names, list) else [])
            if isinstance(name, str) and name not in allowed]


def _unknown(kind: str, wanted: str, known: Iterable[str]) -> str:
    return f"unknown {kind} {wanted!r}" + suggestion_text(close_matches(wanted, known))


# ----- friendlier validation messages -----


def _validation_problems(err: ValidationError, marked: Marked, prefix: PathKey, schema: type[Model]) -> list[Problem]:
    """Problems for a failed entry: file, field path, line, with suggestions for misspellings."""
    out: list[Problem] = []
    for item, problem in zip(err.errors(), _raw_problems(err, marked, prefix), strict=True):
        loc = tuple(p for p in item["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        path, message = problem.path, problem.message.removeprefix("Value error, ")
        if loc and loc[-1] == "[key]":
            path = dotted((*prefix, *loc[:-1]))
            message = f"key {loc[-2]!r}: {message}"
        if item["type"] == "extra_forbidden" and loc:
            allowed = _keys_at(schema, loc[:-1])
            message += suggestion_text(close_matches(str(loc[-1]), allowed))
        elif item["type"] == "enum" and isinstance(item.get("input"), str):
            choices = re.findall(r"'([^']*)'", str(item.get("ctx", {}).get("expected", "")))
            message = f"{item['input']!r} is not one of: {', '.join(choices)}"
            message += suggestion_text(close_matches(item["input"], choices))
        out.append(Problem(problem.file, path, problem.line, message))
    return out


validation_problems = _validation_problems
"""Friendlier problems for any schema's ``ValidationError`` (suggestions for misspelt keys and choices)."""


def _keys_at(schema: type[BaseModel], loc: tuple[str | int, ...]) -> list[str]:
    """The field names of the model found by following ``loc`` from ``schema`` (empty if none)."""
    current: Any = schema
    for part in loc:
        current = _unwrap(current)
        if isinstance(part, int):
            args = [a for a in typing.get_args(current) if a is not Ellipsis]
            current = args[0] if args else None
        elif isinstance(current, type) and issubclass(current, BaseModel) and part in current.model_fields:
            current = current.model_fields[part].annotation
        else:
            return []
    current = _unwrap(current)
    return list(current.model_fields) if isinstance(current, type) and issubclass(current, BaseModel) else []


def _unwrap(annotation: Any) -> Any:
    """``X | None`` -> ``X``."""
    if isinstance(annotation, UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


__all__ = [
    "SECTIONS",
    "content_files",
    "default_library",
    "extended_library",
    "library_from_marked",
    "library_from_text",
    "library_root",
    "load_content_file",
    "load_content_files",
    "load_library",
    "validation_problems",
]
