"""Broken content files: every problem is reported with its file, field path and line; nothing loads."""

from pathlib import Path

import pytest

from ashfall.content.library import Library
from ashfall.content.loader import library_from_text, load_content_file, load_library
from ashfall.files.yaml_marks import InputError, Problem

SWORD = "  - {id: sword, name: Sword, kind: melee, damage: 1d8, damage_type: slashing}\n"

# (case id, {file name: text}, [(file, field path, line, message fragment)])
CASES = [
    (
        "unknown-key",
        {"a.yaml": "weapons:\n" + SWORD + "  - id: club\n    name: Club\n    kind: melee\n    damage: 1d6\n"
                   "    damage_type: bludgeoning\n    colour: red\n"},
        [("a.yaml", "weapons[1].colour", 8, "unknown key 'colour'")],
    ),
    (
        "unknown-key-with-suggestion",
        {"a.yaml": "creatures:\n  - id: ghoul\n    name: Ghoul\n    hp: 9\n    senses: {darkvison: 60}\n"},
        [("a.yaml", "creatures[0].senses.darkvison", 5, "did you mean 'darkvision'?")],
    ),
    (
        "wrong-type",
        {"a.yaml": "creatures:\n  - {id: a, name: A, hp: 3}\n  - {id: b, name: B, hp: 3}\n"
                   "  - id: c\n    name: C\n    hp: 4\n    attributes:\n      AGI: 1\n      MIG: lots\n"},
        [("a.yaml", "creatures[2].attributes.MIG", 9, "expected a whole number, not 'lots'")],
    ),
    (
        "bad-dice",
        {"a.yaml": "weapons:\n  - id: zapper\n    name: Zapper\n    kind: melee\n    damage: 1d\n"
                   "    damage_type: electric\n"},
        [("a.yaml", "weapons[0].damage", 5, "cannot read dice expression '1d'")],
    ),
    (
        "dice-with-type-tag",
        {"a.yaml": "weapons:\n  - {id: zap, name: Zap, kind: melee, damage: 1d6 fire, damage_type: fire}\n"},
        [("a.yaml", "weapons[0].damage", 2, "give the damage type in its own field")],
    ),
    (
        "bad-enum-with-suggestion",
        {"a.yaml": "weapons:\n  - id: axe\n    name: Axe\n    kind: melee\n    damage: 1d8\n"
                   "    damage_type: slashin\n"},
        [("a.yaml", "weapons[0].damage_type", 6, "did you mean 'slashing'?")],
    ),
    (
        "ranged-without-range",
        {"a.yaml": "weapons:\n  - id: bow\n    name: Bow\n    kind: ranged\n    damage: 1d6\n"
                   "    damage_type: piercing\n"},
        [("a.yaml", "weapons[0]", 2, "needs range_normal")],
    ),
    (
        "missing-required-field",
        {"a.yaml": "armor:\n  - id: vest\n    name: Vest\n    bonus: 2\n"},
        [("a.yaml", "armor[0].category", 2, "Field required")],
    ),
    (
        "duplicate-id-in-one-file",
        {"a.yaml": "weapons:\n" + SWORD + SWORD},
        [("a.yaml", "weapons[1].id", 3, "duplicate weapon id 'sword' (first defined at ")],
    ),
    (
        "duplicate-id-across-files",
        {"a.yaml": "weapons:\n" + SWORD, "b.yaml": "# more swords\nweapons:\n" + SWORD},
        [("b.yaml", "weapons[0].id", 3, "duplicate weapon id 'sword'")],
    ),
    (
        "unknown-weapon-reference",
        {"a.yaml": "weapons:\n" + SWORD, "b.yaml": "creatures:\n  - id: duelist\n    name: Duelist\n    hp: 9\n"
                                                   "    weapons: [sword, swrod]\n"},
        [("b.yaml", "creatures[0].weapons[1]", 5, "unknown weapon 'swrod'; did you mean 'sword'?")],
    ),
    (
        "unknown-armor-and-shield-reference",
        {"a.yaml": "creatures:\n  - id: knight\n    name: Knight\n    hp: 9\n    armor: plate\n    shield: kite\n"},
        [("a.yaml", "creatures[0].armor", 5, "unknown armor 'plate'"),
         ("a.yaml", "creatures[0].shield", 6, "unknown shield 'kite'")],
    ),
    (
        "yaml-syntax-error",
        {"a.yaml": "weapons:\n  - id: sword\n    name: [Sword\n"},
        [("a.yaml", "", 4, "YAML syntax")],
    ),
    (
        "duplicate-yaml-key",
        {"a.yaml": "weapons:\n  - id: sword\n    id: blade\n"},
        [("a.yaml", "weapons[0].id", 3, "duplicate key")],
    ),
    (
        "unknown-top-level-key",
        {"a.yaml": "weapon:\n" + SWORD},
        [("a.yaml", "weapon", 1, "did you mean 'weapons'?")],
    ),
    (
        "file-not-a-mapping",
        {"a.yaml": "- id: sword\n"},
        [("a.yaml", "", 1, "a content file is a mapping")],
    ),
    (
        "section-not-a-list",
        {"a.yaml": "weapons:\n  id: sword\n"},
        [("a.yaml", "weapons", 1, "weapons is a list of weapon entries")],
    ),
    (
        "badly-formed-id",
        {"a.yaml": "shields:\n  - {id: Big Shield, name: Big Shield, bonus: 2}\n"},
        [("a.yaml", "shields[0].id", 2, "lowercase words joined by hyphens")],
    ),
    (
        "natural-weapon-reuses-a-weapon-id",
        {"a.yaml": "weapons:\n" + SWORD + "creatures:\n  - id: m\n    name: M\n    hp: 3\n    weapons: [sword]\n"
                   "    natural_weapons:\n      - {id: sword, name: Arm Blade, kind: melee, damage: 1d6,"
                   " damage_type: slashing}\n"},
        [("a.yaml", "creatures[0].natural_weapons[0].id", 9, "already has a weapon with id 'sword'")],
    ),
    (
        "weapon-listed-twice",
        {"a.yaml": "weapons:\n" + SWORD + "creatures:\n  - {id: m, name: M, hp: 3, weapons: [sword, sword]}\n"},
        [("a.yaml", "creatures[0].weapons[1]", 4, "listed twice")],
    ),
    (
        "unknown-condition-immunity",
        {"a.yaml": "creatures:\n  - id: golem\n    name: Golem\n    hp: 30\n    condition_immunities: [posioned]\n"},
        [("a.yaml", "creatures[0].condition_immunities[0]", 5, "did you mean 'poisoned'")],
    ),
    (
        "unknown-weapon-proficiency",
        {"a.yaml": "creatures:\n  - {id: g, name: G, hp: 3, weapon_proficiencies: [simple, martail]}\n"},
        [("a.yaml", "creatures[0].weapon_proficiencies[1]", 2, "did you mean 'martial'")],
    ),
    (
        "save-key-misspelt",
        {"a.yaml": "creatures:\n  - id: g\n    name: G\n    hp: 3\n    saves:\n      wil: 2\n"},
        [("a.yaml", "creatures[0].saves.wil", 6, "did you mean 'will'")],
    ),
]


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")


