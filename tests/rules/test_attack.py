"""Attack rolls: formulas, modifiers, advantage sources, hits, crits and damage parts."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.schema import Creature, Weapon
from ashfall.core.modifiers import Advantage, Modifier, ModifierKind, resolve_advantage, stack
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Condition, DamageType
from ashfall.families.attacks.rules import AttackContext, AttackResult, Outcome, attack_modifiers, resolve_attack
from ashfall.families.attacks.rules_activities import AttackMode, attack_traits, provides_flanking, reach_of
from ashfall.families.attacks.rules_map import TwoWeapon
from ashfall.rules.damage_ledger import roll_damage
from ashfall.rules.defense import Cover, DefenseBreakdown, defense_value
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset, preset
from tests.rules.attack_kit import (
    CHAIR,
    CLAWS,
    GREATAXE,
    JAVELIN,
    KNIFE,
    LMG,
    RIFLE,
    SHOOTER,
    SWORD,
    WARRIOR,
    creature,
    melee,
)

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
R = rule("DV-1")


def dv(total: int) -> DefenseBreakdown:
    """A plain DV of ``total``."""
    return DefenseBreakdown(total, stack([Modifier(total, ModifierKind.DV_BASE, R, "DV")]))


def attack(faces: Sequence[int], *, who: Creature = WARRIOR, weapon: Weapon | None = SWORD,
           mode: AttackMode = AttackMode.MELEE, target: int | DefenseBreakdown = 15,
           ctx: AttackContext | None = None, rs: Ruleset = ED2) -> AttackResult:
    target_dv = dv(target) if isinstance(target, int) else target
    with ScriptedRng(faces) as rng:
        return resolve_attack(who, weapon, mode, target_dv, ctx or AttackContext(), rng, rs)


def total_of(weapon: Weapon | None, mode: AttackMode, ctx: AttackContext | None = None, *,
             who: Creature = WARRIOR, rs: Ruleset = ED2) -> int:
    mods, _ = attack_modifiers(who, weapon, mode, rs, ctx or AttackContext())
    return sum(m.value for m in mods)


# ----- formulas (ATK-1..3, PSI-3) -----


@pytest.mark.rule("ATK-1", "ATK-2", "ATK-3", "PSI-3")
@pytest.mark.parametrize(
    ("who", "weapon", "mode", "expected"),
    [
        pytest.param(WARRIOR, melee("blade", "1d8", bonus=1), AttackMode.MELEE, 4 + 2 + 1, id="ATK-1 MIG+prof+bonus"),
        pytest.param(SHOOTER, RIFLE, AttackMode.RANGED, 3 + 2, id="ATK-2 AGI+prof"),
        pytest.param(creature("mage", INT=4, spell_attribute=Attribute.INT), None, AttackMode.SPELL, 4 + 2,
                     id="ATK-3 INT+prof"),
        pytest.param(creature("seer", WIS=3, INT=5, spell_attribute=Attribute.WIS), None, AttackMode.SPELL, 3 + 2,
                     id="ATK-3 WIS caster"),
        pytest.param(creature("psion", WIS=3, psionic=True), None, AttackMode.PSIONIC, 3 + 2, id="PSI-3 WIS+prof"),
        pytest.param(SHOOTER, JAVELIN, AttackMode.THROWN, 3 + 2, id="thrown uses AGI"),
    ],
)
def test_atk_1_2_3__attack_roll_formulas(who: Creature, weapon: Weapon | None, mode: AttackMode,
                                          expected: int) -> None:
    assert total_of(weapon, mode, who=who) == expected


@pytest.mark.rule("ATK-3")
def test_atk_3__spell_attack_ignores_weapon_bonus_and_needs_a_spell_attribute() -> None:
    mage = creature("mage", INT=4, spell_attribute=Attribute.INT)
    wand = melee("wand", "1d6", bonus=3).model_copy(update={"kind": RIFLE.kind, "range_normal": 60})
    assert total_of(wand, AttackMode.SPELL, who=mage) == 6
    with pytest.raises(RuleViolation) as err:
        total_of(None, AttackMode.SPELL, who=WARRIOR)
    assert err.value.rule == "ATK-3"


@pytest.mark.rule("E-23")
def test_e_23__no_psionic_attacks_in_edition_1() -> None:
    with pytest.raises(RuleViolation) as err:
        total_of(None, AttackMode.PSIONIC, who=creature(WIS=3), rs=ED1)
    assert err.value.rule == "E-23"


@pytest.mark.rule("ATK-5")
@pytest.mark.parametrize(("only_if_proficient", "expected"), [(True, 4), (False, 6)])
def test_atk_5__proficiency_only_with_a_proficient_weapon(only_if_proficient: bool, expected: int) -> None:
    rs = ED2.with_options(attack={"proficiency_only_if_proficient": only_if_proficient})
    untrained = creature("farmer", MIG=4)  # simple weapons only
    assert total_of(SWORD, AttackMode.MELEE, who=untrained, rs=rs) == expected


@pytest.mark.rule("ATK-1", "ATK-2")
def test_atk_1__a_weapon_must_suit_the_mode() -> None:
    with pytest.raises(RuleViolation):
        total_of(RIFLE, AttackMode.MELEE)
    with pytest.raises(RuleViolation):
        total_of(SWORD, AttackMode.THROWN)
    with pytest.raises(RuleViolation):
        total_of(None, AttackMode.RANGED)


# ----- hit, miss, crit (ATK-4, CRIT-1, CRIT-3, CRIT-5, G-44) -----


@pytest.mark.rule("ATK-4", "G-45", "CRIT-1", "CRIT-3")
@pytest.mark.parametrize(
    ("face", "target", "outcome", "why"),
    [
        pytest.param(9, 15, Outcome.HIT, "ATK-4", id="ATK-4 9+6 meets DV 15"),
        pytest.param(8, 15, Outcome.MISS, "ATK-4", id="ATK-4 14 misses DV 15"),
        pytest.param(20, 40, Outcome.CRIT, "CRIT-1", id="CRIT-1 natural 20 hits and crits any DV"),
        pytest.param(1, 2, Outcome.MISS, "CRIT-3", id="CRIT-3 natural 1 misses whatever the bonus"),
        pytest.param(19, 10, Outcome.HIT, "ATK-4", id="19 is not a crit"),
    ],
)
def test_atk_4__meet_or_exceed_and_natural_20_1(face: int, target: int, outcome: Outcome, why: str) -> None:
    result = attack([face], target=target)
    assert result.outcome is outcome and why in result.reasons
    assert result.hit is (outcome is not Outcome.MISS)
    assert (result.damage_parts == ()) is (outcome is Outcome.MISS)


@pytest.mark.rule("CRIT-1", "CRIT-3")
def test_crit_1__natural_rules_are_options() -> None:
    rs = ED2.with_options(attack={"natural_20_hits": False, "natural_1_misses": False})
    assert attack([20], target=40, rs=rs).outcome is Outcome.MISS
    assert attack([1], target=2, rs=rs).outcome is Outcome.HIT


@pytest.mark.rule("CRIT-2", "G-40")
def test_crit_2__salvaged_sword_crit_is_2d10_plus_3() -> None:
    fighter = creature("f", MIG=3, weapon_proficiencies=frozenset({"martial"}))
    result = attack([20], who=fighter, weapon=melee("salvaged-sword", "1d10"))
    assert result.crit
    with ScriptedRng([(10, 7), (10, 4)]) as rng:
        dmg = roll_damage(result.damage_parts, rng, ED2, critical=result.crit)
    assert dmg.total == 7 + 4 + 3


@pytest.mark.rule("CRIT-5", "C-PAR", "C-UNC")
@pytest.mark.parametrize(
    ("condition", "within_5ft", "weapon", "mode", "outcome"),
    [
        (Condition.PARALYZED, True, SWORD, AttackMode.MELEE, Outcome.CRIT),
        (Condition.UNCONSCIOUS, True, SWORD, AttackMode.MELEE, Outcome.CRIT),
        (Condition.PARALYZED, False, SWORD, AttackMode.MELEE, Outcome.HIT),
        (Condition.PARALYZED, True, RIFLE, AttackMode.RANGED, Outcome.HIT),
        (Condition.STUNNED, True, SWORD, AttackMode.MELEE, Outcome.HIT),
    ],
)
def test_crit_5__melee_hits_within_5_ft_on_paralyzed_or_unconscious_crit(
    condition: Condition, within_5ft: bool, weapon: Weapon, mode: AttackMode, outcome: Outcome
) -> None:
    ctx = AttackContext(target_conditions=frozenset({condition}), within_5ft=within_5ft)
    # advantage from the condition: two faces, both high enough to hit DV 10 but not natural 20
    result = attack([12, 11], weapon=weapon, mode=mode, target=10, ctx=ctx)
    assert result.outcome is outcome


@pytest.mark.rule("CRIT-5")
def test_crit_5__an_auto_crit_still_needs_a_hit() -> None:
    ctx = AttackContext(target_conditions=frozenset({Condition.PARALYZED}))
    assert attack([3, 2], target=30, ctx=ctx).outcome is Outcome.MISS


@given(face=st.integers(1, 20), bonus=st.integers(-10, 15), target=st.integers(1, 35), auto=st.booleans())
@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-3", "CRIT-5", "G-44")
def test_invariant__hit_iff_nat20_or_total_meets_dv_and_crit_iff_nat20_or_auto_crit(
    face: int, bonus: int, target: int, auto: bool
) -> None:
    extra = (Modifier(bonus, ModifierKind.UNTYPED, R, "bonus"),)
    ctx = AttackContext(extra_modifiers=extra, target_conditions=frozenset({Condition.PARALYZED}) if auto
                        else frozenset())
    faces = [face, face] if auto else [face]  # Paralyzed grants advantage: two equal faces keep the same natural
    result = attack(faces, target=target, ctx=ctx)
    total = face + 6 + bonus
    assert result.roll.total == total
    assert result.hit == (face == 20 or (face != 1 and total >= target))
    assert result.crit == (face == 20 or (auto and result.hit))


# ----- modifiers and advantage (AMOD, POS) -----


@pytest.mark.rule("AMOD-1", "POS-1", "AMOD-2", "POS-4")
@pytest.mark.parametrize(
    ("weapon", "mode", "flank", "high", "expected"),
    [
        pytest.param(SWORD, AttackMode.MELEE, True, False, 8, id="AMOD-1 flanking +2 melee"),
        pytest.param(RIFLE, AttackMode.RANGED, True, False, 4, id="flanking does nothing for ranged"),
        pytest.param(RIFLE, AttackMode.RANGED, False, True, 6, id="AMOD-2 high ground +2 ranged"),
        pytest.param(SWORD, AttackMode.MELEE, False, True, 6, id="high ground does nothing for melee"),
    ],
)
def test_amod_1_2__flanking_and_high_ground(weapon: Weapon, mode: AttackMode, flank: bool, high: bool,
                                           expected: int) -> None:
    assert total_of(weapon, mode, AttackContext(flanking=flank, high_ground=high)) == expected


@pytest.mark.rule("POS-3", "E-22")
@pytest.mark.parametrize(
    ("conditions", "edition", "why"),
    [
        ({Condition.GRAPPLED}, "ashfall-2", "POS-3"), ({Condition.UNCONSCIOUS}, "ashfall-2", "POS-3"),
        ({Condition.INCAPACITATED}, "ashfall-2", "POS-3"), ({Condition.PRONE}, "ashfall-2", None),
        ({Condition.GRAPPLED}, "ashfall-1", None),
    ],
)
def test_pos_3__incapacitated_or_grappled_allies_do_not_flank(conditions: set[Condition], edition: str,
                                                             why: str | None) -> None:
    assert provides_flanking(conditions, preset(edition)) == why


def _state(weapon: Weapon | None, mode: AttackMode, ctx: AttackContext, who: Creature = WARRIOR,
           rs: Ruleset = ED2) -> tuple[Advantage, set[str]]:
    _, sources = attack_modifiers(who, weapon, mode, rs, ctx)
    return resolve_advantage(sources), {s.rule for s in sources}


@pytest.mark.rule("AMOD-4", "POS-5", "C-PRO", "X-02", "AMOD-5", "AMOD-6", "AMOD-7", "AMOD-8")
@pytest.mark.parametrize(
    ("weapon", "mode", "ctx", "state"),
    [
        pytest.param(SWORD, AttackMode.MELEE, AttackContext(target_conditions=frozenset({Condition.PRONE})),
                     Advantage.ADVANTAGE, id="AMOD-4 melee vs prone advantage"),
        pytest.param(RIFLE, AttackMode.RANGED, AttackContext(target_conditions=frozenset({Condition.PRONE}),
                                                             within_5ft=False),
                     Advantage.DISADVANTAGE, id="AMOD-4 ranged vs prone disadvantage"),
        pytest.param(SWORD, AttackMode.MELEE, AttackContext(attacker_conditions=frozenset({Condition.PRONE})),
                     Advantage.DISADVANTAGE, id="POS-5 prone attacker disadvantage"),
        pytest.param(SWORD, AttackMode.MELEE, AttackContext(unseen_attacker=True), Advantage.ADVANTAGE,
                     id="AMOD-5 unseen attacker advantage"),
        pytest.param(SWORD, AttackMode.MELEE, AttackContext(attacker_conditions=frozenset({Condition.BLINDED})),
                     Advantage.DISADVANTAGE, id="AMOD-6 blinded attacker disadvantage"),
        pytest.param(RIFLE, AttackMode.RANGED, AttackContext(hostile_within_5ft=True), Advantage.DISADVANTAGE,
                     id="AMOD-7 ranged with hostile within 5 ft"),
        pytest.param(RIFLE, AttackMode.RANGED, AttackContext(hostile_within_5ft=True, ranged_in_melee_exempt=True),
                     Advantage.NORMAL, id="AMOD-7 a feature overrides it"),
        pytest.param(SWORD, AttackMode.MELEE, AttackContext(hostile_within_5ft=True), Advantage.NORMAL,
                     id="AMOD-7 melee is unaffected"),
        pytest.param(RIFLE, AttackMode.RANGED, AttackContext(hostile_within_5ft=True, unseen_attacker=True),
                     Advantage.NORMAL, id="AMOD-8 advantage and disadvantage cancel"),
    ],
)
def test_amod__advantage_and_disadvantage_sources(weapon: Weapon, mode: AttackMode, ctx: AttackContext,
                                                  state: Advantage) -> None:
    assert _state(weapon, mode, ctx)[0] is state


@pytest.mark.rule("AMOD-7", "E-25")
def test_amod_7__spell_attacks_count_as_ranged() -> None:
    mage = creature("mage", INT=4, spell_attribute=Attribute.INT)
    state, rules = _state(None, AttackMode.SPELL, AttackContext(hostile_within_5ft=True), who=mage)
    assert state is Advantage.DISADVANTAGE and "AMOD-7" in rules


@pytest.mark.rule("E-25", "AMOD-7")
def test_e_25__ranged_in_melee_disadvantage_only_in_edition_2() -> None:
    ctx = AttackContext(hostile_within_5ft=True)
    assert _state(RIFLE, AttackMode.RANGED, ctx, rs=ED2)[0] is Advantage.DISADVANTAGE
    assert _state(RIFLE, AttackMode.RANGED, ctx, rs=ED1)[0] is Advantage.NORMAL
    ed2 = attack([18, 3], weapon=RIFLE, mode=AttackMode.RANGED, target=10, ctx=ctx, rs=ED2)
    ed1 = attack([18], weapon=RIFLE, mode=AttackMode.RANGED, target=10, ctx=ctx, rs=ED1)
    assert (ed2.outcome, ed1.outcome) == (Outcome.MISS, Outcome.HIT)


@pytest.mark.rule("E-24", "AMOD-3", "X-01")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_e_24__cover_never_appears_as_an_attack_penalty(edition: str) -> None:
    rs = preset(edition)
    mods, _ = attack_modifiers(SHOOTER, RIFLE, AttackMode.RANGED, rs, AttackContext())
    assert all(m.kind is not ModifierKind.COVER for m in mods)
    target = defense_value(creature(AGI=0), None, None, rs, cover=Cover.HEAVY,
                           attack=attack_traits(RIFLE, AttackMode.RANGED))
    result = attack([10], who=SHOOTER, weapon=RIFLE, mode=AttackMode.RANGED, target=target, rs=rs)
    assert result.roll.total == 15 and result.defense.total == 15 and result.hit


@pytest.mark.rule("COV-3", "STC-8")
def test_cov_3__attacking_behind_total_cover_is_refused_before_rolling() -> None:
    target = defense_value(creature(), None, None, ED2, cover=Cover.TOTAL)
    with pytest.raises(RuleViolation) as err:
        attack([], weapon=RIFLE, mode=AttackMode.RANGED, target=target)
    assert err.value.rule in {"COV-3", "STC-8"}


@pytest.mark.rule("STC-1", "STC-2", "STC-4", "STC-5")
def test_stc_1__attack_traits_come_from_weapon_properties() -> None:
    assert attack_traits(LMG, AttackMode.RANGED).heavy
    assert attack_traits(RIFLE, AttackMode.RANGED, armor_piercing_ammo=True).armor_piercing
    assert not attack_traits(SWORD, AttackMode.MELEE).ranged
    assert attack_traits(GREATAXE, AttackMode.MELEE).heavy


# ----- natural, unarmed and improvised weapons -----


@pytest.mark.rule("G-23", "NAT-2", "IMP-1", "DMG-2")
@pytest.mark.parametrize(
    ("mode", "dice", "dtype"),
    [
        (AttackMode.UNARMED, "1d4", DamageType.BLUDGEONING),
        (AttackMode.NATURAL, "1d6", DamageType.BLUDGEONING),
        (AttackMode.IMPROVISED, "1d4", DamageType.BLUDGEONING),
    ],
)
def test_nat_2_imp_1__default_weapon_dice_plus_mig(mode: AttackMode, dice: str, dtype: DamageType) -> None:
    who = creature("brute", MIG=3, weapon_proficiencies=frozenset({"simple", "improvised"}))
    result = attack([15], who=who, weapon=None, mode=mode, target=10)
    dice_part, mig = result.damage_parts
    assert str(dice_part.dice) == dice and dice_part.weapon_dice and dice_part.type is dtype
    assert (mig.label, mig.flat, mig.dice) == ("MIG", 3, None)


@pytest.mark.rule("NAT-2")
def test_nat_2__the_damage_type_is_chosen_per_attack() -> None:
    result = attack([15], weapon=CLAWS, target=10, ctx=AttackContext(damage_type=DamageType.PIERCING))
    assert {p.type for p in result.damage_parts} == {DamageType.PIERCING}
    with pytest.raises(RuleViolation):
        attack([15], weapon=CLAWS, target=10, ctx=AttackContext(damage_type=DamageType.FIRE))


@pytest.mark.rule("NAT-1")
def test_nat_1__natural_weapons_are_proficient_simple_melee_weapons() -> None:
    assert total_of(CLAWS, AttackMode.MELEE) == 6
    assert not attack_traits(CLAWS, AttackMode.MELEE).ranged


@pytest.mark.rule("NAT-6", "SWP-6")
def test_nat_6__natural_reach_is_5_ft_unless_a_feature_extends_it() -> None:
    assert reach_of(None, AttackMode.NATURAL, ED2) == 5
    assert reach_of(CLAWS.model_copy(update={"reach": 10}), AttackMode.NATURAL, ED2) == 10


@pytest.mark.rule("IMP-2")
@pytest.mark.parametrize(("proficiencies", "state"), [({"simple"}, Advantage.DISADVANTAGE),
                                                      ({"simple", "improvised"}, Advantage.NORMAL)])
def test_imp_2__improvised_weapons_attack_at_disadvantage_unless_proficient(proficiencies: set[str],
                                                                            state: Advantage) -> None:
    who = creature("x", MIG=2, weapon_proficiencies=frozenset(proficiencies))
    assert _state(CHAIR, AttackMode.MELEE, AttackContext(), who=who)[0] is state
    assert _state(None, AttackMode.IMPROVISED, AttackContext(), who=who)[0] is state


# ----- damage parts -----


@pytest.mark.rule("DMG-2", "DMG-3", "DMG-1")
def test_dmg__melee_adds_mig_ranged_adds_nothing_and_weapon_bonus_damage_is_flat() -> None:
    axe = melee("axe", "1d12", damage_bonus=1)
    melee_parts = attack([15], weapon=axe, target=10).damage_parts
    assert [(p.label, p.flat) for p in melee_parts] == [("axe", 0), ("MIG", 4), ("axe bonus", 1)]
    ranged_parts = attack([15], weapon=RIFLE, mode=AttackMode.RANGED, target=10).damage_parts
    assert [p.label for p in ranged_parts] == ["rifle"]


@pytest.mark.rule("TWF-4", "TWF-5", "TWF-6", "DMG-5")
@pytest.mark.parametrize(
    ("mig", "ability", "flat"),
    [(4, False, None), (-1, False, -1), (4, True, 4)],
)
def test_twf_4__off_hand_damage_has_no_attribute_unless_negative(mig: int, ability: bool, flat: int | None) -> None:
    who = creature("duelist", MIG=mig, weapon_proficiencies=frozenset({"simple", "martial"}))
    twf = TwoWeapon(attack_number=2, off_hand=True, main_hand=KNIFE, ability=ability)
    result = attack([19], who=who, weapon=KNIFE, target=5, ctx=AttackContext(two_weapon=twf))
    flats = [p.flat for p in result.damage_parts if p.label == "MIG"]
    assert flats == ([] if flat is None else [flat])
