"""``ashfall compile-kernel``: compile the fight kernel now, so that the first ``sim`` on it does not have to.

The kernel (numba, :mod:`ashfall.kernel`) compiles on its first use and keeps the machine code in numba's cache
(``__pycache__`` beside its code, or ``$NUMBA_CACHE_DIR``); later processes load it. This command is that first
use, on purpose: it plays one fight of the shipped duel on the kernel through both of its entry points (the
simulator's batch loop and the recording path of ``compare`` and ``--trial``), so a setup step (an image build, a
CI job, right after ``pip install``) can pay the compilation once, before anything is timed. It skips nothing: it
is the same compilation (about 100 s of CPU on a 2-core machine, ``docs/dev/performance.md``), done earlier. With
the cache already filled it only loads it (a second or two).
"""

from __future__ import annotations

import time

from ashfall.cli.common import out

WARM_UP_ENCOUNTER = "duel.yaml"
"""The shipped encounter whose fight compiles the kernel (one signature serves every fight the kernel plays)."""
WARM_UP_RULESET = "ashfall-1"
"""Its ruleset here: the one the kernel plays it under with the least lowering."""


def compile_kernel_command() -> None:
    """Compile the fight kernel into numba's cache now (the first use of the kernel, done at setup)."""
    from ashfall.encounters import encounters_root
    from ashfall.sim.kernel_run import KernelSetup
    from ashfall.sim.setups import EncounterSetup

    start = time.process_time()
    kernel = KernelSetup(EncounterSetup(encounters_root() / WARM_UP_ENCOUNTER, WARM_UP_RULESET))
    kernel.batch([0])  # the simulator's entry point (``play_batch``)
    kernel.signature(0)  # the recording path's (``play``: compiled once, shared with the batch loop)
    out().print(f"fight kernel compiled and cached ({time.process_time() - start:.1f} s of CPU; a filled cache is "
                "only loaded)", markup=False)


__all__ = ["compile_kernel_command"]
