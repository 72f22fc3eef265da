"""The examples run: examples/duel.py plays a whole duel and names a winner."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.rule("ACT-2", "ACT-7", "AE-1")
@pytest.mark.parametrize("args", [[], ["--seed", "3", "--brief"], ["--ruleset", "ashfall-1"]])
def test_examples__duel_plays_to_a_winner_and_explains_its_rolls(args: list[str]) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "duel.py"), *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^Winner: (party|raiders)$", out, re.MULTILINE), out[-2000:]
    assert re.search(r"d20 \[\d+\]", out)  # rolls show their faces
    assert "[ATK-4]" in out and "== Round 1 ==" in out
    if "--brief" not in args:
        assert re.search(r"DV \d+ = \+10 base \[DV-1\]", out)  # DV parts with rule IDs
        assert re.search(r"^\s+hp: \w+ \d+ -> \d+ \(HP\) \[G-39\]$", out, re.MULTILINE)  # ledger rows
