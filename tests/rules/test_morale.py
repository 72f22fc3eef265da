"""Morale as pure rules: Will, immunity, triggers, the Morale DC, outcomes, Rally, Breaking Points (MOR, G-01..G-04)."""

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.loader import default_library
from ashfall.content.schema import Attributes, BreakingOutcome, BreakingPointSpec, Creature, CreatureKind, MoraleProfile
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, Save
from ashfall.families.morale import rules as mr
from ashfall.families.morale.rules import (
    EventFacts,
    GroupMorale,
    Outcome,
    Status,
    Trigger,
    WillSource,
)
from ashfall.families.morale.rules_behaviour import (
    DIRECTIONS,
    BreakingFacts,
    BreakingKind,
    behaviour,
    breaking_points_met,
    breaking_status,
    cornered,
    dropped_on_break,
    flee_direction,
    parse_breaking_point,
)
from ashfall.rules.dc import fixed_dc
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
LIB = default_library()
FB, LD, HS, FE = Trigger.FIRST_BLOOD, Trigger.LEADER_DOWN, Trigger.HALF_STRENGTH, Trigger.FEAR_EFFECT


def npc(**kw: Any) -> Creature:
    base: dict[str, Any] = {"id": "npc", "name": "NPC", "hp": 10}
    return Creature(**{**base, **kw})


def will(value: int) -> mr.WillBasis:
    return mr.WillBasis(value, WillSource.MORALE_PROFILE, mr.Modifier(value, mr.ModifierKind.UNTYPED, mr.MOR_6, "w"))


def check(face: int, will_value: int, dc: int, **kw: Any) -> mr.MoraleCheck:
    with ScriptedRng([(20, face)]) as rng:
        return mr.morale_check(will(will_value), fixed_dc(dc, mr.MOR_14, "DC"), rng, ED2, **kw)


# ----- Will (MOR-5, MOR-6, G-01) -----


@pytest.mark.rule("MOR-6", "G-01", "G-22")
@pytest.mark.parametrize(
    ("creature", "value", "source"),
    [
        pytest.param(LIB.creature("bandit"), 2, WillSource.MORALE_PROFILE, id="mor_6-bandit-morale-will-2-not-will-1"),
        pytest.param(LIB.creature("bandit-leader"), 3, WillSource.WILL_SAVE, id="g_01-leader-uses-its-will-save"),
        pytest.param(LIB.creature("raider"), 2, WillSource.TYPE_DEFAULT, id="g_01-raider-is-a-bandit-plus-2"),
        pytest.param(LIB.creature("guard"), 4, WillSource.TYPE_DEFAULT, id="g_01-soldier-plus-4"),
        pytest.param(npc(morale=MoraleProfile(type="civilian")), 0, WillSource.TYPE_DEFAULT, id="g_01-civilian-0"),
        pytest.param(npc(morale=MoraleProfile(type="elite")), 6, WillSource.TYPE_DEFAULT, id="g_01-elite-6"),
        pytest.param(npc(morale=MoraleProfile(type="fanatic")), 6, WillSource.TYPE_DEFAULT, id="g_01-fanatic-6"),
        pytest.param(npc(saves={Save.WILL: 5}, morale=MoraleProfile(type="soldier")), 5, WillSource.WILL_SAVE,
                     id="g_01-explicit-will-save-beats-type"),
        pytest.param(npc(attributes=Attributes(WIS=3)), 3, WillSource.DERIVED_WILL, id="g_22-no-type-wis-will"),
    ],
)
def test_morale_will__profile_then_will_save_then_type_default(creature: Creature, value: int,
                                                               source: WillSource) -> None:
    basis = mr.morale_will(creature, ED2)
    assert (basis.value, basis.source) == (value, source)
    assert basis.modifier.value == value and basis.modifier.rule in ("MOR-6", "G-01", "G-22")


@pytest.mark.rule("G-01")
def test_g_01__type_defaults_are_options() -> None:
    rs = ED2.with_options(morale={"will_bandit": 3})
    assert mr.morale_will(LIB.creature("raider"), rs).value == 3


