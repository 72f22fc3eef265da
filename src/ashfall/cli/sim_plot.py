"""``ashfall sim --plot`` and ``ashfall compare --plot``: win rates, rounds by how fights ended, HP left per group.

Rounds have integer ticks and the fights the round limit stopped stand apart (a hatched ``limit`` bar);
HP left is one horizontal box per creature group, and the figure grows with the groups, so labels never
overprint (20 rats are one box). ``compare`` overlays the runs: bars side by side, rounds as outlines, boxes
in pairs.

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no display, no global state). Names from
files are drawn as written: control characters made visible and ``$`` escaped, so a name is never read as
mathtext (an unbalanced or unknown TeX command there would fail the drawing after the whole simulation).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ashfall.cli.common import shown
from ashfall.sim.report import GroupStats, SimReport
from ashfall.sim.tables import group_name

FORMATS = ("png", "svg", "pdf")
"""File types the charts can be written as (by the file's suffix); matplotlib's others need extra programs."""
FIGURE_SIZE = (15.0, 4.8)
DPI = 100


def check_output(out: Path) -> None:
    """Refuse, before anything is simulated, a chart file that could not be written afterwards.

    Raises:
        ValueError: The folder does not exist or cannot be written to, the path is a folder, or the suffix is
            not one of :data:`FORMATS`.
    """
    folder = out.parent
    suffix = out.suffix.lower().lstrip(".")
    if out.is_dir():
        raise ValueError(f"--plot {out}: is a folder, not a file")
    if not folder.is_dir():
        raise ValueError(f"--plot {out}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise ValueError(f"--plot {out}: cannot write there")
    if suffix not in FORMATS:
        raise ValueError(f"--plot {out}: the file must end in {', '.join('.' + f for f in FORMATS)}")


def _label(text: str) -> str:
    """A name from a file as plain text for matplotlib (no mathtext)."""
    return shown(text).replace("$", r"\$")


ENDING_COLOURS = {"defeat": "tab:blue", "morale": "tab:orange", "surrender": "tab:green", "round-limit": "tab:red"}
"""One colour per way a fight can end (the round-limit bar also stands apart, hatched)."""
ROW_HEIGHT = 0.32
"""Inches per creature group in the HP panel: the figure grows so labels never overprint."""


def _height(groups: int) -> float:
    return max(FIGURE_SIZE[1], 1.4 + ROW_HEIGHT * groups)


def _group_label(g: GroupStats) -> str:
    return f"{_label(group_name(g))} ({_label(g.side)})"


def _group_shares(report: SimReport, g: GroupStats) -> list[float]:
    """Each fight's HP left of a group as a share of its maximum HP (what the boxes show)."""
    if not report.fights:
        return [0.0]
    index = {c.id: i for i, c in enumerate(report.combatants)}
    members = [index[m.id] for m in g.members]
    total = sum(m.max_hp for m in g.members) or 1
    return [sum(max(0, f.combatants[i].hp) for i in members) / total for f in report.fights]


def _rounds_panel(ax: Axes, reports: Sequence[SimReport], labels: Sequence[str]) -> None:
    """Rounds per fight: stacked by how it ended (one report) or overlaid outlines (several); integer ticks.

    Fights the round limit stopped are drawn apart, at ``limit`` one step right of the rest, hatched: they did
    not end in that round, they were stopped.
    """
    decided = [[f.rounds for f in r.fights if not f.timed_out] or list(r.rounds_samples) for r in reports]
    limited = [[f.rounds for f in r.fights if f.timed_out] for r in reports]
    lo = min((min(d, default=0) for d in decided), default=0)
    hi = max((max(d, default=0) for d in decided), default=0)
    bins = list(range(lo, hi + 2))
    apart = hi + 2  # where the timeouts are drawn
    if len(reports) == 1:
        r = reports[0]
        series = [[f.rounds for f in r.fights if f.ended == key] for key in ENDING_COLOURS if key != "round-limit"]
        keys = [key for key in ENDING_COLOURS if key != "round-limit"]
        shown_series = [(k, v) for k, v in zip(keys, series, strict=True) if v]
        if shown_series:
            ax.hist([v for _, v in shown_series], bins=bins, align="left", stacked=True, rwidth=0.9,
                    color=[ENDING_COLOURS[k] for k, _ in shown_series], label=[k for k, _ in shown_series])
        elif r.rounds_samples and not r.fights:
            ax.hist(r.rounds_samples, bins=bins, align="left", rwidth=0.9, color="tab:blue")
    else:
        for d, label in zip(decided, labels, strict=True):
            ax.hist(d, bins=bins, align="left", histtype="step", linewidth=2, label=label)
    for n, (t, label) in enumerate(zip(limited, labels, strict=True)):
        if t:
            width = 0.8 / len(reports)
            ax.bar(apart - 0.4 + width * (n + 0.5), len(t), width=width, color=ENDING_COLOURS["round-limit"],
                   hatch="//", alpha=0.8, label=f"round limit{'' if len(reports) == 1 else ' ' + label}")
    if any(limited):  # integer ticks thinned to about 15, then the apart "limit" bar
        every = max(1, (hi - lo + 14) // 15)
        ticks = [*range(lo, hi + 1, every), apart]
        ax.set_xticks(ticks, labels=[str(t) for t in ticks[:-1]] + ["limit"])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round the fight ended")
    ax.set_ylabel("fights")
    ax.legend(fontsize=8)


def plot_report(report: SimReport, out: Path) -> Path:
    """Write the report's charts (:func:`draw_report`) to ``out`` and return the path."""
    draw_report(report).savefig(out)
    return out


def draw_report(report: SimReport) -> Figure:
    """The report's charts: win rates, rounds by how fights ended, HP left per creature group."""
    groups = report.groups()
    fig = Figure(figsize=(FIGURE_SIZE[0], _height(len(groups))), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    wins, rounds, hp = fig.subplots(1, 3)
    names = [_label(s.side) for s in report.sides] + ["no winner"]
    rates = [s.wins.rate for s in report.sides] + [report.undecided.rate]
    cis = [s.wins.ci95 for s in report.sides] + [report.undecided.ci95]
    errors = [[r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
              [hi - r for r, (_, hi) in zip(rates, cis, strict=True)]]
    wins.bar(names, rates, yerr=errors, capsize=6, color="tab:blue")
    wins.set_ylim(0, 1)
    wins.set_title("Win rate (95% Wilson CI)")
    _rounds_panel(rounds, [report], [""])
    rounds.set_title(f"Rounds by how the fight ended (mean {report.rounds.mean:.2f})")
    shares = [_group_shares(report, g) for g in groups]
    hp.boxplot(shares[::-1], tick_labels=[_group_label(g) for g in groups][::-1], orientation="horizontal")
    hp.tick_params(axis="y", labelsize=8)
    hp.set_xlim(-0.02, 1.02)
    hp.set_title("HP left (share of max HP, per creature group)")
    fig.suptitle(f"{_label(report.name)}: {report.trials} fights, seed {report.seed}, {_label(report.ruleset)}")
    return fig


def plot_comparison(reports: Sequence[SimReport], labels: Sequence[str], out: Path) -> Path:
    """Write the runs' overlaid charts (:func:`draw_comparison`) to ``out`` and return the path."""
    draw_comparison(reports, labels).savefig(out)
    return out


def draw_comparison(reports: Sequence[SimReport], labels: Sequence[str]) -> Figure:
    """Several runs overlaid: win rates side by side, rounds as outlines, HP left per creature group in pairs."""
    first = reports[0]
    groups = first.groups()
    fig = Figure(figsize=(FIGURE_SIZE[0], _height(len(groups) * len(reports) // 2 + len(groups))), dpi=DPI,
                 layout="constrained")
    FigureCanvasAgg(fig)
    wins, rounds, hp = fig.subplots(1, 3)
    sides = [s.side for s in first.sides]
    width = 0.8 / len(reports)
    for n, (r, label) in enumerate(zip(reports, labels, strict=True)):
        rates = [next((s.wins for s in r.sides if s.side == side), None) for side in sides] + [r.undecided]
        xs = [i - 0.4 + width * (n + 0.5) for i in range(len(rates))]
        values = [x.rate if x else 0.0 for x in rates]
        errors = [[x.rate - x.ci95[0] if x else 0.0 for x in rates], [x.ci95[1] - x.rate if x else 0.0 for x in rates]]
        wins.bar(xs, values, width=width, yerr=errors, capsize=4, label=label)
    wins.set_xticks(range(len(sides) + 1), labels=[_label(s) for s in sides] + ["no winner"])
    wins.set_ylim(0, 1)
    wins.set_title("Win rate (95% Wilson CI)")
    wins.legend(fontsize=8)
    _rounds_panel(rounds, reports, labels)
    rounds.set_title("Rounds")
    positions: list[float] = []
    data: list[list[float]] = []
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    step = len(reports) + 1
    for row, g in enumerate(groups[::-1]):
        for n, r in enumerate(reports):
            match = next((h for h in r.groups() if (h.side, h.creature) == (g.side, g.creature)), None)
            if match is None:
                continue
            positions.append(row * step + n)
            data.append(_group_shares(r, match))
    boxes = hp.boxplot(data, positions=positions, orientation="horizontal", patch_artist=True, widths=0.8)
    for k, box in enumerate(boxes["boxes"]):
        box.set_facecolor(colours[int(positions[k]) % step % len(colours)])
    hp.set_yticks([row * step + (len(reports) - 1) / 2 for row in range(len(groups))],
                  labels=[_group_label(g) for g in groups[::-1]])
    hp.tick_params(axis="y", labelsize=8)
    hp.set_xlim(-0.02, 1.02)
    hp.set_title("HP left (share of max HP, per creature group)")
    fig.suptitle(_label(" vs ".join(labels)))
    return fig
