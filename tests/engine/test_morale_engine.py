"""Morale in the engine: triggers per group, one check per event, statuses, immunity, Rally (MOR, G-01..G-04)."""

from dataclasses import replace
from typing import Any

import pytest

from ashfall.content.loader import default_library
from ashfall.content.schema import MoraleProfile
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, DamageType
from ashfall.engine import (
    Combatant,
    EncounterState,
    Engine,
    FirstOption,
    Rally,
    Refused,
    harm,
    legal_intents,
    make_combatant,
    new_state,
)
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.reactions import can_react
from ashfall.engine.records import with_key
from ashfall.families.morale.engine import (
    break_style,
    escaped,
    group_key,
    groups,
    immune_rule,
    member_status,
    one_event,
    settle_cornered,
)
from ashfall.families.morale.rules import GroupMorale, MoraleMark, Status
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import BreakBehaviour

LIB = default_library()
ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
INIT_LOW = [(20, 1), (1_000_000, 1)]


def band(bandits: int = 3, party: int = 3, leader: bool = True, rs: Ruleset = ED2,
         extra: tuple[Combatant, ...] = ()) -> EncounterState:
    cs = [make_combatant(LIB, "bandit-leader", "bl", "bandits", ruleset=rs)] if leader else []
    cs += [make_combatant(LIB, "bandit", f"b{i}", "bandits", ruleset=rs) for i in range(1, bandits + 1)]
    cs += list(extra)
    cs += [make_combatant(LIB, "warrior", f"p{i}", "party", ruleset=rs) for i in range(1, party + 1)]
    return new_state(cs, rs)


def with_points(c: Combatant, *points: str) -> Combatant:
    profile = MoraleProfile(will=2, type="bandit", breaking_points=points)
    return replace(c, creature=c.creature.model_copy(update={"morale": profile}))


def ctx_of(state: EncounterState, rng: ScriptedRng) -> Context:
    return Context(state, rng, [], {})


def kill(ctx: Context, cid: str) -> None:
    harm.deal_damage(ctx, cid, {DamageType.SLASHING: 300}, source="p1", label="test")


def frighten(ctx: Context, cid: str, condition: Condition = Condition.FRIGHTENED) -> None:
    harm.add(ctx, cid, AppliedCondition(condition, harm.rule("C-FRI"), "p1"))


def of(log: list[Any], kind: type) -> list[Any]:
    return [e for e in log if isinstance(e, kind)]


def dc_rules(e: ev.MoraleChecked) -> list[tuple[str, int, str]]:
    return [(p.label, p.value, p.rule) for p in e.dc_parts]


# ----- Leader Down, First Blood, outnumbered (MOR-7, MOR-8, MOR-12, MOR-15, G-03) -----


@pytest.mark.rule("MOR-8", "MOR-15", "G-02", "G-03", "MOR-21", "MOR-22")
@pytest.mark.parametrize(("party", "dc"), [pytest.param(6, 18, id="outnumbered-dc-18"),
                                           pytest.param(3, 16, id="not-outnumbered-dc-16")])
