"""The docs stay true: generated tables are current and every YAML example in docs/*.md is run.

A ```yaml block is validated by the loader for its kind (content files, house-rule rulesets). A
block preceded by ``<!-- invalid -->`` must fail; ``<!-- invalid as NAME -->`` validates it as file
NAME, and a ```text block right after it must list exactly the problems reported. A block preceded
by ``<!-- not-validated -->`` is only parsed (for fragments that are not whole files).
"""

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from ashfall.content import schema
from ashfall.content.loader import SECTIONS, default_library, library_from_text
from ashfall.core.types import Condition, DamageType, Save, Size, Skill
from ashfall.encounters import encounter_from_text
from ashfall.files.yaml_marks import InputError
from ashfall.ruleset import Ruleset, option_rows, ruleset_from_text

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^<!--\s*(?P<mark>invalid|not-validated)(?:\s+as\s+(?P<name>\S+))?\s*-->$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a markdown file."""

    doc: str
    line: int
    lang: str
    text: str
    mark: str
    name: str | None
    expected: str | None  # the ```text block that follows an invalid example

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks_of(path: Path) -> list[Block]:
    """Fenced blocks of a markdown file, with the HTML comment mark just before each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    raw: list[tuple[int, str, str, str, str | None]] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        start = i
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        before = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        found = MARK.match(before)
        raw.append((start + 1, m.group(1), "\n".join(lines[start + 1:end]) + "\n",
                    found.group("mark") if found else "", found.group("name") if found else None))
        i = end + 1
    out = []
    for k, (line, lang, text, mark, name) in enumerate(raw):
        follows = raw[k + 1] if k + 1 < len(raw) else None
        expected = follows[2] if mark == "invalid" and follows and follows[1] == "text" else None
        out.append(Block(path.name, line, lang, text, mark, name, expected))
    return out


ALL_BLOCKS = [b for doc in sorted(DOCS.glob("*.md")) for b in blocks_of(doc)]
YAML_BLOCKS = [b for b in ALL_BLOCKS if b.lang == "yaml"]


def _kind(block: Block) -> str:
    try:
        data = yaml.safe_load(block.text)
    except yaml.YAMLError:
        return "content"
    keys = set(data) if isinstance(data, dict) else set()
    if keys and keys <= {"base", "name", "options"}:
        return "ruleset"
    if keys & {"sides", "combatants", "map"}:
        return "encounter"
    if keys and (keys <= set(SECTIONS) or block.mark == "invalid"):
        return "content"
    return "unknown"


def _validate_content(text: str, name: str) -> Any:
    return library_from_text(text, name, base=default_library())


def _validate_ruleset(text: str, name: str) -> Any:
    return ruleset_from_text(text, name)


def _validate_encounter(text: str, name: str) -> Any:
    return encounter_from_text(text, name, base_dir=ROOT / "encounters")


VALIDATORS: dict[str, Callable[[str, str], Any]] = {
    "content": _validate_content, "ruleset": _validate_ruleset, "encounter": _validate_encounter,
}
"""How each kind of docs example is checked. Add a kind here when docs show a new kind of file."""


def test_docs__have_yaml_examples() -> None:
    docs = {b.doc for b in YAML_BLOCKS}
    assert {"content.md", "ruleset.md"} <= docs
    assert any(b.mark == "invalid" for b in YAML_BLOCKS if b.doc == "content.md")
    assert any(b.mark == "invalid" for b in YAML_BLOCKS if b.doc == "ruleset.md")


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[b.where for b in YAML_BLOCKS])
def test_docs_yaml_example__validates_as_documented(block: Block) -> None:
    if block.mark == "not-validated":
        yaml.safe_load(block.text)
        return
    kind = _kind(block)
    assert kind in VALIDATORS, (
        f"{block.where}: a yaml example of unknown kind; add a validator to VALIDATORS in {__file__} "
        "or mark the block <!-- not-validated -->")
    name = block.name or block.where
    if block.mark != "invalid":
        result = VALIDATORS[kind](block.text, name)
        if kind == "ruleset":
            assert isinstance(result, Ruleset)
        return
    with pytest.raises(InputError) as info:
        VALIDATORS[kind](block.text, name)
    if block.expected is not None:
        reported = sorted(str(p) for p in info.value.problems)
        assert reported == sorted(block.expected.strip().splitlines()), "\n".join(reported)


