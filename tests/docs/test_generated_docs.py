"""Generated docs stay current: the rulings, the rules coverage and which engine plays each shipped fight."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script", ["gen_rulings_doc.py", "gen_coverage_doc.py", "gen_kernel_doc.py"])
def test_generated_doc_is_current(script: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / script), "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
