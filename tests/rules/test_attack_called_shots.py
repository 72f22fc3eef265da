"""Called shots (CS-0..6, G-53, G-54, E-39): penalties, damage, riders, Weak Point DV and Vitals crits."""

from __future__ import annotations

import pytest

from ashfall.content.schema import Armor
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, Save
from ashfall.families.attacks.rules import AttackContext, AttackResult, Outcome, attack_modifiers, resolve_attack
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.attacks.rules_called_shots import CalledShot, RiderEffect, rider_dc
from ashfall.rules.checks import saving_throw
from ashfall.rules.defense import defense_value
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset, preset
from tests.rules.attack_kit import HEAVY_7, SWORD, WARRIOR, creature

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
TARGET = creature("raider", AGI=1, END=1)


def shot(called: CalledShot, face: int, *, rs: Ruleset = ED2, worn: Armor | None = None,
         weak: bool = False) -> AttackResult:
    target_dv = defense_value(TARGET, worn, None, rs, attack=None, weak_point=weak)
    with ScriptedRng([face]) as rng:
        return resolve_attack(WARRIOR, SWORD, AttackMode.MELEE, target_dv, AttackContext(called_shot=called), rng, rs)


@pytest.mark.rule("CS-2", "CS-3", "CS-4", "CS-5", "CS-6")
@pytest.mark.parametrize(
    ("called", "penalty"),
    [(CalledShot.HEAD, -5), (CalledShot.ARM, -3), (CalledShot.LEG, -3), (CalledShot.WEAK_POINT, -5),
     (CalledShot.VITALS, -4)],
)
def test_cs__called_shot_penalties(called: CalledShot, penalty: int) -> None:
    mods, _ = attack_modifiers(WARRIOR, SWORD, AttackMode.MELEE, ED2, AttackContext(called_shot=called))
    assert sum(m.value for m in mods) == 6 + penalty
    assert [m.rule for m in mods if m.value == penalty] == [f"CS-{2 + list(CalledShot).index(called)}"]


@pytest.mark.rule("CS-0")
def test_cs_0__called_shots_are_refused_when_the_optional_rule_is_off() -> None:
    rs = ED2.with_options(attack={"called_shots": False})
    with pytest.raises(RuleViolation) as err:
        shot(CalledShot.LEG, 15, rs=rs)
    assert err.value.rule == "CS-0"


@pytest.mark.rule("CS-2", "CS-1", "G-53", "G-13")
def test_cs_2__head_adds_2d6_and_a_fortitude_save_against_dazed() -> None:
    result = shot(CalledShot.HEAD, 15)
    assert result.hit and [str(p.dice) for p in result.damage_parts if p.rule == "CS-2"] == ["2d6"]
    (daze,) = result.riders
    assert (daze.effect, daze.save, daze.condition, daze.dc_is_damage_dealt) == (
        RiderEffect.DAZED, Save.FORTITUDE, Condition.DAZED, True)
    dc = rider_dc(daze, damage_dealt=14)
    assert dc.total == 14 and dc.rule == "CS-1"
    with ScriptedRng([13]) as rng:  # 13 + END 1 = 14 meets the DC: only the Daze is negated (G-53)
        assert saving_throw(TARGET, daze.save, dc, rng, ED2).success


@pytest.mark.rule("CS-3", "G-53", "G-22")
def test_cs_3__arm_is_a_mig_save_or_drop_an_item_of_the_attackers_choice() -> None:
    (drop,) = shot(CalledShot.ARM, 15).riders
    assert (drop.effect, drop.save, drop.attacker_chooses) == (RiderEffect.DROP_ITEM, Save.MIG, True)
    assert rider_dc(drop, 9).total == 9


@pytest.mark.rule("CS-4")
def test_cs_4__leg_slows_by_10_ft_until_the_end_of_its_next_turn_with_no_save() -> None:
    result = shot(CalledShot.LEG, 15)
    (slow,) = result.riders
    assert (slow.effect, slow.amount, slow.save) == (RiderEffect.SPEED_CHANGE, -10, None)
    with pytest.raises(RuleViolation):
        rider_dc(slow, 10)


@pytest.mark.rule("CS-5", "G-54", "DR-7")
def test_cs_5__weak_point_resolves_against_dv_without_armor_and_ignores_armor_dr() -> None:
    # heavy +7 with AGI 1: DV 18 normally, 11 for the Weak Point; 6 + 6 - 5 = 7 misses, 10 + 6 - 5 = 11 hits
    assert shot(CalledShot.WEAK_POINT, 10, worn=HEAVY_7, weak=True).hit
    assert not shot(CalledShot.WEAK_POINT, 6, worn=HEAVY_7, weak=True).hit
    (ignore,) = shot(CalledShot.WEAK_POINT, 10, worn=HEAVY_7, weak=True).riders
    assert ignore.effect is RiderEffect.IGNORE_ARMOR_DR


@pytest.mark.rule("CS-5")
@pytest.mark.parametrize(("called", "weak"), [(CalledShot.WEAK_POINT, False), (CalledShot.LEG, True)])
def test_cs_5__a_dv_computed_for_the_wrong_shot_is_refused(called: CalledShot, weak: bool) -> None:
    with pytest.raises(RuleViolation) as err:
        shot(called, 15, worn=HEAVY_7, weak=weak)
    assert err.value.rule == "CS-5"


@pytest.mark.rule("CS-6", "CRIT-5")
@pytest.mark.parametrize(("face", "outcome"), [(10, Outcome.CRIT), (4, Outcome.MISS)])
def test_cs_6__vitals_turns_a_hit_into_a_crit(face: int, outcome: Outcome) -> None:
    result = shot(CalledShot.VITALS, face)  # DV 11: 10 + 6 - 4 = 12 hits, 4 + 2 = 6 misses
    assert result.outcome is outcome
    assert ("CS-6" in result.reasons) is (outcome is Outcome.CRIT)


@pytest.mark.rule("E-39", "CS-6", "CS-2")
def test_e_39__edition_1_has_no_vitals_and_no_daze() -> None:
    with pytest.raises(RuleViolation) as err:
        shot(CalledShot.VITALS, 10, rs=ED1)
    assert err.value.rule == "E-39"
    assert shot(CalledShot.VITALS, 10, rs=ED2).crit
    ed1_head, ed2_head = shot(CalledShot.HEAD, 15, rs=ED1), shot(CalledShot.HEAD, 15, rs=ED2)
    assert ed1_head.riders == () and len(ed2_head.riders) == 1
    assert [p.rule for p in ed1_head.damage_parts] == [p.rule for p in ed2_head.damage_parts]


@pytest.mark.rule("CS-0")
def test_cs_0__riders_only_on_a_hit() -> None:
    miss = shot(CalledShot.HEAD, 2)
    assert miss.outcome is Outcome.MISS and miss.riders == () and miss.damage_parts == ()

