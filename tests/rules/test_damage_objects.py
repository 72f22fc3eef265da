"""Damage to destructible objects: Hardness, bypass switch, piercing, immunities (OBJ-1..OBJ-10, X-06, RVI-5)."""

from __future__ import annotations

import pytest

from ashfall.core.types import DamageType, Save
from ashfall.families.objects.rules import apply_object_damage, object_save_auto_fail
from ashfall.rules.damage import LedgerStep
from ashfall.rules.damage_defenses import Defenses
from ashfall.ruleset import preset

RS = preset("ashfall-2")
T = DamageType


@pytest.mark.rule("OBJ-1", "OBJ-3", "OBJ-4")
@pytest.mark.parametrize(
    ("hardness", "dealt", "hp_after", "why"),
    [(0, 4, 6, None), (5, 8, 7, "OBJ-3"), (5, 4, 10, "OBJ-4"), (5, 5, 10, "OBJ-4"), (5, 20, 0, "OBJ-3")],
    ids=["obj_1__no_hardness", "obj_3__hardness_before_hp", "obj_4__less_than_hardness_nothing",
         "obj_4__equal_hardness_nothing", "destroyed"],
)
def test_obj_3__hardness_comes_off_every_hit(hardness: int, dealt: int, hp_after: int, why: str | None) -> None:
    result = apply_object_damage(10, {T.BLUDGEONING: dealt}, Defenses.of_object(hardness), RS)
    assert result.hp_after == hp_after
    assert result.destroyed is (hp_after == 0)
    assert [r.rule for r in result.rows if r.step is LedgerStep.HARDNESS] == ([why] if why else [])


BYPASS_CASES = [
    ("fire-electric-force", T.FIRE, False, 10, "OBJ-5"),
    ("fire-electric-force", T.ELECTRIC, False, 10, "OBJ-5"),
    ("fire-electric-force", T.FORCE, False, 10, "OBJ-5"),
    ("fire-electric-force", T.COLD, False, 5, "OBJ-3"),
    ("fire-electric-force", T.ACID, False, 5, "OBJ-3"),
    ("energy-and-force", T.COLD, False, 10, "X-06"),
    ("energy-and-force", T.SONIC, False, 10, "X-06"),
    ("energy-and-force", T.NECROTIC, False, 5, "OBJ-3"),
    ("fire-on-flammable-only", T.FIRE, False, 5, "OBJ-3"),
    ("fire-on-flammable-only", T.FIRE, True, 10, "OBJ-10"),
    ("fire-on-flammable-only", T.ELECTRIC, True, 5, "OBJ-3"),
    ("energy-and-force", T.FIRE, True, 10, "X-06"),
]


@pytest.mark.rule("OBJ-5", "OBJ-10", "X-06")
@pytest.mark.parametrize(("mode", "type_", "flammable", "final", "why"), BYPASS_CASES,
                         ids=[f"{c[0]}-{c[1].value}-{'flammable' if c[2] else 'plain'}" for c in BYPASS_CASES])
def test_obj_5_obj_10_x_06__which_types_ignore_hardness(
    mode: str, type_: DamageType, flammable: bool, final: int, why: str
) -> None:
    rs = RS.with_options(damage={"hardness_bypass": mode})
    result = apply_object_damage(20, {type_: 10}, Defenses.of_object(5, flammable=flammable), rs)
    assert result.total == final
    assert [r.rule for r in result.rows if r.step is LedgerStep.HARDNESS] == [why]


@pytest.mark.rule("OBJ-6", "G-22")
@pytest.mark.parametrize(("save", "fails"), [(Save.MIG, True), (Save.REFLEX, True), (Save.FORTITUDE, False),
                                             (Save.WILL, False)])
def test_obj_6__objects_fail_mig_and_agi_saves(save: Save, fails: bool) -> None:
    assert (object_save_auto_fail(save) == "OBJ-6") is fails


@pytest.mark.rule("OBJ-7", "RVI-5")
@pytest.mark.parametrize("type_", [T.PSYCHIC, T.POISON])
def test_obj_7_rvi_5__objects_immune_to_psychic_and_poison(type_: DamageType) -> None:
    result = apply_object_damage(10, {type_: 9}, Defenses.of_object(0), RS)
    assert (result.hp_after, result.destroyed) == (10, False)
    assert [(r.step, r.rule) for r in result.rows if r.step is LedgerStep.IMMUNITY] == [(LedgerStep.IMMUNITY, "OBJ-7")]


@pytest.mark.rule("OBJ-8", "OBJ-9", "G-39")
@pytest.mark.parametrize(
    ("type_", "hardness", "fragile", "final"),
    [(T.PIERCING, 0, False, 4), (T.PIERCING, 0, True, 9), (T.PIERCING, 2, False, 3), (T.BLUDGEONING, 0, False, 9),
     (T.BLUDGEONING, 2, False, 7), (T.SLASHING, 0, False, 9)],
    ids=["obj_8__piercing_halved", "obj_8__fragile_full", "g_39__hardness_before_halving", "obj_9__bludgeoning_full",
         "obj_9__bludgeoning_minus_hardness", "slashing_full"],
)
def test_obj_8_obj_9__piercing_halved_bludgeoning_full(
    type_: DamageType, hardness: int, fragile: bool, final: int
) -> None:
    result = apply_object_damage(20, {type_: 9}, Defenses.of_object(hardness, fragile=fragile), RS)
    assert result.total == final


@pytest.mark.rule("OBJ-8")
def test_obj_8__option_off_piercing_full() -> None:
    rs = RS.with_options(damage={"object_piercing_halved": False})
    assert apply_object_damage(20, {T.PIERCING: 9}, Defenses.of_object(0), rs).total == 9


@pytest.mark.rule("OBJ-1", "OBJ-3", "G-39")
def test_obj_1__multi_type_hit_each_type_separately_then_hp() -> None:
    result = apply_object_damage(12, {T.PIERCING: 9, T.FIRE: 6}, Defenses.of_object(3, flammable=True), RS)
    assert result.final == ((T.PIERCING, 3), (T.FIRE, 6))
    assert (result.hp_after, result.destroyed) == (3, False)
    assert [r.after for r in result.rows if r.step is LedgerStep.HP] == [0, 0]


def test_object_negative_hp_refused() -> None:
    with pytest.raises(ValueError, match="hp"):
        apply_object_damage(-1, {T.FIRE: 1}, Defenses.of_object(0), RS)


def test_defenses_negative_hardness_refused() -> None:
    with pytest.raises(ValueError, match="hardness"):
        Defenses.of_object(-1)