@pytest.mark.rule("MOR-4")
@pytest.mark.parametrize(("values", "shared"), [([2, 2, 2, 3], 2), ([3, 2], 2), ([4, 4, 1], 4), ([5], 5)])
def test_mor_4__group_rolls_with_the_will_most_members_share(values: list[int], shared: int) -> None:
    basis = mr.group_will([will(v) for v in values])
    assert basis.value == shared and basis.modifier.rule == "MOR-4"


def test_mor_4__empty_group_cannot_check() -> None:
    with pytest.raises(ValueError, match="at least one"):
        mr.group_will([])


# ----- immunity (MOR-2, MOR-33, MOR-35, MOR-37) -----


@pytest.mark.rule("MOR-2", "MOR-33", "MOR-35", "MOR-37", "G-01")
@pytest.mark.parametrize(
    ("creature", "encounter", "expected"),
    [
        pytest.param(LIB.creature("warrior"), False, "MOR-2", id="mor_2-pcs-never-check"),
        pytest.param(npc(kind=CreatureKind.PC, boss=True), False, "MOR-2", id="mor_2-pc-before-boss"),
        pytest.param(npc(boss=True), False, "MOR-33", id="mor_33-boss"),
        pytest.param(npc(legendary=True), False, "MOR-33", id="mor_33-legendary"),
        pytest.param(npc(mindless=True), False, "MOR-35", id="mor_35-mindless"),
        pytest.param(npc(undead=True), False, "MOR-35", id="mor_35-undead"),
        pytest.param(LIB.creature("security-drone"), False, "MOR-35", id="mor_35-security-drone"),
        pytest.param(LIB.creature("automated-turret"), False, "MOR-35", id="mor_35-turret"),
        pytest.param(npc(morale=MoraleProfile(immune=True)), False, "G-01", id="g_01-stat-block-immune"),
        pytest.param(LIB.creature("bandit"), True, "MOR-37", id="mor_37-declared-immune-this-encounter"),
        pytest.param(LIB.creature("bandit"), False, None, id="bandit-checks"),
        pytest.param(LIB.creature("raider-boss"), False, None, id="mor_33-a-gang-leader-is-no-boss"),
    ],
)
def test_immunity__reason_rule(creature: Creature, encounter: bool, expected: str | None) -> None:
    assert mr.immunity(creature, ED2, encounter_immune=encounter) == expected


@pytest.mark.rule("MOR-33")
def test_mor_33__bosses_check_when_the_option_is_off() -> None:
    assert mr.immunity(npc(boss=True), ED2.with_options(morale={"bosses_immune": False})) is None


# ----- triggers (MOR-7..13) -----


@pytest.mark.rule("MOR-7", "MOR-8", "MOR-9", "MOR-10", "MOR-11", "MOR-12")
@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        pytest.param(EventFacts(5, 0, 1), {FB}, id="mor_7-first-kill-is-first-blood"),
        pytest.param(EventFacts(5, 1, 1, first_blood_done=True), set(), id="mor_7-second-kill-is-not"),
        pytest.param(EventFacts(5, 0, 0, leader_down=True), {LD}, id="mor_8-leader-stunned"),
        pytest.param(EventFacts(5, 0, 1, leader_down=True), {FB, LD}, id="mor_12-leader-is-also-first-kill"),
        pytest.param(EventFacts(4, 1, 1, first_blood_done=True), {HS}, id="mor_9-2-of-4-is-half"),
        pytest.param(EventFacts(4, 2, 1, first_blood_done=True), set(), id="mor_9-half-fires-once"),
        pytest.param(EventFacts(5, 1, 1, first_blood_done=True), set(), id="mor_9-2-of-5-is-not-half"),
        pytest.param(EventFacts(5, 2, 1, first_blood_done=True), {HS}, id="mor_9-3-of-5-is-half"),
        pytest.param(EventFacts(2, 0, 1), {FB, HS}, id="mor_9-1-of-2-first-blood-and-half"),
        pytest.param(EventFacts(5, 0, 0, fear=True), {FE}, id="mor_10-fear-effect"),
        pytest.param(EventFacts(5), set(), id="mor_11-nothing-happened"),
    ],
)
def test_triggers_for__each_event_fires_a_set(facts: EventFacts, expected: set[Trigger]) -> None:
    assert mr.triggers_for(facts, ED2) == expected


