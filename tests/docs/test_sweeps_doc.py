"""docs/sweeps.md stays true: every ``$ ashfall …`` line of its console blocks runs, and shows what it says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "sweeps.md"


def _examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each ``$ ashfall`` line of the console blocks."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


@pytest.mark.parametrize(("command", "expected"), _examples(), ids=[c for c, _ in _examples()])
def test_sweeps_doc__console_example_runs_as_shown(command: str, expected: list[str], monkeypatch:
                                                   pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "400")
    args = shlex.split(command)
    assert args[0] == "ashfall"
    got = CliRunner().invoke(app, args[1:])
    if any(line.startswith("error:") for line in expected):
        assert got.exit_code == 2
    else:
        assert got.exit_code == 0, got.output
    flat = " ".join(got.output.split())
    for line in expected:
        assert " ".join(line.split()) in flat