def _where(problem: Problem, root: Path) -> tuple[str, str, int | None]:
    return (str(Path(problem.file).relative_to(root)), problem.path, problem.line)


@pytest.mark.parametrize(("files", "expected"), [(f, e) for _, f, e in CASES], ids=[c[0] for c in CASES])
def test_broken_file__problem_names_file_path_and_line(
    tmp_path: Path, files: dict[str, str], expected: list[tuple[str, str, int, str]]
) -> None:
    _write(tmp_path, files)
    with pytest.raises(InputError) as info:
        load_library(tmp_path)
    found = [(*_where(p, tmp_path), p.message) for p in info.value.problems]
    assert [f[:3] for f in found] == [e[:3] for e in expected], found
    for (_, _, _, message), (_, _, _, fragment) in zip(found, expected, strict=True):
        assert fragment in message


def test_duplicate_id__message_points_at_the_first_definition(tmp_path: Path) -> None:
    _write(tmp_path, {"a.yaml": "weapons:\n" + SWORD + SWORD})
    with pytest.raises(InputError) as info:
        load_library(tmp_path)
    assert info.value.problems[0].message.endswith(f"(first defined at {tmp_path / 'a.yaml'}:2)")


def test_many_problems_in_many_files__all_reported_in_file_and_line_order(tmp_path: Path) -> None:
    _write(tmp_path, {
        "a.yaml": "weapons:\n  - id: axe\n    name: Axe\n    kind: melee\n    damage: 1d\n    damage_type: slashin\n"
                  "    heft: 3\n",
        "b.yaml": "creatures:\n  - id: brute\n    name: Brute\n    hp: none\n    weapons: [axe, maul]\n"
                  "    armor: hide\n",
        "c.yaml": "shields: [\n",
    })
    with pytest.raises(InputError) as info:
        load_library(tmp_path)
    where = [_where(p, tmp_path) for p in info.value.problems]
    assert where == [
        ("a.yaml", "weapons[0].damage", 5),
        ("a.yaml", "weapons[0].damage_type", 6),
        ("a.yaml", "weapons[0].heft", 7),
        ("b.yaml", "creatures[0].hp", 4),
        ("b.yaml", "creatures[0].weapons[1]", 5),
        ("b.yaml", "creatures[0].armor", 6),
        ("c.yaml", "", 2),
    ]
    text = str(info.value)
    assert text.count("\n") == 6 and "b.yaml:5: creatures[0].weapons[1]: unknown weapon 'maul'" in text


def test_invalid_entry__still_counts_as_known_for_references(tmp_path: Path) -> None:
    # The axe is broken, but the creature that carries it is not blamed for it.
    _write(tmp_path, {"a.yaml": "weapons:\n  - {id: axe, name: Axe, kind: melee, damage: 1d, damage_type: slashing}\n"
                                "creatures:\n  - {id: brute, name: Brute, hp: 5, weapons: [axe]}\n"})
    with pytest.raises(InputError) as info:
        load_library(tmp_path)
    assert [p.path for p in info.value.problems] == ["weapons[0].damage"]


def test_error__nothing_is_returned_or_cached(tmp_path: Path) -> None:
    good = "shields:\n  - {id: lid, name: Lid, bonus: 1}\n"
    _write(tmp_path, {"good.yaml": good, "bad.yaml": "shields:\n  - {id: tray, name: Tray, bonus: -1}\n"})
    result: Library | None = None
    with pytest.raises(InputError):
        result = load_library(tmp_path)
    assert result is None
    (tmp_path / "bad.yaml").unlink()
    assert load_library(tmp_path).ids("shield") == ("lid",)


def test_missing_folder__is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such content folder"):
        load_library(tmp_path / "nope")


def test_missing_user_file__is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_content_file(tmp_path / "nope.yaml")


def test_text__problem_names_the_given_file() -> None:
    with pytest.raises(InputError) as info:
        library_from_text("creatures:\n  - {id: x, name: X}\n", "inline.yaml")
    assert [(p.file, p.path, p.line) for p in info.value.problems] == [("inline.yaml", "creatures[0].hp", 2)]
