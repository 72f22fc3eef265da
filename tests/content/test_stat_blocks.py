"""The shipped stat blocks reproduce the numbers of the rules text's examples.

Each test names the rule whose example it checks. DV and DC are worked out here from the stat
block and the ruleset's numbers (the rules modules own the real calculations).
"""

import json
import os
import subprocess
import sys

import pytest

from ashfall.content.library import Library
from ashfall.content.loader import default_library
from ashfall.content.schema import ArmorCategory, Creature, WeaponKind, WeaponProperty
from ashfall.core.dice import parse
from ashfall.core.types import PHYSICAL_TYPES, Attribute, DamageType, Save, Size, Skill
from ashfall.ruleset import preset

RULES = preset()


@pytest.fixture(scope="module")
def lib() -> Library:
    return default_library()


def _dv(lib: Library, creature: Creature) -> int:
    """DV-1 with the DV-2 caps: 10 + capped AGI + armor + shield."""
    armor, shield = lib.armor_of(creature), lib.shield_of(creature)
    caps = {
        ArmorCategory.LIGHT: RULES.defense.agi_cap_light,
        ArmorCategory.MEDIUM: RULES.defense.agi_cap_medium,
        ArmorCategory.HEAVY: RULES.defense.agi_cap_heavy,
    }
    agi = creature.attributes.AGI
    if armor is not None:
        agi = min(agi, caps[armor.category])
    return RULES.defense.dv_base + agi + (armor.bonus if armor else 0) + (shield.bonus if shield else 0)


# ----- Defense Value examples (000:280-286) -----


@pytest.mark.rule("DV-1", "DV-2", "DV-3", "DV-4", "DV-5", "DV-6", "DV-7")
@pytest.mark.parametrize(
    ("armor_id", "shield_id", "agi", "dv"),
    [
        (None, None, 2, 12),  # DV-3
        ("scrap-leathers", None, 2, 14),  # DV-4
        ("flak-vest", None, 2, 16),  # DV-5
        ("combat-plate", None, 2, 18),  # DV-6: heavy armor caps AGI at +1
        ("combat-plate", "riot-shield", 1, 20),  # DV-7
    ],
    ids=["dv_3", "dv_4", "dv_5", "dv_6", "dv_7"],
)
def test_dv_examples__armor_and_shield_bonuses_match(
    lib: Library, armor_id: str | None, shield_id: str | None, agi: int, dv: int
) -> None:
    creature = Creature(id="probe", name="Probe", hp=1, attributes={"AGI": agi}, armor=armor_id, shield=shield_id)
    assert _dv(lib, creature) == dv


@pytest.mark.rule("DV-4", "DV-5", "DV-6")
@pytest.mark.parametrize(("armor_id", "category", "bonus"), [
    ("scrap-leathers", ArmorCategory.LIGHT, 2),
    ("flak-vest", ArmorCategory.MEDIUM, 4),
    ("combat-plate", ArmorCategory.HEAVY, 7),
])
def test_armor__light_medium_heavy_bonuses(lib: Library, armor_id: str, category: ArmorCategory, bonus: int) -> None:
    armor = lib.armor(armor_id)
    assert (armor.category, armor.bonus) == (category, bonus)


@pytest.mark.rule("DR-2")
def test_dr_2__heavy_armor_has_dr_5_vs_physical(lib: Library) -> None:
    plate = lib.armor("combat-plate")
    assert (plate.dr, plate.dr_physical_only, plate.metal) == (5, True, True)


@pytest.mark.rule("DV-6", "DV-7")
def test_dv_6__warrior_in_heavy_armor_has_dv_18(lib: Library) -> None:
    warrior = lib.creature("warrior")
    assert _dv(lib, warrior) == 18
    assert lib.shield("riot-shield").bonus == 2


@pytest.mark.rule("SWP-2")
@pytest.mark.parametrize(("raider", "dv"), [("raider", 13), ("raider-scout", 14), ("raider-enforcer", 16)])
def test_swp_2__the_three_raiders_have_dv_13_14_16(lib: Library, raider: str, dv: int) -> None:
    assert _dv(lib, lib.creature(raider)) == dv


# ----- weapons and damage examples -----


@pytest.mark.rule("CRIT-2")
def test_crit_2__salvaged_sword_1d10_plus_3_crits_2d10_plus_3(lib: Library) -> None:
    sword = lib.weapon("salvaged-sword")
    boss = lib.creature("raider-boss")
    assert sword.kind is WeaponKind.MELEE and sword.damage_type is DamageType.SLASHING
    assert "salvaged-sword" in boss.weapons
    hit = parse(sword.damage).plus(boss.attributes.MIG)
    assert (str(hit), str(hit.doubled())) == ("1d10+3", "2d10+3")


