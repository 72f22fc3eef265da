"""Explanations of a fight, as a library: events to plain-text lines or to structured rows.

Front ends only lay these out: the CLI prints the lines with rich, a web page renders the rows (names
as links, rule IDs as references, modifier and ledger rows as tables). Nothing here decides anything
about the rules, and nothing here imports the CLI: this package reads the engine's events only.

- :func:`event_lines` / :func:`log_lines`: the text of one event or a whole log (:mod:`ashfall.explain.lines`).
- :func:`event_row` / :func:`log_rows`: the same as :class:`Row` data (:mod:`ashfall.explain.rows`).
- :func:`names_of`: display names with repeated names numbered.
- Internal counters (:data:`INTERNAL_COUNTERS`) are neither lines nor rows.
"""

from ashfall.explain.hazards import squares_text
from ashfall.explain.lines import (
    INDENT,
    INTERNAL_COUNTERS,
    NO_NAMES,
    Names,
    event_lines,
    is_internal,
    log_lines,
    names_of,
)
from ashfall.explain.rows import LedgerRow, ModifierRow, ModifierTarget, Row, RowLevel, TextPart, event_row, log_rows

__all__ = [
    "INDENT",
    "INTERNAL_COUNTERS",
    "NO_NAMES",
    "LedgerRow",
    "ModifierRow",
    "ModifierTarget",
    "Names",
    "Row",
    "RowLevel",
    "TextPart",
    "event_lines",
    "event_row",
    "is_internal",
    "log_lines",
    "log_rows",
    "names_of",
    "squares_text",
]
