"""Underwater combat as pure rules (UW-1..29, X-03, X-24, G-27, G-28, E-42); mounted and vehicle rules (MNT, VEH)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.loader import default_library
from ashfall.content.schema import AirSupply, Armor, ArmorCategory, Creature, VehicleProfile, Weapon
from ashfall.core.rule_ids import rule
from ashfall.core.types import DamageType, Size
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.mounted.rules import fall_damage, mount_down_dc, mounted_attack
from ashfall.families.underwater import rules as uw
from ashfall.families.vehicles.rules import DamageTrack, damage_track, hull, passenger_source, ram_damage
from ashfall.rules.damage import apply_damage
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import LedgerStep
from ashfall.rules.health import Health
from ashfall.ruleset import preset

ED2, ED1 = preset("ashfall-2"), preset("ashfall-1")
LIB = default_library()


def creature(**changes: object) -> Creature:
    return Creature.model_validate({"id": "probe", "name": "Probe", "hp": 10, **changes})


def swimmer() -> Creature:
    return creature(speeds=creature().speeds.model_copy(update={"swim": 30}))


def sources_of(found: uw.UnderwaterAttack) -> list[str]:
    return [s.rule for s in found.sources]


# ----- breath (UW-1..6) -----


@pytest.mark.rule("UW-1")
@pytest.mark.parametrize(("end", "proficiency", "rounds"), [(0, 2, 3), (-2, 2, 3), (1, 2, 3), (2, 2, 4), (4, 3, 7)],
                         ids=["min-3", "negative-end", "exactly-3", "four", "seven"])
def test_uw_1__breath_is_end_plus_proficiency_minimum_3(end: int, proficiency: int, rounds: int) -> None:
    c = creature(attributes={"END": end}, proficiency=proficiency)
    assert uw.breath_rounds(c, ED2) == rounds


@pytest.mark.rule("UW-3")
@pytest.mark.parametrize(("damage", "attack_actions", "sprinted", "extra"), [
    (False, 0, False, 0), (True, 0, False, 1), (False, 2, False, 1), (False, 1, False, 0), (False, 0, True, 1),
    (True, 3, True, 1),
], ids=["calm", "took-damage", "two-attack-actions", "one-attack-action", "sprinted", "all-three-capped-at-one"])
def test_uw_3__a_strenuous_turn_costs_one_extra_round_at_most(damage: bool, attack_actions: int, sprinted: bool,
                                                               extra: int) -> None:
    assert uw.strenuous(damage, attack_actions, sprinted, ED2).extra == extra


@pytest.mark.rule("UW-3")
def test_uw_3__uncapped_ruling_counts_each_activity() -> None:
    rs = ED2.with_options(underwater={"strenuous_max_per_turn": 3})
    assert uw.strenuous(True, 2, True, rs).extra == 3


@pytest.mark.rule("UW-2", "UW-4")
def test_uw_4__breath_runs_out_after_the_last_round() -> None:
    calm = uw.Strenuous(0, ())
    assert uw.breath_after_turn(2, calm) == uw.BreathTick(1, 1, False)
    assert uw.breath_after_turn(1, calm) == uw.BreathTick(0, 1, True)
    assert uw.breath_after_turn(1, uw.Strenuous(1, ("sprinted",))) == uw.BreathTick(0, 2, True)


@given(st.integers(0, 20), st.integers(0, 3))
def test_uw_1__breath_never_goes_below_zero(left: int, extra: int) -> None:
    tick = uw.breath_after_turn(left, uw.Strenuous(extra, ()))
    assert 0 <= tick.rounds_left <= left and tick.out_of_breath == (tick.rounds_left == 0)


@pytest.mark.rule("UW-5", "UW-6", "UW-7", "UW-1")
@pytest.mark.parametrize(("supply", "machine", "used", "why"), [
    (AirSupply.REBREATHER, False, 0, "UW-5"), (AirSupply.REBREATHER, False, 299, "UW-5"),
    (AirSupply.REBREATHER, False, 300, None), (AirSupply.SEALED_HELMET, False, 599, "UW-5"),
    (AirSupply.SEALED_ENVIRONMENT, False, 4799, "UW-5"), (AirSupply.BIOLOGICAL_REPURPOSER, False, 10**6, "UW-6"),
    (AirSupply.GILLS, False, 10**6, "UW-7"), (None, True, 0, "UW-1"), (None, False, 0, None),
], ids=["rebreather", "rebreather-last-round", "rebreather-spent", "helmet", "sealed-environment", "repurposer",
        "gills", "machine", "nothing"])
def test_uw_5__sealed_gear_lasts_its_air_and_the_repurposer_forever(supply: AirSupply | None, machine: bool,
                                                                   used: int, why: str | None) -> None:
    assert uw.breathes_freely(creature(air_supply=supply, machine=machine), used, ED2) == why


@pytest.mark.rule("UW-27", "UW-28")
def test_uw_27__without_a_way_to_breathe_no_speech_and_no_verbal_spells() -> None:
    assert uw.can_speak(creature(air_supply=AirSupply.REBREATHER), 0, ED2) is None
    assert uw.can_speak(creature(), 0, ED2) == "UW-27"
    assert uw.verbal_spell_blocked(True, rule("UW-27")) == "UW-28"
    assert uw.verbal_spell_blocked(False, rule("UW-27")) is None  # no verbal component: psionics, telepathy


# ----- movement (UW-7..11, X-03) -----


@pytest.mark.rule("UW-7", "UW-8", "X-03")
def test_uw_8__water_costs_double_without_a_swim_speed() -> None:
    assert uw.water_cost(creature(), ED2) == (2, "UW-8")
    assert uw.water_cost(swimmer(), ED2)[0] == 1
    assert uw.water_cost(creature(), ED2.with_options(turn={"water_cost": 3}))[0] == 3


@pytest.mark.rule("UW-9", "UW-10", "UW-11")
@pytest.mark.parametrize(("category", "disadvantage", "sinks"), [
    (None, False, 0), (ArmorCategory.LIGHT, False, 0), (ArmorCategory.MEDIUM, False, 0),
    (ArmorCategory.HEAVY, True, 10),
], ids=["none", "light", "medium-no-penalty-uw-11", "heavy-uw-10"])
def test_uw_10__heavy_armor_swims_at_disadvantage_and_sinks(category: ArmorCategory | None, disadvantage: bool,
                                                            sinks: int) -> None:
    armor = Armor(id="a", name="a", category=category, bonus=1) if category else None
    assert bool(uw.swim_sources(armor)) == disadvantage
    assert uw.sinks_ft(armor, swam=False, ruleset=ED2) == sinks
    assert uw.sinks_ft(armor, swam=True, ruleset=ED2) == 0
    assert uw.vertical_dc(ED2).total == 10
    assert uw.needs_vertical_check(creature()) and not uw.needs_vertical_check(swimmer())


# ----- attacks (UW-12..19, X-24, E-42) -----


@pytest.mark.rule("UW-12", "UW-13", "UW-14", "UW-15", "X-24")
@pytest.mark.parametrize(("weapon_id", "mode", "swims", "expected"), [
    ("spear", AttackMode.MELEE, False, []),
    ("combat-knife", AttackMode.MELEE, False, []),
    ("salvaged-sword", AttackMode.MELEE, False, ["UW-13"]),
    ("sledgehammer", AttackMode.MELEE, False, ["UW-13"]),
    ("salvaged-sword", AttackMode.MELEE, True, []),
    (None, AttackMode.UNARMED, False, ["UW-15"]),
    (None, AttackMode.UNARMED, True, []),
], ids=["uw_12-piercing-fine", "uw_12-knife", "uw_13-slashing-disadvantage", "uw_13-bludgeoning",
        "x_24-swim-speed-exempt", "uw_15-unarmed", "uw_15-unarmed-swimmer"])
def test_uw_13__melee_by_damage_type_and_swim_speed(weapon_id: str | None, mode: AttackMode, swims: bool,
                                                    expected: list[str]) -> None:
    weapon = LIB.weapon(weapon_id) if weapon_id else None
    found = uw.underwater_attack(swimmer() if swims else creature(), weapon, mode, 5, ED2)
    assert sources_of(found) == expected and found.auto_miss is None


@pytest.mark.rule("UW-14", "E-42")
def test_uw_14__natural_weapons_work_normally__edition_1_follows_damage_type() -> None:
    claws = LIB.weapon_of(LIB.creature("mutant"), "claws")
    assert sources_of(uw.underwater_attack(creature(), claws, AttackMode.NATURAL, 5, ED2)) == []
    assert uw.underwater_attack(creature(), claws, AttackMode.NATURAL, 5, ED2).notes == ("UW-14",)
    assert sources_of(uw.underwater_attack(creature(), claws, AttackMode.NATURAL, 5, ED1)) == ["UW-13"]


@pytest.mark.rule("UW-16", "UW-17", "E-42")
@pytest.mark.parametrize(("distance", "ruleset", "miss", "expected"), [
    (30, ED2, None, ["UW-17"]), (50, ED2, None, ["UW-17"]), (55, ED2, "UW-16", []), (30, ED1, None, []),
    (55, ED1, "UW-16", []), (None, ED2, None, ["UW-17"]),
], ids=["within", "at-normal", "uw_16-beyond", "e_42-edition-1-within", "e_42-edition-1-beyond", "off-map"])
def test_uw_16__ranged_misses_beyond_normal_range_and_is_at_disadvantage_within(
        distance: int | None, ruleset: object, miss: str | None, expected: list[str]) -> None:
    pistol = LIB.weapon("pistol")
    assert pistol.range_normal == 50
    found = uw.underwater_attack(creature(), pistol, AttackMode.RANGED, distance, ruleset)  # type: ignore[arg-type]
    assert found.auto_miss == miss and sources_of(found) == expected


@pytest.mark.rule("UW-18", "UW-19")
def test_uw_18__thrown_weapons_follow_melee_rules_and_spells_are_normal() -> None:
    javelin = LIB.weapon("javelin")
    assert javelin.damage_type is DamageType.PIERCING
    far = uw.underwater_attack(creature(), javelin, AttackMode.THROWN, 200, ED2)
    assert far.auto_miss is None and sources_of(far) == []
    club = Weapon(id="club", name="Club", kind="melee", damage="1d6", damage_type=DamageType.BLUDGEONING,
                  properties={"thrown"}, range_normal=20)
    assert sources_of(uw.underwater_attack(creature(), club, AttackMode.THROWN, 10, ED2)) == ["UW-18"]
    spell = uw.underwater_attack(creature(), None, AttackMode.SPELL, 500, ED2)
    assert spell == uw.UnderwaterAttack(notes=(rule("UW-19"),))


# ----- damage (UW-20..23, G-27, G-28, G-39) -----


def ledger(amounts: dict[DamageType, int], adjusters: tuple[object, ...]) -> tuple[int, list[tuple[str, str]]]:
    result = apply_damage(Health.full(100), amounts, Defenses(), ED2, environment=adjusters)  # type: ignore[arg-type]
    return result.total, [(r.step.value, r.rule) for r in result.rows if r.step is LedgerStep.ENVIRONMENT]


@pytest.mark.rule("UW-20", "G-39")
@pytest.mark.parametrize(("amount", "after"), [(9, 4), (10, 5), (1, 0)], ids=["odd-rounds-down", "even", "one"])
def test_uw_20__fire_is_halved_rounding_down(amount: int, after: int) -> None:
    adj = uw.adjusters([DamageType.FIRE], None, ED2)
    assert ledger({DamageType.FIRE: amount, DamageType.PIERCING: 3}, adj) == (after + 3, [("environment", "UW-20")])


@pytest.mark.rule("UW-23", "G-27")
def test_uw_23__thunder_deals_the_rolled_extra() -> None:
    assert DamageType.parse("thunder") is DamageType.SONIC
    assert str(uw.thunder_dice(ED2)) == "1d6"
    adj = uw.adjusters([DamageType.SONIC], 4, ED2)
    assert ledger({DamageType.SONIC: 5}, adj) == (9, [("environment", "UW-23")])
    assert uw.adjusters([DamageType.COLD], 4, ED2) == ()


@pytest.mark.rule("UW-21", "UW-22", "G-28", "E-42")
def test_uw_22__cold_and_electric_spread__edition_1_both_5_ft_without_a_save() -> None:
    cold, electric = uw.spread_of(DamageType.COLD, ED2), uw.spread_of(DamageType.ELECTRIC, ED2)
    assert cold is not None and (cold.radius_ft, cold.save, cold.rule) == (5, False, "UW-21")
    assert electric is not None and (electric.radius_ft, electric.save, electric.rule) == (10, True, "UW-22")
    old = uw.spread_of(DamageType.ELECTRIC, ED1)
    assert old is not None and (old.radius_ft, old.save) == (5, False)
    assert uw.spread_of(DamageType.FIRE, ED2) is None


@pytest.mark.rule("UW-22", "G-28")
def test_g_28__spread_dc_is_the_original_dc_or_8_plus_attribute_plus_proficiency() -> None:
    assert uw.spread_dc(14, "", 0, 0, ED2).total == 14
    formula = uw.spread_dc(None, "AGI", 3, 2, ED2)
    assert formula.total == 13 and formula.rule == "G-28"
    assert (uw.spread_amount(9, True, ED2), uw.spread_amount(9, False, ED2)) == (4, 9)


# ----- sight (UW-24..26, VIS-12, G-24) -----


@pytest.mark.rule("UW-24", "UW-25", "UW-26", "VIS-12", "G-24")
@pytest.mark.parametrize(("water", "distance", "level", "dark"), [
    (uw.WaterClarity.CLEAR, 60, uw.Obscured.NONE, False), (uw.WaterClarity.CLEAR, 65, uw.Obscured.LIGHT, False),
    (uw.WaterClarity.MURKY, 15, uw.Obscured.NONE, False), (uw.WaterClarity.MURKY, 20, uw.Obscured.HEAVY, False),
    (uw.WaterClarity.DARK, 5, uw.Obscured.HEAVY, True),
], ids=["uw_24-clear-60", "uw_24-clear-beyond", "uw_25-murky-15", "uw_25-murky-beyond", "uw_26-dark"])
def test_uw_24__water_visibility(water: uw.WaterClarity, distance: int, level: uw.Obscured, dark: bool) -> None:
    sight = uw.water_sight(water, distance, ED2)
    assert (sight.obscured, sight.darkness) == (level, dark)


@pytest.mark.rule("UW-25", "UW-26", "VIS-12", "G-24")
def test_uw_25__murky_water_costs_5_passive_perception_and_darkvision_halves() -> None:
    assert [m.value for m in uw.passive_perception_modifiers(uw.WaterClarity.MURKY, ED2)] == [-5]
    assert uw.passive_perception_modifiers(uw.WaterClarity.CLEAR, ED2) == ()
    assert uw.passive_perception_modifiers(None, ED2) == ()
    assert uw.darkvision_underwater(60, ED2) == 30


# ----- mounted (MNT-5..9) and vehicles (VEH-4, VEH-5, E-43) -----


@pytest.mark.rule("MNT-5", "MNT-6")
@pytest.mark.parametrize(("target", "mounted", "melee", "bonus", "advantage"), [
    (Size.MEDIUM, False, True, 1, True), (Size.LARGE, False, True, 1, False), (Size.MEDIUM, True, True, 0, False),
    (Size.MEDIUM, False, False, 0, False),
], ids=["smaller-unmounted", "same-size-unmounted", "mounted-target", "ranged"])
def test_mnt_6__plus_1_vs_unmounted_and_advantage_vs_smaller(target: Size, mounted: bool, melee: bool, bonus: int,
                                                            advantage: bool) -> None:
    found = mounted_attack(Size.LARGE, target, mounted, melee, ED2)
    assert sum(m.value for m in found.modifiers) == bonus
    assert bool(found.sources) == advantage


@pytest.mark.rule("MNT-7", "MNT-9")
def test_mnt_7__falling_is_1d6_and_the_mount_down_save_is_dc_15() -> None:
    (part,) = fall_damage(ED2)
    assert (str(part.dice).split()[0], part.type, part.rule) == ("1d6", DamageType.BLUDGEONING, "MNT-7")
    assert mount_down_dc(ED2).total == 15


@pytest.mark.rule("VEH-4")
@pytest.mark.parametrize(("hp", "track"), [(40, DamageTrack.OPERATIONAL), (31, DamageTrack.OPERATIONAL),
                                           (30, DamageTrack.STRESSED), (20, DamageTrack.DAMAGED),
                                           (10, DamageTrack.CRITICAL), (1, DamageTrack.CRITICAL),
                                           (0, DamageTrack.DISABLED)])
def test_veh_4__damage_track_thresholds(hp: int, track: DamageTrack) -> None:
    assert damage_track(hp, 40, ED2) is track


@pytest.mark.rule("VEH-5", "E-43")
def test_veh_5__passengers_of_a_moving_vehicle_at_disadvantage__edition_1_always() -> None:
    assert passenger_source(True, False, ED2) is not None
    assert passenger_source(False, False, ED2) is None
    assert passenger_source(True, True, ED2) is None
    found = passenger_source(False, False, ED1)
    assert found is not None and found.rule == "E-43"
    assert passenger_source(False, True, ED1) is None


@pytest.mark.rule("E-43", "DV-1")
def test_e_43__ram_by_size_and_speed_and_the_hull_gives_dv() -> None:
    ram = ram_damage(Size.LARGE, 60, ED2)
    assert [str(p.dice).split()[0] for p in ram.parts] == ["2d8", "1d6+1d6"]
    buggy = creature(vehicle=VehicleProfile(dv=13))
    armor = hull(buggy, ED2)
    assert armor is not None and armor.bonus == 3
    assert hull(creature(), ED2) is None
