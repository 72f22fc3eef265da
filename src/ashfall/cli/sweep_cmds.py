"""``ashfall sweep`` and ``ashfall balance``: a grid of variants, and the value that hits a target.

Thin adapters over :mod:`ashfall.sim.sweep` and :mod:`ashfall.sim.balance`: ``--vary`` arguments are parsed
and every variant is checked before any fight; ``--workers K`` plays on local processes, ``--dask local`` or
``--dask tcp://host:port`` on a Dask cluster (same results for the same seed either way).
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ashfall.cli.common import AllowDirOption, JsonOption, err, literal, out, print_json, user_errors
from ashfall.cli.sim_cmds import EngineOption

if TYPE_CHECKING:
    from rich.table import Table

    from ashfall.sim.sweep import SweepResult
    from ashfall.sim.variants import Vary

# The simulator is imported inside the commands, so `ashfall --help` and `rule` start without it.

File = Annotated[Path, typer.Argument(help="An encounter file (YAML).", exists=True, dir_okay=False)]
VaryOption = Annotated[list[str], typer.Option(
    "--vary", help="PATH=LOW..HIGH[:STEP] or PATH=V1,V2,… e.g. 'combatants.ogre.hp=30..60:5' (repeatable).")]
Seed = Annotated[int | None, typer.Option("--seed", help="The seed (default: the file's seed, else 0).")]
Workers = Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")]
Dask = Annotated[str | None, typer.Option(
    "--dask", help="Play on Dask: 'local' (a LocalCluster of 2 processes) or a scheduler address tcp://host:port.")]
Side = Annotated[str | None, typer.Option("--side", help="The side whose win rate counts (default: the first).")]
Ruleset = Annotated[str | None, typer.Option("--ruleset", help="Play under this preset or house-rule file.")]
MaxRounds = Annotated[int | None, typer.Option("--max-rounds", min=1, help="Stop undecided after this round.")]


def _seed(file: Path, seed: int | None) -> int:
    if seed is not None:
        return seed
    from ashfall.encounters import load_encounter

    return load_encounter(file).seed or 0


def _axes(vary: list[str]) -> "list[Vary]":
    from ashfall.sim.variants import parse_vary

    return [parse_vary(v) for v in vary]


def _pct(low: float, high: float) -> str:
    return f"{low:.0%}–{high:.0%}"


def sweep_table(result: "SweepResult") -> "Table":
    """The sweep as a table: the varied values, win rate with its 95% interval, rounds and PC drops."""
    from rich.table import Table

    table = Table(title=literal(f"{result.encounter}: {result.trials} fights per variant, seed {result.seed}"))
    for axis in result.axes:
        table.add_column(literal(axis.path), justify="right", overflow="fold")
    table.add_column(literal(f"{result.side} wins (95% CI)"), justify="right")
    table.add_column("rounds (95% CI)", justify="right")
    table.add_column("P(any PC drops)", justify="right")
    table.add_column("P(a PC dies)", justify="right")
    for row in result.rows:
        win, rounds = row.metrics["win"], row.metrics["rounds"]
        drops, dies = row.metrics["pc-drops"], row.metrics["pc-dies"]
        table.add_row(*(literal(v) for _p, v in row.assignment),
                      f"{win.value:.1%} ({_pct(win.low, win.high)})",
                      f"{rounds.value:.1f} ({rounds.low:.1f}–{rounds.high:.1f})",
                      f"{drops.value:.1%}", f"{dies.value:.1%}")
    return table


def _engine_options(engine: str, quiet: bool) -> dict[str, Any]:
    """The engine arguments of a sweep or balance search: ``--engine``, and where auto's notice goes.

    The notice goes to standard error once per command (not with ``--json``: machine output stays clean, and the
    results are the same whichever engine played). Local processes and Dask workers alike play each chunk on the
    engine chosen for its variant.
    """
    from ashfall.sim.engines import ENGINES

    def notice(line: str) -> None:
        if not quiet:
            err().print(line, markup=False)

    if engine not in ENGINES:
        raise ValueError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    return {"engine": engine, "notice": notice}


def sweep_command(
    file: File,
    vary: VaryOption,
    trials: Annotated[int, typer.Option("--trials", "-n", min=1, help="Fights per variant.")] = 500,
    seed: Seed = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the table (.parquet, .csv or .jsonl).",
                                                  dir_okay=False)] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw win rate against the values (PNG, SVG, PDF).",
                                              dir_okay=False)] = None,
    workers: Workers = 1,
    dask: Dask = None,
    side: Side = None,
    ruleset: Ruleset = None,
    max_rounds: MaxRounds = None,
    as_json: JsonOption = False,
    allow_dir: AllowDirOption = None,
    engine: EngineOption = "auto",
) -> None:
    """Play every combination of the varied values and tabulate win rates with 95% intervals."""
    from ashfall.sim.backends import backend_for
    from ashfall.sim.sweep import OUT_SUFFIXES, sweep

    with user_errors():
        axes = _axes(vary)
        if out_file is not None and out_file.suffix.lower() not in OUT_SUFFIXES:
            raise ValueError(f"--out {out_file}: write .parquet, .csv or .jsonl")
        if plot is not None:
            from ashfall.cli.sim_plot import check_output
            from ashfall.cli.sweep_plot import check_axes

            check_output(plot)
            check_axes(axes)
        backend = backend_for(workers, dask)
        try:
            result = sweep(file, axes, trials, _seed(file, seed), backend=backend, side=side, ruleset=ruleset,
                           max_rounds=max_rounds, allow_dirs=allow_dir or (),
                           **_engine_options(engine, as_json))
        finally:
            backend.close()
        if out_file is not None:
            result.write(out_file)
        if plot is not None:
            from ashfall.cli.sweep_plot import plot_sweep

            plot_sweep(result, str(plot))
    if as_json:
        print_json({"encounter": result.encounter, "side": result.side, "seed": result.seed,
                    "trials": result.trials, "variants": result.records()})
        return
    console = out()
    console.print(sweep_table(result))
    for written in (out_file, plot):
        if written is not None:
            console.print(literal(f"written to {written}"))


def balance_command(
    file: File,
    vary: Annotated[str, typer.Option("--vary", help="PATH=LOW..HIGH, e.g. 'combatants.ogre.hp=20..80'.")],
    target_win: Annotated[float | None, typer.Option("--target-win", min=0.0, max=1.0,
                                                     help="The win rate to reach (metric win).")] = None,
    target: Annotated[float | None, typer.Option("--target", help="The target of another --metric.")] = None,
    metric: Annotated[str, typer.Option("--metric", help="What to aim at: win, rounds, pc-drops or pc-dies.")] = "win",
    seed: Seed = None,
    side: Side = None,
    workers: Workers = 1,
    dask: Dask = None,
    ruleset: Ruleset = None,
    max_rounds: MaxRounds = None,
    budget: Annotated[int, typer.Option("--budget", min=100, help="Stop after this many trials in all.")] = 40_000,
    as_json: JsonOption = False,
    allow_dir: AllowDirOption = None,
    engine: EngineOption = "auto",
) -> None:
    """Find the value of one path that gives a target win rate (or rounds, P(PC drops), P(PC dies))."""
    from ashfall.sim.backends import backend_for
    from ashfall.sim.balance import balance
    from ashfall.sim.sweep import METRICS
    from ashfall.sim.variants import parse_vary

    with user_errors():
        if metric not in METRICS:
            raise ValueError(f"--metric {metric!r}: choose one of {', '.join(METRICS)}")
        goal = target_win if target_win is not None else target
        if goal is None:
            raise ValueError("give --target-win (or --target with --metric)")
        if target_win is not None and metric != "win":
            raise ValueError("--target-win goes with --metric win; use --target for other metrics")
        backend = backend_for(workers, dask)
        try:
            found = balance(file, parse_vary(vary), goal, metric=metric, side=side, seed=_seed(file, seed),
                            backend=backend, ruleset=ruleset, max_rounds=max_rounds, allow_dirs=allow_dir or (),
                            budget=budget, **_engine_options(engine, as_json))
        finally:
            backend.close()
    est = found.estimate
    if as_json:
        print_json({"path": found.path, "metric": found.metric, "target": found.target, "side": found.side,
                    "status": found.status, "value": found.value,
                    "estimate": {"value": est.value, "ci95": [est.low, est.high], "trials": est.n},
                    "bracket": list(found.bracket), "trials": found.trials,
                    "probes": [{"value": p.value, "estimate": p.estimate.value, "ci95": [p.estimate.low,
                                p.estimate.high], "trials": p.estimate.n, "side": p.side} for p in found.probes]})
        return
    console = out()
    what = f"{found.side} win rate" if found.metric == "win" else found.metric
    console.print(literal(f"{found.path} = {found.value}: {what} {est.value:.3f} "
                          f"(95% CI {est.low:.3f}–{est.high:.3f}, {est.n} fights) [{found.status}]"))
    console.print(literal(f"target {found.target} lies between {found.bracket[0]} and {found.bracket[1]}; "
                          f"{found.trials} trials in all"))


def register(app: typer.Typer) -> None:
    """Add ``sweep`` and ``balance`` to a typer app."""
    app.command("sweep")(sweep_command)
    app.command("balance")(balance_command)
