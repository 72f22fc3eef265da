"""Step 9 of the damage ledger: massive damage and damage to creatures at 0 HP (MASS, DEATH-1, DEATH-10..14, G-38)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from ashfall.core.types import Condition, DamageType
from ashfall.rules.damage import DamageResult, apply_damage
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

RS = preset("ashfall-2")
S, FIRE, COLD = DamageType.SLASHING, DamageType.FIRE, DamageType.COLD


def hit(health: Health, amounts: Mapping[DamageType, int], rs: Ruleset = RS, critical: bool = False,
        defenses: Defenses | None = None) -> DamageResult:
    return apply_damage(health, amounts, defenses or Defenses(), rs, critical=critical, source="test")


def dying(failures: int = 0, successes: int = 0, max_hp: int = 30) -> Health:
    return Health(0, max_hp, vitality=Vitality.DYING, failures=failures, successes=successes)


# ----- massive damage (MASS, G-50) -----


@pytest.mark.rule("MASS-1", "MASS-2")
@pytest.mark.parametrize(
    ("hp", "damage", "dead"),
    [(30, 60, True), (30, 59, False), (10, 40, True), (10, 39, False), (1, 31, True)],
    ids=["mass_2__30_max_takes_60", "59_is_dying", "mass_1__10_hp_takes_40", "39_is_dying", "1_hp_takes_31"],
)
def test_mass_1__hp_minus_damage_at_or_below_minus_max_hp_kills(hp: int, damage: int, dead: bool) -> None:
    result = hit(Health(hp, 30), {S: damage})
    assert result.health_after.is_dead is dead
    assert result.killed == ("MASS-1" if dead else None)
    assert result.dropped_to_zero and result.health_after.hp == 0


@pytest.mark.rule("MASS-2", "MASS-1")
def test_mass_2__30_max_hp_creature_takes_60_dies_instantly_no_death_saves() -> None:
    result = hit(Health.full(30), {S: 60})
    assert result.health_after.vitality is Vitality.DEAD
    assert result.conditions_gained == () and result.death_failures_added == 0


@pytest.mark.rule("MASS-1", "G-50")
def test_g_50__single_source_counts_all_types_together() -> None:
    assert hit(Health.full(30), {S: 30, FIRE: 30}).killed == "MASS-1"


@pytest.mark.rule("G-50", "MASS-1", "THP-1")
@pytest.mark.parametrize(("basis", "dead"), [("after-temp-hp", False), ("before-temp-hp", True)])
def test_g_50__massive_damage_counted_after_temp_hp(basis: str, dead: bool) -> None:
    health = Health(30, 30, temp_hp=10, temp_source="ward")
    result = hit(health, {S: 60}, rs=RS.with_options(damage={"massive_damage_basis": basis}))
    assert result.massive_counted == (50 if basis == "after-temp-hp" else 60)
    assert result.health_after.is_dead is dead
    assert result.health_after.vitality is (Vitality.DEAD if dead else Vitality.DYING)


@pytest.mark.rule("MASS-1")
def test_mass_1__option_off_drops_to_dying_instead() -> None:
    result = hit(Health.full(30), {S: 60}, rs=RS.with_options(damage={"massive_damage": False}))
    assert result.health_after.vitality is Vitality.DYING


@pytest.mark.rule("MASS-1", "RVI-1")
def test_mass_1__uses_damage_after_resistance() -> None:
    result = hit(Health.full(30), {S: 60}, defenses=Defenses(resistances=frozenset({S})))
    assert result.health_after.vitality is Vitality.DYING


# ----- dropping to 0 (DEATH-1, G-38) -----


@pytest.mark.rule("DEATH-1", "G-38")
@pytest.mark.parametrize(
    ("uses_saves", "npcs_die", "vitality", "killed"),
    [(True, True, Vitality.DYING, None), (False, True, Vitality.DEAD, "G-38"), (False, False, Vitality.DYING, None)],
    ids=["pc_starts_dying", "g_38__npc_dies_at_zero", "g_38__option_off_npc_dying"],
)
def test_death_1__dropping_to_zero(uses_saves: bool, npcs_die: bool, vitality: Vitality, killed: str | None) -> None:
    rs = RS.with_options(dying={"npcs_die_at_zero": npcs_die})
    result = hit(Health(10, 30, uses_death_saves=uses_saves), {S: 14}, rs=rs)
    after = result.health_after
    assert (after.hp, after.vitality, result.killed, result.dropped_to_zero) == (0, vitality, killed, True)
    assert result.total_to_hp == 10
    if vitality is Vitality.DYING:
        assert result.conditions_gained == ((Condition.UNCONSCIOUS, "DEATH-1"), (Condition.PRONE, "DEATH-1"))
        assert result.status_rule == "DEATH-1" and (after.failures, after.successes) == (0, 0)
    else:
        assert result.conditions_gained == ()


def test_damage_to_zero_hp_only_when_hp_reaches_zero() -> None:
    result = hit(Health(10, 30), {S: 9})
    assert (result.health_after.hp, result.dropped_to_zero, result.status_rule) == (1, False, None)


# ----- damage while dying (DEATH-10, DEATH-11, DEATH-12, DEATH-3) -----


@pytest.mark.rule("DEATH-10", "DEATH-11", "DEATH-3")
@pytest.mark.parametrize(
    ("failures", "critical", "after", "added", "why", "killed"),
    [
        (0, False, 1, 1, "DEATH-10", None),
        (0, True, 2, 2, "DEATH-11", None),
        (1, True, 3, 2, "DEATH-11", "DEATH-3"),
        (2, False, 3, 1, "DEATH-10", "DEATH-3"),
    ],
    ids=["death_10__any_damage_one_failure", "death_11__crit_two_failures", "crit_with_1_kills", "third_failure_kills"],
)
def test_death_10_11__damage_while_dying_marks_failures(
    failures: int, critical: bool, after: int, added: int, why: str, killed: str | None
) -> None:
    result = hit(dying(failures, successes=2), {S: 3}, critical=critical)
    assert (result.health_after.failures, result.death_failures_added, result.death_failure_rule) == (after, added, why)
    assert result.killed == killed
    assert result.health_after.vitality is (Vitality.DEAD if killed else Vitality.DYING)
    assert result.health_after.successes == 2


@pytest.mark.rule("DEATH-12", "MASS-3")
@pytest.mark.parametrize(("damage", "dead"), [(30, True), (29, False), (45, True)])
def test_death_12__damage_at_least_max_hp_while_dying_kills(damage: int, dead: bool) -> None:
    result = hit(dying(), {S: damage})
    assert result.killed == ("DEATH-12" if dead else None)
    assert result.health_after.failures == (0 if dead else 1)


@pytest.mark.rule("DEATH-10", "RVI-3", "THP-1")
@pytest.mark.parametrize(
    ("health", "defenses"),
    [
        (dying(), Defenses(immunities=frozenset({COLD}))),
        (Health(0, 30, temp_hp=5, vitality=Vitality.DYING), Defenses()),
    ],
    ids=["immune", "absorbed_by_temp_hp"],
)
def test_death_10__no_damage_taken_no_failure(health: Health, defenses: Defenses) -> None:
    result = hit(health, {COLD: 4}, defenses=defenses)
    assert result.death_failures_added == 0 and result.health_after.failures == 0


@pytest.mark.rule("DEATH-14", "DEATH-10", "DEATH-11", "MASS-3")
@pytest.mark.parametrize(
    ("resumes", "damage", "critical", "vitality", "failures", "killed"),
    [
        (True, 3, False, Vitality.DYING, 1, None),
        (True, 3, True, Vitality.DYING, 2, None),
        (False, 3, True, Vitality.STABILIZED, 0, None),
        (False, 30, False, Vitality.DEAD, 0, "MASS-3"),
        (True, 30, False, Vitality.DEAD, 0, "MASS-3"),
    ],
    ids=["death_14__resumes_dying", "crit_resumes_with_2", "option_off_stays_stabilized", "mass_3__overkill",
         "mass_3__overkill_resume_on"],
)
def test_death_14__damage_to_a_stabilized_creature(
    resumes: bool, damage: int, critical: bool, vitality: Vitality, failures: int, killed: str | None
) -> None:
    rs = RS.with_options(damage={"stabilized_damage_resumes_dying": resumes})
    result = hit(Health(0, 30, vitality=Vitality.STABILIZED), {S: damage}, rs=rs, critical=critical)
    assert (result.health_after.vitality, result.health_after.failures, result.killed) == (vitality, failures, killed)
    if vitality is Vitality.DYING:
        assert result.status_rule == "DEATH-14"


def test_dead_creature_is_unchanged_by_damage() -> None:
    corpse = Health(0, 30, vitality=Vitality.DEAD)
    result = hit(corpse, {S: 50}, critical=True)
    assert result.health_after == corpse and result.killed is None and result.death_failures_added == 0


@pytest.mark.rule("DEATH-11", "CRIT-2")
def test_death_11__critical_flag_comes_from_the_damage_roll() -> None:
    from ashfall.core.dice import parse
    from ashfall.core.rng import ScriptedRng
    from ashfall.core.rule_ids import rule
    from ashfall.rules.damage import roll_damage
    from ashfall.rules.damage_spec import DamagePart

    with ScriptedRng([(6, 1), (6, 1)]) as rng:
        rolled = roll_damage((DamagePart(S, rule("DMG-2"), "knife", parse("1d6"), 0, True),), rng, RS, critical=True)
    result = apply_damage(dying(), rolled, Defenses(), RS)
    assert result.critical and result.death_failures_added == 2
