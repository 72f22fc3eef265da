"""``controller: human`` in a simulation: the AI plays that side, and ``run``/``sim`` say so once on standard error."""

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ashfall.cli.sim_cmds import register

DUEL = """
name: Human duel
seed: 5
map:
  rows: |
    #######
    #W...B#
    #######
sides:
  - {name: party, controller: %s}
  - {name: raiders, morale: off}
combatants:
  - {creature: warrior, side: party, zone: W}
  - {creature: raider-boss, side: raiders, zone: B}
victory:
  round_limit: 3
"""
NOTICE = "note: party (is controller: human) played by the AI in this simulation"
runner = CliRunner()


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    made = typer.Typer()
    register(made)
    return made


@pytest.mark.parametrize("command", [["run"], ["sim", "--trials", "2", "--json"]], ids=["run", "sim"])
def test_controller_human__simulation_says_once_that_the_ai_plays_the_side(app: typer.Typer, tmp_path: Path,
                                                                            command: list[str]) -> None:
    human, ai = tmp_path / "human.yaml", tmp_path / "ai.yaml"
    human.write_text(DUEL % "human")
    ai.write_text(DUEL % "ai")
    played = runner.invoke(app, [command[0], str(human), *command[1:]])
    assert played.exit_code == 0, played.output
    assert played.stderr.count(NOTICE) == 1
    assert NOTICE not in played.stdout  # JSON and tables on standard output stay clean
    silent = runner.invoke(app, [command[0], str(ai), *command[1:]])
    assert "controller: human" not in silent.stderr
    assert played.stdout == silent.stdout  # the same fight: the AI plays both
