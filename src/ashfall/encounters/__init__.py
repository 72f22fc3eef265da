"""Encounter files: a documented YAML format describing a fight, loaded into the turn engine.

``load_encounter(path)`` checks a file completely (every problem with file, field path and line)
and returns an :class:`EncounterSpec`; ``build(spec)`` turns it into an un-started engine plus a
:class:`BuildInfo`. ``validate_command(path)`` is the body of ``ashfall validate FILE``. The format
is described in docs/encounters.md; examples ship in the top-level ``encounters/`` folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ashfall.encounters.loader import encounter_from_text, load_encounter, validate_encounter
from ashfall.encounters.spec import EncounterSpec, RosterEntry, Tactics
from ashfall.files.paths import walk
from ashfall.files.yaml_marks import InputError

if TYPE_CHECKING:
    from ashfall.encounters.building import BuildInfo, ControllerFactory, SideInfo, build

_BUILDING = frozenset({"BuildInfo", "ControllerFactory", "SideInfo", "build"})
"""The names of :mod:`ashfall.encounters.building`, served from here when first read: building a fight needs the
turn engine, checking a file does not, and ``ashfall validate`` has a start-up budget."""


def __getattr__(name: str) -> Any:
    if name in _BUILDING:
        from ashfall.encounters import building

        return getattr(building, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ENCOUNTER_SUFFIXES = (".yaml", ".yml")

EXIT_OK = 0
EXIT_PROBLEMS = 1


def encounters_root() -> Path:
    """The folder of the shipped example encounters (the repository's top-level ``encounters/``)."""
    import ashfall

    package = Path(ashfall.__file__).resolve().parent
    checkout = package.parents[1] / "encounters"
    return checkout if checkout.is_dir() else package / "_encounters"


def shipped_encounters() -> list[Path]:
    """The shipped example encounter files, sorted."""
    return encounter_files(encounters_root())


def encounter_files(path: Path) -> list[Path]:
    """``path`` itself, or the encounter files directly inside a folder (sorted; symbolic links not followed)."""
    if path.is_dir():
        return list(walk(path, ENCOUNTER_SUFFIXES, recursive=False).files)
    return [path]


def summary(spec: EncounterSpec) -> str:
    """One line about a loaded encounter: sides, map and ruleset."""
    sides = " vs ".join(f"{s.name} ({len(spec.members(s.name))})" for s in spec.sides)
    where = f"map {spec.board.width}x{spec.board.height}" if spec.board else "theater of mind"
    return f"{spec.name}: {sides}; {where}; ruleset {spec.ruleset.name}"


def validate_command(path: Path | str, allow_dirs: Sequence[Path | str] = ()) -> tuple[int, list[str]]:
    """Check an encounter file (or every encounter file in a folder) for ``ashfall validate``.

    Files the encounters name are read from their own folders and from ``allow_dirs`` only. In a folder,
    symbolic links (and FIFOs or devices) are reported and not read.

    Returns:
        The exit code (0 when every file loads, 1 otherwise) and the lines to print: one ``ok`` line
        per good file, every problem of a bad one, and a count of the problems.
    """
    lines: list[str] = []
    problems = 0
    files = encounter_files(Path(path))
    if Path(path).is_dir():
        skipped = walk(Path(path), ENCOUNTER_SUFFIXES, recursive=False).skipped
        lines.extend(f"{file}: <top>: {why}" for file, why in skipped)
        problems += len(skipped)
    for file in files:
        try:
            spec = load_encounter(file, allow_dirs)
        except InputError as err:
            lines.extend(str(p) for p in err.problems)
            problems += len(err.problems)
            continue
        lines.append(f"{file}: ok: {summary(spec)}")
    if not files:
        lines.append(f"{path}: no encounter files")
        return EXIT_PROBLEMS, lines
    if problems:
        lines.append(f"{problems} problem{'s' if problems != 1 else ''} found")
        return EXIT_PROBLEMS, lines
    return EXIT_OK, lines


__all__ = [
    "BuildInfo",
    "ControllerFactory",
    "EncounterSpec",
    "RosterEntry",
    "SideInfo",
    "Tactics",
    "build",
    "encounter_files",
    "encounter_from_text",
    "encounters_root",
    "load_encounter",
    "shipped_encounters",
    "summary",
    "validate_command",
    "validate_encounter",
]
