"""Presenters for ``run``, ``sim`` and ``compare``: a fight's log as text, reports and comparisons as tables.

The fight log uses :mod:`ashfall.cli.explain` when it is available (pure event → text functions) and
a small formatter of its own otherwise: one line per event that matters at the table, by event type
(a dispatch table), with the roll and DV breakdowns and damage ledgers added by ``--explain``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from ashfall.engine import events as ev
from ashfall.sim.fight import FightResult
from ashfall.sim.report import Difference, Rate, SimReport
from ashfall.sim.stats import Summary

Names = Mapping[str, str]
Formatter = Callable[[Any, Names], str]


def _n(names: Names, cid: str) -> str:
    return names.get(cid, cid)


def _parts(parts: Sequence[ev.Part]) -> str:
    return " ".join(f"{p.value:+d} {p.label} [{p.rule}]" for p in parts)


def _attack(e: ev.AttackRolled, names: Names) -> str:
    return (f"{_n(names, e.actor)} — {e.label} with {e.weapon} at {_n(names, e.target)}: "
            f"{e.roll.total} vs DV {e.dv}: {e.outcome.upper()}")


def _damage(e: ev.DamageTaken, names: Names) -> str:
    crit = " (critical)" if e.critical else ""
    return f"{_n(names, e.target)} takes {e.amount} damage{crit} → {e.health.hp}/{e.health.max_hp} HP [{e.rule}]"


_LINES: dict[type, Formatter] = {
    ev.InitiativeRolled: lambda e, n: f"{_n(n, e.actor)} rolls initiative: {e.roll.total}",
    ev.OrderSet: lambda e, n: "Turn order: " + ", ".join(_n(n, c) for c in e.order),
    ev.Surprise: lambda e, n: f"{_n(n, e.actor)} is {'SURPRISED' if e.surprised else 'not surprised'} "
                              f"(Stealth {e.stealth} vs passive Perception {e.passive})",
    ev.TurnStarted: lambda e, n: f"{_n(n, e.actor)}'s turn ({e.actions} actions)",
    ev.TurnSkipped: lambda e, n: f"{_n(n, e.actor)} skips its turn: {e.reason} [{e.rule}]",
    ev.ActionsSpent: lambda e, n: f"  {_n(n, e.actor)}: {e.label} ({e.count} action{'s' if e.count != 1 else ''})",
    ev.ReactionSpent: lambda e, n: f"  {_n(n, e.actor)} reacts: {e.label} [{e.rule}]",
    ev.Moved: lambda e, n: f"    {_n(n, e.actor)} moves {e.frm} → {e.to} ({e.cost_ft} ft)",
    ev.MovementStopped: lambda e, n: f"    {_n(n, e.actor)}'s movement stops [{e.rule}]",
    ev.AttackRolled: lambda e, n: "    " + _attack(e, n),
    ev.DamageTaken: lambda e, n: "      " + _damage(e, n),
    ev.CheckRolled: lambda e, n: f"    {_n(n, e.actor)}: {e.label} "
                                 f"{e.roll.total if e.roll else e.auto} vs {e.against}: "
                                 f"{'success' if e.success else 'failure'} [{e.rule}]",
    ev.HealthSet: lambda e, n: f"      {_n(n, e.target)}: {e.label} → {e.health.hp}/{e.health.max_hp} HP",
    ev.ConditionAdded: lambda e, n: f"      {_n(n, e.target)} is now {e.applied.condition.value} [{e.rule}]",
    ev.ConditionRemoved: lambda e, n: f"      {_n(n, e.target)} is no longer {e.applied.condition.value}",
    ev.MoraleChecked: lambda e, n: f"    Morale ({e.group}): {e.roll.total} vs DC {e.dc}: {e.outcome} [{e.rule}]",
    ev.MoraleChanged: lambda e, n: "    Morale: " + (", ".join(f"{_n(n, c)} {s}" for c, s in e.members) or e.label),
    ev.CombatEnded: lambda e, n: f"The fight ends in round {e.round}: "
                                 + (f"{e.winner} win" if e.winner else "no winner"),
}


def _explain_attack(e: ev.AttackRolled) -> list[str]:
    faces = "/".join(str(f) for f in e.roll.faces)
    lines = [f"        d20 {faces} (natural {e.roll.natural}) {_parts(e.roll.modifiers)} = {e.roll.total} "
             f"[{e.rule}]", f"        DV {e.dv} = {_parts(e.dv_parts)}"]
    lines += [f"        {s.label}: {'advantage' if s.advantage else 'disadvantage'} [{s.rule}]" for s in e.roll.sources]
    lines += [f"        {escape(r)}" for r in e.reasons]
    return lines


def _explain_damage(e: ev.DamageTaken) -> list[str]:
    return [f"        {r.step}: {r.damage_type} {r.before} → {r.after} ({r.label}) [{r.rule}]" for r in e.rows]


_EXPLAIN: dict[type, Callable[[Any], list[str]]] = {ev.AttackRolled: _explain_attack, ev.DamageTaken: _explain_damage}


def _external() -> Callable[[Any, Names, bool], list[str]] | None:
    """``ashfall.cli.explain.event_lines(event, names, explain)`` when that module provides it."""
    try:
        module = importlib.import_module("ashfall.cli.explain")
    except ImportError:
        return None
    fn = getattr(module, "event_lines", None)
    return fn if callable(fn) else None


def event_lines(event: Any, names: Names, explain: bool = False) -> list[str]:
    """The lines one event prints (none for pure bookkeeping)."""
    external = _external()
    if external is not None:
        return list(external(event, names, explain))
    fmt = _LINES.get(type(event))
    if fmt is None:
        return [f"    ({event.type}) [{event.rule}]"] if explain else []
    lines = [escape(fmt(event, names))]
    extra = _EXPLAIN.get(type(event))
    if explain and extra is not None:
        lines += extra(event)
    return lines


def print_log(console: Console, events: Sequence[Any], names: Names, explain: bool = False) -> None:
    """A fight round by round."""
    for e in events:
        if isinstance(e, ev.RoundStarted):
            console.print(Rule(f"Round {e.round}"))
            continue
        for line in event_lines(e, names, explain):
            console.print(line)


def result_table(result: FightResult) -> Table:
    """Each combatant at the end of one fight."""
    table = Table(title=f"Winner: {result.winner or 'none'} after {result.rounds} round(s)")
    for col in ("combatant", "side", "HP", "dealt", "taken", "status"):
        table.add_column(col, justify="left" if col in ("combatant", "side", "status") else "right")
    for c in result.combatants:
        status = "dead" if c.died else "dropped" if c.dropped else c.morale or "standing"
        table.add_row(escape(c.name), escape(c.side), f"{c.hp}/{c.max_hp}", str(c.damage_dealt),
                      str(c.damage_taken), status)
    return table


def pct(rate: float) -> str:
    """A proportion as a percentage."""
    return f"{100 * rate:.1f}%"


def _rate(r: Rate) -> str:
    return f"{pct(r.rate)} [{pct(r.ci95[0])}, {pct(r.ci95[1])}]"


def _mean_sd(s: Summary) -> str:
    return f"{s.mean:.1f} ± {s.sd:.1f}"


def report_tables(report: SimReport) -> list[Table]:
    """Win rates, rounds and per-combatant statistics of a simulation."""
    sides = Table(title=f"{escape(report.name)} — {report.trials} fights, seed {report.seed}, {report.ruleset}")
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("win rate [95% CI]", justify="right")
    for s in report.sides:
        sides.add_row(escape(s.side), str(s.wins.count), _rate(s.wins))
    sides.add_row("(no winner)", str(report.undecided.count), _rate(report.undecided))
    q = report.rounds
    rounds = Table(title="Rounds")
    for col in ("mean ± sd", "min", "p5", "p25", "median", "p75", "p95", "max"):
        rounds.add_column(col, justify="right")
    rounds.add_row(_mean_sd(q), f"{q.minimum:g}", *(f"{v:g}" for _, v in q.quantiles), f"{q.maximum:g}")
    per = Table(title="Combatants")
    for col in ("combatant", "side", "drops [95% CI]", "deaths", "dealt", "taken", "HP left (median)", "morale"):
        per.add_column(col, justify="left" if col in ("combatant", "side", "morale") else "right")
    for c in report.combatants:
        morale = ", ".join(f"{k} {pct(v / report.trials)}" for k, v in c.morale) or "-"
        per.add_row(escape(c.name), escape(c.side), _rate(c.dropped), pct(c.died.rate), _mean_sd(c.dealt),
                    _mean_sd(c.taken), f"{c.hp_left.quantile(0.5):g}/{c.max_hp}", morale)
    return [sides, rounds, per]


def comparison_table(first: str, second: str, rows: Sequence[Difference]) -> Table:
    """Two runs side by side: values, difference and whether it is significant at 5%."""
    table = Table(title=f"{escape(first)}  vs  {escape(second)}")
    for col in ("statistic", "first", "second", "difference", "p", "significant"):
        table.add_column(col, justify="left" if col == "statistic" else "right")
    for r in rows:
        rate = "wins" in r.label or "drops" in r.label
        show = pct if rate else (lambda v: f"{v:.2f}")
        delta = f"{100 * r.delta:+.1f} pts" if rate else f"{r.delta:+.2f}"
        table.add_row(escape(r.label), show(r.first), show(r.second), delta, f"{r.test.p_value:.3g}",
                      "[bold]yes[/]" if r.test.significant else "no")
    return table
