"""YAML loading that remembers where every value came from, and errors that say so.

:func:`load_yaml` returns plain Python data plus a map from field paths (``("weapons", 2, "damage")``)
to 1-based line numbers. :func:`problems_from_validation` turns a pydantic ``ValidationError`` into
:class:`Problem` records naming the file, the field path and the line.

Input files are hostile until read: this module owns the limits every YAML input gets. A file is read
only if it is a regular file of at most :data:`MAX_FILE_BYTES`; it must be UTF-8 text without control
characters and hold one document of at most :data:`MAX_VALUES` values (aliases counted as expanded) nested
at most :data:`MAX_DEPTH` deep. Tags (``!!python/object``, ``!foo``), merge keys (``<<:``), lists or
mappings used as keys and duplicate keys are refused. Each of these is one :class:`Problem` naming the
file and the line, never a traceback or a hang.

Speed: the document is built in one pass over the parser's events (libyaml's when PyYAML has it), so a
line costs a dict entry, not a re-serialisation of the value as the first version of this module did.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

PathKey = tuple[str | int, ...]

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest YAML input read (5 MiB): a 20,000-creature content file fits, a runaway file does not."""

MAX_VALUES = 1_000_000
"""Most values (scalars, lists and mappings) one document may hold, each alias counted as what it expands to."""

MAX_DEPTH = 50
"""Deepest nesting of lists and mappings; the formats need fewer than ten levels."""

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (about ten times faster), else the pure-Python one."""

_RESOLVER: Any = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What YAML forbids in a stream (YAML 1.1 §5.1, as PyYAML's reader): control characters and surrogates."""


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
    """Data read from a YAML file with the line of every field path.

    Values reached through an alias carry no lines of their own: their problems are reported at the
    line of the alias (the nearest ancestor that has a line).
    """

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


def _dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _fail(file: str, path: PathKey, line: int | None, message: str) -> InputError:
    return InputError([Problem(file, _dotted(path), line, message)])


# ----- building the document from parser events -----


class _Frame:
    """An open list or mapping: the container, its path, and (for a mapping) the key waiting for its value."""

    __slots__ = ("anchor", "container", "is_map", "key", "key_line", "path", "start_count")

    def __init__(self, container: Any, path: PathKey, anchor: str | None, start_count: int) -> None:
        self.container = container
        self.path = path
        self.is_map = isinstance(container, dict)
        self.key: Any = _NO_KEY
        self.key_line = 0
        self.anchor = anchor
        self.start_count = start_count


_NO_KEY = object()


