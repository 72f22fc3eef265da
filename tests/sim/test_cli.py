"""``run``, ``sim`` and ``compare`` through typer's CliRunner on an app built with ``register``."""

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ashfall.cli.sim_cmds import register
from ashfall.encounters import encounters_root
from ashfall.sim.runner import replay_trial

SHIPPED_DUEL = str(encounters_root() / "duel.yaml")
SCRIPTED = """
name: Scripted duel
seed: 5
map:
  rows: |
    #######
    #W...B#
    #######
sides:
  - name: party
  - name: raiders
    morale: off
combatants:
  - {creature: warrior, side: party, zone: W, tactics: [power-strike, strike]}
  - {creature: raider-boss, side: raiders, zone: B, tactics: [strike, strike, strike]}
victory:
  round_limit: 10
"""
runner = CliRunner(env={"COLUMNS": "2000"})  # a wide terminal: no table wraps a heading, wherever tests run


@pytest.fixture(scope="module")
def duel_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A duel whose both sides follow scripted plans (no AI), so these tests do not depend on it."""
    path = tmp_path_factory.mktemp("enc") / "scripted-duel.yaml"
    path.write_text(SCRIPTED)
    return str(path)


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    made = typer.Typer()
    register(made)
    return made


def test_sim_json__schema(app: typer.Typer, duel_file: str) -> None:
    result = runner.invoke(app, ["sim", duel_file, "--trials", "20", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["trials"] == 20
    assert data["seed"] == 3
    assert data["encounter"] == "Scripted duel"
    assert set(data["sides"]) == {"party", "raiders"}
    for side in data["sides"].values():
        lo, hi = side["ci95"]
        assert 0 <= lo <= side["win_rate"] <= hi <= 1
    assert sum(s["wins"] for s in data["sides"].values()) + data["undecided"]["count"] == 20
    assert {"mean", "sd", "min", "max", "quantiles"} <= set(data["rounds"])
    assert set(data["rounds"]["quantiles"]) == {"p5", "p25", "p50", "p75", "p95"}
    for c in data["combatants"].values():
        assert {"side", "dropped", "died", "damage_dealt", "damage_taken", "hp_left", "morale"} <= set(c)
        assert len(c["dropped"]["ci95"]) == 2


def test_sim_table__prints_win_rates(app: typer.Typer, duel_file: str) -> None:
    result = runner.invoke(app, ["sim", duel_file, "-n", "10"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout
    assert "Rounds" in result.stdout


def test_sim_trial__replays_that_trial_with_its_log(app: typer.Typer, duel_file: str) -> None:
    result = runner.invoke(app, ["sim", duel_file, "--seed", "4", "--trial", "2", "--json"])
    assert result.exit_code == 0, result.output
    events = json.loads(result.stdout)
    _, expected = replay_trial(duel_file, 4, 2)
    assert len(events) == len(expected)
    assert events[-1]["type"] == "combat-ended"


def test_run__readable_log_and_json_log(app: typer.Typer, duel_file: str) -> None:
    text = runner.invoke(app, ["run", duel_file, "--seed", "1", "--explain"])
    assert text.exit_code == 0, text.output
    assert "Round 1" in text.stdout
    assert "DV" in text.stdout
    raw = runner.invoke(app, ["run", duel_file, "--seed", "1", "--json"])
    events = json.loads(raw.stdout)
    assert events[0]["type"] == "combat-started"
    assert events[0]["seed"] == 1
    assert events[-1]["type"] == "combat-ended"


def test_sim_plot__writes_a_png(app: typer.Typer, duel_file: str, tmp_path: Path) -> None:
    out = tmp_path / "duel.png"
    result = runner.invoke(app, ["sim", duel_file, "-n", "10", "--plot", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare__two_rulesets_on_one_file(app: typer.Typer, duel_file: str) -> None:
    result = runner.invoke(app, ["compare", duel_file, "--ruleset", "ashfall-1", "--ruleset", "ashfall-2", "-n", "10",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["ruleset"] for r in data["runs"]] == ["ashfall-1", "ashfall-2"]
    rows = data["comparisons"][0]["differences"]
    assert rows[0]["label"] == "party wins"
    assert all(isinstance(r["significant"], bool) and 0 <= r["p_value"] <= 1 for r in rows)


def test_compare__table_and_bad_arguments(app: typer.Typer, duel_file: str) -> None:
    ok = runner.invoke(app, ["compare", duel_file, duel_file, "-n", "5"])
    assert ok.exit_code == 0, ok.output
    assert "significant" in ok.stdout
    bad = runner.invoke(app, ["compare", duel_file, "-n", "5"])
    assert bad.exit_code == 2


def test_missing_file__usage_error(app: typer.Typer) -> None:
    assert runner.invoke(app, ["sim", "no-such-file.yaml"]).exit_code == 2


def test_run__the_shipped_duel_plays(app: typer.Typer) -> None:
    result = runner.invoke(app, ["run", SHIPPED_DUEL])
    assert result.exit_code == 0, result.output
    assert "Winner" in result.stdout
