"""Every whole-number ruleset option has a range, both presets lie inside it, and house rules outside it are refused.

Also: dice options stay bounded dice notation, and a misspelt option or section names what it may be a typo of.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from ashfall.files.yaml_marks import InputError
from ashfall.ruleset import Ruleset, option_rows, preset, ruleset_from_text
from ashfall.ruleset.ranges import EXPLICIT, GENERIC, OPTION_MAX_DICE, is_dice_default, range_of

ROWS = option_rows()
INT_ROWS = [r for r in ROWS if isinstance(r["ashfall-2"], int) and not isinstance(r["ashfall-2"], bool)]


def problems(text: str) -> list[str]:
    with pytest.raises(InputError) as info:
        ruleset_from_text(text, "house.yaml")
    return [str(p) for p in info.value.problems]


def one_option(section: str, option: str, value: Any) -> str:
    return f"base: ashfall-2\noptions:\n  {section}:\n    {option}: {value}\n"


def test_option_ranges__every_explicit_range_names_a_real_option() -> None:
    known = {r["option"] for r in ROWS}
    assert set(EXPLICIT) <= known, sorted(set(EXPLICIT) - known)


@pytest.mark.parametrize("edition", ["ashfall-2", "ashfall-1"])
def test_option_ranges__both_presets_lie_inside_every_range(edition: str) -> None:
    rs = preset(edition)
    for row in INT_ROWS:
        section, name = row["option"].split(".")
        value = getattr(getattr(rs, section), name)
        assert value in range_of(row["option"]), f"{row['option']} = {value} outside {range_of(row['option'])}"


def test_option_ranges__each_end_is_accepted_and_one_past_it_is_refused() -> None:
    base = Ruleset()
    for row in INT_ROWS:
        section, name = row["option"].split(".")
        model = type(getattr(base, section))
        allowed = range_of(row["option"])
        for edge in (allowed.lo, allowed.hi):
            assert getattr(model.model_validate({name: edge}), name) == edge, row["option"]
        for past in (allowed.lo - 1, allowed.hi + 1):
            with pytest.raises(ValidationError, match=f"{past} is out of range: allowed {allowed}"):
                model.model_validate({name: past})


def test_option_ranges__a_refused_option_names_the_file_path_and_line() -> None:
    (line,) = problems(one_option("turn", "actions_per_turn", 7))
    assert line == "house.yaml:4: options.turn.actions_per_turn: 7 is out of range: allowed 1 to 6"


@pytest.mark.parametrize("value, shown", [("true", "true"), ("'3'", "'3'"), ("2.0", "2.0"), ("null", "null")])
def test_option_ranges__a_whole_number_option_refuses_other_types(value: str, shown: str) -> None:
    (line,) = problems(one_option("turn", "actions_per_turn", value))
    assert line == f"house.yaml:4: options.turn.actions_per_turn: expected a whole number from 1 to 6, not {shown}"


def test_actions_per_turn__zero_is_refused_at_load_not_looped_in_the_engine() -> None:
    with pytest.raises(InputError, match="allowed 1 to 6"):
        Ruleset().with_options(turn={"actions_per_turn": 0})


def test_resistance_divisor__zero_is_refused_at_load_not_divided_by_mid_fight() -> None:
    with pytest.raises(InputError, match="allowed 1 to 10"):
        Ruleset().with_options(damage={"resistance_divisor": 0})


def test_option_ranges__an_option_without_a_rule_is_a_modifier_of_plus_or_minus_20() -> None:
    assert range_of("attack.flanking") == GENERIC
    assert str(GENERIC) == "-20 to 20"


def test_option_ranges__list_and_mapping_options_check_every_item() -> None:
    (line,) = problems(one_option("healing", "stim_costs", "[25, -1, 200]"))
    assert "-1 is out of range" in line
    (line,) = problems(one_option("attack", "fumble_table", "{21: drop}"))
    assert "21 is out of range: allowed 1 to 20" in line


@pytest.mark.parametrize("option, value, why", [
    ("attack.called_head_dice", f"{OPTION_MAX_DICE + 1}d6", f"an option may roll at most {OPTION_MAX_DICE}"),
    ("attack.called_head_dice", "2d6 fire", "give dice only, without a damage type"),
    ("hazards.gas_damage", "1d6", "give the dice and a damage type"),
    ("hazards.gas_damage", "1d6 banana", "give the dice and a damage type"),
    ("turn.deflect_dice", "lots", "cannot read dice expression"),
    ("attack.brace_damage", "1d1001", "at most 1000 faces"),
])
def test_dice_options__stay_bounded_dice_with_a_type_exactly_when_the_default_has_one(
        option: str, value: str, why: str) -> None:
    section, name = option.split(".")
    (line,) = problems(one_option(section, name, f"'{value}'"))
    assert why in line


def test_dice_options__the_edges_are_accepted() -> None:
    rs = ruleset_from_text(one_option("attack", "called_head_dice", f"{OPTION_MAX_DICE}d6"))
    assert rs.attack.called_head_dice == f"{OPTION_MAX_DICE}d6"
    assert ruleset_from_text(one_option("hazards", "gas_damage", "'2d6 acid'")).hazards.gas_damage == "2d6 acid"


@pytest.mark.parametrize("text, expected", [
    (one_option("turn", "reaction_per_round", 2), "did you mean 'reactions_per_round'"),
    ("base: ashfall-2\noptions:\n  defence: {}\n", "did you mean 'defense'?"),
    ("base: ashfall-2\noption: {}\n", "did you mean 'options'?"),
])
def test_house_rule_typo__suggests_the_close_name(text: str, expected: str) -> None:
    (line,) = problems(text)
    assert expected in line


def test_options_doc__shows_each_options_range() -> None:
    rows = {r["option"]: r for r in ROWS}
    assert rows["turn.actions_per_turn"]["range"] == "1 to 6"
    assert rows["healing.stim_costs"]["range"].endswith("(each)")
    assert rows["objects.fuel_damage"]["range"] == f"dice (at most {OPTION_MAX_DICE}) + damage type"
    assert all(r["range"] for r in INT_ROWS)


@pytest.mark.parametrize("option, value, why", [
    ("turn.diagonals", "diag", "expected one of five, alternating, not 'diag'"),
    ("turn.initiative_proficiency", "trained", "expected one of always, combat-trained"),
    ("healing.second_wind_adds", "MIG", "expected one of level, END"),
    ("psionics.psi_strike_type", "banana", "expected a damage type, not 'banana'"),
])
def test_word_options__refuse_words_the_rules_do_not_know(option: str, value: str, why: str) -> None:
    section, name = option.split(".")
    (line,) = problems(one_option(section, name, value))
    assert why in line


@pytest.mark.parametrize("key, why", [("edition", "choose it with base"), ("name", "give the name at the top level")])
def test_house_rule_options__edition_and_name_are_not_sections(key: str, why: str) -> None:
    (line,) = problems(f"base: ashfall-2\noptions:\n  {key}: 7\n")
    assert line.startswith(f"house.yaml:3: options.{key}: {key} is not an option section: {why}")


@pytest.mark.parametrize(("default", "dice"), [("1d6", True), ("d20", True), ("d%", True), ("2d6 fire", True),
                                               ("force", False), ("fire", False), ("3", False), ("", False),
                                               (4, False), (None, False)])
def test_is_dice_default__dice_exactly_when_the_text_rolls_a_die(default: object, dice: bool) -> None:
    # a word with no number is answered without the parser (no d20 import at start-up), the rest by parsing
    assert is_dice_default(default) is dice
