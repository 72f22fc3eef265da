"""The simulator's report as rich tables: win rates, endings, PC risk, creature groups, comparisons.

``ashfall sim`` and ``compare`` print these, and :meth:`ashfall.sim.report.SimReport.summary` renders them as
plain text for library users. Every name from a file goes through :func:`ashfall.core.terminal.literal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from ashfall.core.terminal import literal
from ashfall.sim.report import Difference, GroupStats, Rate, SimReport
from ashfall.sim.stats import Summary


def pct(rate: float) -> str:
    """A proportion as a percentage."""
    return f"{100 * rate:.1f}%"


def _rate(r: Rate) -> str:
    return f"{pct(r.rate)} ({100 * r.ci95[0]:.0f}–{100 * r.ci95[1]:.0f})"


def _mean_sd(s: Summary) -> str:
    return f"{s.mean:.1f} ± {s.sd:.1f}"


def report_tables(report: SimReport, each: bool = False) -> list[Table]:
    """Win rates, PC risk, how fights ended, rounds, and the combatants grouped by creature.

    Args:
        report: The simulation's report.
        each: List every member of a group under its group's row.
    """
    sides = Table(title=literal(f"{report.name} — {report.trials} fights, seed {report.seed}, {report.ruleset}"))
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("win rate (95% CI)", justify="right")
    for s in report.sides:
        sides.add_row(literal(s.side), str(s.wins.count), _rate(s.wins))
    sides.add_row("(no winner)", str(report.undecided.count), _rate(report.undecided))
    tables = [sides]
    if report.fights:
        tables += [_pc_table(report), _endings_table(report)]
    q = report.rounds
    rounds = Table(title="Rounds")
    for col in ("mean ± sd", "min", "p5", "p25", "median", "p75", "p95", "max"):
        rounds.add_column(col, justify="right")
    rounds.add_row(_mean_sd(q), f"{q.minimum:g}", *(f"{v:g}" for _, v in q.quantiles), f"{q.maximum:g}")
    tables.append(rounds)
    tables.append(_groups_table(report, each) if report.fights else _combatants_table(report))
    return tables


def _pc_table(report: SimReport) -> Table:
    table = Table(title=literal(f"PCs ({', '.join(report.pc_sides)})"))
    table.add_column("in the fight")
    table.add_column("fights", justify="right")
    table.add_column("rate (95% CI)", justify="right")
    table.add_row("any PC dropped", str(report.pc_dropped.count), _rate(report.pc_dropped))
    table.add_row("any PC died", str(report.pc_died.count), _rate(report.pc_died))
    return table


def _endings_table(report: SimReport) -> Table:
    table = Table(title="How fights ended (rounds of the fights that ended so)")
    for col in ("ended", "fights", "share (95% CI)", "rounds mean ± sd", "median", "max"):
        table.add_column(col, justify="left" if col == "ended" else "right")
    rounds = dict(report.rounds_by_ending)
    for key, rate in report.endings:
        r = rounds.get(key)
        table.add_row(key, str(rate.count), _rate(rate), _mean_sd(r) if r else "-",
                      f"{r.quantile(0.5):g}" if r else "-", f"{r.maximum:g}" if r else "-")
    return table


def _share(v: int, over: int) -> str:
    share = 100 * v / over
    return "<1%" if 0 < share < 0.5 else f"{share:.0f}%"


def _morale(counts: Sequence[tuple[str, int]], over: int) -> Text | str:
    return literal(", ".join(f"{k} {_share(v, over)}" for k, v in counts) or "-") if over else "-"


def group_name(g: GroupStats) -> str:
    """A group's display name: its members' shared name ("Bandit" for "Bandit 1" … "Bandit 5") and count."""
    if len(g.members) == 1:
        return g.name
    names = [m.name for m in g.members]
    common = next((names[0][:i] for i in range(min(map(len, names)), 0, -1)
                   if all(n.startswith(names[0][:i]) for n in names)), "").rstrip(" -#0123456789")
    return f"{common or g.creature} ×{len(g.members)}"


def _groups_table(report: SimReport, each: bool) -> Table:
    table = Table(title="Combatants by creature (drops: any of them; the rest: per fight, together"
                        + (")" if each else "; --each: members)"))
    for col in ("creature", "side", "drops (95% CI)", "dropped", "died", "dealt", "taken", "HP left", "morale"):
        table.add_column(col, justify="left" if col in ("creature", "side", "morale") else "right",
                         no_wrap=col != "morale")
    n = report.trials
    for g in report.groups():
        size = len(g.members)
        hp_total = sum(m.max_hp for m in g.members)
        name = group_name(g)
        table.add_row(literal(name), literal(g.side), _rate(g.any_dropped), f"{g.drops.mean:.2g}/{size}",
                      f"{g.deaths.mean:.2g}/{size}", f"{g.dealt.mean:.1f}", f"{g.taken.mean:.1f}",
                      f"{g.hp_share.mean * hp_total:.0f}/{hp_total}", _morale(g.morale, n * size))
        if each and size > 1:
            for c in g.members:
                table.add_row(literal(f"  {c.name}"), "", _rate(c.dropped), f"{c.dropped.rate:.2g}/1",
                              f"{c.died.rate:.2g}/1", f"{c.dealt.mean:.1f}", f"{c.taken.mean:.1f}",
                              f"{c.hp_left.mean:.0f}/{c.max_hp}", _morale(c.morale, n), style="dim")
    return table


def _combatants_table(report: SimReport) -> Table:
    per = Table(title="Combatants (damage and HP left: means per fight)")
    for col in ("combatant", "side", "drops (95% CI)", "deaths", "dealt", "taken", "HP left", "morale"):
        per.add_column(col, justify="left" if col in ("combatant", "side", "morale") else "right",
                       no_wrap=col != "morale")
    for c in report.combatants:
        per.add_row(literal(c.name), literal(c.side), _rate(c.dropped), pct(c.died.rate), f"{c.dealt.mean:.1f}",
                    f"{c.taken.mean:.1f}", f"{c.hp_left.mean:.0f}/{c.max_hp}", _morale(c.morale, report.trials))
    return per


def comparison_table(first: str, second: str, rows: Sequence[Difference]) -> Table:
    """Two runs side by side: values, difference, effect size, raw and Holm-adjusted p, significant after Holm."""
    table = Table(title=literal(f"{first}  vs  {second}"))
    for col in ("statistic", "first", "second", "difference", "effect", "p", "p (Holm)", "significant"):
        table.add_column(col, justify="left" if col == "statistic" else "right")
    for r in rows:
        show = pct if r.rate else (lambda v: f"{v:.2f}")
        delta = f"{100 * r.delta:+.1f} pts" if r.rate else f"{r.delta:+.2f}"
        table.add_row(literal(r.label), show(r.first), show(r.second), delta, f"{r.effect_name} {r.effect:+.2f}",
                      f"{r.test.p_value:.3g}", f"{r.p_holm:.3g}", "[bold]yes[/]" if r.significant else "no")
    return table
