"""Collecting problems while checking an encounter file: each names the file, field path and line.

Also re-rooting: parts of an encounter (its house rules, its inline stat blocks) are checked by the
ruleset and content loaders as if they were files of their own; :func:`subtree` hands those loaders
the part with its line marks, and :func:`moved` puts the problems they report back under the
part's path in the encounter file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ashfall.files.yaml_marks import Marked, PathKey, Problem, dotted


@dataclass(slots=True)
class Report:
    """The problems found so far in one encounter file (and the files it names)."""

    marked: Marked
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: PathKey, message: str, line: int | None = None) -> None:
        """Record a problem at a field path (its line looked up unless given)."""
        line = self.marked.line_of(path) if line is None else line
        self.problems.append(Problem(self.marked.file, dotted(path), line, message))

    def extend(self, problems: Iterable[Problem]) -> None:
        """Record problems found by another loader."""
        self.problems.extend(problems)

    def sorted(self) -> list[Problem]:
        """The encounter file's problems by line, then those of the files it names (by file, line)."""
        own = self.marked.file
        return sorted(self.problems, key=lambda p: (p.file != own, p.file if p.file != own else "", p.line or 0))

    def __bool__(self) -> bool:
        return bool(self.problems)


def subtree(marked: Marked, prefix: PathKey) -> Marked:
    """The part of ``marked`` under ``prefix`` as a document of its own (lines kept)."""
    n = len(prefix)
    lines = {path[n:]: line for path, line in marked.lines.items() if path[:n] == prefix}
    return Marked(_at(marked.data, prefix), lines, marked.file)


def moved(problem: Problem, old: str, new: str) -> Problem:
    """A problem whose path started with ``old`` (or was empty) re-rooted under ``new``."""
    path = problem.path
    if old and (path == old or path.startswith((f"{old}.", f"{old}["))):
        path = new + path[len(old):]
    elif not old:
        path = new + ("" if not path else path if path.startswith("[") else f".{path}")
    return Problem(problem.file, path, problem.line, problem.message)


def _at(data: object, prefix: PathKey) -> object:
    for part in prefix:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


__all__ = ["Report", "moved", "subtree"]
