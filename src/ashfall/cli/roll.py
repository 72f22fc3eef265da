"""``ashfall roll`` (roll dice with a replayable seed) and ``ashfall rule`` (print a rule's catalog text).

``rule`` needs only the catalog and rich; the dice parser and the presenters are imported inside ``roll``.
"""

import os
from typing import TYPE_CHECKING, Annotated

import typer

from ashfall.cli.common import USAGE_ERROR, JsonOption, err, error_line, out, print_json, user_errors
from ashfall.core.rule_ids import catalog, describe

if TYPE_CHECKING:
    from rich.console import Console

SEED_BYTES = 8


def new_seed() -> int:
    """A fresh 63-bit seed from the operating system (printed so the roll can be replayed)."""
    return int.from_bytes(os.urandom(SEED_BYTES), "big") >> 1


def roll_command(
    expression: Annotated[list[str], typer.Argument(help="Dice notation, e.g. 2d20kh1+3 or 3d6 fire.")],
    seed: Annotated[
        int | None, typer.Option(help="Seed for the dice; without it a random seed is used and printed.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Roll dice and show every face, kept and dropped, and the total."""
    from ashfall.cli import present
    from ashfall.core.dice import parse, roll
    from ashfall.core.rng import SeededRng

    used_seed = new_seed() if seed is None else seed
    with user_errors():
        result = roll(parse(" ".join(expression)), SeededRng(used_seed))
    if as_json:
        print_json(present.roll_json(result, used_seed))
    else:
        present.render_roll(out(), result, used_seed)


def rule_command(rule_id: Annotated[str, typer.Argument(help="A rule ID such as MAP-1, DR-3 or G-41.")]) -> None:
    """Print the catalog text of a rule or ruling."""
    key = rule_id.strip().upper()
    if key not in catalog():
        err().print(error_line(f"unknown rule ID {rule_id!r}"))
        raise typer.Exit(USAGE_ERROR)
    render_rule(out(), key)


def render_rule(console: "Console", rule_id: str) -> None:
    """Print a rule's catalog text with its source lines and status."""
    from rich.text import Text

    entry = catalog()[rule_id]
    console.print(Text(rule_id, style="bold"), Text(describe(rule_id)))
    meta = [f"lines {entry['lines']}" if entry.get("lines") else "", entry.get("status", "")]
    if any(meta):
        console.print(Text(" · ".join(m for m in meta if m), style="dim"))
