"""Content numbers have documented ranges and are strict whole numbers; weapons the schema accepts the AI can weigh.

The ranges are read from the schemas (:func:`ashfall.content.number_ranges.number_ranges`); the tables in
docs/content.md and docs/encounters.md must list exactly those.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from ashfall.content.number_ranges import number_ranges
from ashfall.content.schema import WEAPON_MAX_ROLL, Armor, Creature, ObjectTemplate, Shield, Weapon
from ashfall.core.dice import parse
from ashfall.encounters.schema import EncounterFile
from ashfall.odds import to_die
from ashfall.odds.attack import attack_odds

DOCS = Path(__file__).resolve().parents[2] / "docs"
CONTENT_TABLES: list[tuple[type[BaseModel], str]] = [
    (Weapon, "weapons[]."), (Armor, "armor[]."), (Shield, "shields[]."), (ObjectTemplate, "objects[]."),
    (Creature, "creatures[]."),
]


def table_rows(models: list[tuple[type[BaseModel], str]]) -> list[str]:
    return [f"| `{prefix}{path}` | {low} to {high} |" for model, prefix in models
            for path, (low, high) in number_ranges(model).items() if not path.startswith("natural_weapons")]


@pytest.mark.parametrize("doc, models", [
    ("content.md", CONTENT_TABLES),
    ("encounters.md", [(EncounterFile, "")]),
])
def test_number_ranges_doc__lists_every_schema_range(doc: str, models: list[tuple[type[BaseModel], str]]) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    missing = [row for row in table_rows(models) if row not in text]
    assert not missing, f"docs/{doc} lacks (or has other) ranges:\n" + "\n".join(missing)


def weapon(damage: str, **extra: object) -> Weapon:
    return Weapon.model_validate({"id": "w", "name": "W", "kind": "melee", "damage": damage,
                                  "damage_type": "slashing", **extra})


@pytest.mark.parametrize("field, value, why", [
    ("bonus", True, "expected a whole number, not true"),
    ("bonus", "2", "expected a whole number, not '2'"),
    ("reach", 10.0, "expected a whole number, not 10.0"),
    ("bonus", 10**100, "less than or equal to 20"),
])
def test_weapon_numbers__are_strict_whole_numbers_in_range(field: str, value: object, why: str) -> None:
    with pytest.raises(ValidationError, match=why):
        weapon("1d6", **{field: value})


def test_creature_dr__a_bare_number_says_what_dr_is() -> None:
    with pytest.raises(ValidationError, match=r"dr is a list of sources, e\.g\. \[\{amount: 2, source: hide\}\]"):
        Creature.model_validate({"id": "c", "name": "C", "hp": 5, "dr": 2})


@pytest.mark.parametrize("damage", ["1000d6", "40d50", "2d6e6", "2d6rr1", "4d6k>3", "1d6+9995", "1d6//(1d2-1)"])
def test_weapon_damage__that_the_ai_cannot_weigh_is_refused_at_load(damage: str) -> None:
    with pytest.raises(ValidationError):
        weapon(damage)


@settings(max_examples=20, deadline=None)
@given(count=st.integers(1, 60), sides=st.integers(1, 1000), keep=st.booleans())
def test_weapon_damage__every_accepted_expression_has_exact_crit_odds(count: int, sides: int, keep: bool) -> None:
    damage = f"{count}d{sides}" + ("kh1" if keep and count > 1 else "")
    if count * sides > WEAPON_MAX_ROLL:
        with pytest.raises(ValidationError, match="rolls at most"):
            weapon(damage)
        return
    weapon(damage)
    assert to_die(parse(damage).doubled()) is not None
    assert 0 <= attack_odds(20, 10, damage).p_hit <= 1


@pytest.mark.parametrize("damage", ["25d40", "1d1000", "10d100", "50d20kh10", "1d6+9994"])
def test_weapon_damage__the_largest_accepted_expressions_have_exact_crit_odds(damage: str) -> None:
    weapon(damage)
    assert to_die(parse(damage).doubled()) is not None
