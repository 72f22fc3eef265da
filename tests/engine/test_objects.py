"""Destructible objects in a fight: damage through Hardness, striking objects, cover they give and lose (OBJ, STC)."""

from __future__ import annotations

from typing import Any

import pytest

from ashfall.core.types import DamageType
from ashfall.encounters.building import build
from ashfall.encounters.loader import encounter_from_text
from ashfall.engine import Engine, Refused, Strike, StrikeObject
from ashfall.engine import events as ev
from ashfall.families.attacks.engine import cover_level
from ashfall.families.movement.moves import step_cost
from ashfall.families.objects.engine import damage_object, damage_objects_in_area, destroy_light_cover
from ashfall.files.yaml_marks import InputError
from ashfall.grid.areas import burst
from ashfall.grid.board import Board, CoverLevel
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import attack_of, dv_rules, fighter, of_type, script, started, weapon
from tests.engine.object_kit import QUIET, context, obj, place

B = DamageType.BLUDGEONING
P = DamageType.PIERCING
F = DamageType.FIRE


def duel(ruleset: Ruleset = QUIET, shooter: str = "raider-scout", target: str = "vanguard") -> Engine:
    """A shooter at (1, 2) and a target at (5, 2) on a 10 x 6 map, the shooter to act."""
    return started([fighter("s", "a", (1, 2), shooter), fighter("t", "b", (5, 2), target)], Board(10, 6),
                   ruleset=ruleset)


def hp(engine: Engine, obj_id: str) -> int:
    return engine.state.environment.objects[obj_id].hp


# ----- damage through the object ledger (OBJ-3..OBJ-10, X-06) -----


@pytest.mark.rule("OBJ-3", "OBJ-4", "OBJ-9")
@pytest.mark.parametrize(("amount", "left"), [(2, 10), (3, 10), (5, 8), (13, 0)],
                         ids=["less-than-hardness", "equal-to-hardness", "above", "breaks"])
def test_obj_4__hardness_stops_small_hits_and_comes_off_bigger_ones(amount: int, left: int) -> None:
    engine = duel()
    place(engine, obj("chain", "c", (3, 0)))
    damage_object(context(engine), "c", {B: amount}, source="s", label="hit")
    assert hp(engine, "c") == left
    assert engine.state.environment.objects["c"].broken is (left == 0)


