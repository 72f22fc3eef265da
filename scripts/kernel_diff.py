"""The fight kernel against the reference engine, seed by seed: the large differential set.

usage: python scripts/kernel_diff.py [--seeds N] [--seed S] [--edition NAME ...] [FILE ...]

Plays trials 0 .. N-1 of the sweep with seed S (``trial_seed(S, i)``, default N = 1000, S = 1) of every
encounter (default: tests/kernel/encounters/*.yaml) under each edition (default: ashfall-1 and ashfall-2)
(and under the file's own ruleset when it declares house rules, e.g. cover against melee attacks) through both
engines and compares their signatures (``ashfall.sim.signature.compare_engines``). Prints one
line per set with its divergence count and the first divergence explained by the reference engine; then every
shipped encounter under each edition (unless FILEs are given): the feature that keeps it on the reference engine,
or, where the kernel plays it, its divergences on the same seeds. Exits 1 on any divergence. CI runs a subset of
this (tests/kernel/test_kernel_matches_reference.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ashfall.sim.fight import trial_seed
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import kernel_signature
from ashfall.sim.setups import EncounterSetup
from ashfall.sim.signature import compare_engines, reference_signature

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILES = sorted((ROOT / "tests" / "kernel" / "encounters").glob("*.yaml"))
EDITIONS = ("ashfall-1", "ashfall-2")


def main(argv: list[str] | None = None) -> int:
    """Run the sets; 0 when no seed diverged."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edition", action="append", dest="editions")
    args = parser.parse_args(argv)
    seeds = [trial_seed(args.seed, i) for i in range(args.seeds)]
    diverged = 0
    for path in args.files or DEFAULT_FILES:
        own = EncounterSetup(path).load_spec().ruleset.name
        for edition in (*(args.editions or EDITIONS), *(() if args.editions or own in EDITIONS else (None,))):
            setup = EncounterSetup(path, edition)
            edition = edition or f"own: {own}"
            problem = check(setup)
            if problem is not None:
                print(f"{path.name} [{edition}]: not on the kernel: {problem}")
                continue
            start = time.perf_counter()
            report = compare_engines(setup, seeds, reference_signature, kernel_signature)
            took = time.perf_counter() - start
            diverged += len(report.divergences)
            print(f"{path.name} [{edition}]: {len(report.divergences)} of {len(seeds)} seeds diverge ({took:.1f} s)")
            first = report.first
            if first is not None:
                print(f"  first: seed {first.seed}, {first.field} at step {first.step}: {first.a!r} != {first.b!r}")
                for line in first.explanation:
                    print(f"    {line}")
    for path in sorted((ROOT / "encounters").glob("*.yaml")) if not args.files else ():
        for edition in args.editions or EDITIONS:
            diverged += _shipped(path, edition, seeds)
    return 1 if diverged else 0


def _shipped(path: Path, edition: str, seeds: list[int]) -> int:
    """A shipped encounter: why it stays on the reference engine, or its divergences where the kernel plays it."""
    setup = EncounterSetup(path, edition)
    problem = check(setup)
    if problem is not None:
        print(f"shipped {path.name} [{edition}]: {problem}")
        return 0
    start = time.perf_counter()
    report = compare_engines(setup, seeds, reference_signature, kernel_signature)
    took = time.perf_counter() - start
    print(f"shipped {path.name} [{edition}]: on the kernel, {len(report.divergences)} of {len(seeds)} seeds diverge "
          f"({took:.1f} s)")
    first = report.first
    if first is not None:
        print(f"  first: seed {first.seed}, {first.field} at step {first.step}: {first.a!r} != {first.b!r}")
        for line in first.explanation:
            print(f"    {line}")
    return len(report.divergences)


if __name__ == "__main__":
    sys.exit(main())
