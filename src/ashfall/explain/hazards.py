"""Log lines for the spreading-hazard events (fire, smoke, gas, collapse, water, drains; HAZ*).

Headlines by event ``type``, merged into :data:`ashfall.explain.lines.OTHER_HEADLINES`. Plain text, no markup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ashfall.grid.board import Square

Names = Mapping[str, str]
_SMOKE = {0: "clears", 1: "lightly obscures", 2: "heavily obscures"}
_SHOWN = 6
"""Squares listed in full before a count is shown instead."""


def squares_text(squares: Sequence[Square]) -> str:
    """``(3, 4), (4, 4)`` or, for many, the first few and how many more."""
    listed = ", ".join(f"({x}, {y})" for x, y in squares[:_SHOWN])
    more = len(squares) - _SHOWN
    return f"{listed} and {more} more" if more > 0 else listed


def _n(names: Names, cid: str) -> str:
    return names.get(cid, cid)


def _fire(e: Any, n: Names) -> str:
    count = len(e.squares)
    what = "square" if count == 1 else "squares"
    if e.burning:
        verb = "Fire spreads to" if e.cause == "spreads" else "Fire lights"
        return f"{verb} {count} {what}: {squares_text(e.squares)} [{e.rule}]"
    how = e.cause or "put out"
    spent = "; the fuel is spent" if e.fuel_spent else ""
    return f"Fire out ({how}) in {count} {what}: {squares_text(e.squares)}{spent} [{e.rule}]"


def _gas(e: Any, n: Names) -> str:
    c = e.cloud
    if c is None:
        return f"Gas cloud {e.cloud_id} clears [{e.rule}]"
    kind = "enclosed" if c.enclosed else "open air"
    state = f"sealed, lingering {c.linger} more round(s)" if c.sealed else kind
    return (f"Gas cloud {e.cloud_id}: {c.radius_ft}-ft radius from {c.centre}, {len(c.squares)} squares ({state})"
            f" [{e.rule}]")


def _countdown(e: Any, n: Names) -> str:
    if e.rounds is None:
        return f"{e.label.capitalize()} {e.key}: the countdown reaches 0 [{e.rule}]"
    return f"{e.label.capitalize()} {e.key}: {e.rounds} round(s) to go [{e.rule}]"


def _collapse(e: Any, n: Names) -> str:
    c = e.collapse
    if c is None:
        return f"The ceiling comes down ({e.collapse_id}) [{e.rule}]"
    return f"Structural collapse {e.collapse_id}: {c.radius_ft}-ft radius around {c.centre}, groaning [{e.rule}]"


def _water(e: Any, n: Names) -> str:
    f = e.flood
    if f is None:
        return f"Flood {e.flood_id} is gone [{e.rule}]"
    return f"Water level {f.level_ft} ft ({f.id}, rising {f.rise_ft} ft a round) [{e.rule}]"


def _drain(e: Any, n: Names) -> str:
    d = e.drain
    state = "open: water runs out" if d.open else ("found" if d.found else "hidden")
    return f"Drain {d.id} at {d.at}: {state} ({d.rate_ft} ft a round) [{e.rule}]"


HAZARD_HEADLINES: dict[str, Callable[[Any, Names], str]] = {
    "fire-changed": _fire,
    "smoke-changed": lambda e, n: f"Smoke {_SMOKE.get(e.level, str(e.level))} {squares_text(e.squares)} [{e.rule}]",
    "gas-changed": _gas,
    "countdown-changed": _countdown,
    "collapse-changed": _collapse,
    "rubble-added": lambda e, n: f"Rubble: {len(e.squares)} squares become greater difficult terrain [{e.rule}]",
    "water-changed": _water,
    "drain-changed": _drain,
    "hazard-triggered": lambda e, n: f"{_n(n, e.actor)} is caught by the {e.hazard} [{e.rule}]",
}
"""The line each hazard event shows at the table."""

HAZARD_BOOKKEEPING: dict[str, Callable[[Any, Names], str]] = {
    "fire-ticked": lambda e, n: "Fire burns on: " + ", ".join(f"{sq} {burned} round(s), {left} left"
                                                               for sq, burned, left in e.squares) + f" [{e.rule}]",
}
"""Lines shown only when explaining."""
