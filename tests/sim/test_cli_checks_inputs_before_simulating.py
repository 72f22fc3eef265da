"""``sim`` and ``compare`` check every input and output path before they play a single fight.

Each command is given a million trials and a time limit of seconds: it can only pass by refusing at once.
"""

from __future__ import annotations

import re
from pathlib import Path

from ashfall.encounters import encounters_root
from tests.bad_inputs.test_bad_inputs import invoke

DUEL = str(encounters_root() / "duel.yaml")
MANY = "1000000"
LIMIT_S = 20.0
BAD_RULES = "base: ashfall-2\noptions:\n  turn:\n    actions_per_turnn: 3\n"


def test_sim_plot__into_a_missing_folder_is_refused_before_simulating(tmp_path: Path) -> None:
    chart = tmp_path / "missing" / "chart.png"
    ran = invoke(["sim", DUEL, "-n", MANY, "--plot", str(chart)], LIMIT_S)
    assert ran.code == 2
    assert f"--plot {chart}: the folder {chart.parent} does not exist" in ran.output


def test_sim_plot__a_suffix_matplotlib_cannot_write_is_refused_before_simulating(tmp_path: Path) -> None:
    for name in ("chart.txt", "chart"):
        ran = invoke(["sim", DUEL, "-n", MANY, "--plot", str(tmp_path / name)], LIMIT_S)
        assert ran.code == 2
        assert "the file must end in .png, .svg, .pdf" in ran.output


def test_sim_plot__svg_is_written(tmp_path: Path) -> None:
    chart = tmp_path / "chart.svg"
    ran = invoke(["sim", DUEL, "-n", "3", "--plot", str(chart)], LIMIT_S)
    assert ran.code == 0, ran.output
    assert chart.read_text().lstrip().startswith("<?xml")


def test_compare__a_bad_second_ruleset_file_is_reported_before_any_fight(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(BAD_RULES)
    ran = invoke(["compare", DUEL, "--ruleset", "ashfall-1", "--ruleset", str(rules), "-n", MANY], LIMIT_S)
    assert ran.code == 2
    assert re.search(rf"{re.escape(str(rules))}:4: .*actions_per_turnn", ran.output), ran.output


def test_compare__a_bad_last_encounter_file_is_reported_before_any_fight(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nsides: [{name: a}, {name: b}]\ncombatants:\n"
                   "  - {creature: warrior, side: a}\n  - {creature: no-such-creature, side: b}\n")
    ran = invoke(["compare", DUEL, DUEL, str(bad), "-n", MANY], LIMIT_S)
    assert ran.code == 2
    assert re.search(rf"{re.escape(str(bad))}:5: .*no-such-creature", ran.output), ran.output
