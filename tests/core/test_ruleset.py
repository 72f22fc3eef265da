"""Rulesets: the two edition presets, house-rule files, and their errors."""

import pytest

from ashfall.files.yaml_marks import InputError
from ashfall.ruleset import PRESETS, load_ruleset, option_rows, preset, ruleset_from_text
from ashfall.ruleset.sections import MapCounting, StabiliseBy


def test_presets__both_load_and_default_is_the_current_edition() -> None:
    assert preset().name == "ashfall-2" and preset().edition == 2
    assert preset("ashfall-1").edition == 1
    assert set(PRESETS) == {"ashfall-1", "ashfall-2"}


@pytest.mark.rule("E-01", "E-31", "E-30", "E-21")
def test_presets__edition_1_differs_exactly_by_its_legacy_overrides() -> None:
    ed1, ed2 = preset("ashfall-1"), preset("ashfall-2")
    assert ed1.attack.map_counting is MapCounting.PER_STRIKE_ACTION
    assert ed2.attack.map_counting is MapCounting.PER_ATTACK_ROLL
    assert ed1.dying.stabilise_by is StabiliseBy.HEALING_OR_MEDICINE_CHECK
    assert ed1.healing.second_wind_dice == "1d10" and ed2.healing.second_wind_dice == "2d10"
    assert ed1.turn.initiative_proficiency == "combat-trained"
    differing = [r for r in option_rows() if r["ashfall-1"] != r["ashfall-2"]]
    assert differing, "the editions must differ"
    # every difference cites an edition difference or the rule it changes
    assert all(r["rule"] for r in differing)


def test_presets__unknown_name_is_an_error_listing_the_choices() -> None:
    with pytest.raises(KeyError, match="ashfall-2"):
        preset("ashfall-3")


def test_house_rules__start_from_a_preset_and_override_options() -> None:
    rs = ruleset_from_text("base: ashfall-1\nname: gritty\noptions:\n  attack:\n    map_step: -4\n")
    assert rs.name == "gritty" and rs.edition == 1 and rs.attack.map_step == -4
    assert rs.attack.extra_attack is True  # the rest of edition 1 is kept


def test_house_rules__enum_options_accept_their_names_in_yaml() -> None:
    rs = ruleset_from_text("options:\n  defense:\n    cover_applies: all-attacks\n")
    assert rs.defense.cover_applies.name == "ALL_ATTACKS"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("options:\n  attack:\n    map_stepp: -2\n", "h.yaml:3: options.attack.map_stepp: unknown key 'map_stepp'"),
        ("options:\n  attack:\n    flanking: lots\n", "h.yaml:3: options.attack.flanking"),
        ("options:\n  atack: {}\n", "h.yaml:2: options.atack: unknown key"),
        ("base: ashfall-9\n", "h.yaml:1: base: unknown ruleset preset"),
        ("bogus: 1\n", "h.yaml:1: bogus: unknown key"),
        ("options: [1, 2\n", "YAML syntax"),
    ],
)
def test_house_rules__bad_keys_and_values_name_the_key_and_line(text: str, fragment: str) -> None:
    with pytest.raises(InputError) as err:
        ruleset_from_text(text, "h.yaml")
    assert fragment in str(err.value)


def test_house_rules__all_problems_are_reported_together() -> None:
    with pytest.raises(InputError) as err:
        ruleset_from_text("options:\n  attack:\n    map_stepp: -2\n    flanking: x\n", "h.yaml")
    assert len(err.value.problems) == 2


def test_load_ruleset__accepts_a_preset_name_or_a_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "house.yaml"
    path.write_text("options:\n  defense:\n    dv_base: 11\n")
    assert load_ruleset("ashfall-1").edition == 1
    assert load_ruleset(path).defense.dv_base == 11
    with pytest.raises(InputError, match="no such preset or file"):
        load_ruleset(tmp_path / "missing.yaml")


def test_with_options__rejects_unknown_options() -> None:
    with pytest.raises(InputError, match="unknown key"):
        preset().with_options(attack={"nope": 1})


def test_option_rows__every_option_cites_a_known_rule() -> None:
    from ashfall.core.rule_ids import catalog

    rows = option_rows()
    assert len(rows) > 50
    assert all(r["rule"] in catalog() for r in rows), [r for r in rows if r["rule"] not in catalog()]
