"""Psionics (PSI-1..18, RX-20, E-23, G-26): attack attribute, save DC, Focus and Backlash as data."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.dice import roll
from ashfall.core.modifiers import ModifierKind
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Condition, DamageType, Save
from ashfall.families.psionics import rules as psi
from ashfall.rules import condition_durations as dur
from ashfall.rules.conditions import can_react, max_actions
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import preset

RS = preset("ashfall-2")
RS1 = preset("ashfall-1")
PSION = "psion"


@pytest.mark.rule("PSI-1", "PSI-2", "PSI-3")
def test_psi_3__psionic_attack_adds_wis_and_proficiency_against_dv() -> None:
    attack = psi.psionic_attack(4, 3, RS)
    assert attack.attribute is Attribute.WIS and attack.against == "DV"
    assert [(m.value, m.kind, m.rule) for m in attack.modifiers] == [
        (4, ModifierKind.ABILITY, rule("PSI-3")), (3, ModifierKind.PROFICIENCY, rule("PSI-3"))
    ]
    assert attack.general_attack_rules == rule("PSI-2") and attack.kind is psi.PowerKind.PSIONIC


@pytest.mark.rule("PSI-4", "PSI-5")
@pytest.mark.parametrize(
    ("wis", "prof", "focus", "total", "strained"),
    [(3, 2, 0, 13, False), (3, 2, 6, 13, False), (3, 2, 7, 14, True), (3, 2, 12, 14, True), (-1, 2, 0, 9, False),
     (5, 6, 9, 20, True)],
    ids=["psi_4_base", "psi_5_focus_6", "psi_5_focus_7", "psi_5_focus_12", "psi_4_negative_wis", "psi_5_high"],
)
def test_psi_4__save_dc_8_wis_prof_plus_1_strained(wis: int, prof: int, focus: int, total: int, strained: bool) -> None:
    dc = psi.psionic_save_dc(wis, prof, focus, RS)
    assert dc.total == total and dc.rule == rule("PSI-4")
    assert any(m.rule == rule("PSI-5") for m in dc.parts.applied) is strained
    assert (psi.strained(focus, RS) == rule("PSI-5")) is strained


@pytest.mark.rule("PSI-5")
def test_psi_5__strained_threshold_and_bonus_are_options() -> None:
    house = RS.with_options(psionics={"strained_focus": 5, "strained_dc_bonus": 2})
    assert psi.psionic_save_dc(3, 2, 5, house).total == 15


CALLS: dict[str, Callable[[], object]] = {
    "attack": lambda: psi.psionic_attack(3, 2, RS1),
    "dc": lambda: psi.psionic_save_dc(3, 2, 0, RS1),
    "focus": lambda: psi.gain_focus(psi.FocusState.start(PSION), 1, 0, RS1, wis=3, proficiency=2),
    "psi_strike": lambda: psi.psi_strike(3, 2, RS1),
}


@pytest.mark.rule("E-23")
@pytest.mark.parametrize("name", list(CALLS))
def test_e_23__edition_1_has_no_psionics(name: str) -> None:
    with pytest.raises(RuleViolation) as err:
        CALLS[name]()
    assert err.value.rule == rule("E-23")


@pytest.mark.rule("PSI-13")
def test_psi_13__focus_starts_at_0_each_encounter() -> None:
    assert psi.FocusState.start(PSION) == psi.FocusState(PSION, 0)


@pytest.mark.rule("PSI-14", "PSI-15")
@pytest.mark.parametrize(
    ("start", "gain", "mig", "backlash", "after"),
    [(0, 3, 0, False, 3), (8, 2, 0, False, 10), (8, 3, 0, True, 0), (10, 2, 2, False, 12), (10, 3, 2, True, 0),
     (4, 2, -5, True, 0), (0, 0, 0, False, 0)],
    ids=["psi_14_below", "psi_15_equal_is_safe", "psi_15_exceeds", "psi_14_mig_2_equal", "psi_14_mig_2_exceeds",
         "psi_14_negative_mig", "zero"],
)
def test_psi_15__backlash_only_when_focus_exceeds_10_plus_mig(
    start: int, gain: int, mig: int, backlash: bool, after: int
) -> None:
    result = psi.gain_focus(psi.FocusState(PSION, start), gain, mig, RS, wis=3, proficiency=2)
    assert result.threshold == 10 + mig
    assert (result.backlash is not None) is backlash
    assert result.state == psi.FocusState(PSION, after)


@pytest.mark.rule("PSI-15", "PSI-16", "G-26")
def test_psi_15__backlash_data_damage_area_save_and_stun() -> None:
    result = psi.gain_focus(psi.FocusState(PSION, 9), 3, 1, RS, wis=3, proficiency=2)
    b = result.backlash
    assert b is not None and b.rule == rule("PSI-15") and b.event_rule == rule("PSI-16")
    assert b.focus_reached == 12 and b.threshold == 11
    (own,) = b.self_damage
    (area,) = b.area_damage
    assert own.type is DamageType.PSYCHIC and area.type is DamageType.PSYCHIC
    assert own.dice is not None and area.dice is not None
    with ScriptedRng([(6, 1), (6, 2), (6, 3), (6, 6), (6, 6)]) as rng:
        assert roll(own.dice, rng).total == 6
        assert roll(area.dice, rng).total == 12
    assert b.area_radius_ft == 15 and b.area_save is Save.REFLEX
    # G-26: the psionic DC without the Strained +1 although Focus reached 12
    assert b.area_save_dc.total == 13 and b.area_save_dc.rule == rule("G-26")
    assert b.stunned.condition is Condition.STUNNED and b.stunned.rule == rule("PSI-15")
    assert b.stunned.source == PSION


@pytest.mark.rule("G-26")
def test_g_26__option_includes_strained_bonus_in_backlash_dc() -> None:
    house = RS.with_options(psionics={"backlash_dc_uses_strained": True})
    b = psi.gain_focus(psi.FocusState(PSION, 9), 3, 1, house, wis=3, proficiency=2).backlash
    assert b is not None and b.area_save_dc.total == 14


@pytest.mark.rule("PSI-15", "C-STU", "C-INC")
def test_psi_15__backlash_stun_lasts_through_the_psions_next_turn() -> None:
    b = psi.gain_focus(psi.FocusState(PSION, 10), 1, 0, RS, wis=3, proficiency=2).backlash
    assert b is not None
    held: tuple[dur.AppliedCondition, ...] = (b.stunned,)
    assert max_actions(dur.conditions_of(held), RS).actions == 0 and not can_react(dur.conditions_of(held), RS)
    start, end = dur.TurnEdge.START, dur.TurnEdge.END
    # the psion backlashes during its own turn in round 1
    held, gone = dur.expire(held, dur.TurnBoundary(PSION, end, 1))
    assert held and not gone
    held, gone = dur.expire(held, dur.TurnBoundary(PSION, start, 2))
    assert held and not gone
    held, gone = dur.expire(held, dur.TurnBoundary(PSION, end, 2))
    assert held == () and gone[0].condition is Condition.STUNNED


@given(st.integers(0, 15), st.integers(0, 8), st.integers(-3, 5))
def test_psi_15__focus_never_rests_above_the_threshold(start: int, gain: int, mig: int) -> None:
    threshold = 10 + mig
    if start > threshold:
        start = threshold
    result = psi.gain_focus(psi.FocusState(PSION, max(start, 0)), gain, mig, RS, wis=2, proficiency=2)
    assert result.state.focus <= threshold
    assert (result.backlash is not None) is (max(start, 0) + gain > threshold)


def test_gain_focus__negative_gain_is_an_input_error() -> None:
    with pytest.raises(ValueError, match="negative"):
        psi.gain_focus(psi.FocusState.start(PSION), -1, 0, RS, wis=0, proficiency=2)


@pytest.mark.rule("PSI-6", "RX-20", "PSI-1", "RX-17")
def test_psi_6__psionics_cannot_be_counterspelled() -> None:
    verdict = psi.can_be_counterspelled(psi.PowerKind.PSIONIC)
    assert not verdict and verdict.rule == rule("PSI-6")
    assert psi.can_be_counterspelled(psi.PowerKind.SPELL)


@pytest.mark.rule("PSI-7")
def test_psi_7__psionics_work_in_antimagic() -> None:
    assert psi.works_in_antimagic(psi.PowerKind.PSIONIC).rule == rule("PSI-7")
    assert psi.works_in_antimagic(psi.PowerKind.PSIONIC)
    assert not psi.works_in_antimagic(psi.PowerKind.SPELL)


@pytest.mark.rule("PSI-18", "PSI-3")
def test_psi_18__psi_strike_60_ft_1d8_plus_wis_force() -> None:
    strike = psi.psi_strike(3, 2, RS)
    assert strike.range_ft == 60 and strike.rule == rule("PSI-18")
    assert sum(m.value for m in strike.attack.modifiers) == 5
    dice_part, wis_part = strike.damage
    assert dice_part.type is DamageType.FORCE and wis_part.type is DamageType.FORCE and wis_part.flat == 3
    assert dice_part.dice is not None
    with ScriptedRng([(8, 5)]) as rng:
        assert roll(dice_part.dice, rng).total + wis_part.flat == 8


@pytest.mark.rule("PSI-9")
@pytest.mark.parametrize("damage_type", list(DamageType))
def test_psi_9__psionic_damage_is_typically_force_or_psychic(damage_type: DamageType) -> None:
    typical = damage_type in {DamageType.FORCE, DamageType.PSYCHIC}
    assert (psi.typical_psionic_type(damage_type) == rule("PSI-9")) is typical