@pytest.mark.rule("MOR-13")
def test_mor_13__two_events_in_one_round_each_trigger() -> None:
    first = mr.triggers_for(EventFacts(6, 0, 1), ED2)
    second = mr.triggers_for(EventFacts(6, 1, 0, leader_down=True, first_blood_done=True), ED2)
    assert first == {FB} and second == {LD}


@pytest.mark.rule("MOR-8")
@pytest.mark.parametrize(
    ("conditions", "unable"),
    [({Condition.STUNNED}, True), ({Condition.PARALYZED}, True), ({Condition.UNCONSCIOUS}, True),
     ({Condition.INCAPACITATED}, True), ({Condition.PRONE}, False), ({Condition.FRIGHTENED}, False), (set(), False)],
)
def test_mor_8__leader_unable_to_command(conditions: set[Condition], unable: bool) -> None:
    assert (mr.unable_to_command(conditions) is not None) is unable


@pytest.mark.rule("G-02")
@pytest.mark.parametrize(("own", "opp", "out"), [(3, 4, True), (4, 4, False), (5, 4, False)])
def test_g_02__outnumbered_means_fewer_active_combatants(own: int, opp: int, out: bool) -> None:
    assert mr.is_outnumbered(own, opp) is out


# ----- DC (MOR-14, MOR-15, G-02) -----


@pytest.mark.rule("MOR-15")
def test_mor_15__leader_killed_while_outnumbered_is_dc_18() -> None:
    dc = mr.morale_dc({LD}, ED2, outnumbered=True)
    assert dc.total == 18
    assert [(m.label, m.value, m.rule) for m in dc.parts.applied] == [
        ("base Morale DC", 12, "MOR-14"), ("Leader Down", 4, "MOR-15"), ("outnumbered", 2, "MOR-15")]


@pytest.mark.rule("MOR-14", "G-02")
@pytest.mark.parametrize(
    ("triggers", "outnumbered", "total"),
    [
        pytest.param(set(), False, 12, id="mor_14-base-12"),
        pytest.param({FB}, False, 14, id="g_02-first-blood-2"),
        pytest.param({HS}, False, 16, id="g_02-half-strength-4"),
        pytest.param({FE}, False, 12, id="g_02-fear-0"),
        pytest.param({FB, LD}, False, 18, id="mor_14-first-blood-and-leader-stack"),
        pytest.param({FB, LD}, True, 20, id="mor_14-plus-outnumbered"),
        pytest.param({FB, LD, HS, FE}, True, 24, id="mor_14-everything-stacks"),
    ],
)
def test_mor_14__circumstance_modifiers_stack(triggers: set[Trigger], outnumbered: bool, total: int) -> None:
    dc = mr.morale_dc(triggers, ED2, outnumbered=outnumbered)
    assert dc.total == total and dc.rule == "MOR-14"
    assert all(m.rule for m in dc.parts.applied) and not dc.parts.suppressed


@pytest.mark.rule("G-02")
def test_g_02__dc_modifiers_are_options() -> None:
    rs = ED2.with_options(morale={"first_blood_dc": 3, "base_dc": 10})
    assert mr.morale_dc({FB}, rs).total == 13


# ----- the check and its outcomes (MOR-3, G-03, G-44, G-45, G-14) -----


@pytest.mark.rule("MOR-3", "G-45", "G-03")
@pytest.mark.parametrize(
    ("face", "outcome"),
    [(16, Outcome.HOLD), (20, Outcome.HOLD), (15, Outcome.FALL_BACK), (12, Outcome.FALL_BACK),
     (11, Outcome.BREAK), (1, Outcome.BREAK)],
)
def test_mor_3__1d20_plus_will_against_dc_meet_or_exceed_holds(face: int, outcome: Outcome) -> None:
    result = check(face, 2, 18)
    assert result.roll.total == face + 2 and result.outcome is outcome
    assert "G-45" in result.reasons and "G-03" in result.reasons


