"""``ashfall roll`` and ``ashfall rule`` through typer's CliRunner."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app

runner = CliRunner()


def test_roll__same_seed_gives_the_same_faces_and_total() -> None:
    first = runner.invoke(app, ["roll", "4d6kh3+2", "--seed", "42", "--json"])
    second = runner.invoke(app, ["roll", "4d6kh3+2", "--seed", "42", "--json"])
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["seed"] == 42
    assert len(data["faces"]) == 4
    assert [f["kept"] for f in data["faces"]].count(False) == 1
    assert data["total"] == sum(f["value"] for f in data["faces"] if f["kept"]) + 2


def test_roll__human_output_marks_dropped_faces_and_prints_the_seed() -> None:
    result = runner.invoke(app, ["roll", "2d20kh1", "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "total:" in result.stdout
    assert "replay with --seed 7" in result.stdout
    assert re.search(r"\(\d+\)", result.stdout)  # the dropped d20 in parentheses


def test_roll__without_a_seed_prints_a_seed_that_replays_the_roll() -> None:
    result = runner.invoke(app, ["roll", "3d6", "fire", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["expression"] == "3d6 fire"
    replay = runner.invoke(app, ["roll", "3d6", "fire", "--seed", str(data["seed"]), "--json"])
    assert json.loads(replay.stdout)["faces"] == data["faces"]


@pytest.mark.parametrize(("expr", "message"), [("2000d6", "the limit is 1000"), ("1d", "cannot read dice expression"),
                                                ("1d6/2", "not supported")])
def test_roll__bad_dice_expression_exits_2_with_a_clear_message(expr: str, message: str) -> None:
    result = runner.invoke(app, ["roll", expr, "--seed", "1"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_rule__prints_the_catalog_text() -> None:
    result = runner.invoke(app, ["rule", "map-1"])
    assert result.exit_code == 0
    assert "MAP-1" in result.stdout and "cumulative" in result.stdout
    missing = runner.invoke(app, ["rule", "NOPE-9"])
    assert missing.exit_code == 2 and "unknown rule ID" in missing.stderr
