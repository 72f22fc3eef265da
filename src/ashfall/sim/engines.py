"""Which engine plays a simulation's trials: the reference engine, or the compiled fight kernel.

Two engines, one truth: the reference engine (the explained Python engine) plays every fight and explains
every roll; the kernel (:mod:`ashfall.kernel`) plays the fights it supports draw for draw as the reference
does, so trial *i* is the same fight either way, only faster. ``--engine auto`` (the default of ``sim`` and
``compare``) uses the kernel when it plays the whole fight and the reference engine otherwise, with a one-line
notice naming the first feature the kernel lacks; ``kernel`` insists (an error for an unsupported fight);
``reference`` never uses the kernel.

Deciding imports no numba: the kernel is compiled (or loaded from its cache) only when it plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.sim.setups import FightSetup

ENGINES = ("auto", "kernel", "reference")
"""The engine choices of ``--engine``."""
KERNEL, REFERENCE = "kernel", "reference"


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """The engine that plays a setup, and why.

    Attributes:
        engine: ``kernel`` or ``reference``.
        notice: For ``auto`` falling back to the reference engine: the one-line notice to show, else None.
    """

    engine: str
    notice: str | None = None


def choose_engine(setup: FightSetup, engine: str = "auto", max_rounds: int | None = None) -> EngineChoice:
    """The engine that plays ``setup`` under ``--engine engine``.

    Raises:
        ValueError: For an unknown choice, or ``kernel`` for a fight it does not support (naming the feature).
    """
    if engine not in ENGINES:
        raise ValueError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if engine == REFERENCE:
        return EngineChoice(REFERENCE)
    from ashfall.sim.kernel_lower import check

    problem = check(setup, max_rounds)
    if problem is None:
        return EngineChoice(KERNEL)
    if engine == KERNEL:
        raise ValueError(f"--engine kernel: the kernel does not support this fight yet: {problem} "
                         "(use --engine auto or reference)")
    return EngineChoice(REFERENCE, f"kernel: not supported yet: {problem}; running the reference engine")


__all__ = ["ENGINES", "EngineChoice", "choose_engine"]
