"""Death saves, stabilising (edition 1 Medicine check vs edition 2 healing only) and waking (DEATH, C-STB)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.schema import Attributes, Creature
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, Skill
from ashfall.families.dying.rules import (
    DeathSaveOutcome,
    death_save,
    down_conditions,
    stabilize_with_medicine,
    stabilized_wake,
    start_of_turn,
)
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
MEDIC = Creature(id="medic", name="Medic", hp=10, attributes=Attributes(WIS=3),
                 skill_proficiencies=frozenset({Skill.MEDICINE}), proficiency=2)  # Medicine +5


def dying(successes: int = 0, failures: int = 0, max_hp: int = 20) -> Health:
    return Health(0, max_hp, vitality=Vitality.DYING, successes=successes, failures=failures)


def stabilised(max_hp: int = 20) -> Health:
    return Health(0, max_hp, vitality=Vitality.STABILIZED)


@pytest.mark.rule("DEATH-5", "DEATH-6", "DEATH-8")
@pytest.mark.parametrize(
    ("face", "outcome", "successes", "failures", "rule_id"),
    [
        pytest.param(10, DeathSaveOutcome.SUCCESS, 1, 0, "DEATH-5", id="death_5-10-is-a-success"),
        pytest.param(19, DeathSaveOutcome.SUCCESS, 1, 0, "DEATH-5", id="death_5-19-is-a-success"),
        pytest.param(9, DeathSaveOutcome.FAILURE, 0, 1, "DEATH-6", id="death_6-9-is-a-failure"),
        pytest.param(2, DeathSaveOutcome.FAILURE, 0, 1, "DEATH-6", id="death_6-2-is-a-failure"),
        pytest.param(1, DeathSaveOutcome.DOUBLE_FAILURE, 0, 2, "DEATH-8", id="death_8-natural-1-is-two-failures"),
    ],
)
def test_death_save__face_marks_success_or_failures(
    face: int, outcome: DeathSaveOutcome, successes: int, failures: int, rule_id: str
) -> None:
    with ScriptedRng([(20, face)]) as rng:
        result = death_save(dying(), rng, ED2)
    assert result.outcome is outcome
    assert (result.health.successes, result.health.failures) == (successes, failures)
    assert result.health.vitality is Vitality.DYING and result.health.hp == 0
    assert rule_id in result.rules


@pytest.mark.rule("DEATH-7", "DEATH-9")
def test_death_7__natural_20_regains_1_hp_conscious_and_resets_counters() -> None:
    with ScriptedRng([(20, 20)]) as rng:
        result = death_save(dying(successes=2, failures=2), rng, ED2)
    assert result.outcome is DeathSaveOutcome.NATURAL_20
    assert result.health == Health(1, 20, vitality=Vitality.ALIVE)
    assert {"DEATH-7", "DEATH-9"} <= set(result.rules)
    assert down_conditions(result.health).conditions == frozenset()


@pytest.mark.rule("DEATH-3", "DEATH-14", "DEATH-9")
@pytest.mark.parametrize(
    ("start", "face", "vitality"),
    [
        pytest.param(dying(successes=2), 10, Vitality.STABILIZED, id="death_3-third-success-stabilises"),
        pytest.param(dying(successes=2, failures=2), 15, Vitality.STABILIZED, id="death_3-two-two-then-success"),
        pytest.param(dying(failures=2), 5, Vitality.DEAD, id="death_3-third-failure-kills"),
        pytest.param(dying(failures=1), 1, Vitality.DEAD, id="death_8-natural-1-from-one-failure-kills"),
        pytest.param(dying(successes=2, failures=2), 1, Vitality.DEAD, id="death_8-natural-1-on-two-two-kills"),
    ],
)
def test_death_3__three_successes_stabilise_three_failures_kill(start: Health, face: int, vitality: Vitality) -> None:
    with ScriptedRng([(20, face)]) as rng:
        result = death_save(start, rng, ED2)
    assert result.health.vitality is vitality
    assert result.health.hp == 0
    assert (result.health.successes, result.health.failures) == (0, 0)  # DEATH-9: counters reset
    assert "DEATH-3" in result.rules
    if vitality is Vitality.STABILIZED:
        assert {"DEATH-14", "DEATH-9"} <= set(result.rules)
        assert result.successes == 3


@pytest.mark.rule("DEATH-4", "G-21")
def test_death_4__one_plain_d20_with_no_modifiers_and_no_advantage() -> None:
    with ScriptedRng([(20, 12)]) as rng:  # exactly one d20: no second die for advantage
        result = death_save(dying(), rng, ED2)
    assert result.roll.faces == (12,) and result.roll.total == 12
    assert result.roll.modifiers.applied == () and result.roll.sources == ()
    assert {"DEATH-4", "G-21"} <= set(result.rules)


@pytest.mark.rule("DEATH-2", "DEATH-14", "DEATH-3", "G-38")
@pytest.mark.parametrize(
    ("health", "rule_id"),
    [
        pytest.param(Health.full(20), "DEATH-2", id="death_2-alive-does-not-roll"),
        pytest.param(stabilised(), "DEATH-14", id="death_14-stabilised-makes-no-death-saves"),
        pytest.param(Health(0, 20, vitality=Vitality.DEAD), "DEATH-3", id="death_3-dead-does-not-roll"),
        pytest.param(Health(0, 20, vitality=Vitality.DYING, uses_death_saves=False), "G-38", id="g_38-npc"),
    ],
)
def test_death_save__refused_when_not_dying_and_nothing_is_rolled(health: Health, rule_id: str) -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        death_save(health, rng, ED2)
    assert err.value.rule == rule_id and err.value.reason


@pytest.mark.rule("DEATH-2")
def test_death_2__start_of_turn_rolls_only_while_dying() -> None:
    with ScriptedRng([]) as rng:
        assert start_of_turn(Health.full(20), rng, ED2) is None
        assert start_of_turn(stabilised(), rng, ED2) is None
    with ScriptedRng([(20, 3)]) as rng:
        result = start_of_turn(dying(), rng, ED2)
    assert result is not None and result.health.failures == 1


@pytest.mark.rule("DEATH-1", "DEATH-14", "C-STB")
@pytest.mark.parametrize(
    ("health", "expected"),
    [
        pytest.param(dying(), {Condition.UNCONSCIOUS, Condition.PRONE, Condition.INCAPACITATED, Condition.DYING},
                     id="death_1-dying-is-unconscious-prone-incapacitated"),
        pytest.param(stabilised(), {Condition.UNCONSCIOUS, Condition.PRONE, Condition.INCAPACITATED,
                                    Condition.STABILIZED}, id="death_14-stabilised-stays-unconscious"),
        pytest.param(Health.full(5), set(), id="alive-has-none"),
    ],
)
def test_death_1__down_conditions(health: Health, expected: set[Condition]) -> None:
    assert down_conditions(health).conditions == expected


# ----- stabilising with Medicine: edition 1 only (E-31, DEATH-17) -----


@pytest.mark.rule("DEATH-17", "E-31")
def test_death_17__edition_2_refuses_medicine_stabilise_without_rolling() -> None:
    start = dying(successes=1, failures=2)
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        stabilize_with_medicine(start, MEDIC, rng, ED2)
    assert err.value.rule == "DEATH-17"
    assert start == dying(successes=1, failures=2)


@pytest.mark.rule("E-31", "DEATH-14", "DEATH-9")
@pytest.mark.parametrize(
    ("face", "vitality"),
    [
        pytest.param(5, Vitality.STABILIZED, id="e_31-5+5-meets-dc-10"),
        pytest.param(4, Vitality.DYING, id="e_31-4+5-misses-dc-10"),
    ],
)
def test_e_31__edition_1_medicine_dc_10_stabilises_at_0_hp(face: int, vitality: Vitality) -> None:
    with ScriptedRng([(20, face)]) as rng:
        result = stabilize_with_medicine(dying(successes=1, failures=2), MEDIC, rng, ED1)
    assert result.check.dc.total == 10 and result.check.roll.total == face + 5
    assert result.actions == 1
    assert result.health.vitality is vitality and result.health.hp == 0
    if vitality is Vitality.STABILIZED:
        assert (result.health.successes, result.health.failures) == (0, 0)
        assert {"E-31", "DEATH-14", "DEATH-9"} <= set(result.rules)
        assert down_conditions(result.health).conditions >= {Condition.UNCONSCIOUS}
    else:
        assert result.health == dying(successes=1, failures=2)


@pytest.mark.rule("E-31")
def test_e_31__edition_1_medicine_check_refused_when_target_is_not_dying() -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        stabilize_with_medicine(stabilised(), MEDIC, rng, ED1)
    assert err.value.rule == "DEATH-14"


# ----- waking from stabilised (DEATH-15, X-08, C-STB) -----


@pytest.mark.rule("DEATH-15", "X-08", "C-STB")
@pytest.mark.parametrize("hours", [1, 2, 3, 4])
def test_death_15__stabilised_wakes_after_1d4_hours_at_1_hp(hours: int) -> None:
    with ScriptedRng([(4, hours)]) as rng:
        result = stabilized_wake(stabilised(), rng, ED2)
    assert result.hours.total == hours
    assert result.health == Health(1, 20, vitality=Vitality.ALIVE)
    assert {"DEATH-15", "X-08"} <= set(result.rules)


@pytest.mark.rule("C-STB")
@pytest.mark.parametrize("health", [dying(), Health.full(5), Health(0, 5, vitality=Vitality.DEAD)])
def test_c_stb__only_the_stabilised_wake_on_their_own(health: Health) -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        stabilized_wake(health, rng, ED2)
    assert err.value.rule == "C-STB"


# ----- property: a dying creature's saves always end quickly -----

_ENDS = {Vitality.STABILIZED, Vitality.DEAD, Vitality.ALIVE}


@pytest.mark.rule("DEATH-3", "DEATH-7", "DEATH-8")
@given(
    successes=st.integers(0, 2),
    failures=st.integers(0, 2),
    faces=st.lists(st.integers(1, 20), min_size=5, max_size=5),
    edition=st.sampled_from([ED1, ED2]),
)
def test_death_saves__always_end_stabilised_dead_or_revived_within_5_rolls(
    successes: int, failures: int, faces: list[int], edition: Ruleset
) -> None:
    health = dying(successes, failures)
    rng = ScriptedRng(faces)
    rolls = 0
    while health.vitality is Vitality.DYING:
        health = death_save(health, rng, edition).health
        rolls += 1
    assert health.vitality in _ENDS
    assert rolls <= 5 - successes - failures  # the worst case reaches 2 and 2, then one more roll
    assert (health.successes, health.failures) == (0, 0)
