"""``ashfall sim --plot``: a PNG with the win rates, the rounds histogram and the HP left per combatant.

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no display, no global state). Names from
files are drawn as written: control characters made visible and ``$`` escaped, so a name is never read as
mathtext (an unbalanced or unknown TeX command there would fail the drawing after the whole simulation).
"""

from __future__ import annotations

import os
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ashfall.cli.common import shown
from ashfall.sim.report import SimReport

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


def plot_report(report: SimReport, out: Path) -> Path:
    """Write the report's charts to ``out`` (PNG) and return the path."""
    fig = Figure(figsize=FIGURE_SIZE, dpi=DPI, layout="constrained")
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
    lo, hi = min(report.rounds_samples, default=0), max(report.rounds_samples, default=0)
    rounds.hist(report.rounds_samples, bins=range(lo, hi + 2), align="left", color="tab:orange", rwidth=0.9)
    rounds.set_title(f"Rounds (mean {report.rounds.mean:.2f})")
    rounds.set_xlabel("round the fight ended")
    labels = [f"{_label(c.name)}\n({_label(c.side)})" for c in report.combatants]
    shares = [[v / c.max_hp for v in c.hp_samples] if c.max_hp else [0.0] for c in report.combatants]
    hp.boxplot(shares, tick_labels=labels)
    hp.tick_params(axis="x", labelrotation=45, labelsize=8)
    hp.set_ylim(-0.02, 1.02)
    hp.set_title("HP left at the end (share of max HP)")
    fig.suptitle(f"{_label(report.name)}: {report.trials} fights, seed {report.seed}, {_label(report.ruleset)}")
    fig.savefig(out)
    return out
