"""How the kernel's functions are compiled: ``numba.njit(cache=True)``, one specialisation per argument type.

Numba compiles a jitted function again for every distinct set of argument types a caller passes, and a constant
passed from compiled code (``_record(steps, at, 0, ...)``, ``play(..., False, ...)``) arrives typed as that very
value (``Literal[int](0)``, ``Literal[bool](False)``), not as ``int64`` or ``bool``. Left so, the kernel's large
functions were compiled several times over (the fight's ``play`` once for ``play_batch``'s constant ``False`` and
again for Python's ``bool``, ``_melee`` eight times), which made its first use slow and its cache large. Nothing
in the kernel dispatches on a constant's value, so :func:`jit` compiles each function for the plain types of its
arguments: the same code, each function compiled once per real signature.

Numba also gives every compiled function two wrappers, one that CPython calls (unboxing each argument from a
Python object: each array, each tuple of arrays, with its error paths) and one with the C calling convention (for
first-class function values, which the kernel never uses: no function gets it), and optimises and emits them again
inside every caller that links the function in. Only the entry points (:func:`entry`: ``play``, ``play_batch``)
are called from Python on the simulator's path; the kernel's other functions are called from compiled code, which
uses neither wrapper. So compiled callers call a twin compiled without them (:attr:`PlainTypes.for_compiled_callers`,
cached under its own name); a Python call (a test's) still compiles the function with its CPython wrapper.

Numba's disk cache checks a function's entry against a hash of the one source file that defines it, but a compiled
function carries the code of every kernel function it calls, from other modules too: after a change to
``morale.py`` alone, ``fight.play`` would load the old morale code from its cache (seen with an editable install).
So every kernel function's cache is stamped with a hash of all the modules of its package (:func:`kernel_digest`):
a change to any of them makes every cached entry stale, and the kernel is compiled again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar, cast

from numba.core import types
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)
from numba.core.registry import CPUDispatcher

F = TypeVar("F", bound=Callable[..., Any])
_plain: Callable[[Any], Any] = types.unliteral
"""A numba type without its literal value (``Literal[int](0)``: int64; other types as they are)."""
OPTIONS: dict[str, Any] = {"nopython": True, "boundscheck": None, "no_cfunc_wrapper": True}
"""The target options of every kernel function: ``numba.njit``'s, without the C-ABI wrapper (for passing a compiled
function to another as a first-class function, which the kernel never does)."""
UNWRAPPED: dict[str, Any] = {**OPTIONS, "no_cpython_wrapper": True}
"""A twin's options: compiled code calls it directly, so neither wrapper is built."""
TWIN_SUFFIX = ".compiled_callers"
"""Added to a twin's qualified name, so that numba caches it apart from the function Python calls."""


class PlainTypes(CPUDispatcher):
    """A CPU dispatcher that compiles for the non-literal types of the arguments its compiled callers pass."""

    _cache: Any
    """numba's disk cache of the function (:class:`KernelCache`)."""
    twins: tuple[PlainTypes, ...] = ()
    """The twin compiled callers call instead, if any (a tuple: a dispatcher is a descriptor, a tuple is not)."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """Numba's call template, asked with every literal argument type made plain (``Literal[int](0)``: int64)."""
        return super().get_call_template(tuple(_plain(a) for a in args),
                                         {k: _plain(v) for k, v in kws.items()})

    @property
    def for_compiled_callers(self) -> PlainTypes | None:
        """What compiled callers call instead of this dispatcher (a twin without the Python wrappers), if anything."""
        return self.twins[0] if self.twins else None

    @property
    def _numba_type_(self) -> Any:
        """The type compiled code sees for this function: its twin's, so that compiled calls reach the twin."""
        return types.Dispatcher(self.for_compiled_callers or self)


def _twin(fn: FunctionType) -> FunctionType:
    """The same function (code, globals, defaults) under another qualified name, for a cache of its own."""
    copy = FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + TWIN_SUFFIX
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__doc__ = fn.__doc__
    return copy


KERNEL_DIR = Path(__file__).resolve().parent
"""The kernel package: every compiled function is defined in one of its modules."""


def kernel_digest(folder: Path = KERNEL_DIR) -> str:
    """SHA-256 of every module of the kernel package (``*.py`` in ``folder``, by name): the compiled cache's stamp."""
    h = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@cache
def _stamp(folder: Path) -> str:
    """The stamp of a package's modules in this process (they do not change while it runs)."""
    return kernel_digest(folder)


class _KernelStamp:
    """A locator whose source stamp hashes every module of the defining file's package, not only that file."""

    _py_file: str

    def get_source_stamp(self) -> str:
        """:func:`kernel_digest` of the folder of the function's module (the kernel package)."""
        return _stamp(Path(self._py_file).resolve().parent)


class _InTree(_KernelStamp, InTreeCacheLocator):
    """numba's ``__pycache__`` locator, stamped with the whole kernel."""


class _UserProvided(_KernelStamp, UserProvidedCacheLocator):
    """numba's ``NUMBA_CACHE_DIR`` locator, stamped with the whole kernel."""


class _UserWide(_KernelStamp, UserWideCacheLocator):
    """numba's per-user cache folder (a read-only install), stamped with the whole kernel."""


class _KernelCacheImpl(CompileResultCacheImpl):
    # numba's base declares the list as a plain attribute; the order is numba's (NUMBA_CACHE_DIR first)
    _locator_classes = [_UserProvided, _InTree, _UserWide]  # noqa: RUF012


class KernelCache(FunctionCache):
    """numba's function cache, its entries stale as soon as any kernel module changes (:func:`kernel_digest`)."""

    _impl_class = _KernelCacheImpl


def _dispatcher(fn: Any, options: dict[str, Any], cache: bool) -> PlainTypes:
    compiled = PlainTypes(py_func=fn, locals={}, targetoptions=dict(options))
    if cache:
        compiled._cache = cast(Any, KernelCache)(fn)  # ``enable_caching`` with the kernel's own stamp
    return compiled


def jit(fn: F, cache: bool = True, is_entry: bool = False) -> F:
    """``numba.njit(cache=cache)`` compiling for plain argument types, typed for mypy as the function it compiles.

    Unless ``is_entry``, calls from compiled code go to a twin compiled without the Python wrappers.
    """
    compiled = _dispatcher(fn, OPTIONS, cache)
    if not is_entry:
        compiled.twins = (_dispatcher(_twin(cast(FunctionType, fn)), UNWRAPPED, cache),)
    return cast(F, compiled)


def entry(fn: F) -> F:
    """:func:`jit` for a function Python calls on the simulator's path: compiled callers share its one copy."""
    return jit(fn, is_entry=True)


__all__ = ["KERNEL_DIR", "KernelCache", "PlainTypes", "entry", "jit", "kernel_digest"]
