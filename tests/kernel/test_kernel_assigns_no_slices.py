"""The compiled kernel assigns element by element, never to a slice: each slice assignment costs its first use.

Numba compiles an assignment to a slice (``a[:] = 0``, ``out[i] = state[:, :k]``) through a helper pipeline of
its own (``fancy_setslice``): six of them cost about 4 s of the shipped duel's first use with an empty numba
cache. The kernel writes such loops out (``ashfall.kernel.fight._zero``); this keeps it so.
"""

from __future__ import annotations

import ast
from pathlib import Path

KERNEL = Path(__file__).resolve().parents[2] / "src" / "ashfall" / "kernel"


def _slice_assignments(source: str) -> list[int]:
    """Line numbers of assignments whose target is a subscript with a slice, or a row of a 2-D array."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.Assign, ast.AugAssign)):
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Subscript) and any(isinstance(s, ast.Slice) for s in ast.walk(sub.slice)):
                    lines.append(node.lineno)
    return lines


def test_slice_assignments__found_where_they_are() -> None:
    source = "a[:] = 0\nb[i, 1:3] += 2\nc[i] = 1\nd[i, j] = e[:, 1]\n"
    assert _slice_assignments(source) == [1, 2]


def test_kernel_sources__assign_no_slices() -> None:
    found = {path.name: _slice_assignments(path.read_text()) for path in sorted(KERNEL.glob("*.py"))}
    assert {name: lines for name, lines in found.items() if lines} == {}
