"""Files an encounter names are read only from its folder or an allowed one; folder walks follow no links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.content.loader import load_content_files, load_library
from ashfall.encounters import load_encounter, validate_command
from ashfall.files.yaml_marks import InputError

ENCOUNTER = """name: Paths
sides: [{name: a}, {name: b}]
combatants:
  - {creature: warrior, side: a}
  - {creature: ghoul, side: b}
"""
GHOUL = "creatures:\n  - {id: ghoul, name: Ghoul, hp: 9}\n"


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """An encounter folder and a shared content folder beside it."""
    own, shared = tmp_path / "table", tmp_path / "shared"
    own.mkdir()
    shared.mkdir()
    (shared / "ghoul.yaml").write_text(GHOUL)
    return own, shared


def only_problem(path: Path, allow: tuple[Path, ...] = ()) -> str:
    """The problem the encounter's path gives (a combatant of content that did not load is not reported again)."""
    with pytest.raises(InputError) as caught:
        load_encounter(path, allow)
    (problem,) = [p for p in caught.value.problems if not p.path.startswith("combatants")]
    return str(problem)


def test_content_outside_the_folder__is_refused_unless_allowed(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    (own / "e.yaml").write_text(ENCOUNTER + "content: [../shared/ghoul.yaml]\n")
    assert ":6: content[0]: '../shared/ghoul.yaml' leads out with '..'" in only_problem(own / "e.yaml")
    assert load_encounter(own / "e.yaml", [shared]).library.has("creature", "ghoul")


def test_allow_dir__on_the_command_line(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    (own / "e.yaml").write_text(ENCOUNTER + f"content: [{shared / 'ghoul.yaml'}]\n")
    runner = CliRunner()
    refused = runner.invoke(app, ["validate", str(own / "e.yaml")])
    assert refused.exit_code == 1 and "is an absolute path" in refused.output
    for command in (["validate"], ["run", "--max-rounds", "2"]):
        result = runner.invoke(app, [*command, str(own / "e.yaml"), "--allow-dir", str(shared)])
        assert result.exit_code == 0, result.output


def test_house_rules_through_a_link_out__are_refused(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    (shared / "house.yaml").write_text("base: ashfall-1\n")
    (own / "house.yaml").symlink_to(shared / "house.yaml")
    (own / "e.yaml").write_text(ENCOUNTER.replace("ghoul", "raider") + "ruleset: house.yaml\n")
    assert "ruleset: 'house.yaml' is a symbolic link to" in only_problem(own / "e.yaml")
    assert load_encounter(own / "e.yaml", [shared]).ruleset.edition == 1


def test_a_fifo_named_as_content__is_refused_without_blocking(layout: tuple[Path, Path]) -> None:
    own, _ = layout
    os.mkfifo(own / "pipe.yaml")
    (own / "e.yaml").write_text(ENCOUNTER + "content: [pipe.yaml]\n")
    assert "content[0]: 'pipe.yaml' is not a regular file" in only_problem(own / "e.yaml")


def test_dev_zero__is_refused_even_from_an_allowed_folder(layout: tuple[Path, Path]) -> None:
    own, _ = layout
    (own / "e.yaml").write_text(ENCOUNTER + "content: [/dev/zero]\n")
    assert "'/dev/zero' is not a regular file" in only_problem(own / "e.yaml", (Path("/dev"),))


def test_load_library__follows_no_links(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    (own / "lib").mkdir()
    (own / "lib" / "ok.yaml").write_text("shields:\n  - {id: lid, name: Lid, bonus: 1}\n")
    (own / "lib" / "ghoul.yaml").symlink_to(shared / "ghoul.yaml")
    with pytest.raises(InputError) as caught:
        load_library(own / "lib")
    assert "links are not followed" in str(caught.value)
    with pytest.raises(InputError):
        load_content_files([own / "lib"])


def test_load_content_files__within_keyword_bounds_the_paths(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    with pytest.raises(InputError) as caught:
        load_content_files([shared / "ghoul.yaml"], within=[own])
    assert "is an absolute path" in str(caught.value)
    assert load_content_files([shared / "ghoul.yaml"], within=[own, shared]).has("creature", "ghoul")


def test_validate_folder__reports_links_and_does_not_follow_them(layout: tuple[Path, Path]) -> None:
    own, shared = layout
    (shared / "other.yaml").write_text(ENCOUNTER.replace("ghoul", "raider"))
    (own / "good.yaml").write_text(ENCOUNTER.replace("ghoul", "raider"))
    (own / "linked.yaml").symlink_to(shared / "other.yaml")
    code, lines = validate_command(own)
    assert code == 1
    assert any(line.startswith(f"{own / 'linked.yaml'}: <top>: a symbolic link") for line in lines)
    assert any(line.startswith(f"{own / 'good.yaml'}: ok") for line in lines)
