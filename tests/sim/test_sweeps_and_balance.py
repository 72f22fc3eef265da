"""Sweeps over variants and the balance search: results independent of order and workers, a known answer."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.files.yaml_marks import InputError
from ashfall.sim.backends import Chunk, LocalPool
from ashfall.sim.balance import balance
from ashfall.sim.sweep import sweep
from ashfall.sim.variants import parse_vary

EVEN_DUEL = """\
# Two bandits (9 HP each) trading Strikes with no map: the fight is symmetric, so equal HP gives 50%.
name: Even duel
sides:
  - {name: a, morale: false}
  - {name: b, morale: false}
combatants:
  - {creature: bandit, id: left, side: a, tactics: [strike, strike]}
  - {creature: bandit, id: right, side: b, tactics: [strike, strike]}
victory:
  round_limit: 30
"""
BANDIT_HP = 9

runner = CliRunner(env={"COLUMNS": "2000"})  # a wide terminal: no table wraps a heading, wherever tests run


@pytest.fixture
def even_duel(tmp_path: Path) -> Path:
    path = tmp_path / "even-duel.yaml"
    path.write_text(EVEN_DUEL)
    return path


def _shuffled(chunks: list[Chunk]) -> list[Chunk]:
    out = list(chunks)
    random.Random(4).shuffle(out)
    return out


def test_sweep__shuffled_order_and_worker_counts_give_identical_tables(even_duel: Path) -> None:
    axes = [parse_vary("combatants.right.hp=5..13:4"), parse_vary("ruleset.attack.map_step=-2,-3")]
    plain = sweep(even_duel, axes, 120, 11)
    shuffled = sweep(even_duel, axes, 120, 11, order=_shuffled)
    pool = LocalPool(2)
    try:
        pooled = sweep(even_duel, list(reversed(axes)), 120, 11, backend=pool)
    finally:
        pool.close()
    assert plain.records() == shuffled.records()
    by_key = {r.key: r.to_record() for r in pooled.rows}
    for row in plain.rows:
        record = by_key[row.key]
        assert {k: record[k] for k in row.to_record()} == row.to_record()


def test_sweep__a_variants_results_do_not_depend_on_the_other_variants(even_duel: Path) -> None:
    alone = sweep(even_duel, [parse_vary("combatants.right.hp=9")], 80, 3)
    among = sweep(even_duel, [parse_vary("combatants.right.hp=5,9,13")], 80, 3)
    assert among.rows[1].to_record() == alone.rows[0].to_record()


def test_sweep__more_hp_for_the_other_side_lowers_the_win_rate(even_duel: Path) -> None:
    result = sweep(even_duel, [parse_vary("combatants.right.hp=3..27:12")], 200, 5)
    rates = [r.metrics["win"].value for r in result.rows]
    assert rates[0] > 0.7 and rates[-1] < 0.3
    assert rates == sorted(rates, reverse=True)
    assert all(r.metrics["win"].low <= r.metrics["win"].value <= r.metrics["win"].high for r in result.rows)


def test_sweep__an_unknown_path_fails_before_any_fight(even_duel: Path) -> None:
    with pytest.raises(InputError, match=r"did you mean 'combatants\.right\.hp'"):
        sweep(even_duel, [parse_vary("combatants.right.hpp=1,2")], 10, 0)


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_sweep__writes_its_table(even_duel: Path, tmp_path: Path, suffix: str) -> None:
    result = sweep(even_duel, [parse_vary("combatants.right.hp=5,9")], 20, 0)
    out = tmp_path / f"sweep{suffix}"
    result.write(out)
    frame = {".parquet": pd.read_parquet, ".csv": pd.read_csv,
             ".jsonl": lambda p: pd.read_json(p, lines=True)}[suffix](out)
    assert list(frame["combatants.right.hp"]) == [5, 9]
    assert list(frame["win"]) == pytest.approx([r.metrics["win"].value for r in result.rows])


def test_cli_sweep__prints_the_table_and_draws_a_line_plot(even_duel: Path, tmp_path: Path) -> None:
    plot, table = tmp_path / "sweep.png", tmp_path / "sweep.csv"
    got = runner.invoke(app, ["sweep", str(even_duel), "--vary", "combatants.right.hp=5..9:4", "--trials",
                               "30", "--seed", "1", "--plot", str(plot), "--out", str(table)])
    assert got.exit_code == 0, got.output
    assert "a wins (95% CI)" in got.output
    assert plot.stat().st_size > 0 and len(pd.read_csv(table)) == 2


def test_cli_sweep__unknown_path_is_a_usage_error_with_a_suggestion(even_duel: Path) -> None:
    got = runner.invoke(app, ["sweep", str(even_duel), "--vary", "ruleset.map.second=-2,-3"])
    assert got.exit_code == 2
    assert "ruleset.attack.map_step" in got.output


def test_balance__symmetric_duel_needs_equal_hp_for_half_the_wins(even_duel: Path) -> None:
    found = balance(even_duel, parse_vary("combatants.right.hp=2..40"), 0.5, seed=3)
    assert found.status == "found"
    assert found.bracket[0] <= BANDIT_HP <= found.bracket[1]
    assert abs(int(found.value) - BANDIT_HP) <= 1
    assert found.estimate.contains(0.5)
    # trials go where they matter: the ends are settled with one batch, the value found gets the most
    assert found.probes[0].estimate.n == found.probes[1].estimate.n == 100
    assert max(p.estimate.n for p in found.probes) == found.estimate.n
    assert found.trials == sum(p.estimate.n for p in {p.value: p for p in found.probes}.values())


def test_balance__stops_when_the_target_is_outside_the_range(even_duel: Path) -> None:
    found = balance(even_duel, parse_vary("combatants.right.hp=1..3"), 0.5, seed=3)
    assert found.status == "not-bracketed"
    assert found.trials == 200


def test_balance__stops_when_the_budget_is_spent(even_duel: Path) -> None:
    found = balance(even_duel, parse_vary("combatants.right.hp=2..400"), 0.5, seed=3, budget=300)
    assert found.status in ("budget", "found")
    assert found.trials <= 300 + 100


def test_balance__other_metrics_rounds(even_duel: Path) -> None:
    found = balance(even_duel, parse_vary("combatants.right.hp=2..40"), 3.0, metric="rounds", seed=1)
    assert found.status in ("found", "between")
    assert found.bracket[0] <= found.value <= found.bracket[1]


def test_cli_balance__reports_value_interval_and_trials(even_duel: Path) -> None:
    got = runner.invoke(app, ["balance", str(even_duel), "--target-win", "0.5", "--vary",
                               "combatants.right.hp=1..3", "--seed", "3", "--json"])
    assert got.exit_code == 0, got.output
    assert '"status": "not-bracketed"' in got.output and '"bracket"' in got.output and '"trials"' in got.output
