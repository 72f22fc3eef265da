"""Reports that answer a designer's questions: endings, PC risk, creature groups, Holm-corrected compare, charts."""

from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.cli.sim_plot import draw_comparison, draw_report
from ashfall.sim.fight import CombatantResult, FightResult
from ashfall.sim.report import aggregate, compare

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def horde_fight(trial: int, rats: int = 20, timed_out: bool = False) -> FightResult:
    """A hero against ``rats`` rats, every one its own creature type (the worst case for labels)."""
    hero = CombatantResult("hero", "Hero", "party", trial % 3 == 0, False, 30, 5, 15, 20, None, "hero")
    foes = tuple(CombatantResult(f"rat-{i}", f"Giant Rat Number {i}", "vermin", (trial + i) % 2 == 0, False, 1,
                                 3, 2, 5, "fled" if i % 4 == 0 else None, f"rat-kind-{i}") for i in range(rats))
    return FightResult(trial, None if timed_out else "party", 2 + trial % 4, timed_out, (hero, *foes), 3, 0)


def test_compare__holm_adjusted_p_values_are_never_below_the_raw_ones_and_decide_significance() -> None:
    a = aggregate("a", "x", 1, [horde_fight(i, 4) for i in range(60)])
    b = aggregate("b", "y", 1, [horde_fight(i + 1, 4) for i in range(60)])
    rows = compare(a, b)
    assert len(rows) > 5
    assert all(r.p_holm >= r.test.p_value for r in rows)
    assert all(r.significant == (r.p_holm < 0.05) for r in rows)
    smallest = min(rows, key=lambda r: r.test.p_value)
    assert smallest.p_holm == pytest.approx(min(1.0, len(rows) * smallest.test.p_value))
    labels = [r.label for r in rows]
    assert "any PC drops" in labels and "rounds (mean)" in labels


def _overlaps(labels: list) -> bool:  # type: ignore[type-arg]
    boxes = [t.get_window_extent() for t in labels if t.get_text()]
    return any(boxes[i].overlaps(boxes[j]) for i in range(len(boxes)) for j in range(i + 1, len(boxes)))


def test_plot__twenty_different_creatures_get_labels_that_do_not_overprint() -> None:
    report = aggregate("horde", "ashfall-2", 1, [horde_fight(i) for i in range(30)])
    fig = draw_report(report)
    FigureCanvasAgg(fig).draw()
    hp = fig.axes[2]
    labels = hp.get_yticklabels()
    assert len([t for t in labels if t.get_text()]) == 21
    assert not _overlaps(labels)


def test_plot__rounds_have_integer_ticks_and_timeouts_stand_apart() -> None:
    fights = [horde_fight(i, 3) for i in range(20)] + [horde_fight(i, 3, timed_out=True) for i in range(3)]
    report = aggregate("t", "r", 1, fights)
    fig = draw_report(report)
    FigureCanvasAgg(fig).draw()
    rounds = fig.axes[1]
    texts = [t.get_text() for t in rounds.get_xticklabels()]
    assert texts[-1] == "limit"
    assert all(float(t).is_integer() for t in texts[:-1])
    comparison = draw_comparison([report, report], ["a", "b"])
    FigureCanvasAgg(comparison).draw()
    assert len(comparison.axes[0].patches) >= 6  # both runs' bars, side by side


@pytest.mark.rule("MOR-24")
def test_sim_cli__prints_how_fights_ended_pc_risk_and_groups_with_members_on_request() -> None:
    bandits = str(ROOT / "encounters" / "bandit-band.yaml")
    grouped = runner.invoke(app, ["sim", bandits, "-n", "20", "--seed", "1"])
    assert grouped.exit_code == 0, grouped.output
    for title in ("How fights ended", "PCs (travellers)", "Combatants by creature", "Bandit ×8"):
        assert title in grouped.stdout
    assert "Bandit 3" not in grouped.stdout
    each = runner.invoke(app, ["sim", bandits, "-n", "20", "--seed", "1", "--each"])
    assert "Bandit 3" in each.stdout


def test_compare_cli__writes_overlaid_charts_and_reports_effects(tmp_path: Path) -> None:
    duel = str(ROOT / "encounters" / "duel.yaml")
    out = tmp_path / "cmp.png"
    result = runner.invoke(app, ["compare", duel, "--ruleset", "ashfall-1", "--ruleset", "ashfall-2", "-n", "10",
                                 "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert "p (Holm)" in result.stdout and "Hedges" in result.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
