"""Shared CLI plumbing: consoles, clean error exits, ruleset loading and JSON output."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ashfall.ruleset import DEFAULT_PRESET, Ruleset, load_ruleset

USAGE_ERROR = 2
"""Exit code for bad input: a dice expression, a ruleset file, an option value."""

RulesetOption = Annotated[
    str, typer.Option("--ruleset", help="A preset (ashfall-2, ashfall-1) or a house-rule YAML file.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
AllowDirOption = Annotated[list[Path] | None, typer.Option(
    "--allow-dir", file_okay=False,
    help="Also read content and house-rule files the encounter names from this folder (repeatable); by default "
         "only files inside the encounter's own folder are read.")]


PIPE_WIDTH = 120
"""Width used when standard output is not a terminal (files, pipes, CI logs): wide enough for every table."""


def out() -> Console:
    """A console on the current standard output (looked up per call so test runners capture it).

    A terminal keeps its own width; redirected output gets :data:`PIPE_WIDTH` columns rather than rich's
    80, so the simulator's tables keep all their columns in logs and files.
    """
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=PIPE_WIDTH)
    return console


def err() -> Console:
    """A console on standard error."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn bad input (``ValueError``/``KeyError``, incl. ``DiceError`` and ``InputError``) into exit code 2."""
    try:
        yield
    except (ValueError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
        err().print(f"[bold red]error:[/] {escape(str(message))}")
        raise typer.Exit(USAGE_ERROR) from None


def ruleset(source: str) -> Ruleset:
    """A preset by name or a house-rule file (errors surface through :func:`user_errors`)."""
    return load_ruleset(source or DEFAULT_PRESET)


def print_json(data: dict[str, Any]) -> None:
    """Print a JSON object on standard output."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
