"""The ``ashfall`` console script: a typer app wiring the command modules together.

Commands: ``roll`` (dice with a replayable seed), ``rule`` (catalog text of a rule ID), the ``odds``
group (exact odds), ``validate`` (encounter files), and ``run`` / ``sim`` / ``compare`` (the simulator).
Commands only translate options into engine calls and hand results to presenters.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ashfall.cli.common import AllowDirOption, shown
from ashfall.cli.odds_cmd import odds_app
from ashfall.cli.roll import roll_command, rule_command
from ashfall.cli.sim_cmds import register as register_sim
from ashfall.cli.sweep_cmds import register as register_sweep
from ashfall.encounters import validate_command

app = typer.Typer(
    name="ashfall",
    help="Ashfall rules engine: dice, exact odds, rule look-ups, encounters and the combat simulator.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("roll")(roll_command)
app.command("rule")(rule_command)
app.add_typer(odds_app, name="odds")
register_sim(app)
register_sweep(app)


@app.command("validate")
def validate(
    path: str = typer.Argument(..., help="An encounter file, or a folder of them."),
    allow_dir: AllowDirOption = None,
) -> None:
    """Check encounter files and every reference in them; problems name the file, field path and line."""
    code, lines = validate_command(Path(path), allow_dir or ())
    for line in lines:
        typer.echo(shown(line))
    raise typer.Exit(code)


def main() -> None:
    """Run the CLI, stopping cleanly on SIGINT and SIGTERM (the console script enters through the same handlers)."""
    from ashfall.cli.stop_signals import exit_stopped, run

    code = run(app)
    if code:
        exit_stopped(code)


if __name__ == "__main__":
    main()
