"""Rewrite tests/golden/: one recorded fight per shipped encounter and edition (seed, intents, events).

usage: python scripts/regen_golden.py [--check]

Each file is trial 0 of the sweep with seed 1 (the fight's seed is in its header), capped at
MAX_ROUNDS rounds to keep the files small, played by the encounter's own tactics and the AI. Run it
only when a change to the rules, the dice order or the log format is intended, then review the diff
(`git diff --stat tests/golden`) before committing. tests/engine/test_golden_logs.py replays every
file byte for byte. With --check, exit 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ashfall.engine import dumps_log
from ashfall.sim.recorded import record_trial

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
EDITIONS = ("ashfall-1", "ashfall-2")
SWEEP_SEED = 1
TRIAL = 0
MAX_ROUNDS = 3


def golden_name(encounter: Path, edition: str) -> str:
    """The file of one encounter under one edition: ``duel.ashfall-2.jsonl``."""
    return f"{encounter.stem}.{edition}.jsonl"


def encounters() -> list[Path]:
    """The shipped encounter files, relative to the repository root."""
    return sorted(p.relative_to(ROOT) for p in (ROOT / "encounters").glob("*.yaml"))


def render(encounter: Path, edition: str) -> str:
    """The golden text of one encounter under one edition."""
    _, log = record_trial(encounter.as_posix(), SWEEP_SEED, TRIAL, ruleset=edition, max_rounds=MAX_ROUNDS)
    return dumps_log(log)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale: list[str] = []
    for encounter in encounters():
        for edition in EDITIONS:
            target = GOLDEN / golden_name(encounter, edition)
            text = render(encounter, edition)
            if target.exists() and target.read_text(encoding="utf-8") == text:
                continue
            stale.append(target.name)
            if not check:
                GOLDEN.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    verb = "differ" if check else "written"
    print(f"{len(stale)} golden log(s) {verb}" + (": " + ", ".join(stale) if stale else ""))
    return 1 if check and stale else 0


if __name__ == "__main__":
    import os

    os.chdir(ROOT)  # encounter paths are recorded relative to the repository root
    sys.exit(main(sys.argv[1:]))