@pytest.mark.rule("G-03", "MOR-15")
def test_g_03__bandits_plus_2_vs_dc_18_hold_25_fall_back_20_break_55() -> None:
    dc = mr.morale_dc({LD}, ED2, outnumbered=True)
    bandit = mr.morale_will(LIB.creature("bandit"), ED2)
    counts: Counter[Outcome] = Counter()
    for face in range(1, 21):
        with ScriptedRng([(20, face)]) as rng:
            counts[mr.morale_check(bandit, dc, rng, ED2).outcome] += 1
    assert {o: n * 5 for o, n in counts.items()} == {Outcome.HOLD: 25, Outcome.FALL_BACK: 20, Outcome.BREAK: 55}


@pytest.mark.rule("G-03")
def test_g_03__band_width_is_an_option() -> None:
    rs = ED2.with_options(morale={"fall_back_band": 10})
    assert mr.outcome_of(8, 18, rs) is Outcome.FALL_BACK and mr.outcome_of(8, 18, ED2) is Outcome.BREAK


@pytest.mark.rule("G-44")
@pytest.mark.parametrize(("face", "will_value", "dc", "outcome"),
                         [(20, 0, 25, Outcome.BREAK), (1, 20, 18, Outcome.HOLD)])
def test_g_44__no_automatic_results_on_natural_20_or_1(face: int, will_value: int, dc: int,
                                                       outcome: Outcome) -> None:
    assert check(face, will_value, dc).outcome is outcome


@pytest.mark.rule("G-14", "MOR-30")
def test_g_14__shaken_rolls_morale_at_disadvantage() -> None:
    with ScriptedRng([(20, 17), (20, 4)]) as rng:
        result = mr.morale_check(will(2), fixed_dc(18, mr.MOR_14, "DC"), rng, ED2, conditions={Condition.SHAKEN})
    assert result.roll.faces == (17, 4) and result.roll.natural == 4 and result.outcome is Outcome.BREAK
    assert [s.rule for s in result.roll.sources] == ["G-14"]


@pytest.mark.rule("MOR-29", "MOR-32")
def test_mor_32__extra_will_modifiers_and_sources_apply() -> None:
    penalty = mr.Modifier(-1, mr.ModifierKind.CONDITION, mr.rule("MOR-32"), "Psychic Fracture")
    assert check(16, 2, 18, modifiers=[penalty]).outcome is Outcome.FALL_BACK


@given(st.integers(-10, 40), st.integers(-10, 40), st.integers(0, 30))
def test_g_03__a_higher_total_is_never_a_worse_outcome(a: int, b: int, dc: int) -> None:
    rank = {Outcome.HOLD: 0, Outcome.FALL_BACK: 1, Outcome.BREAK: 2}
    lo, hi = sorted((a, b))
    assert rank[mr.outcome_of(hi, dc, ED2)] <= rank[mr.outcome_of(lo, dc, ED2)]


# ----- statuses (MOR-20, MOR-26) -----


