"""Variants by path: ``--vary`` parsing, schema checks with did-you-mean, and applying values to a fight."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from ashfall.encounters import load_encounter
from ashfall.files.yaml_marks import InputError
from ashfall.sim.variants import (
    VariantSetup,
    apply_variant,
    check_path,
    grid,
    parse_vary,
    variant_key,
    variant_seed,
)

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "encounters" / "duel.yaml"
BANDITS = ROOT / "encounters" / "bandit-band.yaml"


def test_parse_vary__range_with_step_includes_both_ends() -> None:
    vary = parse_vary("combatants.ogre.hp=30..60:5")
    assert vary.path == "combatants.ogre.hp"
    assert vary.values == (30, 35, 40, 45, 50, 55, 60)
    assert vary.is_range and vary.integral


def test_parse_vary__list_of_negative_numbers_and_words() -> None:
    assert parse_vary("ruleset.attack.map_step=-2,-3").values == (-2, -3)
    assert parse_vary("ruleset.attack.twf_schedule=strict-map").values == ("strict-map",)
    assert parse_vary("ruleset.attack.extra_attack=true,false").values == (True, False)


def test_parse_vary__decimal_range_has_no_float_drift() -> None:
    assert parse_vary("x=0.1..0.3:0.1").values == (0.1, 0.2, 0.3)


@pytest.mark.parametrize("bad", ["hp", "hp=", "=3", "hp=5..1", "hp=1..5:0", "hp=a..5", "hp=1,,2", "hp=1..2..3"])
def test_parse_vary__malformed_argument_is_an_error_naming_it(bad: str) -> None:
    with pytest.raises(ValueError, match="--vary"):
        parse_vary(bad)


def test_grid__product_of_axes_first_axis_slowest() -> None:
    axes = [parse_vary("a=1,2"), parse_vary("b=x,y")]
    assert grid(axes) == [(("a", 1), ("b", "x")), (("a", 1), ("b", "y")), (("a", 2), ("b", "x")),
                          (("a", 2), ("b", "y"))]


def test_variant_key_and_seed__do_not_depend_on_axis_order() -> None:
    one = (("a", 1), ("b", 2))
    other = (("b", 2), ("a", 1))
    assert variant_key(one) == variant_key(other)
    assert variant_seed(5, variant_key(one)) == variant_seed(5, variant_key(other))
    assert variant_seed(5, variant_key(one)) != variant_seed(6, variant_key(one))
    assert 0 <= variant_seed(5, "k") < 2**63


@pytest.mark.parametrize(("path", "hint"), [
    ("ruleset.map.second", "ruleset.attack.map_step"),
    ("combatants.champion.hpp", "combatants.champion.hp"),
    ("victory.round_limt", "victory.round_limit"),
])
def test_check_path__unknown_path_names_the_closest(path: str, hint: str) -> None:
    spec = load_encounter(DUEL)
    with pytest.raises(InputError, match="did you mean") as err:
        check_path(spec, path)
    assert hint in str(err.value)
    assert str(DUEL) in str(err.value)


def test_check_path__unknown_combatant_lists_the_ids() -> None:
    with pytest.raises(InputError, match=r"no combatant or creature 'ogre'.*champion"):
        check_path(load_encounter(DUEL), "combatants.ogre.hp")


def test_apply_variant__out_of_range_hp_gets_the_schemas_error() -> None:
    with pytest.raises(InputError, match="greater than or equal to 1"):
        apply_variant(load_encounter(DUEL), [("combatants.champion.hp", 0)])


def test_apply_variant__bad_ruleset_value_gets_the_schemas_error() -> None:
    with pytest.raises(InputError, match="expected a whole number"):
        apply_variant(load_encounter(DUEL), [("ruleset.attack.map_step", "x")])


def test_apply_variant__file_field_out_of_range_names_the_line() -> None:
    with pytest.raises(InputError) as err:
        apply_variant(load_encounter(DUEL), [("victory.round_limit", 0)])
    assert err.value.problems[0].line is not None


def test_apply_variant__one_combatant_gets_its_own_stat_block() -> None:
    spec = apply_variant(load_encounter(DUEL), [("combatants.champion.hp", 30)])
    hp = {e.id: e.creature.hp for e in spec.roster}
    assert hp == {"warrior": 52, "champion": 30}
    assert spec.library.creature("warrior").hp == 52


def test_apply_variant__creature_id_changes_every_combatant_of_it_keeping_its_id() -> None:
    spec = apply_variant(load_encounter(BANDITS), [("combatants.bandit.hp", 3)])
    bandits = [e for e in spec.roster if e.id.startswith("bandit-") and "leader" not in e.id]
    assert len(bandits) == 8
    assert {(e.creature.id, e.creature.hp) for e in bandits} == {("bandit", 3)}


def test_apply_variant__combatant_id_comes_before_creature_id() -> None:
    spec = apply_variant(load_encounter(DUEL), [("combatants.warrior.hp", 40)])
    assert {e.id: e.creature.hp for e in spec.roster} == {"warrior": 40, "champion": 52}


def test_apply_variant__ruleset_option_and_file_field_together() -> None:
    spec = apply_variant(load_encounter(DUEL), [("ruleset.attack.map_step", -2), ("victory.round_limit", 5)])
    assert spec.ruleset.attack.map_step == -2
    assert spec.round_limit == 5
    assert spec.ruleset.name == "ashfall-2"


def test_apply_variant__count_of_a_combatants_entry() -> None:
    base = load_encounter(BANDITS)
    entry = next(e for e in base.roster if e.creature.id == "bandit")
    spec = apply_variant(base, [("combatants.bandit.count", 1)])  # both entries of bandits: 2 + 3 -> 1 + 1
    assert sum(e.creature.id == entry.creature.id for e in spec.roster) == 2


def test_variant_setup__pickles_as_file_and_assignment_and_builds_the_variant() -> None:
    setup = VariantSetup(DUEL, (("combatants.champion.hp", 30),))
    copy = pickle.loads(pickle.dumps(setup))
    assert copy.assignment == setup.assignment
    fight = copy.build_fight(1)
    assert fight.engine.state.combatants["champion"].health.hp == 30
