"""Shared CLI plumbing: consoles, clean error exits, ruleset loading, JSON output and terminal-safe text.

Names in encounter, content and house-rule files are hostile until shown: :func:`shown` turns control
characters (ANSI/OSC escape sequences, bells, carriage returns, bidirectional overrides) into visible
escapes, and :func:`literal` makes it a rich ``Text`` (never read as markup), so every presenter prints a name as
it was written.
"""

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ashfall.core.terminal import literal as literal
from ashfall.core.terminal import shown as shown
from ashfall.core.terminal import shown_lines as shown_lines

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from ashfall.ruleset import Ruleset

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

def out() -> "Console":
    """A console on the current standard output (looked up per call so test runners capture it).

    A terminal keeps its own width; redirected output gets :data:`PIPE_WIDTH` columns rather than rich's
    80, so the simulator's tables keep all their columns in logs and files.
    """
    from rich.console import Console  # rich when a command prints with it (`validate` never does: faster start)

    console = Console(highlight=False, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, emoji=False, width=PIPE_WIDTH)
    return console


def err() -> "Console":
    """A console on standard error."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)


def error_line(message: str) -> "Text":
    """``error: MESSAGE`` with the message's control characters made visible (its line breaks kept)."""
    from rich.text import Text

    return Text.assemble(("error:", "bold red"), " ", shown_lines(message))


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn bad input (``ValueError``/``KeyError``, incl. ``DiceError`` and ``InputError``) into exit code 2."""
    try:
        yield
    except (ValueError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
        err().print(error_line(str(message)))
        raise typer.Exit(USAGE_ERROR) from None


def ruleset(source: str) -> "Ruleset":
    """A preset by name or a house-rule file (errors surface through :func:`user_errors`)."""
    from ashfall.ruleset import DEFAULT_PRESET, load_ruleset  # pydantic schemas: only for commands that need them

    return load_ruleset(source or DEFAULT_PRESET)


_UNSAFE_IN_JSON = re.compile(r"[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What :data:`_UNSAFE` adds to the C0 controls that ``json.dumps`` escapes itself."""


def json_text(data: Any) -> str:
    r"""``data`` as indented JSON that is safe on a terminal.

    Non-ASCII text stays readable, but every character of :data:`_UNSAFE` is written as a ``\uXXXX`` escape:
    such characters can only occur inside JSON strings, so the output parses to the same data.
    """
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def print_json(data: Any) -> None:
    """Print JSON on standard output (see :func:`json_text`)."""
    typer.echo(json_text(data))
