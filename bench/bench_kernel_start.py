"""Kernel start-up benchmark: first use and later start of ``ashfall sim`` on the kernel, next to the reference's.

One command, ``ashfall sim FILE --ruleset NAME --trials 1`` (default: the shipped duel under ``ashfall-1``, which
runs on the kernel), as fresh processes in one run:

- **reference start**: ``--engine reference`` (imports, the fight built, one fight);
- **kernel, first use**: ``--engine kernel`` with an empty numba cache (``NUMBA_CACHE_DIR`` a new temporary
  folder): compiling the kernel, lowering the fight, one fight;
- **kernel, later start**: the same command again with that cache filled: imports, lowering, loading the
  compiled code, one fight;

each as CPU seconds of the child (user + system, from its resource usage: a busy machine stretches wall time,
not work), the least of ``--repeat`` runs for the two starts (one run for first use: only one run is the
first), and the kernel's two against the reference start as ratios. Then where a later start's time goes, from
one more child that times its steps (importing numba, the rest of the imports, lowering, loading the compiled
code and playing one fight). Not a test (it compiles the kernel from scratch; tests/kernel/test_bench_kernel.py
only checks that the step timer it runs is valid Python). By hand::

    .venv/bin/python bench/bench_kernel_start.py [--encounter FILE] [--ruleset NAME] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "encounters" / "duel.yaml"
ASHFALL = [sys.executable, "-m", "ashfall.cli.stop_signals"]
"""The console script's entry point, run as a module (the ``ashfall`` script's code path)."""

_STEPS = """
import sys, time
clock = time.process_time
marks = [("start", clock())]
import numba
marks.append(("import numba", clock()))
from ashfall.sim.kernel_lower import lowering
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup
marks.append(("import the engine and the kernel", clock()))
setup = EncounterSetup({path!r}, {ruleset!r})
lowering(setup)
marks.append(("load the encounter, lower the fight", clock()))
KernelSetup(setup).results(1, 0, 1)
marks.append(("load the compiled kernel, play one fight", clock()))
for (_, before), (label, after) in zip(marks, marks[1:]):
    print(f"{{label}}\\t{{after - before}}")
"""


def _environment(cache: str) -> dict[str, str]:
    """The children's environment: numba's cache in ``cache``, Python's bytecode cache on (as a user has it)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "COLUMNS": "120"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    """CPU time (user + system) of one run of ``command`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                          check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {done.returncode}:\n{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(cache: str, encounter: Path = DUEL, ruleset: str | None = "ashfall-1", repeat: int = 3
            ) -> dict[str, float]:
    """CPU seconds: the reference engine's start, the kernel's first use and its later start.

    ``cache``: an empty folder for numba's cache (filled by the first use).
    """
    sim = [*ASHFALL, "sim", str(encounter), "--trials", "1", *(("--ruleset", ruleset) if ruleset else ())]
    env = _environment(cache)
    cpu_seconds([*sim, "--engine", "reference"], env)  # warm-up: Python's bytecode cache, as a user's first run
    reference = min(cpu_seconds([*sim, "--engine", "reference"], env) for _ in range(repeat))
    first = cpu_seconds([*sim, "--engine", "kernel"], env)  # the cache is empty: this run compiles
    later = min(cpu_seconds([*sim, "--engine", "kernel"], env) for _ in range(repeat))
    return {"reference": reference, "first": first, "later": later}


def later_steps(cache: str, encounter: Path = DUEL, ruleset: str | None = "ashfall-1") -> list[tuple[str, float]]:
    """Where a later start's CPU time goes: ``(step, seconds)`` from a child, with numba's cache in ``cache``.

    The first run fills the cache when it is empty; the second is a later start.
    """
    code = _STEPS.format(path=str(encounter), ruleset=ruleset)
    env = _environment(cache)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              check=True)
    steps = []
    for line in done.stdout.strip().splitlines():
        label, seconds = line.split("\t")
        steps.append((label, float(seconds)))
    return steps


def main() -> None:
    """Print the three start-up figures with the kernel's ratios to the reference, then a later start's steps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounter", type=Path, default=DUEL)
    parser.add_argument("--ruleset", default="ashfall-1", help="preset or house-rule file ('' for the file's own)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each start (the least is printed)")
    parser.add_argument("--no-steps", action="store_true", help="skip the later start's breakdown")
    args = parser.parse_args()
    ruleset = args.ruleset or None
    with tempfile.TemporaryDirectory() as cache:
        got = measure(cache, args.encounter, ruleset, args.repeat)
        steps = [] if args.no_steps else later_steps(cache, args.encounter, ruleset)
    ref = got["reference"]
    print(f"ashfall sim {args.encounter.name}{f' --ruleset {ruleset}' if ruleset else ''} --trials 1: CPU s "
          f"(one process each; starts: least of {args.repeat})")
    print(f"  reference engine, start              {ref:7.2f}")
    print(f"  kernel, first use (empty numba cache) {got['first']:7.2f}   {got['first'] / ref:5.1f}x the reference")
    print(f"  kernel, later start (cache filled)    {got['later']:7.2f}   {got['later'] / ref:5.1f}x the reference")
    if steps:
        print("a later start, step by step (CPU s):")
        for label, seconds in steps:
            print(f"  {label:42} {seconds:6.2f}")


if __name__ == "__main__":
    main()
