"""Compiled code calls the kernel's functions without numba's Python wrappers; Python still calls them as before.

Numba builds, optimises and emits a CPython wrapper (unboxing every argument) and a C-ABI wrapper for each compiled
function, and again inside each caller that links it in. Only the fight's entry points are called from Python on
the simulator's path, so :func:`ashfall.kernel.jit.jit` gives compiled callers a twin compiled without them
(``docs/dev/performance.md``, "Start-up, measured").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ashfall.kernel.jit import TWIN_SUFFIX, PlainTypes, jit


def _fresh(fn: Callable[..., Any]) -> Any:
    """The kernel's ``jit`` without the on-disk cache, so that what compiles shows in this process."""
    return jit(fn, cache=False)


@_fresh
def _total(a: Any) -> int:
    s = 0
    for x in a:
        s += x
    return s


@_fresh
def _twice_total(a: Any) -> int:
    return 2 * _total(a)


def _wrapper_names(compiled: PlainTypes) -> list[str]:
    """The names of the functions each compiled specialisation defines (its LLVM module's, as numba emitted it)."""
    return [line for ir in compiled.inspect_llvm().values() for line in ir.splitlines() if line.startswith("define")]


def test_compiled_caller__calls_the_unwrapped_twin_and_python_gets_the_wrapped_function() -> None:
    a = np.arange(5, dtype=np.int64)
    assert _twice_total(a) == 20
    twin = _total.for_compiled_callers
    assert twin is not None and twin.py_func.__qualname__.endswith(TWIN_SUFFIX)
    assert len(twin.signatures) == 1 and not _total.signatures  # the caller compiled only the twin
    assert not any("cpython" in name for name in _wrapper_names(twin))
    assert _total(a) == 10  # a Python call compiles the function with its CPython wrapper, and gets the same answer
    assert any("cpython" in name for name in _wrapper_names(_total))
    assert not any("cfunc." in name for name in _wrapper_names(_total) + _wrapper_names(twin))  # no C-ABI wrapper


def test_fight_entry_points__have_no_twin() -> None:
    import ashfall.kernel.fight as kf

    def twin(fn: object) -> PlainTypes | None:
        return cast(PlainTypes, fn).for_compiled_callers

    assert twin(kf.play) is None  # play_batch and Python's recording path share one play
    assert twin(kf.play_batch) is None
    assert twin(kf._melee) is not None
