"""Editor support: JSON Schema from the models checks every shipped file; validate takes several and content files."""

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.encounters.json_schema import KINDS, json_schema

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json_schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def kind_of(data: Any) -> str:
    """Encounter files have sides; the other YAML files shipped with the encounters and content are content."""
    return "encounter" if isinstance(data, dict) and "sides" in data else "content"


SHIPPED = sorted((ROOT / "encounters").rglob("*.yaml")) + sorted((ROOT / "content").rglob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_schema__every_shipped_file_is_valid(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(kind_of(data)).iter_errors(data)]
    assert errors == []


def test_schema__the_documented_house_rule_files_are_valid_and_the_documented_mistakes_are_not() -> None:
    doc = (ROOT / "docs" / "ruleset.md").read_text(encoding="utf-8")
    blocks = re.findall(r"(<!-- invalid[^\n]*-->\n)?```yaml\n(.*?)```", doc, re.S)
    check = validator("ruleset")
    assert len(blocks) >= 4
    for invalid, text in blocks:
        errors = list(check.iter_errors(yaml.safe_load(text) or {}))
        assert bool(errors) == bool(invalid), text


@pytest.mark.parametrize(("kind", "data"), [
    ("encounter", {"name": "x", "sides": [{"name": "a"}], "combatants": [], "sidez": []}),
    ("encounter", {"name": "x", "sides": [{"name": "a", "controller": "robot"}], "combatants": []}),
    ("content", {"creatures": [{"id": "rat", "name": "Rat", "hp": 0}]}),
    ("content", {"monsters": []}),
    ("ruleset", {"base": "ashfall-3"}),
    ("ruleset", {"options": {"attack": {"map_stepp": -4}}}),
])
def test_schema__catches_typos_bad_values_and_unknown_names(kind: str, data: dict[str, Any]) -> None:
    assert list(validator(kind).iter_errors(data))


@pytest.mark.parametrize("kind", KINDS)
def test_schema_command__prints_the_generated_schema(kind: str) -> None:
    result = runner.invoke(app, ["schema", kind])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json_schema(kind)


def test_schema_command__an_unknown_kind_is_a_usage_error() -> None:
    result = runner.invoke(app, ["schema", "monster"])
    assert result.exit_code == 2


def test_validate__several_files_each_get_their_lines_and_one_bad_file_fails_the_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nsides: [{name: a}]\ncombatants:\n  - {creature: no-such-creature, side: a}\n")
    good = ROOT / "encounters" / "duel.yaml"
    result = runner.invoke(app, ["validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{good}: ok" in result.stdout
    assert f"{bad}:4" in result.stdout and "no-such-creature" in result.stdout
    both_good = runner.invoke(app, ["validate", str(good), str(ROOT / "encounters" / "corridor.yaml")])
    assert both_good.exit_code == 0 and both_good.stdout.count(": ok:") == 2


def test_validate_content__a_shipped_file_alone_is_ok_and_a_bad_reference_names_file_field_and_line(
        tmp_path: Path) -> None:
    shipped = ROOT / "content" / "creatures" / "archetypes.yaml"
    ok = runner.invoke(app, ["validate", "--content", str(shipped)])
    assert ok.exit_code == 0, ok.output
    assert "ok:" in ok.stdout and "creatures" in ok.stdout
    bad = tmp_path / "beasts.yaml"
    bad.write_text("creatures:\n  - id: ash-rat\n    name: Ash Rat\n    hp: 4\n    weapons: [no-such-weapon]\n")
    result = runner.invoke(app, ["validate", "--content", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:5" in result.stdout and "no-such-weapon" in result.stdout


def test_schema__every_valid_yaml_example_in_the_docs_is_valid() -> None:
    from tests.docs.test_docs import YAML_BLOCKS, _kind

    checked = 0
    for block in YAML_BLOCKS:
        if block.mark:
            continue
        data = yaml.safe_load(block.text)
        kind = _kind(block)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(kind).iter_errors(data)]
        assert errors == [], block.where
        checked += 1
    assert checked > 20
