"""Sweep benchmark: fights per second of a sweep, and its scaling from 1 to 2 (or K) workers.

Plays the same grid of variants of an encounter (default: the duel, its champion's HP at five values) in this
process, then on K local worker processes (``--workers``), or on Dask (``--dask local`` or an address), and
prints fights per second and the efficiency per worker: (speed-up) / K, where 1.0 is perfect scaling. Worker
start-up is left out of the timing (the pool or cluster is warmed with a small sweep first), as it is paid once
per command. Not a test: run it by hand on an otherwise idle machine::

    .venv/bin/python bench/bench_sweep.py --trials 400 [--workers 2] [--dask local] [--encounter FILE --vary …]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ashfall.sim.backends import Backend, InProcess, LocalPool
from ashfall.sim.sweep import sweep
from ashfall.sim.variants import Vary, parse_vary

DUEL = Path(__file__).resolve().parents[1] / "encounters" / "duel.yaml"
VARY = "combatants.champion.hp=36..52:4"


def timed(backend: Backend, encounter: Path, axes: list[Vary], trials: int, seed: int) -> tuple[float, int]:
    """Seconds and fights of one sweep on a backend (after a warm-up sweep that starts its workers)."""
    sweep(encounter, axes[:1], 2, seed + 1, backend=backend)  # start workers and load the variants
    start = time.perf_counter()
    result = sweep(encounter, axes, trials, seed, backend=backend)
    return time.perf_counter() - start, sum(r.report.trials for r in result.rows)


def measure(trials: int, workers: int, seed: int = 1, encounter: Path = DUEL, vary: str = VARY,
            dask: str | None = None) -> dict[str, float]:
    """Fights per second with one process and with ``workers`` (or Dask), and the efficiency per worker."""
    axes = [parse_vary(vary)]
    one, fights = timed(InProcess(), encounter, axes, trials, seed)
    if dask is not None:
        from ashfall.sim.dask_backend import DaskBackend

        many: Backend = DaskBackend(dask, local_workers=workers)
    else:
        many = LocalPool(workers)
    try:
        k, _ = timed(many, encounter, axes, trials, seed)
    finally:
        many.close()
    speedup = one / k
    return {"fights": fights, "one_s": one, "one_fps": fights / one, "workers": workers, "many_s": k,
            "many_fps": fights / k, "speedup": speedup, "efficiency": speedup / workers}


def main() -> None:
    """Parse the options and print the throughput and scaling."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400, help="fights per variant (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the second run (default 2)")
    parser.add_argument("--dask", default=None, help="run the second sweep on Dask: local or tcp://host:port")
    parser.add_argument("--encounter", type=Path, default=DUEL)
    parser.add_argument("--vary", default=VARY, help=f"the varied path (default {VARY!r})")
    args = parser.parse_args()
    got = measure(args.trials, args.workers, args.seed, args.encounter, args.vary, args.dask)
    where = f"dask {args.dask}" if args.dask else f"{args.workers} worker processes"
    print(f"sweep of {int(got['fights'])} fights ({args.encounter.name}, {args.vary})")
    print(f"  1 process:  {got['one_s']:7.2f} s  {got['one_fps']:8.1f} fights/s")
    print(f"  {where}: {got['many_s']:7.2f} s  {got['many_fps']:8.1f} fights/s")
    print(f"  speed-up {got['speedup']:.2f}x, efficiency per worker {got['efficiency']:.2f} (target >= 0.8)")


if __name__ == "__main__":
    main()
