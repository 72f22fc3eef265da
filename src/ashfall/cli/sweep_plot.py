"""``ashfall sweep --plot``: win rate against the varied values, as a line with 95% intervals or a heatmap.

One axis draws a line (error bars are the Wilson intervals); two axes draw a heatmap with each cell's rate
written in it; more axes cannot be drawn on one chart and are refused before the sweep. Object API on the
Agg canvas, like :mod:`ashfall.cli.sim_plot`.
"""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ashfall.cli.common import shown
from ashfall.sim.sweep import SweepResult, value_of
from ashfall.sim.variants import Vary

DPI = 100


def check_axes(axes: Sequence[Vary]) -> None:
    """Refuse, before the sweep, a plot of more than two varied values.

    Raises:
        ValueError: With none or more than two ``--vary``.
    """
    if not 1 <= len(axes) <= 2:
        raise ValueError(f"--plot draws one or two varied values, not {len(axes)}")


def _label(text: str) -> str:
    return shown(text).replace("$", r"\$")


def plot_sweep(result: SweepResult, out: str) -> None:
    """Draw the sweep's win rates to ``out`` (PNG, SVG or PDF by its suffix)."""
    check_axes(result.axes)
    fig = Figure(figsize=(7.5, 5.0), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    title = _label(f"{result.encounter}: {result.side} win rate ({result.trials} fights per variant, 95% CI)")
    if len(result.axes) == 1:
        path = result.axes[0].path
        xs = [value_of(r, path) for r in result.rows]
        numeric = all(isinstance(x, int | float) and not isinstance(x, bool) for x in xs)
        where = [float(x) for x in xs] if numeric else list(range(len(xs)))
        rates = [r.metrics["win"].value for r in result.rows]
        below = [r.metrics["win"].value - r.metrics["win"].low for r in result.rows]
        above = [r.metrics["win"].high - r.metrics["win"].value for r in result.rows]
        ax.errorbar(where, rates, yerr=[below, above], marker="o", capsize=3)
        if not numeric:
            ax.set_xticks(where, [_label(str(x)) for x in xs])
        ax.set_xlabel(_label(path))
        ax.set_ylabel("win rate")
        ax.set_ylim(0, 1)
        ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    else:
        first, second = result.axes
        cols, rows = list(first.values), list(second.values)
        grid = [[0.0] * len(cols) for _ in rows]
        for r in result.rows:
            grid[rows.index(value_of(r, second.path))][cols.index(value_of(r, first.path))] = r.metrics["win"].value
        image = ax.imshow(grid, origin="lower", aspect="auto", vmin=0, vmax=1, cmap="RdYlGn")
        ax.set_xticks(range(len(cols)), [_label(str(c)) for c in cols])
        ax.set_yticks(range(len(rows)), [_label(str(r)) for r in rows])
        ax.set_xlabel(_label(first.path))
        ax.set_ylabel(_label(second.path))
        for y, line in enumerate(grid):
            for x, rate in enumerate(line):
                ax.text(x, y, f"{rate:.0%}", ha="center", va="center", fontsize=8)
        fig.colorbar(image, ax=ax, label="win rate")
    ax.set_title(title, fontsize=10)
    fig.savefig(out)


__all__ = ["check_axes", "plot_sweep"]
