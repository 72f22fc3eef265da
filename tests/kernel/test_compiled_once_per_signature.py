"""The kernel's functions are compiled once per plain signature, not once per constant a compiled caller passes.

Numba types a constant passed from compiled code as its value (``Literal[int](3)``); the kernel's ``jit`` compiles
for the plain type instead (int64), so ``play`` is compiled once for ``play_batch`` and Python's callers alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ashfall.kernel.jit import jit

F = TypeVar("F", bound=Callable[..., Any])


def _fresh(fn: F) -> F:
    """The kernel's ``jit`` without the on-disk cache: compiled in this process, so its specialisations show."""
    return jit(fn, cache=False)


def _signatures(compiled: Any) -> list[tuple[str, ...]]:
    """The argument types a compiled function has been specialised for."""
    return [tuple(str(t) for t in sig) for sig in compiled.signatures]


@_fresh
def _doubled(x: int) -> int:
    return x * 2


@_fresh
def _sum_of_doubles() -> int:
    return _doubled(3) + _doubled(4)  # two constants: two specialisations under plain numba.njit


def test_constants_from_compiled_callers__one_plain_specialisation() -> None:
    assert _sum_of_doubles() == 14
    assert _signatures(_doubled.for_compiled_callers) == [("int64",)]  # compiled callers call its unwrapped twin
    assert _doubled(5) == 10  # a Python call compiles the function itself, once, for the plain type too
    assert _doubled(6) == 12
    assert _signatures(_doubled) == [("int64",)]
    assert _signatures(_doubled.for_compiled_callers) == [("int64",)]


def test_fight_entry_points__play_batch_and_play_share_one_specialisation_of_play() -> None:
    import ashfall.kernel.fight as kf
    from ashfall.sim.kernel_run import KernelSetup
    from ashfall.sim.setups import EncounterSetup
    from tests.kernel.kit import DUEL

    kernel = KernelSetup(EncounterSetup(DUEL))
    kernel.batch([1, 2])
    kernel.signature(1)
    (played,) = _signatures(kf.play)
    assert "bool" in played and not any("Literal" in t for t in played)
