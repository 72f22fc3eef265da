"""Kernel start-up benchmark: first use and later start of ``ashfall sim`` on the kernel, next to the reference's.

One command, ``ashfall sim FILE --ruleset NAME --trials 1`` (default: the shipped duel under ``ashfall-1``, which
runs on the kernel), as fresh processes in one run:

- **reference start**: ``--engine reference`` (imports, the fight built, one fight);
- **kernel, first use**: ``--engine kernel`` with empty caches (numba's ``NUMBA_CACHE_DIR`` and the lowered
  tables' ``ASHFALL_CACHE_DIR`` in a new temporary folder): compiling the kernel, lowering the fight, one fight;
- **kernel, later start, lowering cache off**: the same command with numba's cache filled and
  ``ASHFALL_LOWERING_CACHE=off`` (as every later start was before the tables were kept on disk): imports, lowering,
  loading the compiled code, one fight;
- **kernel, later start, lowering cache warm**: the same with the lowered tables read from the disk cache
  (:mod:`ashfall.sim.kernel_cache`) instead of lowered;

each as CPU seconds of the child (user + system, from its resource usage: a busy machine stretches wall time,
not work), the least of ``--repeat`` runs for the starts (one run for first use: only one run is the first), and
the kernel's against the reference start as ratios, with the load average. Then where a later start's time goes
(cache warm), from one more child that times its steps (importing numba, the rest of the imports, the encounter
and its tables, loading the compiled code and playing one fight). Two more first uses on request, each with
empty caches again:

- ``--compile-step``: the kernel compiled at setup by ``ashfall compile-kernel`` (its CPU), then the command's
  first use after it: the same compilation, moved;
- ``--stages``: where a first use's time goes, numba's and LLVM's stages and the costliest functions
  (``bench/kernel_compile_stages.py``).

Not a test (it compiles the kernel from scratch; tests/kernel/test_bench_kernel.py only checks that the step timer
it runs is valid Python and that the stage timer runs). By hand::

    .venv/bin/python bench/bench_kernel_start.py [--encounter FILE] [--ruleset NAME] [--repeat 3] [--compile-step]
        [--stages]
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
marks.append(("load the encounter, its tables (lowering cache warm)", clock()))
KernelSetup(setup).results(1, 0, 1)
marks.append(("load the compiled kernel, play one fight", clock()))
for (_, before), (label, after) in zip(marks, marks[1:]):
    print(f"{{label}}\\t{{after - before}}")
"""


def _environment(cache: str, lowering_cache: bool = True) -> dict[str, str]:
    """The children's environment: numba's and the lowered tables' caches in ``cache``, the latter on or off.

    Python's bytecode cache is on, as a user has it.
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(cache, "numba"),
           "ASHFALL_CACHE_DIR": os.path.join(cache, "ashfall"), "COLUMNS": "120"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("ASHFALL_LOWERING_CACHE", None)
    if not lowering_cache:
        env["ASHFALL_LOWERING_CACHE"] = "off"
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
    """CPU seconds: the reference start, the kernel's first use, its later start without and with the tables' cache.

    ``cache``: an empty folder for the caches (filled by the first use).
    """
    sim = [*ASHFALL, "sim", str(encounter), "--trials", "1", *(("--ruleset", ruleset) if ruleset else ())]
    env, off = _environment(cache), _environment(cache, lowering_cache=False)
    cpu_seconds([*sim, "--engine", "reference"], env)  # warm-up: Python's bytecode cache, as a user's first run
    reference = min(cpu_seconds([*sim, "--engine", "reference"], env) for _ in range(repeat))
    first = cpu_seconds([*sim, "--engine", "kernel"], env)  # the caches are empty: this run compiles and lowers
    later_off, later = [], []
    for _ in range(repeat):  # interleaved, so that both see the same machine
        later_off.append(cpu_seconds([*sim, "--engine", "kernel"], off))
        later.append(cpu_seconds([*sim, "--engine", "kernel"], env))
    return {"reference": reference, "first": first, "later_off": min(later_off), "later": min(later)}


def later_steps(cache: str, encounter: Path = DUEL, ruleset: str | None = "ashfall-1") -> list[tuple[str, float]]:
    """Where a later start's CPU time goes: ``(step, seconds)`` from a child, with numba's cache in ``cache``.

    The first run fills the caches when they are empty; the second is a later start (lowering cache warm).
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


