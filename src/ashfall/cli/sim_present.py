"""Presenters for ``run``, ``sim`` and ``compare``: a fight's log as text, reports and comparisons as tables.

The fight log's rows come from :mod:`ashfall.explain` (events to structured rows and their lines); this
module only lays them out: round rules, the rows' lines, the end-of-fight table and the simulation and
comparison tables (rich). Every name from a file goes through :func:`ashfall.cli.common.literal`, so
markup and escape sequences in it print as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from ashfall.cli.common import literal
from ashfall.engine import events as ev
from ashfall.explain import event_row
from ashfall.sim.fight import FightResult


def print_log(console: Console, events: Sequence[Any], names: Mapping[str, str], explain: bool = False) -> None:
    """A fight round by round: each event's row (:func:`ashfall.explain.event_row`) as its lines."""
    for e in events:
        if isinstance(e, ev.RoundStarted):
            console.print(Rule(f"Round {e.round}"))
            continue
        row = event_row(e, names)
        if row is None or (row.level == "bookkeeping" and not explain):
            continue
        for line in row.lines(explain):
            console.print(literal(line))


def state_table(final: Mapping[str, Any]) -> Table:
    """Each combatant as a fight stands (a replayed export's end): HP, square, conditions."""
    ended = f"winner: {final['winner'] or 'none'}" if final["ended"] else f"{final['active'] or 'nobody'}'s turn"
    table = Table(title=literal(f"Round {final['round']}, {ended}"))
    for col in ("combatant", "side", "HP", "square", "conditions"):
        table.add_column(col, justify="right" if col == "HP" else "left")
    for c in final["creatures"]:
        square = f"{c['position'][0]},{c['position'][1]}" if c["position"] else "-"
        table.add_row(literal(c["name"]), literal(c["side"]), f"{c['hp']}/{c['max_hp']}", square,
                      literal(", ".join(c["conditions"]) or c["vitality"]))
    return table


def result_table(result: FightResult) -> Table:
    """Each combatant at the end of one fight."""
    table = Table(title=literal(f"Winner: {result.winner or 'none'} after {result.rounds} round(s)"))
    for col in ("combatant", "side", "HP", "dealt", "taken", "status"):
        table.add_column(col, justify="left" if col in ("combatant", "side", "status") else "right")
    for c in result.combatants:
        status = "dead" if c.died else "dropped" if c.dropped else c.morale or "standing"
        table.add_row(literal(c.name), literal(c.side), f"{c.hp}/{c.max_hp}", str(c.damage_dealt),
                      str(c.damage_taken), literal(status))
    return table
