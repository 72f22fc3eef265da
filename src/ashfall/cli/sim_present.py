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
from ashfall.sim.report import Difference, Rate, SimReport
from ashfall.sim.stats import Summary


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


def pct(rate: float) -> str:
    """A proportion as a percentage."""
    return f"{100 * rate:.1f}%"


def _rate(r: Rate) -> str:
    return f"{pct(r.rate)} ({100 * r.ci95[0]:.0f}–{100 * r.ci95[1]:.0f})"


def _mean_sd(s: Summary) -> str:
    return f"{s.mean:.1f} ± {s.sd:.1f}"


def report_tables(report: SimReport) -> list[Table]:
    """Win rates, rounds and per-combatant statistics of a simulation."""
    sides = Table(title=literal(f"{report.name} — {report.trials} fights, seed {report.seed}, {report.ruleset}"))
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("win rate (95% CI)", justify="right")
    for s in report.sides:
        sides.add_row(literal(s.side), str(s.wins.count), _rate(s.wins))
    sides.add_row("(no winner)", str(report.undecided.count), _rate(report.undecided))
    q = report.rounds
    rounds = Table(title="Rounds")
    for col in ("mean ± sd", "min", "p5", "p25", "median", "p75", "p95", "max"):
        rounds.add_column(col, justify="right")
    rounds.add_row(_mean_sd(q), f"{q.minimum:g}", *(f"{v:g}" for _, v in q.quantiles), f"{q.maximum:g}")
    per = Table(title="Combatants (damage and HP left: means per fight)")
    for col in ("combatant", "side", "drops (95% CI)", "deaths", "dealt", "taken", "HP left", "morale"):
        per.add_column(col, justify="left" if col in ("combatant", "side", "morale") else "right",
                       no_wrap=col != "morale")
    for c in report.combatants:
        morale = literal(", ".join(f"{k} {100 * v / report.trials:.0f}%" for k, v in c.morale) or "-")
        per.add_row(literal(c.name), literal(c.side), _rate(c.dropped), pct(c.died.rate), f"{c.dealt.mean:.1f}",
                    f"{c.taken.mean:.1f}", f"{c.hp_left.mean:.0f}/{c.max_hp}", morale)
    return [sides, rounds, per]


def comparison_table(first: str, second: str, rows: Sequence[Difference]) -> Table:
    """Two runs side by side: values, difference and whether it is significant at 5%."""
    table = Table(title=literal(f"{first}  vs  {second}"))
    for col in ("statistic", "first", "second", "difference", "p", "significant"):
        table.add_column(col, justify="left" if col == "statistic" else "right")
    for r in rows:
        rate = "wins" in r.label or "drops" in r.label
        show = pct if rate else (lambda v: f"{v:.2f}")
        delta = f"{100 * r.delta:+.1f} pts" if rate else f"{r.delta:+.2f}"
        table.add_row(literal(r.label), show(r.first), show(r.second), delta, f"{r.test.p_value:.3g}",
                      "[bold]yes[/]" if r.test.significant else "no")
    return table
