"""``ashfall odds ...`` through typer's CliRunner: JSON numbers, human tables and clean errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app

runner = CliRunner()


def _json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


ATTACK = ("odds", "attack", "--bonus", "7", "--dv", "16", "--damage", "1d10+3")


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-2")
def test_odds_attack__json_gives_expected_damage_5_375_and_exact_fractions() -> None:
    data = _json(*ATTACK, "--json")
    assert data["expected_damage"] == 5.375
    assert data["p_hit"] == 0.6 and data["p_crit"] == 0.05
    assert data["exact"] == {**data["exact"], "p_hit": "3/5", "p_crit": "1/20", "expected_damage": "43/8"}
    assert data["distribution"]["0"] == 0.4
    assert data["exact"]["distribution"]["0"] == "2/5"
    assert abs(sum(data["distribution"].values()) - 1) < 1e-12
    assert "ATK-4" in data["rules"]


@pytest.mark.rule("MAP-1", "MAA-5", "DR-3", "RVI-1")
def test_odds_attack__modifiers_carry_their_rule_ids() -> None:
    data = _json(*ATTACK, "--attack-number", "2", "--power-strike", "--dr", "2", "--resist", "slashing", "--json")
    assert [(m["rule"], m["value"]) for m in data["modifiers"]] == [("MAP-1", -3), ("MAA-5", -2)]
    assert [(m["rule"], m["value"]) for m in data["damage_modifiers"]] == [("MAA-5", 4)]
    assert [s["rule"] for s in data["damage_steps"]] == ["G-42", "DR-1", "RVI-1"]
    assert data["exact"]["expected_damage"] == "151/80"


@pytest.mark.rule("RVI-1")
@pytest.mark.parametrize(
    ("damage", "resist", "halved"),
    [("1d10+3 slashing", "slashing", True), ("1d10+3 slashing", "fire", False), ("1d10+3", "fire", True)],
)
def test_odds_attack__resist_applies_only_to_a_matching_or_untyped_damage(damage: str, resist: str,
                                                                          halved: bool) -> None:
    data = _json("odds", "attack", "--bonus", "7", "--dv", "16", "--damage", damage, "--resist", resist, "--json")
    assert ("RVI-1" in [s["rule"] for s in data["damage_steps"]]) is halved


@pytest.mark.rule("G-21")
def test_odds_attack__advantage_and_disadvantage_flags_cancel() -> None:
    assert _json(*ATTACK, "--advantage", "--json")["exact"]["p_hit"] == "21/25"
    assert _json(*ATTACK, "--advantage", "--disadvantage", "--json")["exact"]["p_hit"] == "3/5"


def test_odds_attack__human_output_has_breakdown_with_rule_ids_and_a_chart() -> None:
    result = runner.invoke(app, [*ATTACK, "--attack-number", "2"])
    assert result.exit_code == 0, result.output
    for text in ("Attack breakdown", "MAP-1", "CRIT-1", "P(hit)", "41/10", "█", "Damage dealt"):
        assert text in result.stdout


def test_odds_attack__ruleset_preset_and_house_rule_file(tmp_path: Path) -> None:
    assert _json(*ATTACK, "--ruleset", "ashfall-1", "--json")["ruleset"] == "ashfall-1"
    house = tmp_path / "house.yaml"
    house.write_text("base: ashfall-2\nname: gentle\noptions:\n  attack:\n    map_step: -2\n", encoding="utf-8")
    data = _json(*ATTACK, "--attack-number", "3", "--ruleset", str(house), "--json")
    assert data["attack"]["total_bonus"] == 3 and data["ruleset"] == "gentle"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--damage", "1d6e6"), "exact odds do not support"),
        (("--damage", "2000d6"), "limit"),
        (("--damage", "1d6", "--resist", "flame"), "unknown damage type"),
        (("--damage", "1d6", "--ruleset", "no-such-file.yaml"), "no such preset or file"),
        (("--damage", "1d6", "--dr", "-2"), "DR cannot be negative"),
    ],
)
def test_odds_attack__bad_input_exits_2_with_a_clear_message(args: tuple[str, ...], message: str) -> None:
    result = runner.invoke(app, ["odds", "attack", "--bonus", "7", "--dv", "16", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.rule("MAP-1", "G-41", "MAA-7", "DEATH-1")
@pytest.mark.parametrize(
    ("flag", "expected"),
    [(("--attacks", "3"), "123/10"), (("--power-strike-then-strike",), "85/8"), (("--all-out",), "123/10"),
     (("--attacks", "1"), "43/8")],
)
def test_odds_turn__expected_total_damage(flag: tuple[str, ...], expected: str) -> None:
    data = _json("odds", "turn", "--bonus", "7", "--dv", "16", "--damage", "1d10+3", *flag, "--hp", "20", "--json")
    assert data["exact"]["expected_damage"] == expected
    assert 0 < data["p_drop"] < 1
    assert len(data["attacks"]) == (int(flag[1]) if flag[0] == "--attacks" else 2 if "power" in flag[0] else 3)


def test_odds_turn__human_output_and_conflicting_flags() -> None:
    ok = runner.invoke(app, ["odds", "turn", "--bonus", "7", "--dv", "16", "--damage", "1d10+3", "--hp", "20"])
    assert ok.exit_code == 0 and "Attacks this turn" in ok.stdout and "DEATH-1" in ok.stdout
    bad = runner.invoke(app, ["odds", "turn", "--bonus", "7", "--dv", "16", "--damage", "1d10+3", "--all-out",
                              "--attacks", "2"])
    assert bad.exit_code == 2 and "choose one" in bad.stderr
    too_many = runner.invoke(app, ["odds", "turn", "--bonus", "7", "--dv", "16", "--damage", "1d6", "--attacks", "4"])
    assert too_many.exit_code == 2 and "AE-1" in too_many.stderr


@pytest.mark.rule("G-44", "G-45")
def test_odds_save__json_p_success() -> None:
    data = _json("odds", "save", "--bonus", "2", "--dc", "18", "--json")
    assert data["p_success"] == 0.25 and data["exact"]["p_success"] == "1/4"
    assert _json("odds", "save", "--bonus", "2", "--dc", "18", "--advantage", "--json")["exact"]["p_success"] == "7/16"
    human = runner.invoke(app, ["odds", "save", "--bonus", "2", "--dc", "18"])
    assert human.exit_code == 0 and "G-44" in human.stdout


@pytest.mark.rule("DEATH-3", "DEATH-7", "DEATH-8")
def test_odds_death_saves__json_outcomes_sum_to_one() -> None:
    data = _json("odds", "death-saves", "--json")
    assert data["exact"]["p_stabilized"] == "331/800"
    assert abs(data["p_stabilized"] + data["p_dead"] + data["p_revived"] - 1) < 1e-12
    later = _json("odds", "death-saves", "--successes", "2", "--failures", "2", "--json")
    assert later["exact"] == {**later["exact"], "p_stabilized": "1/2", "p_dead": "9/20", "p_revived": "1/20"}
    human = runner.invoke(app, ["odds", "death-saves"])
    assert human.exit_code == 0 and "stabilized" in human.stdout
