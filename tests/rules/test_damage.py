"""The damage ledger for creatures: rolling, G-39 order, DR, resistance, temporary HP, massive damage, dying."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from ashfall.content.schema import Armor, ArmorCategory, Creature, DrEntry
from ashfall.core.dice import parse
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import PHYSICAL_TYPES, Condition, DamageCategory, DamageType
from ashfall.rules.damage import (
    DamageResult,
    LedgerStep,
    apply_damage,
    grant_temp_hp,
    roll_damage,
)
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.health import Health
from ashfall.ruleset import Ruleset, preset

RS = preset("ashfall-2")
RS1 = preset("ashfall-1")
T = DamageType
S, P, B, FIRE, COLD, PSY, POISON = T.SLASHING, T.PIERCING, T.BLUDGEONING, T.FIRE, T.COLD, T.PSYCHIC, T.POISON


def hit(
    amounts: Mapping[DamageType, int],
    defenses: Defenses | None = None,
    health: Health | None = None,
    rs: Ruleset = RS,
    **kw: object,
) -> DamageResult:
    return apply_damage(health or Health.full(100), amounts, defenses or Defenses(), rs, **kw)  # type: ignore[arg-type]


def steps(result: DamageResult, step: LedgerStep) -> list[tuple[int, int, str]]:
    return [(r.before, r.after, r.rule) for r in result.rows if r.step is step]


def dr(amount: int, source: str, **kw: object) -> DrEntry:
    return DrEntry(amount=amount, source=source, **kw)  # type: ignore[arg-type]


def part(type_: DamageType, label: str, dice: str | None = None, flat: int = 0, weapon: bool = False) -> DamagePart:
    return DamagePart(type_, rule("DMG-1"), label, parse(dice) if dice else None, flat, weapon)


# ----- rolling (DMG, CRIT-2, G-40) -----

SWORD = (part(S, "Salvaged Sword", "1d10", weapon=True), part(S, "MIG", flat=3))


@pytest.mark.rule("CRIT-2", "DMG-1", "DMG-2")
@pytest.mark.parametrize(
    ("critical", "faces", "total"),
    [(False, [(10, 4)], 7), (True, [(10, 4), (10, 7)], 14)],
    ids=["dmg_2__normal_1d10_plus_3", "crit_2__salvaged_sword_2d10_plus_3"],
)
def test_crit_2__salvaged_sword_1d10_plus_3_doubles_dice_adds_mig_once(
    critical: bool, faces: list[tuple[int, int]], total: int
) -> None:
    with ScriptedRng(faces) as rng:
        result = roll_damage(SWORD, rng, RS, critical=critical)
    assert result.total == total
    assert result.totals == ((S, total),)
    sword = result.parts[0]
    assert sword.roll is not None
    assert [f.value for f in sword.roll.faces] == [f for _, f in faces]
    assert sword.doubled is critical
    assert result.parts[1].roll is None and result.parts[1].total == 3


@pytest.mark.rule("G-40", "CRIT-2")
@pytest.mark.parametrize(
    ("option", "faces", "total"),
    [("all-dice", [(10, 5), (10, 5), (6, 2), (6, 3)], 22), ("weapon-dice-only", [(10, 5), (10, 5), (6, 2)], 19)],
)
def test_g_40__crit_doubles_brace_rider_only_with_all_dice(
    option: str, faces: list[tuple[int, int]], total: int
) -> None:
    parts = (*SWORD, part(P, "Brace", "1d6"), part(S, "Power Strike", flat=4))
    rs = RS.with_options(attack={"crit_dice": option})
    with ScriptedRng(faces) as rng:
        result = roll_damage(parts, rng, rs, critical=True)
    assert result.total == total
    assert result.by_type() == {S: 5 + 5 + 3 + 4, P: total - 17}


@pytest.mark.rule("DMG-1", "DMG-3", "DMG-4")
def test_dmg_1__totals_per_type_in_order_of_first_appearance() -> None:
    parts = (part(FIRE, "Flame Rider", "1d6"), part(S, "Blade", "1d8", weapon=True), part(FIRE, "bonus", flat=2))
    with ScriptedRng([(6, 3), (8, 8)]) as rng:
        result = roll_damage(parts, rng, RS, critical=False)
    assert result.totals == ((FIRE, 5), (S, 8))


@pytest.mark.rule("DMG-5", "G-42")
def test_dmg_5__negative_off_hand_modifier_floors_at_zero_damage() -> None:
    with ScriptedRng([(4, 1)]) as rng:
        rolled = roll_damage((part(S, "dagger", "1d4"), part(S, "AGI", flat=-3)), rng, RS, critical=False)
    assert rolled.total == -2
    result = hit(rolled)
    assert result.final == ((S, 0),)
    assert steps(result, LedgerStep.MINIMUM) == [(-2, 0, "G-42")]
    assert result.health_after.hp == 100


# ----- damage types (TYPE) -----


@pytest.mark.rule("TYPE-1", "TYPE-2", "TYPE-3", "DR-2")
@pytest.mark.parametrize("damage_type", list(DamageType))
def test_type_1_2_3__physical_dr_reduces_only_physical_types(damage_type: DamageType) -> None:
    result = hit({damage_type: 10}, Defenses(dr=(dr(3, "plate", physical_only=True),)))
    expected = 7 if damage_type.category is DamageCategory.PHYSICAL else 10
    assert result.amount(damage_type) == expected
    assert (damage_type in PHYSICAL_TYPES) is (damage_type.category is DamageCategory.PHYSICAL)


@pytest.mark.rule("TYPE-4", "G-27")
def test_type_4__thunder_and_lightning_are_sonic_and_electric() -> None:
    assert DamageType.parse("thunder") is T.SONIC and DamageType.parse("lightning") is T.ELECTRIC


# ----- resistance, vulnerability, immunity (RVI, G-43, PSI-11) -----

RVI_CASES: list[tuple[str, Defenses, DamageType, int, int, str]] = [
    ("rvi_1__resistance_halves_round_down", Defenses(resistances=frozenset({S})), S, 7, 3, "RVI-1"),
    ("rvi_1__resistance_1_to_0", Defenses(resistances=frozenset({S})), S, 1, 0, "RVI-1"),
    ("rvi_2__vulnerability_doubles", Defenses(vulnerabilities=frozenset({FIRE})), FIRE, 7, 14, "RVI-2"),
    ("rvi_3__immunity_zero", Defenses(immunities=frozenset({COLD})), COLD, 7, 0, "RVI-3"),
    ("psi_11__psychic_resistance_halves", Defenses(resistances=frozenset({PSY})), PSY, 9, 4, "PSI-11"),
    ("psi_11__psychic_immunity_negates", Defenses(immunities=frozenset({PSY})), PSY, 9, 0, "PSI-11"),
    ("rvi_4__petrified_resists_all", Defenses(resist_all=True, petrified=True), S, 9, 4, "RVI-4"),
]


@pytest.mark.rule("RVI-1", "RVI-2", "RVI-3", "RVI-4", "PSI-11")
@pytest.mark.parametrize(
    ("name", "defenses", "type_", "dealt", "final", "why"), RVI_CASES, ids=[c[0] for c in RVI_CASES]
)
def test_rvi__resistance_vulnerability_immunity_table(
    name: str, defenses: Defenses, type_: DamageType, dealt: int, final: int, why: str
) -> None:
    result = hit({type_: dealt}, defenses)
    assert result.amount(type_) == final
    assert [r.rule for r in result.rows if r.step in (LedgerStep.RESISTANCE, LedgerStep.VULNERABILITY,
                                                      LedgerStep.IMMUNITY)] == [why]


@pytest.mark.rule("RVI-3", "RVI-6", "G-43")
def test_rvi_3__immunity_row_recorded_even_when_dr_already_zeroed_it() -> None:
    result = hit({COLD: 3}, Defenses(immunities=frozenset({COLD}), dr=(dr(5, "grit"),)))
    assert steps(result, LedgerStep.IMMUNITY) == [(0, 0, "RVI-3")]
    assert result.immune_types == {COLD}


@pytest.mark.rule("RVI-6", "G-43")
@pytest.mark.parametrize(("option", "final", "rules"), [("cancel", 9, ["G-43"]), ("halve-then-double", 8,
                                                                                  ["RVI-1", "RVI-2"])])
def test_g_43__resistance_and_vulnerability(option: str, final: int, rules: list[str]) -> None:
    defenses = Defenses(resistances=frozenset({FIRE}), vulnerabilities=frozenset({FIRE}))
    result = hit({FIRE: 9}, defenses, rs=RS.with_options(damage={"resist_vuln": option}))
    assert result.amount(FIRE) == final
    assert [r.rule for r in result.rows if r.step in (LedgerStep.RESISTANCE, LedgerStep.VULNERABILITY)] == rules


@pytest.mark.rule("RVI-6", "G-43", "RVI-4")
def test_g_43__two_resistances_do_not_stack() -> None:
    defenses = Defenses(resistances=frozenset({S}), resist_all=True, petrified=True)
    assert hit({S: 9}, defenses).amount(S) == 4


@pytest.mark.rule("RVI-4", "C-PET")
def test_rvi_4__petrified_creature_resists_all_and_is_immune_to_poison() -> None:
    creature = Creature(id="raider", name="Raider", hp=20, immunities=frozenset({COLD}))
    defenses = Defenses.of_creature(creature, None, {Condition.PETRIFIED})
    assert defenses.resist_all and defenses.immunities == {COLD, POISON}
    result = hit({S: 9, POISON: 8, FIRE: 5}, defenses)
    assert result.final == ((S, 4), (POISON, 0), (FIRE, 2))
    assert steps(result, LedgerStep.IMMUNITY) == [(8, 0, "RVI-4")]
    assert not Defenses.of_creature(creature).resist_all


@pytest.mark.rule("PSI-12", "PSI-11")
def test_psi_12__psychic_immunity_removes_only_the_damage() -> None:
    result = hit({PSY: 12, T.FORCE: 4}, Defenses(immunities=frozenset({PSY})), health=Health.full(20))
    assert result.immune_types == {PSY}
    assert result.final == ((PSY, 0), (T.FORCE, 4))
    assert result.health_after.hp == 16 and result.conditions_gained == ()


# ----- Damage Reduction (DR, PSI-10, E-27, G-39) -----

GRIT, CARE = dr(2, "grit"), dr(2, "preventive-care")
PLATE = dr(5, "plate", physical_only=True, from_armor=True)

DR_CASES: list[tuple[str, Defenses, DamageType, int, int, str, Ruleset]] = [
    ("dr_1__reduces_by_x", Defenses(dr=(dr(5, "plate"),)), S, 12, 7, "DR-1", RS),
    ("dr_1__minimum_zero", Defenses(dr=(dr(5, "plate"),)), S, 3, 0, "DR-1", RS),
    ("dr_2__vs_fire_only_fire", Defenses(dr=(dr(4, "fire-suit", types=frozenset({FIRE})),)), FIRE, 10, 6, "DR-2",
     RS),
    ("dr_4__grit_plus_preventive_care_is_4", Defenses(dr=(GRIT, CARE)), S, 10, 6, "DR-4", RS),
    ("dr_5__same_source_twice_is_2", Defenses(dr=(GRIT, dr(2, "grit"))), S, 10, 8, "DR-5", RS),
    ("dr_5__same_source_highest_counts", Defenses(dr=(GRIT, dr(3, "grit"), CARE)), S, 10, 5, "DR-4", RS),
    ("e_27__edition_1_highest_only", Defenses(dr=(PLATE, dr(3, "grit"))), S, 10, 5, "E-27",
     RS.with_options(damage={"dr_sources_any": True, "dr_stacking": "highest-only"})),
]


@pytest.mark.rule("DR-1", "DR-2", "DR-4", "DR-5", "E-27")
@pytest.mark.parametrize(("name", "defenses", "type_", "dealt", "final", "why", "rs"), DR_CASES,
                         ids=[c[0] for c in DR_CASES])
def test_dr__reduction_table(
    name: str, defenses: Defenses, type_: DamageType, dealt: int, final: int, why: str, rs: Ruleset
) -> None:
    result = hit({type_: dealt}, defenses, rs=rs)
    assert result.amount(type_) == final
    assert steps(result, LedgerStep.DR) == [(dealt, final, why)]


@pytest.mark.rule("DR-4", "DR-5")
def test_dr_4__dr_row_names_every_stacking_source() -> None:
    result = hit({S: 10}, Defenses(dr=(GRIT, CARE, dr(1, "grit"))))
    assert [r.label for r in result.rows if r.step is LedgerStep.DR] == ["grit+preventive-care"]


@pytest.mark.rule("E-27", "DR-1")
def test_e_27__edition_1_dr_comes_from_armor_only() -> None:
    result = hit({S: 10}, Defenses(dr=(PLATE, dr(3, "grit"))), rs=RS1)
    assert result.amount(S) == 5
    assert ("E-27" in [r.rule for r in result.rows])


@pytest.mark.rule("DR-3", "G-39", "RVI-1")
def test_dr_3__g_39_dr_before_resistance_12_slashing_dr_5_resistant_is_3() -> None:
    result = hit({S: 12}, Defenses(resistances=frozenset({S}), dr=(dr(5, "plate"),)))
    assert result.amount(S) == 3
    assert [r.step for r in result.rows][:3] == [LedgerStep.ROLLED, LedgerStep.DR, LedgerStep.RESISTANCE]


@pytest.mark.rule("DR-6", "PSI-10")
@pytest.mark.parametrize(("ignores", "final"), [(True, 8), (False, 3)])
def test_psi_10__physical_dr_does_not_reduce_psychic(ignores: bool, final: int) -> None:
    rs = RS.with_options(damage={"psychic_ignores_physical_dr": ignores})
    result = hit({PSY: 8}, Defenses(dr=(PLATE,)), rs=rs)
    assert result.amount(PSY) == final
    if ignores:
        assert steps(result, LedgerStep.DR) == [(8, 8, "PSI-10")]


@pytest.mark.rule("DR-6", "PSI-10", "DR-1")
def test_dr_6__untyped_dr_still_reduces_psychic() -> None:
    assert hit({PSY: 8}, Defenses(dr=(GRIT,))).amount(PSY) == 6


@pytest.mark.rule("DR-7", "CS-5")
@pytest.mark.parametrize(("weak_point", "final"), [(False, 3), (True, 8)])
def test_dr_7__weak_point_ignores_armor_dr_but_not_grit(weak_point: bool, final: int) -> None:
    result = hit({S: 10}, Defenses(dr=(PLATE, GRIT)), ignore_armor_dr=weak_point)
    assert result.amount(S) == final
    assert ("DR-7" in [r.rule for r in result.rows]) is weak_point


@pytest.mark.rule("DR-2", "DR-7")
def test_dr_2__of_creature_turns_armor_dr_into_an_armor_entry() -> None:
    armor = Armor(id="scrap-plate", name="Scrap Plate", category=ArmorCategory.HEAVY, bonus=7, dr=5)
    creature = Creature(id="guard", name="Guard", hp=20, dr=(GRIT,))
    defenses = Defenses.of_creature(creature, armor)
    assert defenses.dr == (GRIT, DrEntry(amount=5, physical_only=True, source="scrap-plate", from_armor=True))
    assert hit({S: 10, FIRE: 10}, defenses).final == ((S, 3), (FIRE, 8))


@pytest.mark.rule("G-39")
def test_g_39__each_type_goes_through_the_steps_separately() -> None:
    result = hit({S: 6, FIRE: 3}, Defenses(dr=(dr(4, "grit"),), resistances=frozenset({FIRE})))
    assert result.final == ((S, 2), (FIRE, 0))


# ----- environment and Deflect (G-39 steps 2-3, RX-7) -----


def underwater_fire(damage_type: DamageType, amount: int) -> tuple[int, RuleId, str]:
    if damage_type is FIRE:
        return amount // 2, rule("G-39"), "underwater"
    return amount, rule("G-39"), ""


@pytest.mark.rule("G-39", "RX-7")
def test_g_39__environment_then_deflect_then_dr_then_resistance() -> None:
    defenses = Defenses(dr=(dr(1, "grit"),), vulnerabilities=frozenset({FIRE}))
    result = hit({FIRE: 10, S: 4}, defenses, deflect=2, environment=[underwater_fire])
    fire = [(r.step, r.before, r.after) for r in result.rows if r.type is FIRE]
    assert fire[:5] == [
        (LedgerStep.ROLLED, 10, 10), (LedgerStep.ENVIRONMENT, 10, 5), (LedgerStep.DEFLECT, 5, 3),
        (LedgerStep.DR, 3, 2), (LedgerStep.VULNERABILITY, 2, 4),
    ]
    assert result.final == ((FIRE, 4), (S, 3))


@pytest.mark.rule("RX-7", "G-39")
@pytest.mark.parametrize(
    ("amounts", "deflect", "final", "entirely"),
    [
        ({S: 6, FIRE: 4}, 7, ((S, 0), (FIRE, 3)), False),
        ({S: 5, FIRE: 5}, 3, ((S, 2), (FIRE, 5)), False),
        ({S: 3, FIRE: 8}, 9, ((S, 2), (FIRE, 0)), False),
        ({S: 3, FIRE: 4}, 12, ((S, 0), (FIRE, 0)), True),
        ({S: 3}, -2, ((S, 3),), False),
    ],
    ids=["largest_first", "tie_first_appearance", "carry_over", "deflected_entirely", "negative_is_zero"],
)
def test_rx_7__deflect_spreads_largest_packet_first(
    amounts: dict[DamageType, int], deflect: int, final: tuple[tuple[DamageType, int], ...], entirely: bool
) -> None:
    result = hit(amounts, deflect=deflect)
    assert result.final == final
    assert result.deflected_entirely is entirely


# ----- temporary HP (THP) -----


@pytest.mark.rule("THP-1")
def test_thp_1__temp_hp_absorb_before_hp() -> None:
    health = Health(20, 20, temp_hp=5, temp_source="second-wind")
    result = hit({S: 8}, health=health)
    assert (result.total_to_temp, result.total_to_hp) == (5, 3)
    assert result.health_after == Health(17, 20)
    assert steps(result, LedgerStep.TEMP_HP) == [(8, 3, "THP-1")]
    assert hit({S: 3}, health=health).health_after == Health(20, 20, temp_hp=2, temp_source="second-wind")


@pytest.mark.rule("THP-2", "THP-5")
@pytest.mark.parametrize(("old", "granted", "new", "applied"), [(8, 5, 8, False), (5, 10, 10, True), (0, 3, 3, True),
                                                                  (4, 4, 4, False)])
def test_thp_2__temp_hp_do_not_stack_keep_higher(old: int, granted: int, new: int, applied: bool) -> None:
    health = Health(20, 20, temp_hp=old, temp_source="stim" if old else "")
    result = grant_temp_hp(health, granted, "second-wind", RS)
    assert (result.health.temp_hp, result.applied, result.rule) == (new, applied, "THP-2")


@pytest.mark.rule("THP-3")
def test_thp_3__only_the_granting_ability_refreshes_temp_hp_it_does_not_add() -> None:
    damaged = hit({S: 3}, health=Health(20, 20, temp_hp=5, temp_source="second-wind")).health_after
    assert damaged.temp_hp == 2
    refreshed = grant_temp_hp(damaged, 5, "second-wind", RS).health
    assert refreshed.temp_hp == 5
    emptied = hit({S: 9}, health=refreshed).health_after
    assert (emptied.temp_hp, emptied.temp_source) == (0, "")


@pytest.mark.rule("THP-4", "E-28")
@pytest.mark.parametrize(
    ("rs", "old", "source", "granted", "new", "why"),
    [
        (RS, 5, "arcane-ward", 5, 8, "THP-4"),
        (RS, 2, "arcane-ward", 3, 5, "THP-4"),
        (RS, 6, "second-wind", 5, 6, "THP-4"),
        (RS, 0, "", 12, 8, "THP-4"),
        (RS1, 5, "arcane-ward", 5, 5, "THP-2"),
        (RS1, 3, "arcane-ward", 12, 8, "THP-2"),
    ],
    ids=["stacks_to_max", "stacks_below_max", "other_source_not_stacked", "capped", "ed1_no_stack", "ed1_capped"],
)
def test_thp_4__arcane_ward_stacks_with_itself_up_to_its_max(
    rs: Ruleset, old: int, source: str, granted: int, new: int, why: str
) -> None:
    health = Health(20, 20, temp_hp=old, temp_source=source)
    result = grant_temp_hp(health, granted, "arcane-ward", rs, stacking_max=8)
    assert (result.health.temp_hp, result.rule) == (new, why)


@pytest.mark.rule("THP-5", "THP-2")
def test_thp_5__second_wind_level_temp_hp_does_not_replace_higher() -> None:
    health = Health(20, 20, temp_hp=6, temp_source="arcane-ward")
    assert not grant_temp_hp(health, 3, "second-wind", RS).applied


def test_grant_temp_hp__negative_amount_is_refused() -> None:
    with pytest.raises(ValueError, match="< 0"):
        grant_temp_hp(Health.full(10), -1, "x", RS)
