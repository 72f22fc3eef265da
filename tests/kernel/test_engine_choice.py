"""Choosing the engine: ``--engine auto|kernel|reference`` on ``sim`` and ``compare``, the notice, and start-up.

auto plays a fight the kernel supports on the kernel and any other on the reference engine, saying in one line
which feature it lacks; kernel refuses an unsupported fight, naming the feature; reference never asks. Either
engine prints the same report. Deciding needs no numba, and ``ashfall rule`` loads neither numba nor the kernel.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ashfall.cli.sim_cmds import register
from ashfall.encounters import encounters_root
from ashfall.sim.engines import choose_engine
from ashfall.sim.setups import EncounterSetup
from tests.kernel.kit import BRAWL, DUEL, TWO_ON_TWO

SHIPPED_DUEL = encounters_root() / "duel.yaml"
SHIPPED_SKIRMISH = encounters_root() / "skirmish.yaml"
SHIPPED_CORRIDOR = encounters_root() / "corridor.yaml"
"""A shipped fight the kernel does not play (a scripted plan's Suppressive Fire)."""
runner = CliRunner()


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    made = typer.Typer()
    register(made)
    return made


def test_choose_engine__auto_takes_the_kernel_for_a_supported_fight() -> None:
    choice = choose_engine(EncounterSetup(DUEL), "auto")
    assert (choice.engine, choice.notice) == ("kernel", None)


def test_choose_engine__auto_names_the_first_missing_feature_and_falls_back() -> None:
    choice = choose_engine(EncounterSetup(SHIPPED_SKIRMISH), "auto")
    assert choice.engine == "reference"
    assert choice.notice is not None
    assert choice.notice.startswith("kernel: not supported yet: ")
    assert choice.notice.endswith("; running the reference engine") and "\n" not in choice.notice


def test_choose_engine__kernel_refuses_an_unsupported_fight_naming_the_feature() -> None:
    with pytest.raises(ValueError, match=r"--engine kernel: .*activity suppressive-fire \(combatant gunslinger"):
        choose_engine(EncounterSetup(SHIPPED_CORRIDOR), "kernel")


def test_choose_engine__reference_and_unknown_names() -> None:
    assert choose_engine(EncounterSetup(SHIPPED_DUEL), "reference").engine == "reference"
    with pytest.raises(ValueError, match="auto, kernel, reference"):
        choose_engine(EncounterSetup(DUEL), "fast")


@pytest.mark.parametrize("path", [DUEL, TWO_ON_TWO], ids=["duel", "two-on-two"])
def test_sim__kernel_and_reference_print_the_same_report(app: typer.Typer, path: object) -> None:
    reports = []
    for engine in ("kernel", "reference"):
        result = runner.invoke(app, ["sim", str(path), "-n", "40", "--seed", "2", "--json", "--engine", engine])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(result.stdout))
    assert reports[0] == reports[1]


def test_sim__auto_notice_for_an_unsupported_fight(app: typer.Typer) -> None:
    result = runner.invoke(app, ["sim", str(SHIPPED_CORRIDOR), "-n", "2"])
    assert result.exit_code == 0, result.output
    notices = [line for line in result.stderr.splitlines() if line.startswith("kernel:")]
    assert notices == ["kernel: not supported yet: activity suppressive-fire (combatant gunslinger); running the "
                       "reference engine"]


def test_sim__json_output_carries_no_notice(app: typer.Typer) -> None:
    result = runner.invoke(app, ["sim", str(SHIPPED_CORRIDOR), "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert "kernel:" not in result.stderr and json.loads(result.stdout)["trials"] == 2


def test_sim__engine_kernel_on_an_unsupported_fight_is_an_error(app: typer.Typer) -> None:
    result = runner.invoke(app, ["sim", str(SHIPPED_CORRIDOR), "-n", "2", "--engine", "kernel"])
    assert result.exit_code != 0
    assert "does not support this fight yet: activity suppressive-fire" in result.output


def test_compare__engines_agree(app: typer.Typer) -> None:
    outputs = []
    for engine in ("auto", "reference"):
        result = runner.invoke(app, ["compare", str(TWO_ON_TWO), "--ruleset", "ashfall-1", "--ruleset", "ashfall-2",
                                     "-n", "30", "--json", "--engine", engine])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]


def _modules_after(argv: list[str]) -> list[str]:
    probe = f"""
import json, sys
from ashfall.cli.app import app
try:
    app({argv!r})
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("numba", "ashfall.kernel.fight", "ashfall.kernel.rng") if m in sys.modules)))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("argv", [["rule", "MAP-2"], ["sim", str(SHIPPED_CORRIDOR), "-n", "1", "--json"],
                                  ["sim", str(DUEL), "-n", "1", "--json", "--engine", "reference"],
                                  ["sweep", str(SHIPPED_CORRIDOR), "--vary", "combatants.gunslinger.hp=40", "-n", "1",
                                   "--json"],
                                  ["sweep", str(DUEL), "--vary", "combatants.kernel-brute.hp=30", "-n", "1", "--json",
                                   "--engine", "reference"]],
                         ids=["rule", "sim-unsupported", "sim-reference", "sweep-unsupported", "sweep-reference"])
def test_start_up__numba_only_when_the_kernel_plays(argv: list[str]) -> None:
    assert _modules_after(argv) == []


@pytest.mark.parametrize("argv", [["sim", str(DUEL), "-n", "1", "--json"],
                                  ["sweep", str(DUEL), "--vary", "combatants.kernel-brute.hp=30", "-n", "1", "--json"]],
                         ids=["sim", "sweep"])
def test_start_up__the_kernel_loads_numba_when_it_plays(argv: list[str]) -> None:
    assert "numba" in _modules_after(argv)


@pytest.mark.rule("INIT-1")
def test_choose_engine__a_shared_initiative_roll_stays_on_the_reference_engine(tmp_path: Path) -> None:
    text = TWO_ON_TWO.read_text(encoding="utf-8")
    text = text.replace("  - side: reavers\n", "  - side: reavers\n    initiative_group: reavers\n")
    grouped = tmp_path / "grouped.yaml"
    grouped.write_text(text, encoding="utf-8")
    choice = choose_engine(EncounterSetup(grouped), "auto")
    assert choice.engine == "reference"
    assert choice.notice is not None and "initiative groups" in choice.notice


@pytest.mark.rule("RX-21")
@pytest.mark.parametrize(("change", "named"), [
    (("    ...::~...\n    ......B.B\n    .......B.\n",
      '    ...*:~...\n    ......B.B\n    .......B.\n  legend:\n    "*": {cover: total, name: pillar}\n'),
     "cover objects of total cover on the move"),
    (("weapons: [sledgehammer]", "weapons: [combat-knife]"), "thrown weapons on the move"),
    (("weapons: [greataxe]\n      weapon_proficiencies: [simple, martial]\n  - side: raiders",
      "weapons: [halberd]\n      weapon_proficiencies: [simple, martial]\n  - side: raiders"), "reach weapons"),
])
def test_choose_engine__a_brawl_on_the_move_the_kernel_cannot_mirror_is_named(
        tmp_path: Path, change: tuple[str, str], named: str) -> None:
    text = BRAWL.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "brawl.yaml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    choice = choose_engine(EncounterSetup(path), "auto")
    assert choice.engine == "reference"
    assert choice.notice is not None and named in choice.notice
