"""The lowered fight tables kept on disk, so that a later process plays a fight without lowering it again.

Lowering a fight (:func:`ashfall.sim.kernel_lower.lower`) asks the reference engine's rules for every table the
kernel reads: about two seconds for the shipped duel, most of a later start on the kernel. Its result depends on
two things only, and the cache's key is a SHA-256 of both:

- *the fight*: a canonical dump of the fight the setup built (:func:`fight_digest`: the engine's state with its
  ruleset, board, combatants and stat blocks, the policies, controllers, ambushers and round limit), so any
  change to the encounter file, a content file, the ruleset or its options, a variant's override or the round
  limit gives another key. A fight holding anything the dump cannot read for certain (an object of a type from
  outside the ``ashfall`` package, a cycle) is not cached at all;
- *the code*: a hash of every file of the ``ashfall`` package (:func:`code_digest`), and numpy's version.

An entry is one ``.npz`` file (``numpy.savez_compressed``: the arrays, and the tables' structure as JSON in one of its
members), read with ``allow_pickle=False``: loading an entry never runs code from the file. Most of a fight's
tables are zeros or small integers (the duel's lowering holds about 100 MB of arrays, 60 MB of them two mostly
empty tables), so each array is stored packed (:func:`_pack`): a mostly-zero array as the flat places and values
of what is not zero, an integer array in the narrowest type that holds its values. Unpacking gives back the same
dtype, shape, layout and bits; reading the duel's entry takes 0.2-0.4 s instead of the 0.9 s that inflating whole
arrays took (same-size file, one machine under load). It is written to a
temporary file and renamed into place, so a reader sees a whole entry or none; an entry that cannot be read, or
whose structure does not match the tables' classes, is ignored and the fight lowered again. The folder is
``$ASHFALL_CACHE_DIR/lowered`` (default ``$XDG_CACHE_HOME/ashfall/lowered``, else ``~/.cache/ashfall/lowered``)
and holds at most :data:`MAX_BYTES` (the oldest entries go first). ``ASHFALL_LOWERING_CACHE=off`` turns the cache
off; deleting the folder clears it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import json
import os
import sys
import tempfile
import types
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

import ashfall

CACHE_ENV = "ASHFALL_LOWERING_CACHE"
"""Set to ``off`` (or ``0``, ``no``, ``false``) to neither read nor write lowered tables on disk."""
DIR_ENV = "ASHFALL_CACHE_DIR"
"""The folder of ashfall's caches (the lowered tables go in its ``lowered`` folder)."""
FORMAT = 2
"""The layout of an entry (part of the key: a new layout never reads an old entry)."""
MAX_BYTES = 1 << 30
"""The most the folder holds: writing an entry removes the oldest ones beyond it."""
_META = "__structure__"
"""The member of an entry that holds the tables' structure (JSON, as bytes)."""
_OFF = frozenset({"off", "0", "no", "false"})


class Uncacheable(ValueError):
    """The fight holds something :func:`fight_digest` cannot describe for certain, so its tables are not cached."""


def enabled() -> bool:
    """Whether lowered tables are read from and written to disk (``ASHFALL_LOWERING_CACHE``)."""
    return os.environ.get(CACHE_ENV, "").strip().lower() not in _OFF


def cache_dir() -> Path:
    """The folder of the lowered tables."""
    base = os.environ.get(DIR_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ashfall")
    return Path(base) / "lowered"


def tree_digest(roots: Sequence[Path], salt: str = "") -> str:
    """A hash of every file under ``roots`` (paths and bytes, ``__pycache__`` left out) after ``salt``."""
    digest = hashlib.sha256(salt.encode() + b"\0")
    for root in roots:
        found: list[str] = []
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]  # bytecode and numba's cache: not read
            found.extend(os.path.join(folder, name) for name in files)
        for path in sorted(found):
            digest.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as stream:
                digest.update(stream.read() + b"\0")
    return digest.hexdigest()


@cache
def code_digest() -> str:
    """A hash of the code and the shipped content.

    Every file of the ``ashfall`` package and of the shipped content folder, numpy's and Python's versions and the
    entries' :data:`FORMAT`.
    """
    from ashfall.content.loader import library_root

    return tree_digest([Path(ashfall.__file__).resolve().parent, library_root()],
                       f"{FORMAT} {np.__version__} {sys.version_info[:2]}")


