"""The ``ashfall`` console script: a typer app wiring the command modules together.

Commands: ``roll`` (dice with a replayable seed), ``rule`` (catalog text of a rule ID) and the ``odds``
group (exact odds). Commands only translate options into engine calls and hand results to presenters.
"""

from __future__ import annotations

import typer

from ashfall.cli.odds_cmd import odds_app
from ashfall.cli.roll import roll_command, rule_command

app = typer.Typer(
    name="ashfall",
    help="Ashfall rules engine: dice, exact odds and rule look-ups.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("roll")(roll_command)
app.command("rule")(rule_command)
app.add_typer(odds_app, name="odds")


def main() -> None:
    """Run the CLI (the ``ashfall`` console script)."""
    app()


if __name__ == "__main__":
    main()