@pytest.mark.rule("MOR-20", "MOR-26")
@pytest.mark.parametrize(
    ("current", "outcome", "rallied", "after"),
    [
        pytest.param(Status.HOLD, Outcome.FALL_BACK, False, Status.FALL_BACK, id="hold-fails-to-fall-back"),
        pytest.param(Status.HOLD, Outcome.BREAK, False, Status.BROKEN, id="hold-breaks"),
        pytest.param(Status.FALL_BACK, Outcome.HOLD, False, Status.FALL_BACK, id="mor_20-fall-back-persists"),
        pytest.param(Status.FALL_BACK, Outcome.BREAK, False, Status.BROKEN, id="fall-back-breaks"),
        pytest.param(Status.BROKEN, Outcome.FALL_BACK, False, Status.BROKEN, id="broken-never-improves"),
        pytest.param(Status.HOLD, Outcome.FALL_BACK, True, Status.ROUTED, id="mor_26-fail-after-rally-routs"),
        pytest.param(Status.HOLD, Outcome.HOLD, True, Status.HOLD, id="mor_26-pass-after-rally-holds"),
        pytest.param(Status.ROUTED, Outcome.BREAK, True, Status.ROUTED, id="mor_26-rout-is-permanent"),
        pytest.param(Status.SURRENDERED, Outcome.HOLD, False, Status.SURRENDERED, id="surrender-is-final"),
    ],
)
def test_next_status__only_worsens(current: Status, outcome: Outcome, rallied: bool, after: Status) -> None:
    assert mr.next_status(current, outcome, rallied) is after


@pytest.mark.rule("MOR-9", "MOR-7")
def test_mor_9__casualties_count_each_member_once() -> None:
    g = mr.record_casualties(GroupMorale(), ["b1", "b1"])
    g = mr.record_casualties(g, ["b1", "b2"])
    assert g.casualties == ("b1", "b2") and g.first_blood_done
    assert mr.record_casualties(g, []) is g


@pytest.mark.rule("G-04", "G-03")
def test_after_check__failure_remembers_the_dc_for_a_rally() -> None:
    g = mr.after_check(GroupMorale(), check(5, 2, 18))
    assert g.status is Status.BROKEN and g.failed_dc == 18
    assert mr.after_check(g, check(20, 2, 14)).failed_dc == 18


# ----- rally (MOR-25, MOR-26, G-04) -----

BROKEN_18 = GroupMorale(Status.BROKEN, failed_dc=18)


@pytest.mark.rule("G-04", "MOR-25", "MOR-26")
@pytest.mark.parametrize(("face", "success"), [(15, True), (14, False)])
def test_g_04__leader_rolls_against_the_dc_the_group_failed(face: int, success: bool) -> None:
    leader = mr.morale_will(LIB.creature("bandit-leader"), ED2)  # +3
    with ScriptedRng([(20, face)]) as rng:
        result = mr.rally(leader, BROKEN_18, rng, ED2)
    assert result.check.dc.total == 18 and result.success is success
    assert result.group == (GroupMorale(Status.HOLD, rallies=1, failed_dc=18) if success else BROKEN_18)


@pytest.mark.rule("MOR-25", "MOR-26")
@pytest.mark.parametrize(
    ("group", "conditions", "rule_id"),
    [
        pytest.param(BROKEN_18, {Condition.STUNNED}, "MOR-25", id="mor_25-incapacitated-leader"),
        pytest.param(GroupMorale(), set(), "MOR-25", id="mor_25-nothing-to-rally"),
        pytest.param(GroupMorale(Status.ROUTED, 1, failed_dc=16), set(), "MOR-26", id="mor_26-routed"),
        pytest.param(GroupMorale(Status.BROKEN, 1, failed_dc=16), set(), "MOR-26", id="mor_26-once-per-encounter"),
    ],
)
def test_rally__refused(group: GroupMorale, conditions: set[Condition], rule_id: str) -> None:
    with pytest.raises(RuleViolation) as err:
        mr.check_rally(group, conditions, ED2)
    assert err.value.rule == rule_id


# ----- Breaking Points (MOR-27, MOR-28) -----