# ----- the fight's canonical dump -----

_PLAIN = (str, int, float, bool, type(None), bytes)


def _ours(module: str | None) -> bool:
    """Whether code from ``module`` is covered by :func:`code_digest` (or is the standard library's builtins)."""
    return module is not None and (module == "ashfall" or module.startswith("ashfall.") or module in ("builtins",))


def _named(thing: Any) -> str:
    """A class or function by its module and qualified name; only the ``ashfall`` package's and builtins'."""
    module = getattr(thing, "__module__", None)
    if not _ours(module) and not isinstance(thing, type):
        raise Uncacheable(f"{thing!r} comes from outside the ashfall package")
    if isinstance(thing, type) and not (_ours(module) or issubclass(thing, _PLAIN) or thing.__module__ in
                                        ("enum", "typing", "collections", "abc")):
        raise Uncacheable(f"{thing!r} comes from outside the ashfall package")
    return f"{module}:{thing.__qualname__}"


class _Dump:
    """Writes a canonical, typed text of an object tree into a hash (sets sorted, mappings by key)."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.open: set[int] = set()

    def out(self, text: str) -> None:
        self.digest.update(text.encode("utf-8", "surrogatepass") + b"\x1f")

    def __call__(self, obj: Any) -> None:
        kind = type(obj)
        if kind in _PLAIN or isinstance(obj, enum.Enum):
            self.out(f"{_named(kind)}={obj!r}")
            return
        if id(obj) in self.open:
            raise Uncacheable(f"a cycle through {kind.__qualname__}")
        self.open.add(id(obj))
        try:
            self._container(obj, kind)
        finally:
            self.open.discard(id(obj))

    def _container(self, obj: Any, kind: type) -> None:
        if isinstance(obj, (tuple, list)):
            self.out(f"{_named(kind)}[{len(obj)}")
            for item in obj:
                self(item)
        elif isinstance(obj, (set, frozenset)):
            self.out(f"{_named(kind)}{{{len(obj)}")
            for text in sorted(_text(item) for item in obj):
                self.out(text)
        elif isinstance(obj, Mapping):
            self.out(f"{_named(kind) if _ours(kind.__module__) else 'mapping'}<{len(obj)}")
            for key_text, value in sorted(((_text(k), v) for k, v in obj.items()), key=lambda kv: kv[0]):
                self.out(key_text)
                self(value)
        elif isinstance(obj, np.ndarray):
            self.out(f"ndarray {obj.dtype.str} {obj.shape}")
            self.digest.update(np.ascontiguousarray(obj).tobytes())
        elif isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, type)):
            self.out(_named(obj))
            for cell in getattr(obj, "__closure__", None) or ():
                self(cell.cell_contents)
            self(getattr(obj, "__defaults__", None))
        elif isinstance(obj, types.MethodType):
            self.out(f"method {_named(obj.__func__)}")
            self(obj.__self__)
        else:
            self._object(obj, kind)

    def _object(self, obj: Any, kind: type) -> None:
        self.out(_named(kind))
        dump = getattr(obj, "model_dump", None)
        if dump is not None and hasattr(kind, "model_fields"):  # a pydantic model: its fields, as JSON
            self.out(json.dumps(dump(mode="json"), sort_keys=True, default=str))
            return
        if dataclasses.is_dataclass(obj):
            names = [f.name for f in dataclasses.fields(obj) if f.compare]
        else:
            slots = [s for c in kind.__mro__ for s in getattr(c, "__slots__", ())]
            names = sorted(set(slots) | set(getattr(obj, "__dict__", {})))
            if not names and not slots and not hasattr(obj, "__dict__"):
                raise Uncacheable(f"cannot read a {kind.__qualname__}")
        for name in names:
            if hasattr(obj, name):
                self.out(f".{name}")
                self(getattr(obj, name))


def _text(obj: Any) -> str:
    """A set member's or mapping key's canonical text (its own hash, so members sort the same in every process)."""
    dump = _Dump()
    dump(obj)
    return dump.digest.hexdigest()


def fight_digest(parts: Mapping[str, Any]) -> str:
    """A hash of a built fight's parts (by name) that changes with anything the lowering can read in them.

    Raises:
        Uncacheable: The fight holds something it cannot describe for certain.
    """
    dump = _Dump()
    dump(dict(parts))
    return dump.digest.hexdigest()


# ----- the tables' files -----

Classes = Mapping[str, type]
"""The dataclasses an entry may hold, by qualified name (nothing else is ever built from a file)."""


def _encode(obj: Any, arrays: dict[str, np.ndarray], classes: Classes) -> Any:
    """A JSON-able structure of ``obj``, its arrays moved into ``arrays`` (raises Uncacheable for other types)."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if type(obj) is int or type(obj) is float:
        return {"$f": obj.hex()} if isinstance(obj, float) else obj
    if isinstance(obj, np.ndarray):
        name = f"a{len(arrays)}"
        arrays[name] = obj
        return {"$a": name}
    if isinstance(obj, np.generic):
        return {"$n": obj.dtype.str, "v": _encode(obj.item(), arrays, classes)}
    if type(obj) is tuple:
        return {"$t": [_encode(x, arrays, classes) for x in obj]}
    if type(obj) is list:
        return [_encode(x, arrays, classes) for x in obj]
    if dataclasses.is_dataclass(obj) and classes.get(type(obj).__qualname__) is type(obj):
        return {"$d": type(obj).__qualname__,
                "f": {f.name: _encode(getattr(obj, f.name), arrays, classes) for f in dataclasses.fields(obj)}}
    raise Uncacheable(f"cannot store a {type(obj).__qualname__}")


