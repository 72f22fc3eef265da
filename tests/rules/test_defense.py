"""Defense Value: formula, AGI caps, examples, conditions, flat-footed, cover and Weak Point."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.schema import Armor, ArmorCategory, Shield
from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.rules.defense import AttackTraits, Cover, defense_value, is_flat_footed
from ashfall.ruleset import preset
from ashfall.ruleset.sections import CoverApplies
from tests.rules.attack_kit import HEAVY_7, LIGHT_2, MEDIUM_4, SHIELD_2, armor, creature

RS = preset()
MELEE = AttackTraits(ranged=False)
RANGED = AttackTraits()


@pytest.mark.rule("DV-1", "DV-2", "DV-3", "DV-4", "DV-5", "DV-6", "DV-7")
@pytest.mark.parametrize(
    ("agi", "worn", "shield", "expected"),
    [
        pytest.param(2, None, None, 12, id="DV-3 unarmored AGI+2 -> 12"),
        pytest.param(2, LIGHT_2, None, 14, id="DV-4 light +2 AGI+2 -> 14"),
        pytest.param(2, MEDIUM_4, None, 16, id="DV-5 medium +4 AGI+2 -> 16"),
        pytest.param(3, HEAVY_7, None, 18, id="DV-6 heavy +7 AGI capped at +1 -> 18"),
        pytest.param(3, HEAVY_7, SHIELD_2, 20, id="DV-7 heavy +7 and shield +2 -> 20"),
    ],
)
def test_dv_examples__reproduce_the_chapter(agi: int, worn: Armor | None, shield: Shield | None, expected: int) -> None:
    assert defense_value(creature(AGI=agi), worn, shield, RS).total == expected


@pytest.mark.rule("DV-2")
@pytest.mark.parametrize(
    ("category", "agi", "agi_counted"),
    [
        (ArmorCategory.LIGHT, 7, 5), (ArmorCategory.LIGHT, 4, 4),
        (ArmorCategory.MEDIUM, 5, 3), (ArmorCategory.HEAVY, 2, 1),
        (ArmorCategory.HEAVY, -2, -2), (ArmorCategory.MEDIUM, -1, -1),
    ],
)
def test_dv_2__armor_caps_only_a_positive_agi(category: ArmorCategory, agi: int, agi_counted: int) -> None:
    dv = defense_value(creature(AGI=agi), armor(category, 0), None, RS)
    assert dv.total == 10 + agi_counted


@pytest.mark.rule("DV-2")
def test_dv_2__no_armor_means_no_agi_cap() -> None:
    assert defense_value(creature(AGI=7), None, None, RS).total == 17


@pytest.mark.rule("DV-1")
def test_dv_1__misc_modifiers_add_and_every_part_names_its_rule() -> None:
    misc = Modifier(1, ModifierKind.ITEM, rule("DV-1"), "ring")
    dv = defense_value(creature(AGI=2), LIGHT_2, SHIELD_2, RS, misc=[misc])
    assert dv.total == 17
    assert {m.label for m in dv.modifiers.applied} >= {"base", "AGI", "ring", "shield"}
    assert all(m.rule for m in dv.modifiers.applied)


@pytest.mark.rule("DV-8", "C-FRI")
@pytest.mark.parametrize(("visible", "expected"), [(True, 10), (False, 12)])
def test_dv_8__frightened_lowers_dv_by_2_while_the_source_is_visible(visible: bool, expected: int) -> None:
    dv = defense_value(creature(AGI=2), None, None, RS, conditions={Condition.FRIGHTENED},
                       fear_source_visible=visible)
    assert dv.total == expected


@pytest.mark.rule("FF-2", "G-11", "G-46")
@pytest.mark.parametrize(
    ("agi", "worn", "expected"),
    [
        pytest.param(3, None, 10, id="positive AGI lost"),
        pytest.param(3, HEAVY_7, 17, id="only the capped +1 is lost"),
        pytest.param(-2, None, 8, id="negative AGI still applies (G-46)"),
    ],
)
def test_ff_2__flat_footed_loses_only_positive_agi(agi: int, worn: Armor | None, expected: int) -> None:
    assert defense_value(creature(AGI=agi), worn, None, RS, flat_footed=True).total == expected


@pytest.mark.rule("FF-2", "G-11")
def test_ff_2__house_rule_can_drop_a_negative_agi_too() -> None:
    rs = RS.with_options(defense={"flat_footed_keeps_negative_agi": False})
    assert defense_value(creature(AGI=-2), None, None, rs, flat_footed=True).total == 10


@pytest.mark.rule("FF-2")
def test_ff_2__the_flat_footed_condition_works_like_the_flag() -> None:
    by_flag = defense_value(creature(AGI=3), None, None, RS, flat_footed=True)
    by_condition = defense_value(creature(AGI=3), None, None, RS, conditions={Condition.FLAT_FOOTED})
    assert by_flag.total == by_condition.total == 10


@pytest.mark.rule("FF-1", "G-11")
@pytest.mark.parametrize(
    ("surprised", "unaware", "why"),
    [(True, False, "FF-1"), (False, True, "G-11"), (True, True, "FF-1"), (False, False, None)],
)
def test_ff_1__surprised_or_unaware_of_the_attacker_is_flat_footed(surprised: bool, unaware: bool,
                                                                    why: str | None) -> None:
    assert is_flat_footed(surprised=surprised, unaware_of_attacker=unaware) == why


@pytest.mark.rule("COV-1", "COV-2", "CVB-1", "POS-6", "AMOD-3", "DV-9", "STC-3", "STC-7")
@pytest.mark.parametrize(("cover", "expected"), [(Cover.NONE, 12), (Cover.PARTIAL, 14), (Cover.HEAVY, 17)])
def test_cov_1_cov_2__cover_adds_to_dv_against_a_ranged_attack(cover: Cover, expected: int) -> None:
    dv = defense_value(creature(AGI=2), None, None, RS, cover=cover, attack=RANGED)
    assert dv.total == expected and dv.targetable
    assert all(m.kind is not ModifierKind.COVER or m.value > 0 for m in dv.modifiers.applied)


@pytest.mark.rule("COV-3", "CVB-1", "POS-6", "STC-8")
@pytest.mark.parametrize("traits", [RANGED, MELEE, AttackTraits(heavy=True), AttackTraits(armor_piercing=True)])
def test_cov_3__total_cover_cannot_be_targeted(traits: AttackTraits) -> None:
    dv = defense_value(creature(), None, None, RS, cover=Cover.TOTAL, attack=traits)
    assert not dv.targetable and dv.untargetable_reason in {"COV-3", "STC-8"}


@pytest.mark.rule("X-01", "AMOD-3")
@pytest.mark.parametrize(
    ("applies", "expected"), [(CoverApplies.RANGED_ONLY, 12), (CoverApplies.ALL_ATTACKS, 17)]
)
def test_x_01__cover_applies_to_melee_only_under_the_all_attacks_option(applies: CoverApplies, expected: int) -> None:
    rs = RS.with_options(defense={"cover_applies": applies})
    dv = defense_value(creature(AGI=2), None, None, rs, cover=Cover.HEAVY, attack=MELEE)
    assert dv.total == expected


@pytest.mark.rule("STC-2", "STC-3", "STC-4", "STC-5", "STC-6", "STC-7", "X-14")
@pytest.mark.parametrize(
    ("traits", "cover", "bonus", "why"),
    [
        pytest.param(AttackTraits(heavy=True), Cover.PARTIAL, 0, "STC-2", id="STC-2 heavy ignores light cover"),
        pytest.param(AttackTraits(), Cover.PARTIAL, 2, "COV-1", id="STC-3 standard vs light +2"),
        pytest.param(AttackTraits(heavy=True), Cover.HEAVY, 2, "STC-4", id="STC-4 heavy reduces heavy to light"),
        pytest.param(AttackTraits(armor_piercing=True), Cover.HEAVY, 2, "STC-5", id="STC-5 AP reduces heavy"),
        pytest.param(AttackTraits(armor_piercing=True), Cover.PARTIAL, 2, "COV-1", id="AP vs light unchanged"),
        pytest.param(AttackTraits(explosive=True), Cover.HEAVY, 0, "STC-6", id="STC-6 explosives ignore cover"),
        pytest.param(AttackTraits(), Cover.HEAVY, 5, "COV-2", id="STC-7 standard vs heavy +5"),
    ],
)
def test_stc__shooting_through_cover(traits: AttackTraits, cover: Cover, bonus: int, why: str) -> None:
    dv = defense_value(creature(), None, None, RS, cover=cover, attack=traits)
    assert dv.total == 10 + bonus
    cover_rules = [m.rule for m in dv.modifiers.applied if m.kind is ModifierKind.COVER]
    assert why in cover_rules + list(dv.notes)


@pytest.mark.rule("STC-8", "STC-9", "X-14")
@pytest.mark.parametrize(("same_side", "targetable"), [(False, False), (True, True)])
def test_stc_9__an_explosive_on_the_targets_side_of_total_cover_affects_it(same_side: bool, targetable: bool) -> None:
    traits = AttackTraits(explosive=True, same_side=same_side)
    dv = defense_value(creature(), None, None, RS, cover=Cover.TOTAL, attack=traits)
    assert dv.targetable is targetable
    assert dv.total == 10


@pytest.mark.rule("COV-4", "G-55")
def test_cov_4__leaning_out_loses_the_cover_benefit() -> None:
    dv = defense_value(creature(), None, None, RS, cover=Cover.HEAVY, leaning_out=True)
    assert dv.total == 10 and "COV-4" in dv.notes


@pytest.mark.rule("CS-5", "G-54", "DV-9")
def test_g_54__weak_point_drops_only_the_armor_bonus() -> None:
    target = creature(AGI=3)
    dv = defense_value(target, HEAVY_7, None, RS, weak_point=True)
    assert dv.total == 11 and dv.weak_point  # the ruling's worked number
    with_all = defense_value(target, HEAVY_7, SHIELD_2, RS, weak_point=True, cover=Cover.PARTIAL)
    assert with_all.total == 15  # shield and cover stay


@pytest.mark.rule("CS-5", "G-54")
def test_g_54__alternative_removes_the_whole_armor_line_including_the_cap() -> None:
    rs = RS.with_options(defense={"weak_point_armor_only": False})
    assert defense_value(creature(AGI=3), HEAVY_7, None, rs, weak_point=True).total == 13


@pytest.mark.rule("E-24", "X-01")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_e_24__both_editions_model_cover_as_dv_once(edition: str) -> None:
    dv = defense_value(creature(AGI=2), None, None, preset(edition), cover=Cover.PARTIAL)
    covers = [m for m in dv.modifiers.applied if m.kind is ModifierKind.COVER]
    assert dv.total == 14 and len(covers) == 1 and covers[0].value == 2


@pytest.mark.rule("DV-1", "DV-2")
@given(agi=st.integers(-5, 8), bonus=st.integers(0, 9), shield=st.integers(0, 3),
       category=st.sampled_from(list(ArmorCategory)))
def test_dv_1__total_equals_the_formula(agi: int, bonus: int, shield: int, category: ArmorCategory) -> None:
    cap = {ArmorCategory.LIGHT: 5, ArmorCategory.MEDIUM: 3, ArmorCategory.HEAVY: 1}[category]
    dv = defense_value(creature(AGI=agi), armor(category, bonus), Shield(id="s", name="s", bonus=shield), RS)
    assert dv.total == 10 + min(agi, cap) + bonus + shield
    assert dv.total == dv.modifiers.total
