"""Fast start: importing the CLI, ``--help`` and ``rule`` load none of the heavy modules (checked, not timed).

The commands import the simulator, the odds (icepool), matplotlib, pandas and the pydantic schemas when they
run; these tests fail as soon as a module-level import brings one of them back into start-up.
``bench/bench_startup.py`` measures the CPU time itself.
"""

import json
import subprocess
import sys

import pytest

HEAVY = ("matplotlib", "pandas", "pyarrow", "polars", "numpy", "icepool", "pydantic", "d20", "ashfall.sim",
         "ashfall.engine", "ashfall.engine.engine", "ashfall.families.attacks.engine", "ashfall.odds",
         "ashfall.ruleset", "ashfall.content", "ashfall.encounters", "ashfall.ai")


def loaded_after(code: str, watched: tuple[str, ...] = HEAVY) -> list[str]:
    """The ``watched`` modules (by default the heavy ones) present in a fresh interpreter after running ``code``."""
    probe = f"""
import json, sys
{code}
print(json.dumps(sorted(m for m in {watched!r} if m in sys.modules)))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def running(argv: list[str]) -> str:
    """Code that runs the CLI with ``argv`` in the probe's interpreter (its exit is caught)."""
    return f"""
from ashfall.cli.app import app
try:
    app({argv!r})
except SystemExit:
    pass
"""


def test_import_cli_app__pulls_in_no_heavy_module() -> None:
    assert loaded_after("import ashfall.cli.app") == []
    assert loaded_after("import ashfall.cli.app", ("rich", "d20", "lark")) == []  # printing and dice: when used


@pytest.mark.parametrize("argv", [["--help"], ["rule", "MAP-2"], ["odds", "--help"], ["sim", "--help"]])
def test_short_commands__run_without_heavy_modules(argv: list[str]) -> None:
    code = running(argv)
    assert set(loaded_after(code)) <= {"pydantic"}  # typer itself imports pydantic's core
    # when it runs a command (its adapters): our schemas (ashfall.ruleset, .content, .encounters) stay unloaded


def test_validate__needs_the_loader_but_not_the_simulator_odds_or_charts() -> None:
    code = running(["validate", "encounters/duel.yaml"])
    loaded = loaded_after(code)
    assert "ashfall.encounters" in loaded  # it did validate
    assert not {"matplotlib", "pandas", "icepool", "ashfall.sim", "ashfall.odds", "ashfall.ai"} & set(loaded)
    # checking a file builds no fight: the turn engine and the rule families stay unloaded (encounters.placing)
    assert not {"ashfall.engine.engine", "ashfall.families.attacks.engine"} & set(loaded)


def test_validate__reads_dice_without_d20_prints_without_rich_and_needs_no_defence_rules() -> None:
    # d20 builds its LALR parser on import (~60 ms): the shipped content's dice are read by our quick reader
    # (ashfall.core.dice); rich is for tables, validate prints plain lines; checking tactics needs the activity
    # tables, not the defence rules and conditions behind attack_traits
    code = running(["validate", "encounters/duel.yaml"])
    watched = ("ashfall.encounters", "d20", "lark", "rich", "rich.console", "ashfall.rules.defense",
               "ashfall.rules.conditions")
    assert loaded_after(code, watched) == ["ashfall.encounters"]


def test_edition_1_overrides__are_checked_without_d20() -> None:
    # applying ashfall-1's overrides asks which defaults are dice notation (ruleset.ranges.is_dice_default); a word
    # such as ``force`` must not reach d20's reader, whose import builds its grammar (~0.4 s on a loaded machine)
    code = "from ashfall.ruleset import preset\npreset('ashfall-1')"
    assert loaded_after(code, ("ashfall.ruleset", "d20", "lark")) == ["ashfall.ruleset"]