@pytest.mark.rule("MOR-27", "MOR-28")
@pytest.mark.parametrize(
    ("text", "facts", "status"),
    [
        pytest.param("hp-below-25%", BreakingFacts(4, 20), Status.BROKEN, id="mor_28-hp-4-of-20-breaks"),
        pytest.param("hp-below-25%", BreakingFacts(5, 20), None, id="mor_28-hp-exactly-25pct-holds"),
        pytest.param("leader-killed", BreakingFacts(9, 9, leader_killed=True), Status.BROKEN,
                     id="mor_27-leader-killed-automatic-break-by-default"),
        pytest.param("leader-killed -> surrender", BreakingFacts(9, 9, leader_killed=True), Status.SURRENDERED,
                     id="mor_28-surrenders-if-leader-is-killed"),
        pytest.param("outnumbered-2-to-1 -> flee", BreakingFacts(9, 9, allies_active=2, enemies_active=4),
                     Status.BROKEN, id="mor_28-exactly-2-to-1-flees"),
        pytest.param("outnumbered-2-to-1", BreakingFacts(9, 9, allies_active=2, enemies_active=3), None,
                     id="mor_28-3-to-2-holds"),
        pytest.param("ally-killed-by-magic", BreakingFacts(9, 9, ally_killed_by_magic=True), Status.BROKEN,
                     id="mor_28-superstitious"),
    ],
)
def test_mor_27__breaking_points_force_a_status_without_a_roll(text: str, facts: BreakingFacts,
                                                               status: Status | None) -> None:
    """000:552 "Breaking Points bypass the normal morale check"; 563 "[trigger condition] → automatic Break";
    556–559 the examples "Breaks if …", "Surrenders if leader is killed", "Flees if outnumbered 2:1"."""
    assert breaking_status(breaking_points_met([text], facts, ED2)) is status


@pytest.mark.rule("MOR-27", "MOR-28")
@pytest.mark.parametrize(("written", "outcome"), [
    ("leader-killed", BreakingOutcome.BREAK),
    ("leader-killed -> surrender", BreakingOutcome.SURRENDER),
    ("Leader-Killed → Surrender", BreakingOutcome.SURRENDER),
    ({"trigger": "leader-killed", "outcome": "flee"}, BreakingOutcome.FLEE),
    ({"trigger": "leader-killed"}, BreakingOutcome.BREAK),
])
def test_mor_27__a_breaking_point_names_its_outcome_break_by_default(written: object,
                                                                    outcome: BreakingOutcome) -> None:
    """000:563 "Stat Block Format: Breaking Point: [trigger condition] → automatic Break": Break unless the stat
    block names Surrender or Flee (557–558)."""
    point = parse_breaking_point(BreakingPointSpec.model_validate(written))
    assert (point.kind, point.outcome) == (BreakingKind.LEADER_KILLED, outcome)


@pytest.mark.rule("MOR-28")
def test_mor_28__parser_reads_the_vocabulary_and_rejects_the_rest() -> None:
    point = parse_breaking_point(" Outnumbered-3-to-1 ")
    assert point.kind is BreakingKind.OUTNUMBERED and point.ratio == (3, 1)
    assert parse_breaking_point("hp-below-50%").percent == 50
    with pytest.raises(ValueError, match="leader-killed"):
        parse_breaking_point("breaks if sad")


@pytest.mark.rule("MOR-27")
def test_mor_27__worst_of_several_breaking_points_wins() -> None:
    met = breaking_points_met(["hp-below-25%", "leader-killed -> surrender"], BreakingFacts(1, 20, leader_killed=True),
                              ED2)
    assert breaking_status(met) is Status.SURRENDERED


# ----- behaviour (MOR-17, MOR-19, MOR-21..24) -----


@pytest.mark.rule("MOR-17", "MOR-21", "MOR-22", "MOR-24")
def test_behaviour__fall_back_moves_one_action_break_strides_with_all_three() -> None:
    fall_back, broken = behaviour(Status.FALL_BACK, ED2), behaviour(Status.BROKEN, ED2, animal=True)
    assert (fall_back.escape_actions, fall_back.may_attack, fall_back.reactions) == (1, True, True)
    assert (broken.escape_actions, broken.stride_only, broken.reactions, broken.drops_two_handed) == (3, True, False,
                                                                                                      True)
    assert broken.random_direction and not behaviour(Status.BROKEN, ED2).random_direction
    assert "MOR-26" in behaviour(Status.ROUTED, ED2).rules and not behaviour(Status.SURRENDERED, ED2).acts