def test_leader_killed__bandits_check_at_dc_12_plus_4_plus_2_if_outnumbered_and_break(party: int, dc: int) -> None:
    state = band(bandits=5, party=party)
    with ScriptedRng([(20, 20), (20, 5)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "b5")  # First Blood: holds on a 20
        kill(ctx, "bl")  # Leader Down only: 1d20+2 = 7
    checks = of(ctx.log, ev.MoraleChecked)
    assert [c.triggers for c in checks] == [("first-blood",), ("leader-down",)]
    leader_down = checks[1]
    assert leader_down.dc == dc and leader_down.roll.total == 7 and leader_down.outcome == "break"
    expected = [("base Morale DC", 12, "MOR-14"), ("Leader Down", 4, "MOR-15")]
    assert dc_rules(leader_down) == expected + ([("outnumbered", 2, "MOR-15")] if dc == 18 else [])
    assert [p.label for p in leader_down.roll.modifiers] == ["group morale Will"]
    for cid in ("b1", "b2", "b3", "b4"):
        bandit = state.get(cid)
        assert member_status(bandit) is Status.BROKEN and can_react(state, bandit) == "MOR-22"
        assert [w.id for w in bandit.weapons] == ["combat-knife"]  # the crossbow is two-handed (MOR-21)
    assert {(e.actor, e.item, e.rule) for e in of(ctx.log, ev.ItemDropped)} == {
        (f"b{i}", "crossbow", "MOR-21") for i in range(1, 5)}
    assert state.morale["bandits"] == GroupMorale(Status.BROKEN, 0, True, ("b5", "bl"), dc)


@pytest.mark.rule("MOR-7", "MOR-8", "MOR-11", "MOR-12")
def test_first_blood_and_leader_down_in_one_event__one_check_with_both_modifiers() -> None:
    state = band(bandits=3, party=5)
    with ScriptedRng([(20, 14)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
    (check,) = of(ctx.log, ev.MoraleChecked)
    assert check.triggers == ("first-blood", "leader-down")
    assert dc_rules(check) == [("base Morale DC", 12, "MOR-14"), ("First Blood", 2, "G-02"),
                               ("Leader Down", 4, "MOR-15"), ("outnumbered", 2, "MOR-15")]
    assert check.dc == 20 and check.roll.total == 16 and check.outcome == "fall-back"
    assert all(member_status(state.get(c)) is Status.FALL_BACK for c in ("b1", "b2", "b3"))
    assert state.get("b1").uses["falling-back"] == 1 and can_react(state, state.get("b1")) is None


@pytest.mark.rule("MOR-13", "MOR-8")
def test_mor_13__a_kill_and_a_stunned_leader_in_one_round_each_check() -> None:
    state = band(bandits=4, party=2)
    with ScriptedRng([(20, 19), (20, 19)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "b1")
        harm.add(ctx, "bl", AppliedCondition(Condition.STUNNED, harm.rule("C-STU")))
    assert [(c.triggers, c.dc) for c in of(ctx.log, ev.MoraleChecked)] == [(("first-blood",), 14),
                                                                          (("leader-down",), 16)]


@pytest.mark.rule("MOR-9", "MOR-12")
def test_one_event__an_area_attack_dropping_two_is_one_check_with_half_strength() -> None:
    state = band(bandits=3, party=4)
    with ScriptedRng([(20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        with one_event(ctx):
            kill(ctx, "b1")
            kill(ctx, "b2")
    (check,) = of(ctx.log, ev.MoraleChecked)
    assert check.triggers == ("first-blood", "half-strength") and check.dc == 12 + 2 + 4 + 2
    assert state.morale["bandits"].casualties == ("b1", "b2")


# ----- Fear Effect (MOR-10, G-14) -----


@pytest.mark.rule("MOR-10", "G-02")
def test_mor_10__frightened_npc_checks_alone() -> None:
    state = band(bandits=3, party=2)
    with ScriptedRng([(20, 3)]) as rng:
        ctx = ctx_of(state, rng)
        frighten(ctx, "b1")
    (check,) = of(ctx.log, ev.MoraleChecked)
    assert (check.actor, check.kind, check.triggers, check.dc) == ("b1", "fear", ("fear-effect",), 12)
    assert member_status(state.get("b1")) is Status.BROKEN and member_status(state.get("b2")) is Status.HOLD
    assert state.morale.get("bandits", GroupMorale()).status is Status.HOLD


@pytest.mark.rule("G-14", "MOR-10", "MOR-30")
def test_g_14__a_shaken_npc_rolls_its_fear_check_at_disadvantage() -> None:
    state = band(bandits=2, party=1)
    with ScriptedRng([(20, 18), (20, 9)]) as rng:
        ctx = ctx_of(state, rng)
        frighten(ctx, "b1", Condition.SHAKEN)
    (check,) = of(ctx.log, ev.MoraleChecked)  # 9 + 2 = 11 against DC 12: Fall Back (18 would have held)
    assert check.roll.faces == (18, 9) and check.roll.natural == 9 and check.outcome == "fall-back"


@pytest.mark.rule("MOR-12", "MOR-10")
def test_mor_12__fear_and_a_kill_in_one_event_are_one_group_check() -> None:
    state = band(bandits=3, party=2)
    with ScriptedRng([(20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        with one_event(ctx):
            frighten(ctx, "b2")
            kill(ctx, "b1")
    (check,) = of(ctx.log, ev.MoraleChecked)
    assert check.actor == "" and check.triggers == ("first-blood", "fear-effect")


# ----- who never checks (MOR-2, MOR-35, MOR-37, MOR-38, E-33) -----


@pytest.mark.rule("MOR-35")
def test_mor_35__security_drones_never_check() -> None:
    drones = [make_combatant(LIB, "security-drone", f"d{i}", "drones") for i in (1, 2)]
    state = new_state([*drones, make_combatant(LIB, "warrior", "p1", "party")])
    with ScriptedRng([]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "d1")
        frighten(ctx, "d2")
    assert not of(ctx.log, ev.MoraleChecked) and not of(ctx.log, ev.MoraleChanged)
    assert immune_rule(state, state.get("d2")) == "MOR-35" and group_key(state, state.get("d2")) is None


@pytest.mark.rule("MOR-35", "MOR-7")
def test_mor_35__a_destroyed_drone_is_no_bandit_casualty() -> None:
    state = band(bandits=2, party=2, extra=(make_combatant(LIB, "security-drone", "d1", "bandits"),))
    with ScriptedRng([]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "d1")
    assert not of(ctx.log, ev.MoraleChecked) and "bandits" not in state.morale
    assert [m.id for m in groups(state)["bandits"]] == ["bl", "b1", "b2"]


@pytest.mark.rule("MOR-2")
def test_mor_2__pcs_never_check_even_when_frightened_or_killed() -> None:
    state = band(bandits=2, party=3)
    with ScriptedRng([]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "p1")
        frighten(ctx, "p2")
    assert not of(ctx.log, ev.MoraleChecked)
    assert immune_rule(state, state.get("p2")) == "MOR-2" and "party" not in groups(state)


@pytest.mark.rule("MOR-38", "MOR-37", "E-33", "MOR-1")
@pytest.mark.parametrize(
    ("rs", "enabled", "immune"),
    [
        pytest.param(ED1, True, frozenset(), id="e_33-edition-1"),
        pytest.param(ED2, False, frozenset(), id="mor_38-off-for-this-encounter"),
        pytest.param(ED2, True, frozenset({"bandits"}), id="mor_37-side-declared-immune"),
        pytest.param(ED2, True, frozenset({"b1", "b2", "b3", "bl"}), id="mor_37-npcs-declared-immune"),
    ],
)
def test_morale_off__no_checks(rs: Ruleset, enabled: bool, immune: frozenset[str]) -> None:
    state = band(bandits=3, party=3, rs=rs)
    state.morale_enabled, state.morale_immune = enabled, immune
    with ScriptedRng([]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
        frighten(ctx, "b1")
    assert not of(ctx.log, ev.MoraleChecked) and not state.morale


@pytest.mark.rule("E-33", "MOR-38")
@pytest.mark.parametrize(("rs", "enabled", "rule_id"), [(ED1, True, "E-33"), (ED2, False, "MOR-38")])
def test_rally_refused_without_morale(rs: Ruleset, enabled: bool, rule_id: str) -> None:
    state = band(bandits=1, party=1, rs=rs)
    state.morale_enabled = enabled
    rng = ScriptedRng([(20, 20), (1_000_000, 1), *INIT_LOW * 2])
    engine = Engine(state, rng, {})
    engine.start()
    with pytest.raises(Refused) as err:
        engine.check(Rally("bl", "bandits"))
    assert err.value.rule == rule_id


# ----- Breaking Points (MOR-27, MOR-28) -----


@pytest.mark.rule("MOR-27", "MOR-28")
def test_mor_27__below_25_percent_hp_breaks_without_a_roll() -> None:
    state = band(bandits=0, party=2, leader=False,
                 extra=(with_points(make_combatant(LIB, "bandit", "b1", "bandits"), "hp-below-25%"),))
    with ScriptedRng([]) as rng:
        ctx = ctx_of(state, rng)
        harm.deal_damage(ctx, "b1", {DamageType.PSYCHIC: 7}, source="p1", label="test")
    (change,) = of(ctx.log, ev.MoraleChanged)
    assert (change.members, change.rule) == ((("b1", "broken"),), "MOR-27")


@pytest.mark.rule("MOR-28", "MOR-12")
def test_mor_28__superstitious_bandit_breaks_when_magic_kills_an_ally() -> None:
    sup = with_points(make_combatant(LIB, "bandit", "b3", "bandits"), "ally-killed-by-magic")
    state = band(bandits=2, party=1, extra=(sup,))
    with ScriptedRng([(20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        with one_event(ctx, magical=True):
            kill(ctx, "b1")
    assert member_status(state.get("b3")) is Status.BROKEN
    (check,) = of(ctx.log, ev.MoraleChecked)  # First Blood still checks the others
    assert check.triggers == ("first-blood",)


@pytest.mark.rule("MOR-28", "MOR-23")
def test_mor_28__surrenders_if_leader_is_killed() -> None:
    """000:557 "Surrenders if leader is killed": the stat block names the outcome, surrender."""
    loyal = with_points(make_combatant(LIB, "bandit", "b2", "bandits"), "leader-killed -> surrender")
    state = band(bandits=1, party=1, extra=(loyal,))
    with ScriptedRng([(20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
    assert state.get("b2").uses.get("surrendered") == 1 and member_status(state.get("b2")) is Status.SURRENDERED
    assert any(e.label == "breaking point: leader-killed -> surrender" and e.rule == "MOR-27"
               for e in of(ctx.log, ev.MoraleChanged))


@pytest.mark.rule("MOR-27", "MOR-28", "MOR-24")
@pytest.mark.parametrize(("written", "status", "style"), [
    ("leader-killed", Status.BROKEN, "scatter"),  # the format's automatic Break: a bandit breaks as bandits do
    ("leader-killed -> flee", Status.BROKEN, "flee"),  # "Flees if …": flees whatever its type would do
])
def test_mor_27__leader_killed_is_an_automatic_break_unless_the_stat_block_names_another_outcome(
        written: str, status: Status, style: str) -> None:
    """000:563 "Breaking Point: Leader killed → automatic Break"; 558 "Flees if …"."""
    loyal = with_points(make_combatant(LIB, "bandit", "b2", "bandits"), written)
    state = band(bandits=1, party=1, extra=(loyal,))
    with ScriptedRng([(20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
    assert member_status(state.get("b2")) is status
    assert break_style(state.get("b2")) is BreakBehaviour(style)


# ----- cornered and escaped (MOR-20, MOR-23) -----


@pytest.mark.rule("MOR-23", "MOR-20")
def test_mor_23__a_cornered_broken_bandit_surrenders_and_an_escaped_one_has_fled() -> None:
    state = band(bandits=2, party=1)
    with ScriptedRng([(20, 1)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
        settle_cornered(ctx, "b1")
        escaped(ctx, "b2")
    assert member_status(state.get("b1")) is Status.SURRENDERED
    assert state.get("b2").uses.get("fled") == 1


# ----- Rally (MOR-25, MOR-26, G-04) -----


def rally_engine(faces: list[Any]) -> tuple[Engine, ScriptedRng]:
    state = band(bandits=3, party=1)
    state.morale = {"bandits": GroupMorale(Status.BROKEN, failed_dc=16, first_blood_done=True)}
    for cid in ("b1", "b2", "b3"):
        state.get(cid).supplies = with_key(state.get(cid).supplies, MoraleMark.BROKEN, 1)
    rng = ScriptedRng([(20, 20), (1_000_000, 1), *INIT_LOW * 4, *faces])
    engine = Engine(state, rng, {cid: FirstOption() for cid in state.combatants})
    engine.start()
    assert engine.state.active_id == "bl"
    return engine, rng


@pytest.mark.rule("G-04", "MOR-25", "MOR-26")
def test_g_04__rally_returns_the_group_to_hold_and_a_later_failure_routs() -> None:
    engine, rng = rally_engine([(20, 13), (20, 1)])  # 13 + Will 3 = 16 meets the failed DC 16
    events = engine.submit(Rally("bl", "bandits"))
    (check,) = of(events, ev.MoraleChecked)
    assert (check.kind, check.dc, check.roll.total, check.outcome, check.rule) == ("rally", 16, 16, "rallied", "G-04")
    assert of(events, ev.ActionsSpent)[0].count == 1
    assert all(member_status(engine.state.get(c)) is Status.HOLD for c in ("b1", "b2", "b3"))
    assert engine.state.morale["bandits"].rallies == 1
    with pytest.raises(Refused) as err:
        engine.submit(Rally("bl", "bandits"))
    assert err.value.rule == "MOR-25"  # nothing to rally now
    ctx = Context(engine.state, engine.rng, engine.log, {})
    with one_event(ctx):
        kill(ctx, "b1")
        kill(ctx, "b2")  # Half Strength; fails on a 1 after the rally: the rout is permanent
    rng.__exit__(None, None, None)
    assert member_status(engine.state.get("b3")) is Status.ROUTED
    assert engine.state.morale["bandits"].status is Status.ROUTED
    with pytest.raises(Refused) as err:
        engine.check(Rally("bl", "bandits"))
    assert err.value.rule == "MOR-26"


@pytest.mark.rule("G-04", "MOR-25")
def test_g_04__a_failed_rally_changes_nothing_and_waits_for_the_next_turn() -> None:
    engine, rng = rally_engine([(20, 12)])
    engine.submit(Rally("bl", "bandits"))
    assert member_status(engine.state.get("b1")) is Status.BROKEN
    with pytest.raises(Refused) as err:
        engine.submit(Rally("bl", "bandits"))
    assert err.value.rule == "G-04"
    rng.__exit__(None, None, None)


@pytest.mark.rule("MOR-25")
def test_mor_25__only_a_leader_npc_may_rally() -> None:
    engine, _ = rally_engine([])
    check = engine.rulebook.actions[Rally].check
    for intent in (Rally("b1", "bandits"), Rally("bl", "party"), Rally("bl", "nobody")):
        with pytest.raises(Refused) as err:
            check(engine.state, intent)
        assert err.value.rule == "MOR-25"
    assert legal_intents(engine, "bl")[:1] == [Rally("bl", "bandits")]


# ----- grouping and the log (MOR-4) -----


@pytest.mark.rule("MOR-4", "MOR-8")
def test_mor_4__side_and_type_groups_each_check_when_their_leader_falls() -> None:
    rs = ED2.with_options(morale={"grouping": "side-and-type"})
    guard = make_combatant(LIB, "guard", "g1", "bandits", ruleset=rs)
    state = band(bandits=2, party=2, rs=rs, extra=(guard,))
    with ScriptedRng([(20, 20), (20, 20)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
    assert [c.group for c in of(ctx.log, ev.MoraleChecked)] == ["bandits/bandit", "bandits/soldier"]
    soldier_check = of(ctx.log, ev.MoraleChecked)[1]
    assert soldier_check.triggers == ("leader-down",) and soldier_check.roll.modifiers[0].value == 4


@pytest.mark.rule("MOR-3")
def test_morale_events_round_trip_through_json() -> None:
    state = band(bandits=3, party=5)
    with ScriptedRng([(20, 2)]) as rng:
        ctx = ctx_of(state, rng)
        kill(ctx, "bl")
    assert ev.loads(ev.dumps(ctx.log)) == ctx.log
    assert of(ctx.log, ev.MoraleChanged) and of(ctx.log, ev.MoraleChecked)
