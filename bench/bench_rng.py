"""Random-stream benchmark: d20 draws per second, CPython's ``random.Random.randint`` against the kernel's.

Both draw the same numbers (``ashfall.kernel.rng`` is CPython's Mersenne Twister and ``randint`` compiled with
numba). The kernel's figure is a compiled loop (``roll_many``), as a fight kernel draws; the first call
compiles or loads the cache and is not timed. Also times seeding a generator, once per trial in a sweep.
Prints both rates and their ratio, measured in the same run. Not a test: run it by hand::

    .venv/bin/python bench/bench_rng.py [--draws 2000000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import timeit
from collections.abc import Callable

import numpy as np

from ashfall.core.rng import hash_seed
from ashfall.kernel.rng import reseed_many, roll_many, seeded


def _best(fn: Callable[[], object], repeat: int) -> float:
    """The least wall time of ``repeat`` calls (the standard library's timer)."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def measure(draws: int = 2_000_000, repeat: int = 5) -> tuple[float, float]:
    """Best-of-``repeat`` d20 draws per second: CPython's, then the kernel's."""
    r = random.Random(hash_seed(1, 1))
    state = seeded(hash_seed(1, 1))
    out = np.zeros(draws, dtype=np.int64)
    roll_many(state, 20, out[:10])  # compile, or load the compiled cache

    def cpython() -> None:
        randint = r.randint
        for _ in range(draws):
            randint(1, 20)

    cpython_s = _best(cpython, repeat)
    kernel_s = _best(lambda: roll_many(state, 20, out), repeat)
    return draws / cpython_s, draws / kernel_s


def measure_seeding(count: int = 20_000, repeat: int = 3) -> tuple[float, float]:
    """Best-of-``repeat`` trials seeded (and one d20 drawn) per second from 63-bit trial seeds: CPython, kernel.

    The kernel reseeds one state in place in a compiled loop (``reseed``), as a kernel sweep would per trial.
    """
    seeds = [hash_seed(1, i) for i in range(count)]
    array = np.array(seeds, dtype=np.int64)
    state = seeded(0)
    reseed_many(state, array[:2])
    cpython_s = _best(lambda: [random.Random(s).randint(1, 20) for s in seeds], repeat)
    kernel_s = _best(lambda: reseed_many(state, array), repeat)
    return count / cpython_s, count / kernel_s


def main() -> None:
    """Print draws per second and seedings per second of both, with their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cpython, kernel = measure(args.draws, args.repeat)
    print(f"d20 draws/s: CPython {cpython:,.0f}, kernel {kernel:,.0f}, kernel is {kernel / cpython:.1f}x faster")
    cpython_seed, kernel_seed = measure_seeding()
    print(f"seedings/s (seed + one d20): CPython {cpython_seed:,.0f}, kernel {kernel_seed:,.0f}, "
          f"kernel is {kernel_seed / cpython_seed:.1f}x faster")


if __name__ == "__main__":
    main()