@pytest.mark.rule("SWP-3", "STC-1")
def test_swp_3__warrior_greataxe_1d12_plus_4_heavy_two_handed(lib: Library) -> None:
    axe = lib.weapon("greataxe")
    warrior = lib.creature("warrior")
    assert str(parse(axe.damage).plus(warrior.attributes.MIG)) == "1d12+4"
    assert axe.has(WeaponProperty.HEAVY) and axe.has(WeaponProperty.TWO_HANDED)
    assert warrior.is_proficient_with(axe) and "greataxe" in warrior.weapons


@pytest.mark.rule("SUP-10")
def test_sup_10__gunslinger_submachine_gun_dc_16(lib: Library) -> None:
    smg = lib.weapon("submachine-gun")
    gunslinger = lib.creature("gunslinger")
    assert smg.damage == "1d8" and smg.is_ranged
    assert smg.ammo_capacity is not None and smg.ammo_capacity >= 5
    assert not smg.has(WeaponProperty.THROWN) and not smg.has(WeaponProperty.SINGLE_SHOT)
    assert (gunslinger.attributes.AGI, gunslinger.proficiency) == (4, 4)
    assert RULES.checks.dc_base + gunslinger.attributes.AGI + gunslinger.proficiency == 16
    assert "submachine-gun" in gunslinger.weapons and gunslinger.is_proficient_with(smg)


@pytest.mark.parametrize(("weapon_id", "may_suppress"), [
    ("submachine-gun", True),
    ("light-machine-gun", True),
    ("crossbow", True),  # single-shot, but a 1-action reload
    ("grenade-launcher", False),  # single-shot with a 2-action reload
    ("rocket-launcher", False),
    ("frag-grenade", False),  # thrown
    ("combat-knife", False),  # melee, no ammunition
])
def test_weapon_tags__tell_which_weapons_can_lay_suppressive_fire(
    lib: Library, weapon_id: str, may_suppress: bool
) -> None:
    w = lib.weapon(weapon_id)
    two_action_single_shot = w.has(WeaponProperty.SINGLE_SHOT) and w.reload_actions >= 2
    allowed = w.is_ranged and w.ammo_capacity is not None and not w.has(WeaponProperty.THROWN) \
        and not two_action_single_shot
    assert allowed is may_suppress


@pytest.mark.rule("CDG-7", "TWF-7")
def test_cdg_7__operative_combat_knife_1d6_plus_3_crits_to_2d6_plus_3(lib: Library) -> None:
    knife = lib.weapon("combat-knife")
    operative = lib.creature("operative")
    hit = parse(knife.damage).plus(operative.attributes.MIG)
    assert str(hit) == "1d6+3" and str(hit.doubled()) == "2d6+3"
    assert knife.has(WeaponProperty.LIGHT) and knife.has(WeaponProperty.THROWN)
    assert knife.damage_type is DamageType.PIERCING


@pytest.mark.rule("NAT-1", "NAT-2", "NAT-6")
def test_nat_2__mutant_natural_weapons_1d6_plus_mig_any_physical_type(lib: Library) -> None:
    mutant = lib.creature("mutant")
    (claws,) = mutant.natural_weapons
    assert claws.damage == "1d6" and claws.has(WeaponProperty.NATURAL) and claws.category == "simple"
    assert {claws.damage_type, *claws.alt_damage_types} == PHYSICAL_TYPES
    assert claws.reach == 5 and mutant.is_proficient_with(claws)
    assert lib.weapons_of(mutant) == (claws,)
    (limbs,) = lib.creature("prehensile-mutant").natural_weapons
    assert limbs.reach == 10 and {limbs.damage_type, *limbs.alt_damage_types} == PHYSICAL_TYPES


@pytest.mark.rule("OVR-9")
def test_ovr_9__mutant_athletics_7_and_raiders_athletics_3_all_medium(lib: Library) -> None:
    assert lib.creature("mutant").skill_modifier(Skill.ATHLETICS) == 7
    for raider in ("raider", "raider-scout", "raider-enforcer"):
        assert lib.creature(raider).skill_modifier(Skill.ATHLETICS) == 3
        assert lib.creature(raider).size is Size.MEDIUM
    assert lib.creature("mutant").size is Size.MEDIUM


@pytest.mark.rule("FNT-8")
def test_fnt_8__raider_boss_insight_3(lib: Library) -> None:
    assert lib.creature("raider-boss").skill_modifier(Skill.INSIGHT) == 3


@pytest.mark.rule("TRP-1", "RX-15")
def test_trp_1__vanguard_polearm_reaches_10_ft_and_can_brace(lib: Library) -> None:
    halberd = lib.weapon("halberd")
    assert halberd.reach == 10 and halberd.has(WeaponProperty.POLEARM) and halberd.has(WeaponProperty.REACH)
    assert "halberd" in lib.creature("vanguard").weapons


@pytest.mark.rule("STC-1", "STC-6")
def test_stc_1__the_named_heavy_weapons_are_heavy_and_grenades_explosive(lib: Library) -> None:
    for weapon_id in ("sledgehammer", "chainsaw", "light-machine-gun", "rocket-launcher"):
        assert lib.weapon(weapon_id).has(WeaponProperty.HEAVY), weapon_id
    grenade = lib.weapon("frag-grenade")
    assert grenade.has(WeaponProperty.EXPLOSIVE) and grenade.has(WeaponProperty.THROWN)


