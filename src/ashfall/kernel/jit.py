"""How the kernel's functions are compiled: ``numba.njit(cache=True)``, one specialisation per argument type.

Numba compiles a jitted function again for every distinct set of argument types a caller passes, and a constant
passed from compiled code (``_record(steps, at, 0, ...)``, ``play(..., False, ...)``) arrives typed as that very
value (``Literal[int](0)``, ``Literal[bool](False)``), not as ``int64`` or ``bool``. Left so, the kernel's large
functions were compiled several times over (the fight's ``play`` once for ``play_batch``'s constant ``False`` and
again for Python's ``bool``, ``_melee`` eight times), which made its first use slow and its cache large. Nothing
in the kernel dispatches on a constant's value, so :func:`jit` compiles each function for the plain types of its
arguments: the same code, each function compiled once per real signature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba.core import types
from numba.core.registry import CPUDispatcher

F = TypeVar("F", bound=Callable[..., Any])
_plain: Callable[[Any], Any] = types.unliteral
"""A numba type without its literal value (``Literal[int](0)``: int64; other types as they are)."""


class PlainTypes(CPUDispatcher):
    """A CPU dispatcher that compiles for the non-literal types of the arguments its compiled callers pass."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """Numba's call template, asked with every literal argument type made plain (``Literal[int](0)``: int64)."""
        return super().get_call_template(tuple(_plain(a) for a in args),
                                         {k: _plain(v) for k, v in kws.items()})


def jit(fn: F, cache: bool = True) -> F:
    """``numba.njit(cache=cache)`` compiling for plain argument types, typed for mypy as the function it compiles."""
    compiled = PlainTypes(py_func=fn, locals={}, targetoptions={"nopython": True, "boundscheck": None})
    if cache:
        compiled.enable_caching()
    return cast(F, compiled)


__all__ = ["PlainTypes", "jit"]
