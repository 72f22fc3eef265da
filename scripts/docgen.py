"""What the scripts that generate docs share: write the file, or with --check say whether it is current."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(out: Path, text: str, script: str) -> int:
    """Write ``text`` to ``out``, or with --check return 1 (and say so) when ``out`` differs from it.

    Args:
        out: The generated document.
        text: Its text now.
        script: The script's file name, for the message.
    """
    if "--check" in sys.argv:
        if not out.exists() or out.read_text() != text:
            print(f"{out.parent.name}/{out.name} is out of date: run python scripts/{script}")
            return 1
        return 0
    out.write_text(text)
    return 0
