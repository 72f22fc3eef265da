"""Squares and the map-size bound as encounter files write them: ``[x, y]``, two whole numbers on a 200-square map.

A square in a file is hostile input: ``[true, false]`` is not a square (YAML booleans are not numbers),
and ``[100000, 100000]`` as a rectangle's corner would make the loader enumerate ten billion squares.
So every square of every encounter file is checked here, by the schema, before anything reads it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from ashfall.ruleset.ranges import spelled

MAX_MAP_SIDE = 200
"""The largest map side in squares (1,000 ft): a guard against typos and runaway work, not a rule."""


def _square(value: Any) -> Any:
    """``[x, y]``: two whole numbers from 0 to ``MAX_MAP_SIDE - 1``, column then row."""
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_MAP_SIDE for v in value)
    if not ok:
        shown = "[" + ", ".join(spelled(v) for v in value) + "]" if isinstance(value, list | tuple) \
            else spelled(value)
        raise PydanticCustomError(
            "square", "a square is [x, y]: two whole numbers from 0 to {top} (column, row), not {value}",
            {"top": MAX_MAP_SIDE - 1, "value": shown})
    return tuple(value)


FileSquare = Annotated[tuple[int, int], BeforeValidator(_square)]
"""A square as an encounter file gives it (checked: whole numbers on the largest map)."""

__all__ = ["MAX_MAP_SIDE", "FileSquare"]
