"""Names from files print as written: rich markup is not interpreted, escape sequences never reach the terminal.

The hostile names are the ``terminal`` cases of the bad-input corpus (tests/bad_inputs/cases/terminal/): each is
played through ``validate``, ``run`` (with and without ``--explain``), ``run --json``, ``sim`` (tables and JSON)
and ``compare``, and the printed text is checked, not just the exit code: no control character is printed raw,
every name appears with its control characters made visible (:func:`ashfall.cli.common.shown`), and JSON
output parses back to the very names in the file.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.cli.common import json_text, literal, shown
from ashfall.encounters import load_encounter
from tests.bad_inputs.test_bad_inputs import Case, collect

RAW_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What must never be printed raw (a newline between lines is fine; inside a name it is escaped)."""
TERMINAL = [case for case in collect() if case.name.startswith("terminal/")]
HERE = Path(__file__).parent
runner = CliRunner(env={"COLUMNS": "2000"})  # wide enough that no table wraps a name


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert not RAW_CONTROL.search(result.output), repr(result.output)
    return result.output


def _file_names(case: Case) -> tuple[str, str, list[str]]:
    """The encounter's name, its ruleset's name, and every creature and side name in it."""
    spec = load_encounter(case.entry)
    return spec.name, spec.ruleset.name, [*(r.name for r in spec.roster), *(r.side for r in spec.roster)]


def _squash(text: str) -> str:
    """Runs of white space as one space (a table title wraps to the table's width)."""
    return re.sub(r"\s+", " ", text)


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | set().union(*(_strings(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data))
    return set()


def test_terminal_corpus__has_at_least_25_cases() -> None:
    assert len(TERMINAL) >= 25


@pytest.mark.parametrize("case", TERMINAL, ids=[c.name for c in TERMINAL])
def test_validate_and_run__print_every_name_as_written(case: Case) -> None:
    title, ruleset, names = _file_names(case)
    checked = _run("validate", str(case.entry))
    assert shown(title) in checked
    assert shown(ruleset) in checked
    for explain in ((), ("--explain",)):
        played = _run("run", str(case.entry), "--max-rounds", "20", *explain)
        for name in names:
            assert shown(name) in played, f"{shown(name)!r} not in {played!r}"


@pytest.mark.parametrize("case", TERMINAL, ids=[c.name for c in TERMINAL])
def test_sim__tables_print_names_as_written_and_json_keeps_them_exactly(case: Case) -> None:
    title, ruleset, names = _file_names(case)
    tables = _squash(_run("sim", str(case.entry), "-n", "2", "--max-rounds", "20"))
    for text in (title, ruleset, *names):
        assert _squash(shown(text)) in tables, f"{shown(text)!r} not in {tables!r}"
    data = json.loads(_run("sim", str(case.entry), "-n", "2", "--max-rounds", "20", "--json"))
    assert data["encounter"] == title
    assert set(names) <= _strings(data)


@pytest.mark.parametrize("case", TERMINAL, ids=[c.name for c in TERMINAL])
def test_run_json__is_valid_json_with_no_raw_control_characters(case: Case) -> None:
    events = json.loads(_run("run", str(case.entry), "--max-rounds", "20", "--json"))
    assert isinstance(events, list) and events


def test_run__a_winning_side_named_with_a_stray_closing_tag_is_the_winner_in_the_table() -> None:
    played = _run("run", str(HERE.parent / "bad_inputs/cases/terminal/winner-side-closing-tag.yaml"))
    assert "Winner: a[/x] after" in played


def test_run__an_escape_sequence_in_a_name_is_printed_as_visible_text() -> None:
    played = _run("run", str(HERE.parent / "bad_inputs/cases/terminal/ansi-colour-in-creature-name.yaml"))
    assert "\\x1b[31mWarrior\\x1b[0m" in played
    assert "\x1b" not in played


def test_compare__titles_print_names_and_house_rules_as_written() -> None:
    cases = HERE.parent / "bad_inputs/cases/terminal"
    everywhere = str(cases / "markup-and-escapes-everywhere.yaml")
    house = str(cases / "house-rule-name-with-markup-and-escapes/encounter.yaml")
    shown_files = _run("compare", everywhere, house, "-n", "2", "--max-rounds", "20")
    assert "[bold]\\x1b[5m[/] (ashfall-2)  vs  House rules ([/]Gritty \\x1b[31m[red])" in shown_files
    rulesets = _run("compare", everywhere, "--ruleset", "ashfall-1", "--ruleset",
                    str(cases / "house-rule-name-with-markup-and-escapes/rules.yaml"), "-n", "2", "--max-rounds", "20")
    assert "vs  [bold]\\x1b[5m[/] ([/]Gritty \\x1b[31m[red])" in rulesets
    data = json.loads(_run("compare", everywhere, house, "-n", "2", "--max-rounds", "20", "--json"))
    assert [r["encounter"] for r in data["runs"]] == ["[bold]\x1b[5m[/]", "House rules"]


def test_sim_plot__names_that_look_like_tex_are_drawn_as_text(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    _run("sim", str(HERE.parent / "bad_inputs/cases/terminal/dollar-mathtext.yaml"), "-n", "2", "--plot", str(chart))
    assert chart.stat().st_size > 0


def test_an_error_naming_a_hostile_name_prints_it_visibly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text('name: x\nsides: [{name: a}, {name: b}]\ncombatants:\n'
                   '  - {creature: warrior, side: "c\\e]0;t\\a[/x]"}\n  - {creature: raider, side: b}\n')
    for command in ("validate", "run"):
        result = runner.invoke(app, [command, str(bad)], catch_exceptions=False)
        assert result.exit_code != 0
        assert not RAW_CONTROL.search(result.output), repr(result.output)
        assert "\\x1b]0;t\\x07[/x]" in result.output


@given(st.text())
def test_shown__leaves_no_control_character_and_changes_nothing_else(text: str) -> None:
    visible = shown(text)
    assert not RAW_CONTROL.search(visible) and "\n" not in visible
    if not RAW_CONTROL.search(text) and "\n" not in text:
        assert visible == text


@given(st.text())
def test_literal__rich_prints_exactly_the_shown_text(text: str) -> None:
    console = Console(file=io.StringIO(), width=80, soft_wrap=True, color_system=None)
    console.print(literal(text), end="")
    assert console.file.getvalue() == shown(text)


def test_run__a_name_ending_in_a_backslash_prints_one_backslash() -> None:
    played = _run("run", str(HERE.parent / "bad_inputs/cases/terminal/side-trailing-backslash.yaml"))
    assert "Winner: party\\ after" in played
    assert "party\\\\" not in played


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=8))
def test_json_text__parses_back_to_the_same_data_with_no_raw_control_character(data: Any) -> None:
    text = json_text(data)
    assert json.loads(text) == data
    assert not RAW_CONTROL.search(text)


def test_rule__an_unknown_id_with_markup_is_an_error_line_not_a_crash() -> None:
    result = runner.invoke(app, ["rule", "[/x]\x1b[2J"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "unknown rule ID '[/x]\\x1b[2J'" in result.output


def test_roll__an_escape_sequence_in_the_expression_is_refused_and_printed_visibly() -> None:
    refused = runner.invoke(app, ["roll", "1d6\x1b[31m", "--seed", "1"], catch_exceptions=False)
    assert refused.exit_code == 2, refused.output  # a tag must be one word (dice limits)
    assert not RAW_CONTROL.search(refused.output), repr(refused.output)
    assert "\\x1b[31m" in refused.output