@pytest.mark.rule("MOR-23", "MOR-19", "MOR-20")
@pytest.mark.parametrize(
    ("status", "options", "after"),
    [
        pytest.param(Status.BROKEN, {}, Status.SURRENDERED, id="mor_23-cornered-broken-surrenders"),
        pytest.param(Status.BROKEN, {"broken_cornered_surrenders": False}, Status.BROKEN, id="mor_23-or-cowers"),
        pytest.param(Status.FALL_BACK, {}, Status.HOLD, id="mor_20-cornered-fall-back-ends-fights-on"),
        pytest.param(Status.FALL_BACK, {"fall_back_cornered_surrenders": True}, Status.SURRENDERED,
                     id="mor_19-or-surrenders"),
        pytest.param(Status.HOLD, {}, Status.HOLD, id="holding-npc-unaffected"),
    ],
)
def test_cornered(status: Status, options: dict[str, bool], after: Status) -> None:
    assert cornered(status, ED2.with_options(morale=options)) is after


@pytest.mark.rule("MOR-21")
def test_mor_21__broken_npc_drops_two_handed_weapons_only() -> None:
    weapons = [LIB.weapon(w) for w in ("crossbow", "combat-knife", "greataxe")]
    assert [w.id for w in dropped_on_break(weapons)] == ["crossbow", "greataxe"]


@pytest.mark.rule("MOR-24")
def test_mor_24__animals_flee_in_a_random_direction() -> None:
    with ScriptedRng([(8, 3)]) as rng:
        assert flee_direction(rng) == DIRECTIONS[2]


# ----- edition 1 (E-33) -----

CALLS: list[Callable[[], object]] = [
    lambda: mr.morale_will(LIB.creature("bandit"), ED1),
    lambda: mr.immunity(LIB.creature("bandit"), ED1),
    lambda: mr.triggers_for(EventFacts(3, 0, 1), ED1),
    lambda: mr.morale_dc({FB}, ED1),
    lambda: mr.morale_check(will(2), fixed_dc(12, mr.MOR_14, "DC"), ScriptedRng([]), ED1),
    lambda: mr.check_rally(BROKEN_18, (), ED1),
    lambda: breaking_points_met(["leader-killed"], BreakingFacts(1, 1), ED1),
    lambda: behaviour(Status.BROKEN, ED1),
    lambda: cornered(Status.BROKEN, ED1),
]


@pytest.mark.rule("E-33", "MOR-1")
@pytest.mark.parametrize("call", CALLS)
def test_e_33__edition_1_has_no_morale(call: Callable[[], object]) -> None:
    assert ED1.morale.enabled is False and ED2.morale.enabled is True
    with pytest.raises(RuleViolation) as err:
        call()
    assert err.value.rule == "E-33"


_TRIGGERS = st.one_of(
    st.integers(1, 100).map(lambda n: f"hp-below-{n}%"),
    st.just("leader-killed"),
    st.tuples(st.integers(1, 99), st.integers(1, 99)).map(lambda ab: f"outnumbered-{ab[0]}-to-{ab[1]}"),
    st.just("ally-killed-by-magic"),
)


@pytest.mark.rule("MOR-27", "MOR-28")
@given(trigger=_TRIGGERS, outcome=st.sampled_from(list(BreakingOutcome)), arrow=st.sampled_from(["->", "→", None]))
def test_mor_27__text_and_mapping_forms_read_the_same(trigger: str, outcome: BreakingOutcome,
                                                      arrow: str | None) -> None:
    """000:563's "[trigger] → [outcome]": text and mapping are one Breaking Point; no arrow means Break."""
    text = trigger if arrow is None else f"{trigger} {arrow} {outcome.value}"
    expected = BreakingOutcome.BREAK if arrow is None else outcome
    assert BreakingPointSpec.model_validate(text) == BreakingPointSpec(trigger=trigger, outcome=expected)
    point = parse_breaking_point(text)
    assert point.outcome is expected
    assert point.result is (Status.SURRENDERED if expected is BreakingOutcome.SURRENDER else Status.BROKEN)