def _decode(data: Any, arrays: Mapping[str, np.ndarray], classes: Classes) -> Any:
    """The object :func:`_encode` described (raises ValueError/KeyError/TypeError for anything else)."""
    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, list):
        return [_decode(x, arrays, classes) for x in data]
    if not isinstance(data, dict):
        raise TypeError(f"unexpected {type(data).__qualname__}")
    if "$a" in data:
        return arrays[data["$a"]]
    if "$f" in data:
        return float.fromhex(data["$f"])
    if "$t" in data:
        return tuple(_decode(x, arrays, classes) for x in data["$t"])
    if "$n" in data:
        return np.dtype(data["$n"]).type(_decode(data["v"], arrays, classes))
    kind = classes[data["$d"]]
    fields = data["f"]
    if set(fields) != {f.name for f in dataclasses.fields(kind)}:
        raise ValueError(f"the fields of {kind.__qualname__} changed")
    return kind(**{name: _decode(value, arrays, classes) for name, value in fields.items()})


def _entry(key: str) -> Path:
    return cache_dir() / f"{key}.npz"


_SPARSE_BELOW = 4
"""An array is stored as its non-zero places when fewer than one element in this many is not zero."""
_SPARSE_FROM = 4096
"""The fewest elements an array needs to be stored sparse (small ones are not worth the indirection)."""


def _narrow(values: np.ndarray) -> np.ndarray:
    """``values`` in the narrowest signed integer type that holds them all (not integers, or empty: as they are)."""
    if values.dtype.kind not in "iu" or values.size == 0:
        return values
    low, high = int(values.min()), int(values.max())
    for kind in (np.int8, np.int16, np.int32):
        if np.iinfo(kind).min <= low and high <= np.iinfo(kind).max:
            return values.astype(kind)
    return values


def _nonzero_places(array: np.ndarray) -> np.ndarray | None:
    """The flat places of ``array`` that are not zero (None: too small, or not C-ordered, to be stored sparse)."""
    if not array.ndim or array.size < _SPARSE_FROM or not array.flags.c_contiguous:
        return None
    # a float's bits, so that -0.0 (equal to zero, yet not the same number to the kernel) is kept
    bits = array.view(f"u{array.itemsize}") if array.dtype.kind == "f" and array.itemsize <= 8 else array
    return np.flatnonzero(bits.reshape(-1))