class _Builder:
    """Builds plain data and the line map from one document's events, within the limits."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[PathKey, int] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.open_anchors: set[str] = set()
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.count = 0
        self.scalars: dict[str, Any] = {}  # plain scalar text -> its value (content repeats values a lot)

    # where the next value goes

    def _here(self) -> PathKey:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if top.is_map:
            return top.path if top.key is _NO_KEY else (*top.path, top.key)
        return (*top.path, len(top.container))

    def _count(self, n: int, line: int, alias: str = "") -> None:
        self.count += n
        if self.count > MAX_VALUES:
            why = f" once alias *{alias} is expanded ({n:,} values)" if alias else ""
            raise _fail(self.file, self._here(), line, f"more than {MAX_VALUES:,} values in one file{why}")

    def _place(self, value: Any, line: int, is_collection: bool) -> PathKey:
        """Put a value where the document expects one; returns its path."""
        stack = self.stack
        if not stack:
            self.root = value
            self.lines[()] = line
            return ()
        top = stack[-1]
        if not top.is_map:
            path = (*top.path, len(top.container))
            self.lines[path] = line
            top.container.append(value)
            return path
        if top.key is _NO_KEY:
            self._key(top, value, line, is_collection)
            return top.path
        path = (*top.path, top.key)
        self.lines[path] = top.key_line
        top.container[top.key] = value
        top.key = _NO_KEY
        return path

    def _key(self, top: _Frame, key: Any, line: int, is_collection: bool) -> None:
        if is_collection or isinstance(key, list | dict):
            raise _fail(self.file, top.path, line, "a list or mapping cannot be a key; keys are plain words")
        if key in top.container:
            raise _fail(self.file, (*top.path, key), line, "duplicate key")
        top.key = key
        top.key_line = line

    # events

    def scalar(self, event: Any) -> None:
        line = event.start_mark.line + 1
        self._count(1, line)
        if event.tag is not None:
            raise self._tag(event.tag, line)
        text: str = event.value
        if event.implicit[0]:  # a plain (unquoted) scalar: its type comes from its text
            value = self.scalars.get(text, _NO_KEY)
            if value is _NO_KEY:
                value = self._plain(text, line)
                self.scalars[text] = value
        else:
            value = text
        self._place(value, line, False)
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, 1)

    def _plain(self, text: str, line: int) -> Any:
        tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
        if tag == _MERGE_TAG:
            raise _fail(self.file, self._here(), line,
                        "merge keys (<<) are not supported: write the keys out (an alias may repeat a whole value)")
        constructor = _CONSTRUCTOR.yaml_constructors.get(tag)
        if constructor is None:
            raise _fail(self.file, self._here(), line, f"cannot read {text!r}; quote it if it is text")
        try:
            return constructor(_CONSTRUCTOR, yaml.ScalarNode(tag, text))
        except (ValueError, OverflowError) as err:  # 5,000-digit integers, 2024-13-45
            shown = text if len(text) <= 40 else text[:37] + "..."
            why = "too many digits" if "digits" in str(err) else str(err)
            raise _fail(self.file, self._here(), line, f"cannot read {shown!r}: {why}") from None

    def _tag(self, tag: str, line: int) -> InputError:
        return _fail(self.file, self._here(), line,
                     f"YAML tags such as {tag!r} are not supported: write plain values (quote text)")

    def start(self, event: Any, container: list[Any] | dict[Any, Any]) -> None:
        line = event.start_mark.line + 1
        self._count(1, line)
        if event.tag is not None and not event.implicit:
            raise self._tag(event.tag, line)
        if len(self.stack) >= MAX_DEPTH:
            raise _fail(self.file, self._here(), line, f"nested more than {MAX_DEPTH} levels deep")
        path = self._place(container, line, True)
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Frame(container, path, event.anchor, self.count))

    def end(self) -> None:
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (frame.container, self.count - frame.start_count + 1)

    def alias(self, event: Any) -> None:
        line = event.start_mark.line + 1
        name = event.anchor
        if name in self.open_anchors:
            raise _fail(self.file, self._here(), line, f"alias *{name} refers to the value it is inside")
        if name not in self.anchors:
            raise _fail(self.file, self._here(), line, f"alias *{name} has no anchor &{name} before it")
        value, size = self.anchors[name]
        self._count(size, line, name)
        self._place(value, line, False)


def _events_to_data(loader: Any, file: str) -> tuple[Any, dict[PathKey, int]]:
    builder = _Builder(file)
    documents = 0
    get = loader.get_event
    scalar, start, end, alias = builder.scalar, builder.start, builder.end, builder.alias
    while True:
        event = get()
        kind = type(event)
        if kind is yaml.ScalarEvent:
            scalar(event)
        elif kind is yaml.MappingStartEvent:
            start(event, {})
        elif kind is yaml.SequenceStartEvent:
            start(event, [])
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            end()
        elif kind is yaml.AliasEvent:
            alias(event)
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _fail(file, (), event.start_mark.line + 1,
                            "a second YAML document (after ---): a file holds one document")
        elif kind is yaml.StreamEndEvent or event is None:
            break
    if not builder.lines:
        builder.lines[()] = 1
    return builder.root, builder.lines


def _problem_line(text: str, err: yaml.YAMLError) -> int | None:
    mark = getattr(err, "problem_mark", None)
    if mark is not None:
        return int(mark.line) + 1
    position = getattr(err, "position", None)  # a ReaderError knows its character offset only
    return text.count("\n", 0, position) + 1 if isinstance(position, int) else None


def parse_yaml(text: str, file: str = "<string>") -> Marked:
    """Parse YAML text, recording the line of every field.

    Raises:
        InputError: On a YAML syntax error, a control character, a tag, a merge key, a list or mapping
            used as a key, a duplicate key, more than one document, or a document past the limits
            (:data:`MAX_FILE_BYTES`, :data:`MAX_VALUES`, :data:`MAX_DEPTH`); always with the line.
    """
    if len(text) > MAX_FILE_BYTES:
        raise _fail(file, (), 1, f"larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB a YAML input may be")
    bad = _NON_PRINTABLE.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise _fail(file, (), line, f"control character U+{ord(bad.group()):04X} is not allowed in a YAML file")
    loader = _LOADER(text)
    try:
        data, lines = _events_to_data(loader, file)
    except yaml.YAMLError as err:
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise _fail(file, (), _problem_line(text, err), f"YAML syntax: {problem}") from None
    finally:
        loader.dispose()
    return Marked(data, lines, file)


def read_text(path: Path) -> str:
    """The text of a regular UTF-8 file of at most :data:`MAX_FILE_BYTES`, read without blocking or following FIFOs.

    Raises:
        InputError: If it cannot be read, is not a regular file (a folder, FIFO, device such as /dev/zero),
            is too large, or is not UTF-8 (the line of the first bad byte is named).
    """
    name = str(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise _fail(name, (), None, f"cannot read: {err.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise _fail(name, (), None, "is a folder, not a YAML file")
        raise _fail(name, (), None, "not a regular file (a device, FIFO or socket); only files are read")
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise _fail(name, (), 1, f"larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB a YAML input may be")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        byte = raw[err.start]
        raise _fail(name, (), line, f"not UTF-8 text (byte 0x{byte:02X}); save the file as UTF-8") from None


def load_yaml(path: Path) -> Marked:
    """Read and parse a YAML file (see :func:`read_text` and :func:`parse_yaml`)."""
    return parse_yaml(read_text(path), str(path))


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
