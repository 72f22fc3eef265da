"""The shipped library loads, is frozen, and looks entries up with helpful errors."""

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import ashfall
from ashfall.content.library import KINDS, Library, UnknownIdError
from ashfall.content.loader import (
    default_library,
    extended_library,
    library_from_text,
    library_root,
    load_content_file,
    load_content_files,
    load_library,
)
from ashfall.files.yaml_marks import InputError

REPO = Path(__file__).resolve().parents[2]


def test_library_root__is_the_checkouts_content_folder() -> None:
    assert library_root() == REPO / "content"
    assert library_root() == Path(ashfall.__file__).resolve().parents[2] / "content"


def test_library_root__outside_a_checkout_is_the_packaged_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "lib" / "python3" / "site-packages" / "ashfall"
    (package / "_content").mkdir(parents=True)
    monkeypatch.setattr(ashfall, "__file__", str(package / "__init__.py"))
    assert library_root() == package / "_content"


def test_shipped_library__loads_with_enough_creatures_and_weapons() -> None:
    lib = load_library()
    assert len(lib.creatures()) >= 12
    assert len(lib.weapons()) >= 15
    assert len(lib.armors()) >= 3
    assert len(lib.shields()) >= 1


def test_shipped_library__has_no_keep_file_and_only_yaml() -> None:
    assert not (REPO / "content" / ".keep").exists()
    files = [p for p in (REPO / "content").rglob("*") if p.is_file()]
    assert files and all(p.suffix == ".yaml" for p in files)


def test_shipped_library__every_creature_resolves_its_gear() -> None:
    lib = default_library()
    for creature in lib.creatures():
        weapons = lib.weapons_of(creature)
        assert weapons, f"{creature.id} has no weapons"
        assert [w.id for w in weapons[: len(creature.weapons)]] == list(creature.weapons)
        lib.armor_of(creature)
        lib.shield_of(creature)


def test_shipped_library__every_entry_records_its_file_and_line() -> None:
    lib = default_library()
    for kind in KINDS:
        for entry_id in lib.ids(kind):
            origin = lib.origin(kind, entry_id)
            assert origin is not None and origin.file.endswith(".yaml") and origin.line


def test_default_library__is_loaded_once() -> None:
    assert default_library() is default_library()


def test_creatures__sorted_by_id() -> None:
    ids = [c.id for c in default_library().creatures()]
    assert ids == sorted(ids)


@pytest.mark.parametrize(
    ("lookup", "wanted", "suggestion"),
    [
        ("creature", "bandit-leadr", "bandit-leader"),
        ("weapon", "salvaged-swrod", "salvaged-sword"),
        ("armor", "combat-plait", "combat-plate"),
        ("shield", "riot-sheild", "riot-shield"),
    ],
)
def test_lookup__unknown_id_raises_key_error_listing_close_matches(lookup: str, wanted: str, suggestion: str) -> None:
    with pytest.raises(KeyError) as info:
        getattr(default_library(), lookup)(wanted)
    assert isinstance(info.value, UnknownIdError)
    assert suggestion in info.value.suggestions
    assert f"did you mean {suggestion!r}" in str(info.value)


def test_lookup__nothing_close__no_suggestion() -> None:
    with pytest.raises(UnknownIdError) as info:
        default_library().creature("zzzzzz")
    assert info.value.suggestions == ()
    assert str(info.value) == "no creature 'zzzzzz' in the library"


def test_library__is_frozen() -> None:
    lib = default_library()
    with pytest.raises(FrozenInstanceError):
        lib.creature_map = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        lib.creature_map["x"] = lib.creature("raider")  # type: ignore[index]


def test_weapon_of__finds_library_and_natural_weapons() -> None:
    lib = default_library()
    assert lib.weapon_of(lib.creature("warrior"), "greataxe").damage == "1d12"
    assert lib.weapon_of(lib.creature("mutant"), "claws").damage == "1d6"
    with pytest.raises(UnknownIdError):
        lib.weapon_of(lib.creature("mutant"), "greataxe")


USER_FILE = """\
weapons:
  - {id: nail-gun, name: Nail Gun, kind: ranged, damage: 1d6, damage_type: piercing, range_normal: 30}
creatures:
  - id: scrapper
    name: Scrapper
    hp: 8
    armor: scrap-leathers
    weapons: [nail-gun, combat-knife]
"""


def test_user_file__adds_to_default_library_and_uses_its_gear(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(USER_FILE)
    fragment = load_content_file(path)
    assert [c.id for c in fragment.creatures()] == ["scrapper"]
    assert not fragment.has("weapon", "combat-knife")
    both = extended_library([path])
    assert [w.id for w in both.weapons_of(both.creature("scrapper"))] == ["nail-gun", "combat-knife"]
    assert both.has("creature", "raider") and len(both) == len(default_library()) + 2


def test_user_files__may_refer_to_each_other(tmp_path: Path) -> None:
    (tmp_path / "gear.yaml").write_text("armor:\n  - {id: tin-suit, name: Tin Suit, category: light, bonus: 1}\n")
    (tmp_path / "people.yaml").write_text("creatures:\n  - {id: tinman, name: Tinman, hp: 5, armor: tin-suit}\n")
    fragment = load_content_files([tmp_path / "people.yaml", tmp_path / "gear.yaml"])
    assert fragment.armor_of(fragment.creature("tinman")) == fragment.armor("tin-suit")


def test_user_file__ids_may_not_clash_with_the_library() -> None:
    text = ("weapons:\n  - {id: pistol, name: My Pistol, kind: ranged, damage: 1d4, damage_type: piercing,"
            " range_normal: 5}\n")
    with pytest.raises(InputError) as info:
        library_from_text(text, "mine.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.path, problem.line) == ("mine.yaml", "weapons[0].id", 2)
    assert "already in the library" in problem.message and "ranged.yaml" in problem.message


def test_merge__clash_is_an_input_error() -> None:
    lib = default_library()
    extra = Library(weapon_map={"pistol": lib.weapon("pistol")})
    with pytest.raises(InputError, match="weapon id 'pistol' is already defined"):
        lib.merge(extra)


def test_merge__without_clash_keeps_both() -> None:
    lib = default_library()
    fragment = library_from_text("shields:\n  - {id: trash-lid, name: Trash Lid, bonus: 1}\n")
    merged = lib.merge(fragment)
    assert merged.shield("trash-lid").bonus == 1 and merged.shield("riot-shield").bonus == 2
    assert not lib.has("shield", "trash-lid")


def test_load_library__other_root(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.yml").write_text("shields:\n  - {id: lid, name: Lid, bonus: 1}\n")
    (tmp_path / ".hidden.yaml").write_text("this: is ignored\n")
    (tmp_path / "empty.yaml").write_text("# nothing yet\n")
    lib = load_library(tmp_path)
    assert lib.ids("shield") == ("lid",) and len(lib) == 1


def test_user_folder__every_file_in_it_is_loaded(tmp_path: Path) -> None:
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "a.yaml").write_text("shields:\n  - {id: lid, name: Lid, bonus: 1}\n")
    (tmp_path / "mods" / "b.yaml").write_text("creatures:\n  - {id: binman, name: Binman, hp: 4, shield: lid}\n")
    merged = extended_library([tmp_path / "mods"])
    assert merged.shield_of(merged.creature("binman")) == merged.shield("lid")
