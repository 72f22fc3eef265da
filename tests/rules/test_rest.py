"""Short rests, Hit Dice and long rests (REST-1 to REST-9, G-48, G-17, X-07)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.rng import ScriptedRng, SeededRng
from ashfall.families.dying.rules_recovery import AbilityUse, Recovery, advance_time
from ashfall.families.dying.rules_rest import long_rest, short_rest, spend_hit_dice
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")


def spent(level: int, dice: int = 0, **changes: object) -> Recovery:
    return Recovery(level, "1d10", dice).evolve(**changes)


# ----- short rest -----


@pytest.mark.rule("REST-1", "REST-2", "G-48")
@pytest.mark.parametrize(
    ("level", "remaining", "recovered"),
    [
        pytest.param(1, 0, 1, id="g_48-level-1-minimum-1"),
        pytest.param(3, 0, 1, id="rest_2-level-3-rounds-down-to-1"),
        pytest.param(5, 0, 2, id="rest_2-level-5-gets-2"),
        pytest.param(10, 0, 5, id="rest_2-level-10-gets-5"),
        pytest.param(10, 8, 2, id="rest_2-never-above-level"),
    ],
)
def test_rest_2__short_rest_recovers_half_level_hit_dice(level: int, remaining: int, recovered: int) -> None:
    result = short_rest(spent(level, remaining), ED2)
    assert result.hit_dice_recovered == recovered
    assert result.recovery.hit_dice_remaining == remaining + recovered
    assert result.hours == 8 and "REST-1" in result.rules


@pytest.mark.rule("REST-4")
def test_rest_4__short_rest_restores_per_short_rest_abilities() -> None:
    rec = Recovery(4, short_rest_uses=(AbilityUse("second-wind", 1, 1), AbilityUse("surge", 2, 0)))
    result = short_rest(rec, ED2)
    assert result.abilities_restored == ("second-wind",)
    assert all(u.used == 0 for u in result.recovery.short_rest_uses)


@pytest.mark.rule("REST-5")
@pytest.mark.parametrize(
    ("slots", "choice", "restored", "after"),
    [
        pytest.param((1, 0, 1, 0), None, (3,), (1, 0, 2, 0), id="rest_5-default-highest-spent-up-to-3rd"),
        pytest.param((1, 0, 1, 0), 1, (1,), (2, 0, 1, 0), id="rest_5-chosen-1st"),
        pytest.param((4, 3, 3, 0), None, (), (4, 3, 3, 0), id="rest_5-4th-level-is-never-restored"),
    ],
)
def test_rest_5__short_rest_restores_one_slot_of_3rd_or_lower(
    slots: tuple[int, ...], choice: int | None, restored: tuple[int, ...], after: tuple[int, ...]
) -> None:
    rec = Recovery(7, slots_max=(4, 3, 3, 1), slots=slots)
    result = short_rest(rec, ED2, slot_level=choice)
    assert result.slots_restored == restored and result.recovery.slots == after


@pytest.mark.rule("REST-5")
@pytest.mark.parametrize("choice", [4, 2], ids=["rest_5-4th-refused", "rest_5-nothing-spent-at-2nd"])
def test_rest_5__bad_slot_choice_refused(choice: int) -> None:
    rec = Recovery(7, slots_max=(4, 3, 3, 1), slots=(1, 3, 1, 0))
    with pytest.raises(RuleViolation) as err:
        short_rest(rec, ED2, slot_level=choice)
    assert err.value.rule == "REST-5"


@pytest.mark.rule("REST-6")
def test_rest_6__one_short_rest_per_24_hours() -> None:
    first = short_rest(spent(4), ED2).recovery
    assert first.hours_since_short_rest == 8
    with pytest.raises(RuleViolation) as err:
        short_rest(first, ED2)
    assert err.value.rule == "REST-6"
    with pytest.raises(RuleViolation):
        short_rest(advance_time(first, 15), ED2)
    assert short_rest(advance_time(first, 16), ED2).recovery.hit_dice_remaining == 4


@pytest.mark.rule("REST-1")
def test_rest_1__short_rest_ages_timers_by_8_hours() -> None:
    rec = Recovery(2, stims_hours_ago=(3,), efm_lockout_hours=5, field_surgery_hours_ago=10)
    after = short_rest(rec, ED1).recovery
    assert (after.stims_hours_ago, after.efm_lockout_hours, after.field_surgery_hours_ago) == ((11,), 0, 18)


# ----- spending Hit Dice (REST-3) -----


@pytest.mark.rule("REST-3")
@pytest.mark.parametrize(
    ("faces", "end", "healed"),
    [
        pytest.param([7, 3], 2, 14, id="rest_3-roll-plus-end-per-die"),
        pytest.param([1, 10], -3, 7, id="rest_3-negative-end-never-below-0-per-die"),
    ],
)
def test_rest_3__spend_hit_dice(faces: list[int], end: int, healed: int) -> None:
    with ScriptedRng([(10, f) for f in faces]) as rng:
        result = spend_hit_dice(Health(1, 50), spent(5, 3), len(faces), end, rng, ED2)
    assert result.health.hp == 1 + healed
    assert result.recovery.hit_dice_remaining == 1
    assert [d.hp for d in result.dice] == [max(0, f + end) for f in faces]


@pytest.mark.rule("REST-3")
def test_rest_3__cannot_spend_more_hit_dice_than_remain() -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        spend_hit_dice(Health(1, 50), spent(5, 1), 2, 0, rng, ED2)
    assert err.value.rule == "REST-3"


# ----- long rest -----


@pytest.mark.rule("REST-7", "REST-8")
@pytest.mark.parametrize("ruleset", [ED1, ED2], ids=["ed1", "ed2"])
def test_rest_8__long_rest_restores_hp_hit_dice_and_slots(ruleset: Ruleset) -> None:
    rec = Recovery(6, "1d8", 1, (4, 3, 3), (0, 1, 0), (AbilityUse("second-wind", 1, 1),), medical_treatment_used=True)
    result = long_rest(Health(0, 30, vitality=Vitality.STABILIZED), rec, ruleset)
    assert result.days == 7
    assert result.health == Health(30, 30)
    assert result.recovery.hit_dice_remaining == 6 and result.recovery.slots == (4, 3, 3)
    assert result.recovery.use("second-wind") == AbilityUse("second-wind", 1, 0)
    assert not result.recovery.medical_treatment_used


@pytest.mark.rule("REST-9", "G-17")
@pytest.mark.parametrize(
    ("level", "extra_week", "after", "days", "needs_week"),
    [
        pytest.param(4, False, 0, 7, False, id="rest_9-levels-1-4-all-removed"),
        pytest.param(5, False, 5, 7, True, id="rest_9-level-5-needs-the-extra-week"),
        pytest.param(6, True, 0, 14, False, id="rest_9-level-6-removed-with-the-extra-week"),
    ],
)
def test_rest_9__long_rest_removes_exhaustion(
    level: int, extra_week: bool, after: int, days: int, needs_week: bool
) -> None:
    result = long_rest(Health(5, 10), Recovery(3, exhaustion=level), ED2, extra_week=extra_week)
    assert result.recovery.exhaustion == after and result.days == days
    assert result.needs_extra_week is needs_week and result.exhaustion_removed == level - after


@pytest.mark.rule("X-07", "RES-1")
def test_x_07__resurrection_exhaustion_comes_off_one_per_long_rest() -> None:
    rec, health = Recovery(3, exhaustion=2, resurrection_exhaustion=3), Health(1, 10)
    seen = []
    for _ in range(3):
        result = long_rest(health, rec, ED2)
        rec = result.recovery
        seen.append((rec.exhaustion, rec.resurrection_exhaustion))
        assert "X-07" in result.rules
    assert seen == [(0, 2), (0, 1), (0, 0)]


@pytest.mark.rule("DEATH-3")
def test_long_rest__the_dead_do_not_rest() -> None:
    with pytest.raises(RuleViolation):
        long_rest(Health(0, 10, vitality=Vitality.DEAD), Recovery(1), ED2)


@pytest.mark.rule("REST-3", "REST-8")
@given(seed=st.integers(0, 2**32), n=st.integers(1, 8), end=st.integers(-3, 5), hp=st.integers(0, 60))
def test_hit_dice_and_long_rest__hp_never_above_max(seed: int, n: int, end: int, hp: int) -> None:
    health = Health(hp, 60)
    result = spend_hit_dice(health, Recovery.fresh(8, "1d12"), n, end, SeededRng(seed), ED2)
    assert hp <= result.health.hp <= 60
    assert long_rest(result.health, result.recovery, ED2).health.hp == 60