def _pack(arrays: Mapping[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, list[Any]]]:
    """The members that store ``arrays`` and, by array, how to unpack them (see :func:`_unpack`).

    A C-ordered array of at least :data:`_SPARSE_FROM` elements with fewer than one in :data:`_SPARSE_BELOW` not zero
    is stored as two members, ``NAME.i`` (flat places) and ``NAME.v`` (values); every integer member is narrowed.
    """
    members: dict[str, np.ndarray] = {}
    layout: dict[str, list[Any]] = {}
    for name, array in arrays.items():
        places = _nonzero_places(array)
        if places is not None and places.size * _SPARSE_BELOW < array.size:
            members[f"{name}.i"] = _narrow(places)
            members[f"{name}.v"] = _narrow(array.reshape(-1)[places])
            layout[name] = ["sparse", list(array.shape), array.dtype.str]
        else:
            members[name] = _narrow(array)
            layout[name] = ["dense", list(array.shape), array.dtype.str]
    return members, layout


def _unpack(members: Mapping[str, np.ndarray], layout: Mapping[str, list[Any]]) -> dict[str, np.ndarray]:
    """The arrays :func:`_pack` stored: their own dtype, shape and memory order (raises on a member that differs)."""
    arrays: dict[str, np.ndarray] = {}
    for name, (how, shape, dtype) in layout.items():
        if how == "sparse":
            array = np.zeros(tuple(shape), np.dtype(dtype))
            array.reshape(-1)[members[f"{name}.i"]] = members[f"{name}.v"]
        elif how == "dense":
            array = members[name].astype(np.dtype(dtype), copy=False)
        else:
            raise ValueError(f"unknown packing {how!r}")
        if array.shape != tuple(shape):
            raise ValueError(f"array {name} has shape {array.shape}, not {tuple(shape)}")
        arrays[name] = array
    return arrays


def load(key: str, classes: Classes) -> Any | None:
    """The object stored under ``key``, or None: no entry, or one that cannot be read whole (it is ignored)."""
    path = _entry(key)
    try:
        with np.load(path, allow_pickle=False) as entry:
            members = {name: entry[name] for name in entry.files if name != _META}
            meta = json.loads(entry[_META].tobytes().decode())
        if meta.get("key") != key:
            return None
        return _decode(meta["tables"], _unpack(members, meta["arrays"]), classes)
    except FileNotFoundError:
        return None
    except Exception:  # a damaged or foreign entry, whatever numpy or zipfile make of it
        return None  # lowered again, and overwritten


def store(key: str, obj: Any, classes: Classes) -> None:
    """Write ``obj`` under ``key`` (a temporary file renamed into place); a full or read-only disk is no error.

    Raises:
        Uncacheable: ``obj`` holds something an entry cannot hold.
    """
    arrays: dict[str, np.ndarray] = {}
    tables = _encode(obj, arrays, classes)
    packed, layout = _pack(arrays)
    meta = {"key": key, "tables": tables, "arrays": layout}
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".partial-", suffix=".npz", dir=folder)
        try:
            members: dict[str, Any] = {**packed, _META: np.frombuffer(json.dumps(meta).encode(), np.uint8)}
            with os.fdopen(handle, "wb") as stream:
                np.savez_compressed(stream, **members)
            os.replace(temporary, _entry(key))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _prune(folder)
    except OSError:
        return


def _prune(folder: Path) -> None:
    """Remove the oldest entries while the folder holds more than :data:`MAX_BYTES`."""
    entries = []
    for path in folder.glob("*.npz"):
        try:
            stat = path.stat()
        except OSError:
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= MAX_BYTES:
            break
        path.unlink(missing_ok=True)
        total -= size


def cached(key_parts: Callable[[], Mapping[str, Any]], make: Callable[[], Any], classes: Classes) -> Any:
    """``make()``, read from the disk cache when an entry for the same fight and code exists, else stored there.

    Args:
        key_parts: The built fight's parts (see :func:`fight_digest`).
        make: Computes the object (the lowering).
        classes: The dataclasses the object is made of.
    """
    if not enabled():
        return make()
    try:
        key = hashlib.sha256(f"{code_digest()}\0{fight_digest(key_parts())}".encode()).hexdigest()
    except Exception:  # Uncacheable, or a value a model cannot dump: no key, so no cache
        return make()
    found = load(key, classes)
    if found is not None:
        return found
    made = make()
    with contextlib.suppress(Uncacheable):
        store(key, made, classes)
    return made


__all__ = ["CACHE_ENV", "DIR_ENV", "MAX_BYTES", "Uncacheable", "cache_dir", "cached", "code_digest", "enabled",
           "fight_digest", "load", "store", "tree_digest"]
