"""Healing: the heal step, spells, Second Wind, stims, Medicine-check healing, Medical Bay, natural healing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.schema import Attributes, Creature
from ashfall.core.rng import ScriptedRng, SeededRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Skill
from ashfall.families.dying.rules_healing import (
    HEALING_SPELLS,
    SECOND_WIND,
    heal,
    heal_group,
    medical_bay,
    natural_healing,
    ritual_healing,
    roll_healing_spell,
    second_wind,
    use_stim,
)
from ashfall.families.dying.rules_medicine import emergency_field_medicine, field_surgery, medical_treatment
from ashfall.families.dying.rules_recovery import AbilityUse, Recovery, advance_time
from ashfall.families.dying.rules_rest import short_rest
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
SRC = rule("HEAL-1")
MEDIC = Creature(id="medic", name="Medic", hp=10, attributes=Attributes(WIS=3),
                 skill_proficiencies=frozenset({Skill.MEDICINE}), proficiency=2)  # Medicine +5, WIS +3
LVL5 = Recovery.fresh(5, "1d10")


def dying(successes: int = 0, failures: int = 0, max_hp: int = 20) -> Health:
    return Health(0, max_hp, vitality=Vitality.DYING, successes=successes, failures=failures)


# ----- the heal step (DEATH-13, DEATH-9, DEATH-16, THP-3) -----


@pytest.mark.rule("DEATH-13", "DEATH-9", "DEATH-16", "THP-3")
@pytest.mark.parametrize(
    ("start", "amount", "hp", "vitality", "rules"),
    [
        pytest.param(Health(5, 20), 10, 15, Vitality.ALIVE, set(), id="alive-heals"),
        pytest.param(Health(15, 20), 10, 20, Vitality.ALIVE, set(), id="capped-at-max-hp"),
        pytest.param(dying(1, 2), 5, 5, Vitality.ALIVE, {"DEATH-13", "DEATH-9"},
                     id="death_13-dying-healed-is-stable-and-conscious"),
        pytest.param(dying(2, 1), 0, 0, Vitality.STABILIZED, {"DEATH-13", "DEATH-9"},
                     id="death_13-zero-healing-still-stabilises-but-stays-unconscious"),
        pytest.param(Health(0, 20, vitality=Vitality.STABILIZED), 3, 3, Vitality.ALIVE, {"DEATH-16"},
                     id="death_16-healing-wakes-the-stabilised"),
        pytest.param(Health(4, 20, temp_hp=5, temp_source="x"), 3, 7, Vitality.ALIVE, {"THP-3"},
                     id="thp_3-temp-hp-are-not-healed"),
    ],
)
def test_heal__caps_stabilises_wakes_and_resets(
    start: Health, amount: int, hp: int, vitality: Vitality, rules: set[str]
) -> None:
    result = heal(start, amount, SRC, "test")
    assert result.health.hp == hp and result.health.vitality is vitality
    assert (result.health.successes, result.health.failures) == (0, 0)
    assert result.health.temp_hp == start.temp_hp
    assert result.gained == hp - start.hp and result.wasted == amount - result.gained
    assert result.rules[0] == "HEAL-1" and rules <= set(result.rules)


@pytest.mark.rule("DEATH-3")
def test_heal__the_dead_cannot_be_healed() -> None:
    with pytest.raises(RuleViolation) as err:
        heal(Health(0, 20, vitality=Vitality.DEAD), 10, SRC, "test")
    assert err.value.rule == "DEATH-3"
    with pytest.raises(ValueError, match="< 0"):
        heal(Health(5, 20), -1, SRC, "test")


# ----- healing spells (HEAL-1..3) and rituals (HEAL-7, X-13) -----


@pytest.mark.rule("HEAL-1", "HEAL-2", "HEAL-3")
@pytest.mark.parametrize(
    ("spell_id", "faces", "wis", "total", "level", "touch", "radius"),
    [
        pytest.param("healing-touch", [(8, 5)], 3, 8, 1, True, 0, id="heal_1-healing-touch-1d8+wis"),
        pytest.param("bind-wounds", [(8, 8), (8, 2)], 2, 12, 2, True, 0, id="heal_2-bind-wounds-2d8+wis"),
        pytest.param("mass-healing", [(8, f) for f in (1, 2, 3, 4, 5)], 3, 18, 5, False, 30,
                     id="heal_3-mass-healing-5d8+wis-30-ft"),
        pytest.param("healing-touch", [(8, 1)], -3, 0, 1, True, 0, id="heal_1-negative-total-heals-nothing"),
    ],
)
def test_roll_healing_spell__dice_plus_wis(
    spell_id: str, faces: list[tuple[int, int]], wis: int, total: int, level: int, touch: bool, radius: int
) -> None:
    with ScriptedRng(faces) as rng:
        result = roll_healing_spell(spell_id, wis, rng)
    assert result.total == total
    assert (result.spell.level, result.spell.touch, result.spell.radius_ft, result.spell.actions) == (
        level, touch, radius, 1)
    assert result.rules == (result.spell.rule,)


@pytest.mark.rule("HEAL-3")
def test_heal_3__mass_healing_one_roll_heals_every_ally_each_capped() -> None:
    with ScriptedRng([(8, 8)] * 5) as rng:
        amount = roll_healing_spell("mass-healing", 0, rng).total
    results = heal_group([Health(1, 50), Health(30, 35), dying()], amount, HEALING_SPELLS["mass-healing"].rule, "MH")
    assert [r.health.hp for r in results] == [41, 35, 20]
    assert results[2].health.vitality is Vitality.ALIVE


def test_roll_healing_spell__unknown_spell_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="unknown healing spell"):
        roll_healing_spell("cure-wounds", 3, ScriptedRng([]))


@pytest.mark.rule("HEAL-7", "X-13")
@pytest.mark.parametrize(("spell_id", "minutes"), [("healing-touch", 40), ("bind-wounds", 50), ("mass-healing", 80)])
def test_heal_7__ritual_takes_30_plus_10_per_level_minutes_and_no_slot(spell_id: str, minutes: int) -> None:
    dice = HEALING_SPELLS[spell_id].dice
    count = int(dice.split("d")[0])
    with ScriptedRng([(8, 4)] * count) as rng:
        result = ritual_healing(spell_id, 2, rng, ED2)
    assert result.minutes == minutes and result.slot_cost == 0
    assert result.healing.total == 4 * count + 2  # the full spell effect
    assert {"HEAL-7", "X-13"} <= set(result.rules)


# ----- Second Wind (HEAL-5, THP-5, E-30) -----


@pytest.mark.rule("HEAL-5", "E-30", "THP-5")
@pytest.mark.parametrize(
    ("ruleset", "faces", "hp", "temp"),
    [
        pytest.param(ED2, [(10, 6), (10, 4)], 1 + 6 + 4 + 5, 5, id="e_30-edition-2-2d10+level-and-level-temp-hp"),
        pytest.param(ED1, [(10, 6)], 1 + 6 + 2, 0, id="e_30-edition-1-1d10+end-no-temp-hp"),
    ],
)
def test_heal_5__second_wind_by_edition(ruleset: Ruleset, faces: list[tuple[int, int]], hp: int, temp: int) -> None:
    with ScriptedRng(faces) as rng:
        result = second_wind(Health(1, 40), LVL5, 2, rng, ruleset)
    assert result.health.hp == hp and result.health.temp_hp == temp
    assert result.actions == 1
    used = result.recovery.use(SECOND_WIND)
    assert used is not None and used.remaining == 0
    assert "HEAL-5" in result.rules
    assert ("THP-5" in result.rules) == (ruleset is ED2) and ("E-30" in result.rules) == (ruleset is ED1)


@pytest.mark.rule("HEAL-5", "REST-4")
def test_heal_5__second_wind_once_per_short_rest() -> None:
    with ScriptedRng([(10, 1), (10, 1)]) as rng:
        first = second_wind(Health(1, 40), LVL5, 0, rng, ED2)
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        second_wind(first.health, first.recovery, 0, rng, ED2)
    assert err.value.rule == "HEAL-5"
    rested = short_rest(first.recovery, ED2).recovery
    with ScriptedRng([(10, 1), (10, 1)]) as rng:
        again = second_wind(first.health, rested, 0, rng, ED2)
    assert again.health.hp == first.health.hp + 7


@pytest.mark.rule("THP-5", "THP-2")
def test_thp_5__second_wind_temp_hp_do_not_stack_higher_stays() -> None:
    start = Health(10, 40, temp_hp=8, temp_source="other")
    with ScriptedRng([(10, 1), (10, 1)]) as rng:
        result = second_wind(start, LVL5, 0, rng, ED2)
    assert result.health.temp_hp == 8 and result.temp is not None and not result.temp.applied


@pytest.mark.rule("DEATH-1")
def test_heal_5__a_creature_at_0_hp_cannot_use_second_wind() -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        second_wind(dying(), LVL5, 2, rng, ED2)
    assert err.value.rule == "DEATH-1"


# ----- stims (G-31, E-29) -----


@pytest.mark.rule("G-31", "E-29")
@pytest.mark.parametrize(
    ("tier", "faces", "healed", "credits"),
    [
        pytest.param(1, [(8, 3)], 5, 25, id="g_31-tier-1-1d8+2"),
        pytest.param(2, [(8, 1), (8, 1)], 4, 75, id="g_31-tier-2-2d8+2"),
        pytest.param(3, [(8, 8), (8, 8), (8, 8)], 26, 200, id="g_31-tier-3-3d8+2"),
    ],
)
@pytest.mark.parametrize("ruleset", [ED1, ED2], ids=["ed1", "ed2"])
def test_g_31__stim_tiers(ruleset: Ruleset, tier: int, faces: list[tuple[int, int]], healed: int, credits: int) -> None:
    with ScriptedRng(faces) as rng:
        result = use_stim(Health(1, 40), Recovery(1), tier, rng, ruleset)
    assert result.health.hp == 1 + healed and result.credits == credits and result.actions == 1
    assert result.recovery.stims_hours_ago == (0,)


@pytest.mark.rule("E-29")
@pytest.mark.parametrize("ruleset", [ED1, ED2], ids=["ed1", "ed2"])
def test_e_29__a_third_stim_within_24_hours_is_refused(ruleset: Ruleset) -> None:
    health, rec = Health(1, 40), Recovery(1)
    with ScriptedRng([(8, 1), (8, 1)]) as rng:
        for _ in range(2):
            result = use_stim(health, rec, 1, rng, ruleset)
            health, rec = result.health, advance_time(result.recovery, 1)
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        use_stim(health, rec, 1, rng, ruleset)
    assert err.value.rule == "E-29"
    later = advance_time(rec, 22)  # the first stim is now 24 hours old, the second 23
    with ScriptedRng([(8, 1)]) as rng:
        assert use_stim(health, later, 1, rng, ruleset).recovery.stims_hours_ago == (23, 0)


@pytest.mark.rule("G-31", "DEATH-13")
def test_g_31__stim_on_a_dying_ally_stabilises_and_wakes_it() -> None:
    with ScriptedRng([(8, 2)]) as rng:
        result = use_stim(dying(1, 2), Recovery(1), 1, rng, ED2)
    assert result.health.vitality is Vitality.ALIVE and result.health.hp == 4


@pytest.mark.rule("G-31")
def test_g_31__stims_off_or_unknown_tier_are_refused() -> None:
    off = ED2.with_options(healing={"stims_available": False})
    for ruleset, tier in ((off, 1), (ED2, 4), (ED2, 0)):
        with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
            use_stim(Health(1, 10), Recovery(1), tier, rng, ruleset)
        assert err.value.rule == "G-31"


# ----- Emergency Field Medicine (MAA-6, X-23, E-12, G-57) -----


@pytest.mark.rule("MAA-6", "X-23", "G-57")
@pytest.mark.parametrize(
    ("in_combat", "face", "success"),
    [
        pytest.param(False, 10, True, id="maa_6-dc-15-out-of-combat-met"),
        pytest.param(False, 9, False, id="maa_6-dc-15-missed"),
        pytest.param(True, 10, False, id="x_23-dc-20-in-combat-missed"),
        pytest.param(True, 15, True, id="x_23-dc-20-in-combat-met"),
    ],
)
def test_maa_6__emergency_field_medicine_dc_by_combat(in_combat: bool, face: int, success: bool) -> None:
    faces = [(20, face), (6, 6), (6, 2)] if success else [(20, face)]
    with ScriptedRng(faces) as rng:
        result = emergency_field_medicine(dying(0, 2), Recovery(1), MEDIC, rng, ED2, in_combat=in_combat)
    assert result.check.dc.total == (20 if in_combat else 15) and result.actions == 2
    assert result.check.success is success
    if success:
        assert result.health == Health(11, 20)  # 2d6 (8) + healer WIS 3; stabilised and conscious
        assert {"MAA-6", "G-57", "DEATH-13"} <= set(result.rules)
    else:
        assert result.health == dying(0, 2) and result.heal is None
    assert ("X-23" in result.rules) == in_combat


@pytest.mark.rule("E-12", "MAA-6")
@pytest.mark.parametrize(("ruleset", "lockout"), [(ED1, 8), (ED2, 0)], ids=["e_12-ed1-8h", "e_12-ed2-none"])
def test_e_12__failed_field_medicine_locks_out_in_edition_1_only(ruleset: Ruleset, lockout: int) -> None:
    with ScriptedRng([(20, 2)]) as rng:
        failed = emergency_field_medicine(Health(3, 20), Recovery(1), MEDIC, rng, ruleset, in_combat=False)
    assert failed.lockout_hours == lockout and failed.recovery.efm_lockout_hours == lockout
    retry = [(20, 20), (6, 1), (6, 1)]
    if lockout:
        with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
            emergency_field_medicine(Health(3, 20), failed.recovery, MEDIC, rng, ruleset, in_combat=False)
        assert err.value.rule == "E-12"
        later = advance_time(failed.recovery, lockout)
        with ScriptedRng(retry) as rng:
            assert emergency_field_medicine(Health(3, 20), later, MEDIC, rng, ruleset, in_combat=False).check.success
    else:
        with ScriptedRng(retry) as rng:
            ok = emergency_field_medicine(Health(3, 20), failed.recovery, MEDIC, rng, ruleset, in_combat=False)
        assert ok.health.hp == 3 + 2 + 3


@pytest.mark.rule("MAA-6", "G-44")
def test_maa_6__needs_a_kit_and_g_44_option_makes_natural_20_succeed() -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        emergency_field_medicine(Health(3, 20), Recovery(1), MEDIC, rng, ED2, in_combat=True, has_kit=False)
    assert err.value.rule == "MAA-6"
    weak = Creature(id="w", name="W", hp=5, skills={Skill.MEDICINE: -5})
    for ruleset, success in ((ED2, False), (ED2.with_options(checks={"natural_rules_on_saves": True}), True)):
        faces = [(20, 20), (6, 1), (6, 1)] if success else [(20, 20)]
        with ScriptedRng(faces) as rng:
            result = emergency_field_medicine(Health(3, 20), Recovery(1), weak, rng, ruleset, in_combat=True)
        assert result.check.success is success and result.check.roll.total == 15


# ----- Field Surgery (HEAL-6, G-49) -----


@pytest.mark.rule("HEAL-6", "G-49")
def test_heal_6__field_surgery_success_failure_and_24_hour_limit() -> None:
    start = Health(5, 60)
    with ScriptedRng([(20, 9)]) as rng:  # 9 + 5 = 14 < 15
        failed = field_surgery(start, Recovery(1), MEDIC, rng, ED2, in_combat=False)
    assert failed.health == start and failed.kit_uses_spent == 1 and failed.minutes == 10
    assert failed.recovery.field_surgery_hours_ago is None and "G-49" in failed.rules
    with ScriptedRng([(20, 10), (8, 8), (8, 1), (8, 1), (8, 1)]) as rng:  # G-49: a failure did not use the 24 h
        ok = field_surgery(start, failed.recovery, MEDIC, rng, ED2, in_combat=False)
    assert ok.health.hp == 5 + 11 + 3 and ok.kit_uses_spent == 0
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        field_surgery(ok.health, advance_time(ok.recovery, 23), MEDIC, rng, ED2, in_combat=False)
    assert err.value.rule == "HEAL-6"
    with ScriptedRng([(20, 1)]) as rng:
        field_surgery(ok.health, advance_time(ok.recovery, 24), MEDIC, rng, ED2, in_combat=False)


@pytest.mark.rule("HEAL-6")
@pytest.mark.parametrize(
    ("in_combat", "kit", "stable"), [(True, True, True), (False, False, True), (False, True, False)],
    ids=["in-combat", "no-kit", "unstable"],
)
def test_heal_6__field_surgery_refused_in_combat_or_without_kit_or_stability(
    in_combat: bool, kit: bool, stable: bool
) -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        field_surgery(Health(5, 60), Recovery(1), MEDIC, rng, ED2, in_combat=in_combat, has_kit=kit,
                      stable_environment=stable)
    assert err.value.rule == "HEAL-6"


# ----- Medical Treatment (HEAL-9) -----


@pytest.mark.rule("HEAL-9")
def test_heal_9__medical_treatment_2d8_once_per_rest_period() -> None:
    with ScriptedRng([(20, 1)]) as rng:
        failed = medical_treatment(Health(5, 60), Recovery(1), MEDIC, rng, ED2)
    assert failed.heal is None and not failed.recovery.medical_treatment_used
    with ScriptedRng([(20, 10), (8, 3), (8, 4)]) as rng:
        ok = medical_treatment(Health(5, 60), failed.recovery, MEDIC, rng, ED2)
    assert ok.health.hp == 12 and ok.hours == 1 and ok.recovery.medical_treatment_used
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        medical_treatment(ok.health, ok.recovery, MEDIC, rng, ED2)
    assert err.value.rule == "HEAL-9"
    rested = short_rest(ok.recovery, ED2).recovery
    with ScriptedRng([(20, 10), (8, 1), (8, 1)]) as rng:
        assert medical_treatment(ok.health, rested, MEDIC, rng, ED2).health.hp == 14
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation):
        medical_treatment(ok.health, rested, MEDIC, rng, ED2, has_supplies=False)


# ----- Medical Bay (HEAL-8, G-48) and natural healing (HEAL-10) -----


@pytest.mark.rule("HEAL-8", "G-48")
@pytest.mark.parametrize(
    ("max_hp", "hp", "hours", "per_hour", "after", "credits"),
    [
        pytest.param(30, 1, 1, 7, 8, 50, id="heal_8-25-percent-rounded-down"),
        pytest.param(30, 1, 3, 7, 22, 150, id="heal_8-three-hours"),
        pytest.param(3, 1, 1, 1, 2, 50, id="g_48-minimum-1-hp-per-hour"),
        pytest.param(40, 35, 2, 10, 40, 100, id="heal_8-capped-at-max"),
    ],
)
def test_heal_8__medical_bay(max_hp: int, hp: int, hours: int, per_hour: int, after: int, credits: int) -> None:
    result = medical_bay(Health(hp, max_hp), hours, ED2)
    assert (result.per_hour, result.heal.health.hp, result.credits) == (per_hour, after, credits)


@pytest.mark.rule("HEAL-10")
@pytest.mark.parametrize(("end", "days", "healed"), [(3, 2, 6), (0, 3, 3), (-2, 2, 2)])
def test_heal_10__natural_healing_end_per_day_minimum_1(end: int, days: int, healed: int) -> None:
    assert natural_healing(Health(1, 40), end, days, ED2).health.hp == 1 + healed


@pytest.mark.rule("HEAL-10")
def test_heal_10__natural_healing_needs_food_and_water() -> None:
    with pytest.raises(RuleViolation) as err:
        natural_healing(Health(1, 40), 2, 1, ED2, food_and_water=False)
    assert err.value.rule == "HEAL-10"


# ----- property: HP never exceed max HP whatever the healing sequence -----

_STEPS = st.sampled_from(["heal", "spell", "stim", "bay", "natural", "second-wind"])


@pytest.mark.rule("DEATH-13", "HEAL-8", "HEAL-10")
@given(
    max_hp=st.integers(1, 80),
    start=st.sampled_from(["alive", "dying", "stabilised"]),
    steps=st.lists(st.tuples(_STEPS, st.integers(0, 40)), max_size=12),
    seed=st.integers(0, 2**32),
    ruleset=st.sampled_from([ED1, ED2]),
)
def test_healing__hp_never_above_max(
    max_hp: int, start: str, steps: list[tuple[str, int]], seed: int, ruleset: Ruleset
) -> None:
    vit = {"alive": Vitality.ALIVE, "dying": Vitality.DYING, "stabilised": Vitality.STABILIZED}[start]
    health = Health(max_hp if vit is Vitality.ALIVE else 0, max_hp, vitality=vit)
    rec, rng = Recovery.fresh(3, "1d10", short_rest_uses=(AbilityUse(SECOND_WIND, 99),)), SeededRng(seed)
    for step, n in steps:
        if step == "heal":
            health = heal(health, n, SRC, "x").health
        elif step == "spell":
            health = heal(health, roll_healing_spell("mass-healing", n % 6, rng).total, SRC, "x").health
        elif step == "stim":
            health = use_stim(health, Recovery(1), 1 + n % 3, rng, ruleset).health
        elif step == "bay":
            health = medical_bay(health, 1 + n % 5, ruleset).heal.health
        elif step == "natural":
            health = natural_healing(health, n % 5 - 1, 1 + n % 3, ruleset).health
        elif not health.is_down:
            health = second_wind(health, rec, n % 4, rng, ruleset).health
        assert 0 <= health.hp <= health.max_hp
        assert health.hp == 0 or health.vitality is Vitality.ALIVE
