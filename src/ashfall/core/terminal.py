"""Text from files made safe for a terminal: control characters shown as escapes, rich markup never read.

Names in encounter and content files are user input. Everything that prints them (the CLI, the report tables,
a terminal client) passes them through :func:`shown` or :func:`literal`, so an escape sequence or ``[markup]``
in a name prints as written instead of acting on the terminal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on instead of showing: C0 and C1 controls (ESC starts ANSI and OSC sequences;
U+009B is a one-character CSI), DEL, line and paragraph separators and the bidirectional marks and overrides
that can make a line read differently from what it holds."""


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    r"""``text`` with every control character written as a visible escape (ESC becomes ``\x1b``).

    Newlines are escaped too, so one name or one problem stays on one line; use :func:`shown_lines` for text
    whose lines are meant to be lines.
    """
    return _UNSAFE.sub(_visible, text)


def shown_lines(text: str) -> str:
    """Multi-line text with the control characters of each line made visible (the line breaks kept)."""
    return "\n".join(shown(line) for line in text.split("\n"))


def literal(text: object) -> Text:
    """Text that rich prints exactly as written: control characters made visible, ``[markup]`` not interpreted.

    A ``Text`` rather than an escaped markup string: rich's markup escape doubles a trailing backslash, which
    prints as two unless a tag follows.
    """
    from rich.text import Text  # rich only where text is printed with it (not on `ashfall validate`'s path)

    return Text(shown(str(text)))


