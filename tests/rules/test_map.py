"""Multiple Attack Penalty: per attack roll (edition 2), per Strike action (edition 1), All-Out, TWF, G-41."""

from __future__ import annotations

import pytest

from ashfall.content.schema import Weapon
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Attribute
from ashfall.families.attacks.rules import AttackContext, attack_modifiers, resolve_attack
from ashfall.families.attacks.rules_activities import (
    ACTIVITIES,
    COUNTS_FOR_MAP,
    TAKES_MAP,
    Activity,
    AttackMode,
    action_cost,
    counts_for_map,
    takes_map,
)
from ashfall.families.attacks.rules_map import TwoWeapon, all_out_schedule, map_modifier, two_weapon_modifiers
from ashfall.rules.defense import defense_value
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import TwfSchedule
from tests.rules.attack_kit import CLAWS, KNIFE, RIFLE, SWORD, WARRIOR, creature

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")


def _value(prior: int, rs: Ruleset = ED2, *, strike_actions_before: int | None = None,
           extra_attack_second: bool = False) -> int:
    mod = map_modifier(prior, rs, strike_actions_before=strike_actions_before, extra_attack_second=extra_attack_second)
    return mod.value if mod else 0


@pytest.mark.rule("MAP-1", "MAP-2")
@pytest.mark.parametrize(("prior", "penalty"), [(0, 0), (1, -3), (2, -6), (3, -9)])
def test_map_1__each_earlier_attack_roll_adds_minus_3(prior: int, penalty: int) -> None:
    assert _value(prior) == penalty
    mod = map_modifier(prior, ED2)
    assert mod is None if prior == 0 else mod.rule == "MAP-1"


@pytest.mark.rule("MAP-1")
def test_map_1__the_step_is_a_ruleset_option() -> None:
    assert _value(2, ED2.with_options(attack={"map_step": -4})) == -8


@pytest.mark.rule("E-01")
@pytest.mark.parametrize(
    ("prior_rolls", "strikes_before", "extra", "ed1", "ed2"),
    [
        pytest.param(1, 0, True, 0, None, id="Extra Attack second attack 0/0 in ed1; no Extra Attack in ed2"),
        pytest.param(2, 1, False, -3, -6, id="second Strike action after Extra Attack: -3 vs -6"),
        pytest.param(3, 1, True, -3, None, id="0/0/-3/-3 in edition 1"),
        pytest.param(1, 1, False, -3, -3, id="plain second Strike is -3 in both"),
    ],
)
def test_e_01__edition_1_counts_strike_actions_and_exempts_extra_attack(
    prior_rolls: int, strikes_before: int, extra: bool, ed1: int, ed2: int | None
) -> None:
    assert _value(prior_rolls, ED1, strike_actions_before=strikes_before, extra_attack_second=extra) == ed1
    if ed2 is None:
        with pytest.raises(RuleViolation) as err:
            map_modifier(prior_rolls, ED2, strike_actions_before=strikes_before, extra_attack_second=extra)
        assert err.value.rule == "E-01"
    else:
        assert _value(prior_rolls, ED2, strike_actions_before=strikes_before) == ed2


@pytest.mark.rule("MAP-5", "MAA-7")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_maa_7__all_out_attack_is_0_3_6_in_both_editions(edition: str) -> None:
    values = [m.value if m else 0 for m in all_out_schedule(preset(edition))]
    assert values == [0, -3, -6]
    assert action_cost(Activity.ALL_OUT, preset(edition)) == 3


@pytest.mark.rule("MAA-1", "MAA-2", "MAA-3", "MAA-5", "MAA-7")
@pytest.mark.parametrize(
    ("activity", "actions"),
    [(Activity.STRIKE, 1), (Activity.POWER_STRIKE, 2), (Activity.FULL_AUTO, 2), (Activity.SWEEPING, 2),
     (Activity.ALL_OUT, 3), (Activity.RETURN_FIRE, None), (Activity.BRACE, None)],
)
def test_maa_1__activities_cost_2_or_3_actions(activity: Activity, actions: int | None) -> None:
    assert action_cost(activity, ED2) == actions


@pytest.mark.rule("G-41", "MAP-3", "MAP-4", "MAP-6", "MAP-9")
@pytest.mark.parametrize(
    ("activity", "takes", "counts"),
    [
        (Activity.STRIKE, True, True), (Activity.POWER_STRIKE, True, True), (Activity.SWEEPING, True, True),
        (Activity.FULL_AUTO, True, True), (Activity.ALL_OUT, True, True), (Activity.DISARM, True, True),
        (Activity.SPELL_ATTACK, True, True), (Activity.COUP_DE_GRACE, False, True),
        (Activity.RETURN_FIRE, False, False), (Activity.BRACE, False, False),
        (Activity.ATTACK_OF_OPPORTUNITY, False, False), (Activity.READIED, False, False),
        (Activity.SAVE_SPELL, False, False), (Activity.SUPPRESSIVE_FIRE, False, False),
        (Activity.CONSTRICTION, False, False), (Activity.MANEUVER, False, False),
    ],
)
def test_g_41__which_activities_take_and_advance_map(activity: Activity, takes: bool, counts: bool) -> None:
    assert (TAKES_MAP[activity], COUNTS_FOR_MAP[activity]) == (takes, counts)
    assert (takes_map(activity, ED2), counts_for_map(activity, ED2)) == (takes, counts)


def test_g_41__every_activity_is_in_the_tables() -> None:
    assert set(COUNTS_FOR_MAP) == set(TAKES_MAP) == set(ACTIVITIES) == set(Activity)


