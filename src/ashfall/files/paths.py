"""Which files an input file may make the program read: the folder rule for paths named inside files.

An encounter names other files (``content:``, ``ruleset: house.yaml``). Such a path is read only when it
leads, after following every symbolic link and ``..``, to somewhere inside the encounter's own folder or
a folder the user allowed explicitly (``--allow-dir``); only regular files and folders are read, never
devices (``/dev/zero``), FIFOs or sockets. Walking a folder follows no symbolic links: a link (or a FIFO) met
on the way is reported, not read. Reading itself is bounded by :func:`ashfall.files.yaml_marks.read_text`.

This must hold before files can come from strangers (the browser tracker's uploads).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Folders:
    """The folders files may be read from: the input's own folder first, then any the user allowed.

    Attributes:
        roots: The folders, as given.
    """

    roots: tuple[Path, ...]

    @classmethod
    def of(cls, own: Path, allowed: Iterable[Path | str] = ()) -> Folders:
        """The input's own folder plus the allowed ones."""
        return cls((own, *(Path(a) for a in allowed)))

    def refusal(self, named: str, path: Path) -> str | None:
        """Why ``path`` (written as ``named`` in a file) may not be read, or None when it may.

        It may when it leads inside one of the folders and is a regular file or a folder.
        """
        named = named if len(named) <= 80 else named[:77] + "..."
        if "\0" in named:
            return f"{named!r} contains a NUL character, which no path can"
        real = os.path.realpath(path)
        if not any(_inside(real, os.path.realpath(root)) for root in self.roots):
            return f"{named!r} {_how_outside(named, path, real)}, outside {_folders(self.roots)}; " \
                   "files named in an encounter are read only from its folder (allow another with --allow-dir DIR)"
        try:
            mode = os.stat(real).st_mode
        except OSError as err:
            if err.errno in (errno.ENOENT, errno.ENOTDIR):
                return None  # missing: the caller says so in its own words
            return f"{named!r} cannot be read: {err.strerror}"
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
            return None
        return f"{named!r} is not a regular file (a device, FIFO or socket); only files are read"


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _how_outside(named: str, path: Path, real: str) -> str:
    if os.path.isabs(named):
        return "is an absolute path"
    if ".." in Path(named).parts:
        return "leads out with '..'"
    if os.path.realpath(path.parent) != os.path.dirname(real) or path.is_symlink():
        return f"is a symbolic link to {real}"
    return f"leads to {real}"


def _folders(roots: Sequence[Path]) -> str:
    shown = [str(r) or "." for r in roots]
    return f"the folder {shown[0]}" + (f" and the allowed {', '.join(shown[1:])}" if len(shown) > 1 else "")


@dataclass(frozen=True, slots=True)
class Walk:
    """What walking a folder found: the matching regular files (sorted) and what it did not read, with why."""

    files: tuple[Path, ...]
    skipped: tuple[tuple[Path, str], ...]


LINK_NOT_FOLLOWED = "a symbolic link inside a folder being read: links are not followed (name the file itself)"
NOT_REGULAR = "not a regular file (a device, FIFO or socket): not read"


def walk(root: Path, suffixes: Sequence[str], recursive: bool = True) -> Walk:
    """The files under ``root`` whose names end in ``suffixes``; hidden names are skipped, links not followed.

    Only regular files are returned; symbolic links (to files or folders) and FIFOs, devices or sockets
    with a matching name are listed in :attr:`Walk.skipped` so the caller can say they were not read.
    """
    ends = tuple(suffixes)
    files: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_symlink():
                if entry.name.endswith(ends) or entry.is_dir():
                    skipped.append((Path(entry.path), LINK_NOT_FOLLOWED))
            elif entry.is_dir(follow_symlinks=False):
                if recursive:
                    pending.append(Path(entry.path))
            elif entry.name.endswith(ends):
                if entry.is_file(follow_symlinks=False):
                    files.append(Path(entry.path))
                else:
                    skipped.append((Path(entry.path), NOT_REGULAR))
    return Walk(tuple(sorted(files)), tuple(sorted(skipped)))


__all__ = ["LINK_NOT_FOLLOWED", "NOT_REGULAR", "Folders", "Walk", "walk"]