@pytest.mark.rule("IMP-1", "ENVW-1", "ENVW-2")
@pytest.mark.parametrize(("weapon_id", "damage", "damage_type"), [
    ("improvised-weapon", "1d4", DamageType.BLUDGEONING),
    ("thrown-barrel", "1d6", DamageType.BLUDGEONING),
    ("swung-chandelier", "1d8", DamageType.BLUDGEONING),
])
def test_imp_1__improvised_and_environmental_weapons(
    lib: Library, weapon_id: str, damage: str, damage_type: DamageType
) -> None:
    w = lib.weapon(weapon_id)
    assert (w.damage, w.damage_type) == (damage, damage_type) and w.has(WeaponProperty.IMPROVISED)


def test_ranged_weapons__have_normal_and_long_range(lib: Library) -> None:
    for w in lib.weapons():
        if w.is_ranged or w.has(WeaponProperty.THROWN):
            assert w.range_normal and w.range_long and w.range_long >= w.range_normal, w.id


# ----- senses, morale, psionics -----


@pytest.mark.rule("VIS-5")
def test_vis_5__krel_darkvision_60_human_soldier_none(lib: Library) -> None:
    assert lib.creature("krel").senses.darkvision == 60
    soldier = lib.creature("soldier").senses
    assert (soldier.darkvision, soldier.low_light_optics, soldier.thermal_optics, soldier.tactical_hud) == (
        0, 0, False, False)


@pytest.mark.rule("MOR-6", "MOR-15")
def test_mor_6__bandit_will_1_but_morale_will_2(lib: Library) -> None:
    bandit = lib.creature("bandit")
    assert bandit.save_modifier(Save.WILL) == 1
    assert bandit.morale.will == 2 and bandit.morale.type == "bandit"


@pytest.mark.rule("MOR-4")
def test_mor_4__bandit_leader_leads_with_its_own_will(lib: Library) -> None:
    leader, bandit = lib.creature("bandit-leader"), lib.creature("bandit")
    assert leader.leader and not bandit.leader
    assert leader.save_modifier(Save.WILL) != (bandit.morale.will or bandit.save_modifier(Save.WILL))
    assert lib.creature("raider-boss").leader and not lib.creature("raider-boss").boss


@pytest.mark.rule("MOR-35")
@pytest.mark.parametrize("machine", ["security-drone", "automated-turret"])
def test_mor_35__drones_and_turrets_never_check_morale(lib: Library, machine: str) -> None:
    creature = lib.creature(machine)
    assert creature.machine and creature.morale.immune


def test_class_archetypes__are_pcs(lib: Library) -> None:
    for pc in ("warrior", "vanguard", "gunslinger", "operative", "mutant", "psion"):
        assert lib.creature(pc).is_pc, pc
    assert not lib.creature("raider").is_pc


@pytest.mark.rule("PSI-18")
def test_psi_18__psion_psi_strike_1d8_plus_3_attack_5_dc_13_backlash_11(lib: Library) -> None:
    psion = lib.creature("psion")
    wis = psion.attributes[Attribute.WIS]
    assert psion.psionic and "psi-strike" in psion.talents
    assert str(parse("1d8").plus(wis)) == "1d8+3"
    assert wis + psion.proficiency == 5
    assert RULES.checks.dc_base + wis + psion.proficiency == 13
    assert RULES.psionics.backlash_base + psion.attributes.MIG == 11


def test_every_creature__is_proficient_with_its_own_weapons(lib: Library) -> None:
    for creature in lib.creatures():
        for weapon in lib.weapons_of(creature):
            if not weapon.has(WeaponProperty.IMPROVISED):
                assert creature.is_proficient_with(weapon), (creature.id, weapon.id)
        if creature.shield is not None:
            assert "shields" in creature.weapon_proficiencies, creature.id


_DUMP_SETS = (
    "import json\n"
    "from ashfall.content.loader import default_library\n"
    "lib = default_library()\n"
    "print(json.dumps([lib.weapon('crossbow').model_dump(mode='json'),\n"
    "                  lib.creature('raider-marksman').model_dump(mode='json')], sort_keys=True))\n"
)


def test_stat_block_json__sets_come_out_sorted_whatever_the_hash_seed() -> None:
    # A set's order follows string hashing, which changes between processes: a GM-added creature's event must be
    # the same text in the export and in its replay.
    texts = {subprocess.run([sys.executable, "-c", _DUMP_SETS], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2, 3)}
    assert len(texts) == 1
    weapon, creature = json.loads(texts.pop())
    assert weapon["properties"] == ["single-shot", "two-handed"]
    assert creature["skill_proficiencies"] == ["athletics", "perception", "stealth"]
