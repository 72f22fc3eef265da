"""Fight-kernel benchmark: fights per second of the kernel against the reference engine on the kernel's slice.

Both engines play the same trials of the same encounter (the kernel draw for draw as the reference, see
tests/kernel), measured in the same run, so the ratio is the meaningful figure. Three kernel figures:

- **compiled loop**: ``KernelSetup.batch``, fights played one after another in compiled code (no Python objects);
- **simulator path**: ``KernelSetup.results``, the same plus the ``FightResult`` rows ``ashfall sim`` aggregates;
- **first use and start-up**: a fresh interpreter with an empty numba cache (``NUMBA_CACHE_DIR``) importing the
  kernel and playing one fight (compilation included), then a second one reusing that cache.

Not a test (tests/kernel/test_bench_kernel.py only checks that it runs): run it by hand::

    .venv/bin/python bench/bench_kernel.py [--encounter FILE] [--edition NAME] [--reference-trials 300]
        [--kernel-trials 20000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ashfall.sim.fight import trial_seed
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.runner import play_trials
from ashfall.sim.setups import EncounterSetup

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "tests" / "kernel" / "encounters" / "scripted-duel.yaml"
SEED = 1


def _best(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def measure(encounter: Path = DUEL, reference_trials: int = 300, kernel_trials: int = 20_000,
            repeat: int = 3, edition: str | None = None) -> dict[str, float]:
    """Best-of-``repeat`` fights per second: reference engine, kernel's compiled loop, kernel's simulator path.

    ``edition``: the ruleset preset (None: the encounter's own, else the default).
    """
    setup = EncounterSetup(encounter, edition)
    kernel = KernelSetup(setup)
    seeds = [trial_seed(SEED, i) for i in range(kernel_trials)]
    kernel.batch(seeds[:2])  # compile, or load the compiled cache: not timed
    play_trials(setup, SEED, 0, 5)  # the reference's first fight builds its caches: not timed
    reference_s = _best(lambda: play_trials(setup, SEED, 0, reference_trials), repeat)
    batch_s = _best(lambda: kernel.batch(seeds), repeat)
    results_s = _best(lambda: kernel.results(SEED, 0, kernel_trials), repeat)
    return {"reference": reference_trials / reference_s, "kernel_loop": kernel_trials / batch_s,
            "kernel_sim": kernel_trials / results_s}


_FIRST_FIGHT = """
import time
start = time.perf_counter()
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup
KernelSetup(EncounterSetup({path!r}, {edition!r})).result(1)
print(time.perf_counter() - start)
"""


def measure_start(encounter: Path = DUEL, edition: str | None = None) -> tuple[float, float]:
    """Seconds to import the kernel and play one fight: with an empty numba cache (compiling), then with it."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            code = _FIRST_FIGHT.format(path=str(encounter), edition=edition)
            done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            runs.append(float(done.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def main() -> None:
    """Print fights per second of both engines with their ratios, then first-use and start-up times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounter", type=Path, default=DUEL)
    parser.add_argument("--reference-trials", type=int, default=300)
    parser.add_argument("--kernel-trials", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edition", default=None, help="ruleset preset (the AI's slice plays ashfall-1)")
    args = parser.parse_args()
    got = measure(args.encounter, args.reference_trials, args.kernel_trials, args.repeat, args.edition)
    ref = got["reference"]
    print(f"{args.encounter.name}: fights/s (one process, best of {args.repeat})")
    print(f"  reference engine        {ref:>12,.0f}")
    print(f"  kernel, compiled loop   {got['kernel_loop']:>12,.0f}   {got['kernel_loop'] / ref:,.0f}x the reference")
    print(f"  kernel, simulator path  {got['kernel_sim']:>12,.0f}   {got['kernel_sim'] / ref:,.0f}x the reference")
    first, later = measure_start(args.encounter, args.edition)
    print(f"first use (empty numba cache: compile, import, one fight): {first:.1f} s")
    print(f"later start-up (cached: import, one fight): {later:.1f} s")


if __name__ == "__main__":
    main()
