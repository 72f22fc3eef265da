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

from collections.abc import Callable
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


def choose_engine(setup: FightSetup, engine: str = "auto") -> EngineChoice:
    """The engine that plays ``setup`` under ``--engine engine``.

    Raises:
        ValueError: For an unknown choice, or ``kernel`` for a fight it does not support (naming the feature).
    """
    if engine not in ENGINES:
        raise ValueError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if engine == REFERENCE:
        return EngineChoice(REFERENCE)
    from ashfall.sim.kernel_lower import check

    problem = check(setup)
    if problem is None:
        return EngineChoice(KERNEL)
    if engine == KERNEL:
        raise ValueError(f"--engine kernel: the kernel does not support this fight yet: {problem} "
                         "(use --engine auto or reference)")
    return EngineChoice(REFERENCE, f"kernel: not supported yet: {problem}; running the reference engine")


class EngineChooser:
    """Chooses the engine of each setup of one run (a sweep's variants, a balance search's points).

    Each setup is decided on its own (a variant the kernel does not support runs on the reference engine), and
    auto's fallback notice is given once per run, for the first setup that falls back.

    Args:
        engine: The ``--engine`` choice.
        notice: Where the one-line notice goes (None: nowhere, e.g. with ``--json``).
    """

    def __init__(self, engine: str = "auto", notice: Callable[[str], None] | None = None) -> None:
        if engine not in ENGINES:
            raise ValueError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
        self.engine, self.notice = engine, notice
        self.noticed = False

    def __call__(self, setup: FightSetup) -> str:
        """``kernel`` or ``reference`` for this setup (raises as :func:`choose_engine` does)."""
        choice = choose_engine(setup, self.engine)
        if choice.notice is not None and not self.noticed:
            self.noticed = True
            if self.notice is not None:
                self.notice(choice.notice)
        return choice.engine


__all__ = ["ENGINES", "EngineChoice", "EngineChooser", "choose_engine"]
