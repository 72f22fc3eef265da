"""YAML loading that remembers where every value came from, and errors that say so.

:func:`load_yaml` returns plain Python data plus a map from field paths (``("weapons", 2, "damage")``)
to 1-based line numbers. :func:`problems_from_validation` turns a pydantic ``ValidationError`` into
:class:`Problem` records naming the file, the field path and the line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

PathKey = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file."""

    file: str
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path or '<top>'}: {self.message}"


class InputError(ValueError):
    """One or more problems in input files; nothing was loaded."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Marked:
    """Data read from a YAML file with the line of every field path."""

    data: Any
    lines: dict[PathKey, int]
    file: str

    def line_of(self, path: Iterable[str | int]) -> int | None:
        """The line of ``path``, or of its nearest ancestor that has one."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), None)


def _construct(node: yaml.Node, path: PathKey, lines: dict[PathKey, int], file: str) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.safe_load(yaml.serialize(key_node))
            if key in out:
                raise InputError([Problem(file, _dotted((*path, key)), key_node.start_mark.line + 1,
                                          "duplicate key")])
            child = (*path, key)
            lines[child] = key_node.start_mark.line + 1
            out[key] = _construct(value_node, child, lines, file)
            lines[child] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*path, i), lines, file) for i, item in enumerate(node.value)]
    return yaml.safe_load(yaml.serialize(node))


def _dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_yaml(text: str, file: str = "<string>") -> Marked:
    """Parse YAML text, recording the line of every field.

    Raises:
        InputError: On a YAML syntax error (with its line) or a duplicate key.
    """
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise InputError([Problem(file, "", line, f"YAML syntax: {err.problem}")]) from None
    lines: dict[PathKey, int] = {}
    data = None if root is None else _construct(root, (), lines, file)
    return Marked(data, lines, file)


def load_yaml(path: Path) -> Marked:
    """Read and parse a YAML file (see :func:`parse_yaml`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise InputError([Problem(str(path), "", None, f"cannot read: {err.strerror}")]) from None
    return parse_yaml(text, str(path))


def problems_from_validation(err: ValidationError, marked: Marked, prefix: PathKey = ()) -> list[Problem]:
    """Turn pydantic's errors into problems naming the file, field path and line."""
    found: list[Problem] = []
    for item in err.errors():
        loc = tuple(p for p in item["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        full = (*prefix, *loc)
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = f"unknown key {loc[-1]!r}" if loc else "unknown key"
        found.append(Problem(marked.file, _dotted(full), marked.line_of(full), message))
    return found


dotted = _dotted
