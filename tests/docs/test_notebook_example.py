"""docs/notebooks/balance_an_encounter.py runs top to bottom (small) and finds a value inside its bracket."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "notebooks" / "balance_an_encounter.py"


def test_notebook__balances_the_duel_with_the_library_and_pandas(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ASHFALL_NOTEBOOK_TRIALS", "25")
    cells = runpy.run_path(str(NOTEBOOK))
    found = cells["found"]
    assert found.bracket[0] <= found.value <= found.bracket[1]
    assert found.trials <= 40 * 25 + 25
    assert "champion HP" in capsys.readouterr().out