def test_docs_content_examples__valid_ones_also_merge_into_the_library() -> None:
    for block in YAML_BLOCKS:
        if _kind(block) == "content" and block.mark == "":
            merged = default_library().merge(library_from_text(block.text, block.where))
            for creature in merged.creatures():
                merged.weapons_of(creature)


# ----- the generated options table -----


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_options_doc", ROOT / "scripts" / "gen_options_doc.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ruleset_options_doc__is_up_to_date() -> None:
    current = (DOCS / "ruleset-options.md").read_text(encoding="utf-8")
    assert current == _generator().render(), "docs/ruleset-options.md is stale: run scripts/gen_options_doc.py"


def test_ruleset_options_doc__check_mode_agrees() -> None:
    assert _generator().main(["--check"]) == 0


def test_ruleset_options_doc__lists_every_option_and_marks_edition_differences() -> None:
    text = (DOCS / "ruleset-options.md").read_text(encoding="utf-8")
    rows = option_rows()
    for row in rows:
        assert f"| `{row['option']}` |" in text
    differ = [r for r in rows if r["ashfall-1"] != r["ashfall-2"]]
    assert differ and text.count("| **") == len(differ)


@pytest.mark.parametrize("row", option_rows(), ids=[r["option"] for r in option_rows()])
def test_ruleset_options_doc__values_as_written_work_in_a_house_rule_file(row: dict[str, Any]) -> None:
    gen = _generator()
    section, option = str(row["option"]).split(".", 1)
    text = f"base: ashfall-2\noptions:\n  {section}:\n    {option}: {gen.yaml_value(row['ashfall-1'])}\n"
    rules = ruleset_from_text(text, "house.yaml")
    legacy = getattr(ruleset_from_text("base: ashfall-1\n"), section)
    assert getattr(getattr(rules, section), option) == getattr(legacy, option)


# ----- the docs cover the schema -----

DOCUMENTED_MODELS = [schema.Weapon, schema.Armor, schema.Shield, schema.Creature, schema.Attributes,
                     schema.Senses, schema.Speeds, schema.DrEntry, schema.MoraleProfile, schema.ObjectTemplate]


@pytest.mark.parametrize("model", DOCUMENTED_MODELS, ids=[m.__name__ for m in DOCUMENTED_MODELS])
def test_content_doc__documents_every_field(model: type[schema.Model]) -> None:
    text = (DOCS / "content.md").read_text(encoding="utf-8")
    missing = [f for f in model.model_fields if f"| `{f}` |" not in text]
    assert not missing, f"docs/content.md does not document {model.__name__} fields {missing}"


@pytest.mark.parametrize("values", [
    [p.value for p in schema.WeaponProperty],
    [t.value for t in DamageType],
    [s.value for s in Size],
    [s.value for s in Save],
    [s.value for s in Skill],
    [c.value for c in Condition],
    [c.value for c in schema.ArmorCategory],
    [k.value for k in schema.WeaponKind],
    [k.value for k in schema.CreatureKind],
    [v.value for e in (schema.ObjectCover, schema.ChainKind, schema.ObjectTag) for v in e],
], ids=["properties", "damage-types", "sizes", "saves", "skills", "conditions", "armor", "weapon-kinds", "kinds",
        "objects"])
def test_content_doc__names_every_allowed_value(values: list[str]) -> None:
    text = (DOCS / "content.md").read_text(encoding="utf-8")
    missing = [v for v in values if f"`{v}`" not in text]
    assert not missing, f"docs/content.md does not mention {missing}"


def test_ruleset_doc__links_the_options_table_and_names_every_section() -> None:
    text = (DOCS / "ruleset.md").read_text(encoding="utf-8")
    assert "(ruleset-options.md)" in text
    for section in Ruleset().section_names:
        assert f"`{section}`" in text
    for name in ("ashfall-2", "ashfall-1"):
        assert f"`{name}`" in text
