"""``ashfall run``, ``ashfall sim`` and ``ashfall compare``: play an encounter once, many times, or side by side.

Thin adapters over :mod:`ashfall.sim`: options become arguments, presenters in
:mod:`ashfall.cli.sim_present` and :mod:`ashfall.cli.sim_plot` do the printing. :func:`register` adds
the three commands to a typer app. The seed defaults to the file's ``seed`` (else 0); trial ``i`` of
``sim --seed S`` is the fight ``run`` would not give: use ``sim --trial i`` to replay it.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ashfall.cli.common import (
    AllowDirOption,
    JsonOption,
    err,
    error_line,
    json_text,
    literal,
    out,
    print_json,
    shown,
    user_errors,
)

if TYPE_CHECKING:
    from ashfall.sim.fight import FightResult
    from ashfall.sim.report import SimReport
    from ashfall.sim.runner import Progress as ProgressFn
    from ashfall.sim.setups import EncounterSetup

# The simulator, the engine and the presenters are imported inside the commands: `ashfall --help`, `rule` and
# `validate` start without them (a test checks that importing the CLI app pulls in no heavy module).

DEFAULT_TRIALS = 1000

File = Annotated[Path, typer.Argument(help="An encounter file (YAML).", exists=True, dir_okay=False)]
Seed = Annotated[int | None, typer.Option("--seed", help="The seed (default: the file's seed, else 0).")]
Trials = Annotated[int, typer.Option("--trials", "-n", min=1, help="How many fights to play.")]
Workers = Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes that play, this one included.")]
Ruleset = Annotated[str | None, typer.Option("--ruleset", help="Play under this preset or house-rule file.")]
MaxRounds = Annotated[int | None, typer.Option("--max-rounds", min=1,
                                               help="Stop undecided after this round (default: the file's limit).")]
EngineOption = Annotated[str, typer.Option(
    "--engine", help="auto (the fight kernel when it supports the fight, else the reference engine with a notice), "
                     "kernel or reference. Both play the same trials.")]


def _seed(setup: "EncounterSetup", seed: int | None) -> int:
    if seed is not None:
        return seed
    return setup.loaded.spec.seed or 0


def _human_notice(setup: "EncounterSetup") -> None:
    """Say once (on standard error) that sides with ``controller: human`` are played by the AI here."""
    from ashfall.encounters.schema import ControllerKind

    humans = [s.name for s in setup.loaded.spec.sides if s.controller is ControllerKind.HUMAN]
    if humans:
        names = ", ".join(shown(h) for h in humans)
        err().print(f"note: {names} ({'is' if len(humans) == 1 else 'are'} controller: human) "
                    "played by the AI in this simulation; a person plays it in the tracker", markup=False)


def _engine(setup: "EncounterSetup", engine: str, quiet: bool = False) -> str:
    """The engine that plays the setup (``kernel`` or ``reference``).

    auto's fallback is noted in one line on standard error, except for ``--json`` (``quiet``): machine output
    stays clean, and the report is the same whichever engine played.
    """
    from ashfall.sim.engines import choose_engine

    choice = choose_engine(setup, engine)
    if choice.notice is not None and not quiet:
        err().print(choice.notice, markup=False)
    return choice.engine


def _names(result: "FightResult") -> dict[str, str]:
    return {c.id: c.name for c in result.combatants}


def _show_fight(result: "FightResult", events: list[Any], explain: bool, as_json: bool) -> None:
    from ashfall.cli import sim_present
    from ashfall.engine import events as ev

    if as_json:
        typer.echo(json_text(ev.to_jsonable(events)))
        return
    console = out()
    sim_present.print_log(console, events, _names(result), explain)
    console.print(sim_present.result_table(result))


def run_command(
    file: Annotated[Path | None, typer.Argument(help="An encounter file (YAML).", exists=True,
                                                dir_okay=False)] = None,
    seed: Seed = None,
    explain: Annotated[bool, typer.Option("--explain", help="Show every roll's breakdown and damage ledger.")] = False,
    as_json: JsonOption = False,
    ruleset: Ruleset = None,
    max_rounds: MaxRounds = None,
    allow_dir: AllowDirOption = None,
    replay: Annotated[Path | None, typer.Option(
        "--replay", help="Play back a fight exported from the table (its encounter and log) instead.",
        exists=True, dir_okay=False)] = None,
) -> None:
    """Play one fight of an encounter and print it round by round (or play back an exported one: --replay)."""
    if replay is not None:
        if file is not None or seed is not None or ruleset is not None or max_rounds is not None:
            err().print(error_line("--replay plays the exported fight as it was: give no file, seed, ruleset or "
                                   "round limit"))
            raise typer.Exit(2)
        _replay(replay, explain, as_json)
        return
    if file is None:
        err().print(error_line("give an encounter file (or --replay an exported fight)"))
        raise typer.Exit(2)
    from ashfall.sim.runner import play
    from ashfall.sim.setups import EncounterSetup

    with user_errors():
        setup = EncounterSetup(file, ruleset, allow_dir or ())
        _human_notice(setup)
        result = play(setup, _seed(setup, seed), record_log=True, max_rounds=max_rounds)
    _show_fight(result, list(result.log or ()), explain, as_json)


def _replay(path: Path, explain: bool, as_json: bool) -> None:
    """Play back a fight exported from the table through the engine and print its log and final state."""
    import json

    from ashfall.cli import sim_present
    from ashfall.engine import events as ev
    from ashfall.web.service import final_state, replay_export

    with user_errors():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as bad:
            raise ValueError(f"{path}: not a JSON export: {bad}") from None
        engine, _ = replay_export(data, str(path))
    final = final_state(engine)
    if as_json:
        typer.echo(json_text({"name": data.get("name"), "events": ev.to_jsonable(engine.log), "final": final}))
        return
    console = out()
    names = {c.id: c.name for c in engine.initial_state.combatants.values()}  # and those added, then removed:
    names.update((e.id, e.name) for e in engine.log if isinstance(e, ev.CombatantJoined))
    sim_present.print_log(console, engine.log, names, explain)
    console.print(sim_present.state_table(final))


@contextmanager
def _progress(enabled: bool, label: str) -> "Iterator[ProgressFn | None]":
    """A rich progress bar on standard error while chunks finish (None when not on a terminal)."""
    console = err()
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    # refreshed 4 times a second; the ETA is rich's estimate over the last 30 s of chunks (the first seconds
    # include loading and starting workers, so a moving window is more honest than the average since start)
    with Progress(*columns, console=console, transient=True, refresh_per_second=4, speed_estimate_period=30) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def sim_command(
    file: File,
    trials: Trials = DEFAULT_TRIALS,
    seed: Seed = None,
    workers: Workers = 1,
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write charts to this PNG (or SVG, PDF) file.",
                                              dir_okay=False)] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write every fight (one row per fight and combatant) to .parquet, .csv or .jsonl.",
        dir_okay=False)] = None,
    trial: Annotated[int | None, typer.Option("--trial", min=0, help="Replay trial i with its full log.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="With --trial: show every breakdown.")] = False,
    each: Annotated[bool, typer.Option("--each", help="List every member of a creature group under its row.")] = False,
    ruleset: Ruleset = None,
    max_rounds: MaxRounds = None,
    allow_dir: AllowDirOption = None,
    dask: Annotated[str | None, typer.Option(
        "--dask", help="Play on Dask: 'local' (a LocalCluster) or a scheduler address tcp://host:port.")] = None,
    engine: EngineOption = "auto",
) -> None:
    """Play an encounter many times and report win rates, how fights ended, rounds, drops, damage and morale."""
    from ashfall.sim import tables
    from ashfall.sim.runner import replay_trial, simulate
    from ashfall.sim.setups import EncounterSetup

    with user_errors():
        if plot is not None and trial is None:  # checked before the sweep, not after it
            from ashfall.cli.sim_plot import check_output

            check_output(plot)
        if out_file is not None and trial is None:
            from ashfall.sim.results import check_output as check_table

            check_table(out_file)
        setup = EncounterSetup(file, ruleset, allow_dir or ())
        _human_notice(setup)
        base = _seed(setup, seed)
        if trial is not None:  # explained by the reference engine: the same fight as the kernel's trial i
            result, events = replay_trial(setup, base, trial, max_rounds=max_rounds)
        else:
            chosen = _engine(setup, engine, quiet=as_json)
            with _progress(not as_json, shown(setup.name)) as progress:
                if dask is not None:
                    report = _on_dask(dask, setup, trials, base, progress, max_rounds, chosen)
                else:
                    report = simulate(setup, trials, base, workers, progress, max_rounds=max_rounds, engine=chosen)
    if trial is not None:
        _show_fight(result, events, explain, as_json)
        return
    if plot is not None:
        from ashfall.cli.sim_plot import plot_report

        with user_errors():
            try:
                plot_report(report, plot)
            except OSError as error:  # the disk filled up, the folder went away meanwhile…
                raise ValueError(f"--plot {plot}: {error.strerror or error}") from error
    if out_file is not None:
        with user_errors():
            try:
                report.write(out_file)
            except OSError as error:
                raise ValueError(f"--out {out_file}: {error.strerror or error}") from error
    if as_json:
        data = report.to_jsonable()
        if plot is not None:
            data["plot"] = str(plot)
        if out_file is not None:
            data["out"] = str(out_file)
        print_json(data)
        return
    console = out()
    for table in tables.report_tables(report, each):
        console.print(table)
    if report.refusals:
        console.print(f"[yellow]note:[/] {report.refusals} intent(s) were refused and ended a turn early")
    if plot is not None:
        console.print(literal(f"charts written to {plot}"))
    if out_file is not None:
        console.print(literal(f"{report.trials} fights written to {out_file}"))


def _on_dask(address: str, setup: "EncounterSetup", trials: int, seed: int, progress: "ProgressFn | None",
             max_rounds: int | None, engine: str) -> "SimReport":
    """``sim --dask``: the same chunks and seeds as a local run, played as Dask tasks on the chosen engine."""
    from ashfall.sim.backends import backend_for
    from ashfall.sim.sweep import simulate_on

    backend = backend_for(dask=address)
    try:
        return simulate_on(backend, setup, trials, seed, max_rounds=max_rounds, progress=progress, engine=engine)
    finally:
        backend.close()


def compare_command(
    files: Annotated[list[Path], typer.Argument(help="Encounter files (two or more, or one with --ruleset twice).",
                                                exists=True, dir_okay=False)],
    rulesets: Annotated[list[str] | None, typer.Option(
        "--ruleset", help="Play under this ruleset (repeat to compare rulesets on one file).")] = None,
    trials: Trials = DEFAULT_TRIALS,
    seed: Seed = None,
    workers: Workers = 1,
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write the runs' overlaid charts to this PNG (or SVG, PDF).", dir_okay=False)] = None,
    max_rounds: MaxRounds = None,
    allow_dir: AllowDirOption = None,
    engine: EngineOption = "auto",
) -> None:
    """Simulate encounters (or one encounter under several rulesets) and test the differences (5% level, Holm)."""
    from ashfall.sim import tables
    from ashfall.sim.report import compare, comparison_jsonable
    from ashfall.sim.runner import simulate
    from ashfall.sim.stats import ALPHA

    with user_errors():
        if plot is not None:
            from ashfall.cli.sim_plot import check_output

            check_output(plot)
        setups = _setups(files, rulesets or [], allow_dir or [])
        # every run's engine is chosen (and an unsupported --engine kernel refused) before any run plays
        chosen = [_engine(setup, engine, quiet=as_json) for setup in setups]
        reports = []
        for setup, played_by in zip(setups, chosen, strict=True):
            with _progress(not as_json, shown(f"{setup.name} ({setup.ruleset_name})")) as progress:
                reports.append(simulate(setup, trials, _seed(setups[0], seed), workers, progress,
                                        max_rounds=max_rounds, engine=played_by))
    first = reports[0]
    pairs = [(first, other, compare(first, other)) for other in reports[1:]]
    if plot is not None:
        from ashfall.cli.sim_plot import plot_comparison

        with user_errors():
            try:
                plot_comparison(reports, [f"{r.name} ({r.ruleset})" for r in reports], plot)
            except OSError as error:
                raise ValueError(f"--plot {plot}: {error.strerror or error}") from error
    if as_json:
        print_json({
            "alpha": ALPHA,
            "runs": [r.to_jsonable() for r in reports],
            "comparisons": [comparison_jsonable(a, b, rows) for a, b, rows in pairs],
            **({"plot": str(plot)} if plot is not None else {}),
        })
        return
    console = out()
    for a, b, rows in pairs:
        console.print(tables.comparison_table(f"{a.name} ({a.ruleset})", f"{b.name} ({b.ruleset})", rows))
    console.print(f"Significant: two-sided p < {ALPHA} after Holm's correction over all rows (two-proportion z-test "
                  "for rates, Welch's t-test for means); effect: Cohen's h for rates, Hedges' g for means "
                  "(0.2 small, 0.5 medium, 0.8 large).", markup=False)


def _setups(files: list[Path], rulesets: list[str], allow_dirs: list[Path]) -> "list[EncounterSetup]":
    """Every run to compare, each loaded (file and ruleset checked) before any of them is simulated."""
    from ashfall.sim.setups import EncounterSetup

    if len(files) == 1 and len(rulesets) >= 2:
        setups = [EncounterSetup(files[0], r, allow_dirs) for r in rulesets]
    elif len(files) >= 2 and len(rulesets) <= 1:
        setups = [EncounterSetup(f, rulesets[0] if rulesets else None, allow_dirs) for f in files]
    else:
        raise ValueError("compare needs two or more files, or one file with --ruleset given two or more times")
    for setup in setups:
        setup.build_fight(_seed(setup, None))  # loads and builds it: a bad file fails now, not after the others ran
    return setups


def register(app: typer.Typer) -> None:
    """Add ``run``, ``sim`` and ``compare`` to a typer app."""
    app.command("run")(run_command)
    app.command("sim")(sim_command)
    app.command("compare")(compare_command)
