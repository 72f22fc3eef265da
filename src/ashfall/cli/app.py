"""The ``ashfall`` console script: a typer app wiring the command modules together.

Commands: ``roll`` (dice with a replayable seed), ``rule`` (catalog text of a rule ID), the ``odds``
group (exact odds), ``validate`` (encounter and content files), ``schema`` (JSON Schema for editors),
``run`` / ``sim`` / ``compare`` (the simulator), ``compile-kernel`` (the fight kernel's first use, done at setup)
and ``serve`` (the GM's table).
Commands only translate options into engine calls and hand results to presenters. Importing this module is
cheap: every command imports what it needs (the simulator, the odds, the encounter loader, matplotlib, pandas)
when it runs, so ``ashfall --help`` and ``ashfall rule`` start at once (``bench/bench_startup.py``).
"""

from __future__ import annotations

import typer

from ashfall.cli.kernel_cmd import compile_kernel_command
from ashfall.cli.odds_cmd import odds_app
from ashfall.cli.roll import roll_command, rule_command
from ashfall.cli.serve_cmd import serve_command
from ashfall.cli.sim_cmds import register as register_sim
from ashfall.cli.sweep_cmds import register as register_sweep
from ashfall.cli.validate_cmd import register as register_validate

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
app.command("serve")(serve_command)
register_validate(app)
register_sweep(app)
app.command("compile-kernel")(compile_kernel_command)


def main() -> None:
    """Run the CLI, stopping cleanly on SIGINT and SIGTERM (the console script enters through the same handlers)."""
    from ashfall.cli.stop_signals import exit_stopped, run

    code = run(app)
    if code:
        exit_stopped(code)


if __name__ == "__main__":
    main()
