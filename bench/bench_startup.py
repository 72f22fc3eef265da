"""Start-up benchmark: CPU seconds of short ``ashfall`` commands, against ``python -c pass`` in the same run.

Each command runs ``--repeat`` times as a fresh process (the way a shell runs it); the figure is the least CPU
time (user + system, from the child's resource usage) of those runs, after one warm-up run that fills Python's
bytecode cache as a user's first run does, which is what the command costs on an idle machine whatever else is
running. CPU time rather than wall time: a busy machine stretches wall time, not work.

Commands: ``ashfall --help``, ``ashfall rule MAP-2``, ``ashfall validate encounters/duel.yaml``, and for scale
``ashfall odds attack …`` and ``ashfall sim … --trials 1``. The target is 0.3 s for the first three. Not a test
(timings are not asserted; a test checks which modules importing the CLI pulls in). Run it by hand::

    .venv/bin/python bench/bench_startup.py [--repeat 5]

To measure another checkout's source with this venv, put its ``src`` first: ``PYTHONPATH=/path/to/src``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.3
"""The start-up budget of ``--help``, ``rule`` and ``validate`` (CPU seconds)."""
ASHFALL = [sys.executable, "-m", "ashfall.cli.stop_signals"]
"""The console script's entry point, run as a module (same code path as the ``ashfall`` script)."""
COMMANDS: tuple[tuple[str, list[str], bool], ...] = (
    ("python -c pass", [sys.executable, "-c", "pass"], False),
    ("ashfall --help", [*ASHFALL, "--help"], True),
    ("ashfall rule MAP-2", [*ASHFALL, "rule", "MAP-2"], True),
    ("ashfall validate encounters/duel.yaml", [*ASHFALL, "validate", "encounters/duel.yaml"], True),
    ("ashfall odds attack --bonus 5 --dv 15 --damage 1d8+3",
     [*ASHFALL, "odds", "attack", "--bonus", "5", "--dv", "15", "--damage", "1d8+3"], False),
    ("ashfall sim encounters/duel.yaml --trials 1", [*ASHFALL, "sim", "encounters/duel.yaml", "--trials", "1"], False),
)


def _environment() -> dict[str, str]:
    """The children's environment: as a user's shell has it, with Python's bytecode cache on.

    ``PYTHONDONTWRITEBYTECODE`` (set on some CI and sandbox machines) makes every run compile our modules
    from source again, about 60 ms that a user's second run never pays; a warm-up run fills the cache.
    """
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_seconds(command: list[str]) -> float:
    """CPU time (user + system) of one run of ``command`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=_environment(), check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {done.returncode}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print each command's least CPU time over the repeats, and what it adds to a bare interpreter."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (the least is printed)")
    args = parser.parse_args()
    base = 0.0
    print(f"{'command':56} {'CPU s':>7} {'over python':>12}  target")
    for label, command, budget in COMMANDS:
        cpu_seconds(command)  # warm-up: fills the bytecode cache (and any other first-run cache)
        best = min(cpu_seconds(command) for _ in range(args.repeat))
        if label.startswith("python"):
            base = best
        mark = ("ok" if best <= TARGET_S else "OVER") if budget else ""
        print(f"{label:56} {best:7.3f} {best - base:12.3f}  {mark}")


if __name__ == "__main__":
    main()
