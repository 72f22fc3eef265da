"""Where the fight kernel's first use spends its CPU: numba's and LLVM's stages, and the functions that cost most.

Run as a child with an empty numba cache (``bench/bench_kernel_start.py --stages`` does, in a new temporary
``NUMBA_CACHE_DIR``), it imports the kernel, lowers a fight and plays one fight on the simulator's path, with a
timer around each stage of numba's compiler (it wraps numba's own methods in this process only, to measure; the
kernel is compiled exactly as usual). Each stage's CPU seconds are its own, without the stages nested in it (a
caller's type inference compiles its callees): so the rows add up to the whole. Per function, numba's compile
events (``numba.core.event``, "numba:compile") give each function's time less its callees'. By hand::

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python bench/kernel_compile_stages.py encounters/duel.yaml ashfall-1

Prints ``stage<TAB>seconds`` rows, then ``function<TAB>seconds`` rows after a line ``functions``.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

clock = time.process_time
STAGES = (
    ("numba.core.typed_passes", "NopythonTypeInference", "run_pass", "numba: type inference"),
    ("numba.core.typed_passes", "BaseNativeLowering", "run_pass", "numba: lowering to LLVM IR"),
    ("numba.core.dispatcher", "Dispatcher", "compile", "numba: its other passes"),
    ("numba.core.codegen", "CPUCodeLibrary", "add_ir_module", "LLVM: reading the IR"),
    ("numba.core.codegen", "CPUCodeLibrary", "_optimize_functions", "LLVM: function passes"),
    ("numba.core.codegen", "CPUCodeLibrary", "finalize", "LLVM: linking in the callees' modules"),
    ("numba.core.codegen", "CPUCodeLibrary", "_optimize_final_module", "LLVM: module passes (callees linked in)"),
    ("numba.core.codegen", "JITCodeLibrary", "_finalize_specific", "LLVM: machine code"),
    ("numba.core.caching", "Cache", "save_overload", "numba: writing its cache"),
    ("numba.core.caching", "Cache", "load_overload", "numba: reading its cache"),
)
"""(module, class, method, row): the methods timed, each a stage of a compile."""


class Timers:
    """CPU seconds per stage, each without the timed stages nested in it, and per compiled function."""

    def __init__(self) -> None:
        self.stages: defaultdict[str, float] = defaultdict(float)
        self.functions: defaultdict[str, float] = defaultdict(float)
        self._open: list[list[Any]] = []  # [row, start, nested seconds]

    def enter(self, row: str) -> None:
        """Start timing ``row`` (nested in what is open)."""
        self._open.append([row, clock(), 0.0])

    def leave(self, table: defaultdict[str, float] | None = None) -> None:
        """Stop timing the innermost row: its time less what was nested in it goes to ``table`` (the stages')."""
        row, start, nested = self._open.pop()
        spent = clock() - start
        (self.stages if table is None else table)[row] += spent - nested
        if self._open:
            self._open[-1][2] += spent

    def wrap(self, fn: Callable[..., Any], row: str) -> Callable[..., Any]:
        """``fn`` timed as ``row``."""
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.enter(row)
            try:
                return fn(*args, **kwargs)
            finally:
                self.leave()
        return timed


def install(timers: Timers) -> None:
    """Wrap numba's compile stages and listen to its compile events (this process only)."""
    import importlib

    from numba.core import event

    for module, cls, method, row in STAGES:
        owner = getattr(importlib.import_module(module), cls)
        setattr(owner, method, timers.wrap(getattr(owner, method), row))
    per_function = Timers()

    class Compiles(event.Listener):  # type: ignore[misc]  # numba is untyped
        def on_start(self, ev: Any) -> None:
            per_function.enter(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev: Any) -> None:
            per_function.leave(timers.functions)

    event.register("numba:compile", Compiles())


def main() -> None:
    """Time a first use of the kernel on ``argv[1]`` (under ruleset ``argv[2]``, if given) and print the rows."""
    start = clock()
    timers = Timers()
    timers.enter("import numba")
    import numba  # noqa: F401

    timers.leave()
    install(timers)
    timers.enter("import the engine and the kernel")
    from ashfall.sim.kernel_lower import lowering
    from ashfall.sim.kernel_run import KernelSetup
    from ashfall.sim.setups import EncounterSetup

    timers.leave()
    timers.enter("load the encounter, lower the fight")
    setup = EncounterSetup(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    lowering(setup)
    timers.leave()
    timers.enter("play one fight (besides compiling)")
    KernelSetup(setup).results(1, 0, 1)
    timers.leave()
    total = clock() - start
    for row, seconds in sorted(timers.stages.items(), key=lambda kv: -kv[1]):
        print(f"{row}\t{seconds:.3f}")
    print(f"the rest\t{total - sum(timers.stages.values()):.3f}")
    print("functions")
    for name, seconds in sorted(timers.functions.items(), key=lambda kv: -kv[1]):
        print(f"{name}\t{seconds:.3f}")


if __name__ == "__main__":
    main()
