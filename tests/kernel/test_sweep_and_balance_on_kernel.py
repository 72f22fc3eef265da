"""Sweeps and balance searches on the fight kernel: the same tables and answers as on the reference engine.

Each variant is decided on its own (``--engine auto``: the kernel when it supports that variant, with one
notice for the run when one falls back), and the kernel plays the same trials as the reference engine, so the
results are equal, not merely close.
"""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from ashfall.cli.sweep_cmds import register
from ashfall.encounters import encounters_root
from ashfall.sim.backends import LocalPool
from ashfall.sim.balance import balance
from ashfall.sim.sweep import sweep
from ashfall.sim.variants import parse_vary
from tests.kernel.kit import HEROES_FALL, TWO_ON_TWO

runner = CliRunner()
BOSS_HP = "combatants.kernel-brute-boss.hp=40,70"


@pytest.fixture
def app() -> typer.Typer:
    made = typer.Typer()
    register(made)
    return made


@pytest.mark.rule("DEATH-2")
def test_sweep__kernel_table_is_the_reference_table() -> None:
    axes = [parse_vary(BOSS_HP)]
    notices: list[str] = []
    tables = {engine: sweep(HEROES_FALL, axes, 60, 4, engine=engine, notice=notices.append).records()
              for engine in ("kernel", "reference", "auto")}
    assert tables["kernel"] == tables["reference"] == tables["auto"]
    assert notices == []  # every variant is on the kernel


def test_sweep__workers_on_the_kernel_give_the_same_table() -> None:
    axes = [parse_vary("combatants.kernel-reaver.hp=12,20")]
    pool = LocalPool(2)
    try:
        on_pool = sweep(TWO_ON_TWO, axes, 120, 2, backend=pool, engine="kernel").records()
    finally:
        pool.close()
    assert on_pool == sweep(TWO_ON_TWO, axes, 120, 2, engine="reference").records()


def test_balance__kernel_answer_is_the_reference_answer() -> None:
    vary = parse_vary("combatants.kernel-brute-boss.hp=20..90")
    answers = [balance(HEROES_FALL, vary, 0.5, seed=3, engine=engine, budget=1200, batch=100)
               for engine in ("kernel", "reference")]
    assert answers[0] == answers[1]


def test_sweep_cli__auto_notice_once_for_variants_it_cannot_play(app: typer.Typer) -> None:
    corridor = encounters_root() / "corridor.yaml"  # a scripted plan's Suppressive Fire: not on the kernel
    result = runner.invoke(app, ["sweep", str(corridor), "--vary", "combatants.gunslinger.hp=40,50", "-n", "2"])
    assert result.exit_code == 0, result.output
    notices = [line for line in result.stderr.splitlines() if line.startswith("kernel:")]
    assert notices == ["kernel: not supported yet: activity suppressive-fire (combatant gunslinger); running the "
                       "reference engine"]


def test_sweep_cli__kernel_on_an_unsupported_variant_is_an_error(app: typer.Typer) -> None:
    corridor = encounters_root() / "corridor.yaml"
    result = runner.invoke(app, ["sweep", str(corridor), "--vary", "combatants.gunslinger.hp=40", "-n", "2",
                                 "--engine", "kernel"])
    assert result.exit_code != 0
    assert "does not support this fight yet: activity suppressive-fire" in result.output


def test_balance_cli__engines_agree(app: typer.Typer) -> None:
    outputs = []
    for engine in ("kernel", "reference"):
        result = runner.invoke(app, ["balance", str(HEROES_FALL), "--vary", "combatants.kernel-brute-boss.hp=20..90",
                                     "--target-win", "0.5", "--budget", "600", "--json", "--engine", engine])
        assert result.exit_code == 0, result.output
        assert "kernel:" not in result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