def compile_step(encounter: Path = DUEL, ruleset: str | None = "ashfall-1") -> tuple[float, float]:
    """CPU seconds of ``ashfall compile-kernel`` with empty caches, then of the command's first use after it."""
    with tempfile.TemporaryDirectory() as cache:
        env = _environment(cache)
        setup = cpu_seconds([*ASHFALL, "compile-kernel"], env)
        sim = [*ASHFALL, "sim", str(encounter), "--trials", "1", "--engine", "kernel",
               *(("--ruleset", ruleset) if ruleset else ())]
        return setup, cpu_seconds(sim, env)


def stages(encounter: Path = DUEL, ruleset: str | None = "ashfall-1", env: dict[str, str] | None = None
           ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """Where a first use's CPU goes: ``(stage rows, function rows)`` from ``bench/kernel_compile_stages.py``.

    ``env``: the child's environment (default: empty caches in a new folder, so the kernel compiles).
    """
    script = str(Path(__file__).with_name("kernel_compile_stages.py"))
    with tempfile.TemporaryDirectory() as fresh:
        done = subprocess.run([sys.executable, script, str(encounter), *((ruleset,) if ruleset else ())], cwd=ROOT,
                              env=env or _environment(fresh), capture_output=True, text=True, check=True)
    rows: tuple[list[tuple[str, float]], list[tuple[str, float]]] = ([], [])
    table = rows[0]
    for line in done.stdout.strip().splitlines():
        if line == "functions":
            table = rows[1]
            continue
        label, seconds = line.split("\t")
        table.append((label, float(seconds)))
    return rows


def main() -> None:
    """Print the three start-up figures with the kernel's ratios to the reference, then a later start's steps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounter", type=Path, default=DUEL)
    parser.add_argument("--ruleset", default="ashfall-1", help="preset or house-rule file ('' for the file's own)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each start (the least is printed)")
    parser.add_argument("--no-steps", action="store_true", help="skip the later start's breakdown")
    parser.add_argument("--compile-step", action="store_true",
                        help="also: `ashfall compile-kernel` at setup, then the first use (one more compile)")
    parser.add_argument("--stages", action="store_true", help="also: a first use's stages (one more compile)")
    args = parser.parse_args()
    ruleset = args.ruleset or None
    with tempfile.TemporaryDirectory() as cache:
        got = measure(cache, args.encounter, ruleset, args.repeat)
        steps = [] if args.no_steps else later_steps(cache, args.encounter, ruleset)
    ref = got["reference"]
    print(f"ashfall sim {args.encounter.name}{f' --ruleset {ruleset}' if ruleset else ''} --trials 1: CPU s "
          f"(one process each; starts: least of {args.repeat}; load average {os.getloadavg()[0]:.1f})")
    rows = (("reference engine, start", ref),
            ("kernel, first use (empty caches)", got["first"]),
            ("kernel, later start, lowering cache off", got["later_off"]),
            ("kernel, later start, lowering cache warm", got["later"]))
    for label, seconds in rows:
        ratio = "" if seconds is ref else f"   {seconds / ref:5.1f}x the reference"
        print(f"  {label:42} {seconds:7.2f}{ratio}")
    if steps:
        print("a later start, step by step (CPU s):")
        for label, seconds in steps:
            print(f"  {label:52} {seconds:6.2f}")
    if args.compile_step:
        setup, first = compile_step(args.encounter, ruleset)
        print("compiled at setup instead (empty caches again, CPU s):")
        print(f"  {'`ashfall compile-kernel`':42} {setup:7.2f}")
        print(f"  {'then the first use':42} {first:7.2f}   {first / ref:5.1f}x the reference")
    if args.stages:
        stage_rows, functions = stages(args.encounter, ruleset)
        print(f"a first use by stage (empty caches again, CPU s, {sum(s for _, s in stage_rows):.1f} in all; "
              f"load average {os.getloadavg()[0]:.1f}):")
        for label, seconds in stage_rows:
            print(f"  {label:52} {seconds:6.2f}")
        print("  the costliest functions (each less its callees):")
        for label, seconds in functions[:8]:
            print(f"    {label:50} {seconds:6.2f}")


if __name__ == "__main__":
    main()