@pytest.mark.rule("MAP-3", "E-02")
def test_e_02__spell_attacks_count_for_map_only_in_edition_2() -> None:
    assert counts_for_map(Activity.SPELL_ATTACK, ED2) and takes_map(Activity.SPELL_ATTACK, ED2)
    assert not counts_for_map(Activity.SPELL_ATTACK, ED1) and not takes_map(Activity.SPELL_ATTACK, ED1)


@pytest.mark.rule("MAP-2", "MAP-3")
@pytest.mark.parametrize("mode", [AttackMode.SPELL, AttackMode.PSIONIC])
def test_map_2__spell_and_psionic_attack_rolls_take_map(mode: AttackMode) -> None:
    caster = creature("psion", WIS=3, spell_attribute=Attribute.WIS, psionic=True)
    ctx = AttackContext(activity=Activity.SPELL_ATTACK, map_modifier=map_modifier(1, ED2))
    mods, _ = attack_modifiers(caster, None, mode, ED2, ctx)
    assert sum(m.value for m in mods) == 3 + 2 - 3


@pytest.mark.rule("MAP-6", "RX-30")
def test_map_6__return_fire_ignores_a_supplied_map_and_takes_minus_2() -> None:
    ctx = AttackContext(activity=Activity.RETURN_FIRE, map_modifier=map_modifier(2, ED2))
    mods, _ = attack_modifiers(WARRIOR, RIFLE, AttackMode.RANGED, ED2, ctx)
    assert [m.rule for m in mods if m.value < 0] == ["RX-30"]
    assert sum(m.value for m in mods) == 2 + 2 - 2


@pytest.mark.rule("E-20", "RX-30")
def test_e_20__return_fire_has_no_penalty_in_edition_1() -> None:
    mods, _ = attack_modifiers(WARRIOR, RIFLE, AttackMode.RANGED, ED1, AttackContext(activity=Activity.RETURN_FIRE))
    assert sum(m.value for m in mods) == 4


@pytest.mark.rule("MAP-7", "NAT-1")
def test_map_7__natural_weapons_take_map_normally() -> None:
    ctx = AttackContext(map_modifier=map_modifier(1, ED2))
    mods, _ = attack_modifiers(WARRIOR, CLAWS, AttackMode.MELEE, ED2, ctx)
    assert sum(m.value for m in mods) == 4 + 2 - 3
    with ScriptedRng([10]) as rng:
        result = resolve_attack(WARRIOR, CLAWS, AttackMode.MELEE, defense_value(WARRIOR, None, None, ED2), ctx, rng,
                                ED2)
    assert result.mode is AttackMode.NATURAL and result.roll.total == 13 and result.counts_for_map


@pytest.mark.rule("X-11", "TWF-4", "TWF-5", "TWF-8", "MAP-8")
@pytest.mark.parametrize(
    ("number", "off_hand", "weapon", "schedule", "expected"),
    [
        pytest.param(1, False, SWORD, TwfSchedule.OWN_SCHEDULE, 0, id="main hand 0"),
        pytest.param(2, True, KNIFE, TwfSchedule.OWN_SCHEDULE, 0, id="TWF-4 Light off-hand 0"),
        pytest.param(2, True, SWORD, TwfSchedule.OWN_SCHEDULE, -2, id="TWF-5 non-Light off-hand -2"),
        pytest.param(3, True, SWORD, TwfSchedule.OWN_SCHEDULE, -5, id="TWF-8 third attack -3 plus -2"),
        pytest.param(3, False, SWORD, TwfSchedule.OWN_SCHEDULE, -3, id="TWF-8 third main-hand attack -3"),
        pytest.param(2, True, KNIFE, TwfSchedule.STRICT_MAP, -3, id="strict MAP off-hand Light -3"),
        pytest.param(2, True, SWORD, TwfSchedule.STRICT_MAP, -5, id="strict MAP off-hand non-Light -5"),
    ],
)
def test_x_11__two_weapon_schedule(number: int, off_hand: bool, weapon: Weapon, schedule: TwfSchedule,
                                    expected: int) -> None:
    rs = ED2.with_options(attack={"twf_schedule": schedule})
    twf = TwoWeapon(attack_number=number, off_hand=off_hand, main_hand=SWORD)
    mods = two_weapon_modifiers(twf, weapon, map_modifier(number - 1, rs), rs)
    assert sum(m.value for m in mods) == expected


@pytest.mark.rule("TWF-7", "TWF-4", "TWF-5")
@pytest.mark.parametrize(("weapon", "expected"), [(KNIFE, 0), (SWORD, -2)])
def test_twf_7__two_copies_of_one_weapon_follow_the_off_hand_rules(weapon: Weapon, expected: int) -> None:
    twf = TwoWeapon(attack_number=2, off_hand=True, main_hand=weapon)
    assert sum(m.value for m in two_weapon_modifiers(twf, weapon, None, ED2)) == expected


@pytest.mark.rule("E-40", "TWF-5")
def test_e_40__edition_1_refuses_a_non_light_off_hand() -> None:
    twf = TwoWeapon(attack_number=2, off_hand=True, main_hand=KNIFE)
    with pytest.raises(RuleViolation) as err:
        two_weapon_modifiers(twf, SWORD, None, ED1)
    assert err.value.rule == "E-40"
    assert sum(m.value for m in two_weapon_modifiers(twf, SWORD, None, ED2)) == -2


@pytest.mark.rule("TWF-1")
def test_twf_1__two_weapon_fighting_needs_a_weapon_in_hand() -> None:
    mage = creature("mage", INT=3, spell_attribute=Attribute.INT)
    ctx = AttackContext(two_weapon=TwoWeapon(attack_number=2, off_hand=True))
    with pytest.raises(RuleViolation) as err:
        attack_modifiers(mage, None, AttackMode.SPELL, ED2, ctx)
    assert err.value.rule == "TWF-1"