@pytest.mark.rule("OBJ-8")
@pytest.mark.parametrize(("template", "left"), [("rope", 5 - 4 // 2), ("lantern", 0)], ids=["halved", "fragile"])
def test_obj_8__piercing_is_halved_against_objects_but_not_fragile_ones(template: str, left: int) -> None:
    engine = duel()
    place(engine, obj(template, "o", (3, 0)))
    damage_object(context(engine), "o", {P: 4}, source="s", label="hit")
    assert hp(engine, "o") == left


@pytest.mark.rule("OBJ-5", "X-06", "OBJ-10")
@pytest.mark.parametrize(("bypass", "template", "left"), [
    ("fire-electric-force", "metal-crate", 30 - 4),
    ("fire-on-flammable-only", "metal-crate", 30),
    ("fire-on-flammable-only", "wooden-barricade", 15 - 4),
], ids=["x-06-default-all-objects", "switch-not-flammable", "obj-10-flammable"])
def test_x_06__fire_ignores_hardness(bypass: str, template: str, left: int) -> None:
    engine = duel(QUIET.with_options(damage={"hardness_bypass": bypass}))
    place(engine, obj(template, "o", (3, 0)))
    damage_object(context(engine), "o", {F: 4}, source="s", label="fire")
    assert hp(engine, "o") == left


@pytest.mark.rule("OBJ-7")
def test_obj_7__psychic_and_poison_do_nothing_to_objects() -> None:
    engine = duel()
    place(engine, obj("table", "o", (3, 0)))
    damage_object(context(engine), "o", {DamageType.PSYCHIC: 8, DamageType.POISON: 8}, source="s", label="mind")
    assert hp(engine, "o") == 10


@pytest.mark.rule("OBJ-6", "OBJ-0")
def test_obj_6__objects_in_an_area_fail_their_reflex_save_and_take_it_all() -> None:
    engine = duel()
    place(engine, obj("table", "o", (3, 0)), obj("rope", "far", (9, 5)))
    damage_objects_in_area(context(engine), "s", burst((3, 1), 10), {B: 6}, "blast")
    hit = of_type(engine.log, ev.ObjectDamaged)
    assert [(e.object, e.amount, e.rule) for e in hit] == [("o", 6, "OBJ-6")]
    assert hp(engine, "far") == 5


@pytest.mark.rule("OBJ-11")
def test_obj_11__destroying_light_cover_breaks_every_object_of_15_hp_or_less() -> None:
    engine = duel()
    place(engine, obj("wooden-barricade", "bar", (3, 1)), obj("metal-crate", "crate", (3, 3)))
    destroy_light_cover(context(engine), "s", burst((3, 2), 15))
    objects = engine.state.environment.objects
    assert objects["bar"].broken and not objects["crate"].broken


# ----- striking an object (OBJ-1, OBJ-2, G-25) -----


@pytest.mark.rule("OBJ-1", "OBJ-2", "G-25", "OBJ-3", "OBJ-8")
def test_obj_1__a_strike_at_a_wooden_barricade_rolls_against_dv_10_and_hardness_comes_off() -> None:
    engine = started([fighter("r", "a", (1, 1), "raider"), fighter("b", "b", (8, 1), "bandit")], Board(10, 5),
                     ruleset=QUIET)
    place(engine, obj("wooden-barricade", "bar", (2, 1)))
    rng = script(engine, [(20, 7), (6, 6)])
    engine.submit(StrikeObject("r", "bar", "spear"))
    attack = attack_of(engine.log)
    assert (attack.target, attack.dv, dv_rules(attack)) == ("bar", 10, {"G-25": 10})
    assert attack.outcome == "hit" and attack.counts_for_map
    assert hp(engine, "bar") == 15 - (7 - 2) // 2  # 1d6 6 + MIG 1, Hardness 2, piercing halved (G-39 order)
    rng.assert_exhausted()


@pytest.mark.rule("OBJ-1")
def test_obj_1__a_miss_leaves_the_object_alone() -> None:
    engine = started([fighter("r", "a", (1, 1), "raider"), fighter("b", "b", (8, 1), "bandit")], Board(10, 5),
                     ruleset=QUIET)
    place(engine, obj("wooden-barricade", "bar", (2, 1)))
    script(engine, [(20, 2)])
    engine.submit(StrikeObject("r", "bar", "spear"))
    assert attack_of(engine.log).outcome == "miss" and hp(engine, "bar") == 15


@pytest.mark.parametrize(("intent", "why"), [
    (StrikeObject("r", "bar", "spear"), "ATK-1"),
    (StrikeObject("r", "nothing", "spear"), "OBJ-1"),
], ids=["out-of-reach", "no-such-object"])
@pytest.mark.rule("OBJ-1", "ATK-1")
def test_obj_1__striking_an_object_is_refused_out_of_reach_or_when_there_is_none(intent: Any, why: str) -> None:
    engine = started([fighter("r", "a", (1, 1), "raider"), fighter("b", "b", (8, 1), "bandit")], Board(10, 5),
                     ruleset=QUIET)
    place(engine, obj("wooden-barricade", "bar", (5, 1)))
    with pytest.raises(Refused) as err:
        engine.submit(intent)
    assert err.value.rule == why


@pytest.mark.rule("E-36")
def test_e_36__edition_1_has_no_object_fights() -> None:
    engine = started([fighter("r", "a", (1, 1), "raider"), fighter("b", "b", (8, 1), "bandit")], Board(10, 5),
                     ruleset=preset("ashfall-1"))
    place(engine, obj("wooden-barricade", "bar", (2, 1)))
    with pytest.raises(Refused) as err:
        engine.submit(StrikeObject("r", "bar", "spear"))
    assert err.value.rule == "E-36"


# ----- cover from objects, and shooting through it (STC-2..11, G-39) -----


@pytest.mark.rule("COV-1", "STC-3", "STC-10")
def test_stc_10__an_intact_object_gives_cover_and_a_broken_one_none() -> None:
    engine = duel()
    place(engine, obj("wooden-barricade", "bar", (4, 2)))
    s, t = engine.state.get("s"), engine.state.get("t")
    assert cover_level(engine.state, s, t) is CoverLevel.PARTIAL
    engine.state.environment.objects["bar"].broken = True
    assert cover_level(engine.state, s, t) is CoverLevel.NONE


@pytest.mark.rule("STC-11", "G-39", "STC-10", "STC-3")
def test_stc_11__shooting_through_a_wooden_barricade_damages_it_and_breaking_it_removes_the_cover() -> None:
    engine = duel()
    place(engine, obj("wooden-barricade", "bar", (4, 2), hp=4))
    script(engine, [(20, 15), (10, 10)])
    engine.submit(Strike("s", "t", "hunting-rifle"))
    first = attack_of(engine.log)
    assert dv_rules(first).get("COV-1") == 2
    hit = of_type(engine.log, ev.ObjectDamaged)
    assert [(e.object, e.amount, e.rule) for e in hit] == [("bar", 4, "STC-11")]  # (10 - 2) // 2 = 4: broken
    broken = of_type(engine.log, ev.ObjectDestroyed)
    assert [(e.object, e.exposed) for e in broken] == [("bar", ("s", "t"))]  # it covered both ways
    n = len(engine.log)
    script(engine, [(20, 15), (10, 1)])
    engine.submit(Strike("s", "t", "hunting-rifle"))
    assert "COV-1" not in dv_rules(attack_of(engine.log[n:]))


@pytest.mark.rule("STC-11", "G-39")
def test_g_39__a_miss_through_destructible_cover_does_not_damage_it() -> None:
    engine = duel()
    place(engine, obj("wooden-barricade", "bar", (4, 2)))
    script(engine, [(20, 2)])
    engine.submit(Strike("s", "t", "hunting-rifle"))
    assert attack_of(engine.log).outcome == "miss" and hp(engine, "bar") == 15
    assert not of_type(engine.log, ev.ObjectDamaged)


@pytest.mark.rule("STC-1", "STC-2", "STC-11")
def test_stc_2__a_heavy_weapon_ignores_light_cover_and_still_damages_it() -> None:
    engine = started([fighter("g", "a", (1, 2), "automated-turret"), fighter("t", "b", (5, 2), "vanguard")],
                     Board(10, 6), ruleset=QUIET)
    place(engine, obj("wooden-barricade", "bar", (4, 2)))
    script(engine, [(20, 15), (10, 10)])
    engine.submit(Strike("g", "t", "light-machine-gun"))
    attack = attack_of(engine.log)
    assert "COV-1" not in dv_rules(attack)
    assert hp(engine, "bar") == 15 - (10 - 2) // 2


@pytest.mark.rule("STC-4", "STC-7", "COV-2")
@pytest.mark.parametrize(("shooter", "weapon", "rule_id", "bonus"), [
    ("raider-scout", "hunting-rifle", "COV-2", 5),
    ("automated-turret", "light-machine-gun", "STC-4", 2),
], ids=["stc-7-standard", "stc-4-heavy"])
def test_stc_4__a_metal_crate_is_heavy_cover_that_heavy_weapons_reduce_to_light(shooter: str, weapon: str,
                                                                               rule_id: str, bonus: int) -> None:
    engine = duel(shooter=shooter)
    place(engine, obj("metal-crate", "crate", (4, 2)))
    script(engine, [(20, 1)])
    engine.submit(Strike("s", "t", weapon))
    assert dv_rules(attack_of(engine.log)).get(rule_id) == bonus


@pytest.mark.rule("STC-6", "STC-11", "X-14")
def test_stc_6__an_explosive_goes_around_destructible_cover_and_leaves_it_whole() -> None:
    engine = duel()
    engine.state.get("s").weapons = (weapon("grenade-launcher"),)
    place(engine, obj("wooden-barricade", "bar", (4, 2)))
    script(engine, [(20, 15), (6, 3), (6, 3), (6, 3)])
    engine.submit(Strike("s", "t", "grenade-launcher"))
    assert attack_of(engine.log).outcome == "hit"
    assert hp(engine, "bar") == 15


# ----- encounter files place objects (OBJ-1, CHN-0) -----

DEPOT = """
name: depot
map:
  rows:
    - "A.&..*"
    - "A.&..B"
sides: [{name: a}, {name: b}]
combatants:
  - {creature: raider-scout, side: a, zone: A, count: 2}
  - {creature: raider, side: b, zone: B}
objects:
  - {object: wooden-barricade, legend: "&"}
  - {object: fuel-barrel, legend: "*"}
  - {object: support-column, at: [4, 1], id: pillar}
"""


@pytest.mark.rule("CHN-0", "OBJ-1", "EX-1", "G-25")
def test_chn_0__an_encounter_file_places_objects_from_the_library() -> None:
    engine, _ = build(encounter_from_text(DEPOT, "depot.yaml"))
    objects = engine.state.environment.objects
    assert sorted(objects) == ["fuel-barrel-1", "pillar", "wooden-barricade-1", "wooden-barricade-2"]
    barrel = objects["fuel-barrel-1"]
    assert (barrel.squares, barrel.hp, barrel.dv, barrel.chain) == (((5, 0),), 10, 10, "fuel")
    assert objects["pillar"].cover == "heavy" and objects["wooden-barricade-2"].squares == ((2, 1),)


@pytest.mark.rule("OBJ-1")
@pytest.mark.parametrize(("entry", "message"), [
    ("{object: fuel-barel, at: [1, 1]}", "did you mean 'fuel-barrel'"),
    ("{object: table, at: [9, 9]}", "off the map"),
    ("{object: table, legend: '@'}", "draws no square"),
    ("{object: rope, at: [1, 0], holds: lamp}", "no object 'lamp'"),
], ids=["unknown-object", "off-map", "legend-not-drawn", "holds-nothing"])
def test_obj_1__an_encounter_file_with_a_bad_object_is_refused_naming_the_line(entry: str, message: str) -> None:
    text = DEPOT.replace('  - {object: support-column, at: [4, 1], id: pillar}', f"  - {entry}")
    with pytest.raises(InputError) as err:
        encounter_from_text(text, "depot.yaml")
    assert any(message in p.message and p.line == 14 for p in err.value.problems), err.value.problems


@pytest.mark.rule("OBJ-1", "MOV-5")
def test_obj_1__a_creature_cannot_be_placed_or_step_where_an_object_fills_the_square() -> None:
    text = DEPOT.replace("  - {object: support-column, at: [4, 1], id: pillar}",
                         "  - {object: metal-crate, at: [5, 1]}")
    with pytest.raises(InputError) as err:
        encounter_from_text(text, "depot.yaml")
    assert any("where the Metal Crate stands" in p.message for p in err.value.problems)
    engine = duel()
    place(engine, obj("metal-crate", "crate", (2, 2)), obj("table", "table", (1, 3)))
    assert step_cost(engine.state, (1, 2), (2, 2), 0) is None
    assert step_cost(engine.state, (1, 2), (1, 3), 0) == 5
