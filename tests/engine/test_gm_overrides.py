"""GM overrides (rule GM): each is an event with the GM's reason, explained, undoable and replayed like any intent.

Saves an override calls for are rolled per creature (entered creatures are asked for their own d20), and a
condition the GM adds for some rounds expires by the rules, leaving a reminder of what ended.
"""

from __future__ import annotations

import pytest

from ashfall.content.loader import default_library
from ashfall.core.types import Condition, DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.actions import Refused
from ashfall.engine.decisions import Decline
from ashfall.engine.dice_entry import NeedDice
from ashfall.engine.engine import Engine
from ashfall.engine.record import dumps_log, loads_log
from ashfall.engine.replaying import replay
from ashfall.engine.setup import make_combatant, new_engine, new_state
from ashfall.explain.lines import event_lines
from ashfall.families.gm.moves import (
    GmCondition,
    GmDamage,
    GmMorale,
    GmMove,
    GmOrder,
    GmSetHp,
    GmSkipTurn,
    ended_conditions,
)
from ashfall.families.morale.rules import Status
from ashfall.grid.board import Board

LIB = default_library()
RAIDERS = ("r1", "r2", "r3", "r4")


def skirmish(seed: int = 4, entered: frozenset[str] = frozenset()) -> Engine:
    """A warrior against four raiders, started."""
    fighters = [make_combatant(LIB, "warrior", "w", "party", (1, 2))]
    fighters += [make_combatant(LIB, "raider", cid, "raiders", (5, 1 + i)) for i, cid in enumerate(RAIDERS)]
    engine = new_engine(new_state(fighters, board=Board(10, 6)), seed=seed,
                        controllers={c.id: Decline() for c in fighters})
    engine.start()
    engine.entered = entered
    return engine


@pytest.mark.rule("GM")
def test_gm_override__damage_four_targets_each_saves_separately() -> None:
    engine = skirmish()
    before = {cid: engine.state.get(cid).health.hp for cid in RAIDERS}
    events = engine.submit(GmDamage(RAIDERS, 14, DamageType.FIRE, "the fireball", save=Save.REFLEX, dc=14))
    assert isinstance(events[0], ev.GmRuled) and events[0].targets == RAIDERS and events[0].reason == "the fireball"
    saves = [e for e in events if isinstance(e, ev.CheckRolled)]
    assert [s.actor for s in saves] == list(RAIDERS) and {s.rule for s in saves} == {"GM"}
    assert len({s.roll.faces for s in saves if s.roll}) > 1 or len(saves) == 4  # one d20 each
    taken = {e.target: e for e in events if isinstance(e, ev.DamageTaken)}
    for s in saves:
        incoming = 7 if s.success else 14
        assert taken[s.actor].rows[0].before == incoming  # halved on a success, before the target's defenses
        assert engine.state.get(s.actor).health.hp == max(before[s.actor] - taken[s.actor].amount, 0)
    assert any("GM override (damage" in line for e in events for line in event_lines(e))


@pytest.mark.rule("GM")
def test_gm_override__entered_creatures_roll_their_own_saves_one_request_each() -> None:
    engine = skirmish(entered=frozenset({"r2", "r4"}))
    intent = GmDamage(RAIDERS, 14, DamageType.FIRE, "the fireball", save=Save.REFLEX, dc=14)
    faces: dict[int, int | None] = {}
    asked = []
    while True:
        try:
            events = engine.submit(intent, faces=faces)
            break
        except NeedDice as need:
            asked.append(need.request)
            faces[need.request.index] = 20 if need.request.roll.owner == "r2" else 1
    assert [(r.roll.owner, r.roll.kind, r.roll.source, r.sides) for r in asked] == [
        ("r2", "save", "reflex", 20), ("r4", "save", "reflex", 20)]
    saves = {e.actor: e for e in events if isinstance(e, ev.CheckRolled)}
    assert saves["r2"].roll is not None and saves["r2"].roll.natural == 20
    assert saves["r4"].roll is not None and saves["r4"].roll.natural == 1 and not saves["r4"].success


@pytest.mark.rule("GM")
def test_gm_override__set_hp_is_undone_and_redone_exactly() -> None:
    engine = skirmish()
    hp = engine.state.get("r1").health.hp
    events = engine.submit(GmSetHp(("r1", "r2"), "healing potion off screen", delta=-3))
    assert [type(e).__name__ for e in events[:3]] == ["GmRuled", "HealthSet", "HealthSet"]
    assert engine.state.get("r1").health.hp == hp - 3
    engine.undo()
    assert engine.state.get("r1").health.hp == hp
    engine.redo()
    assert engine.state.get("r1").health.hp == hp - 3
    engine.submit(GmSetHp(("r1",), "knocked out cold", hp=0))
    assert engine.state.get("r1").health.is_down


@pytest.mark.rule("GM")
def test_gm_override__condition_for_one_round_expires_by_the_rules_with_a_reminder() -> None:
    engine = skirmish()
    engine.submit(GmCondition(("r3",), Condition.FRIGHTENED, "the dragon roars", rounds=1))
    assert engine.state.get("r3").has(Condition.FRIGHTENED)
    ended: list[tuple[str, str]] = []
    while engine.state.get("r3").has(Condition.FRIGHTENED) and not engine.state.ended:
        active = engine.state.active_id
        assert active is not None
        events = engine.end_turn(active)
        ended += [(r.target, r.condition) for r in ended_conditions(events)]
    assert ("r3", "frightened") in ended and engine.state.round == 2


@pytest.mark.rule("GM")
def test_gm_override__remove_condition_move_order_skip_and_morale() -> None:
    engine = skirmish()
    engine.submit(GmCondition(("w",), Condition.PRONE, "slipped on ice"))
    engine.submit(GmCondition(("w",), Condition.PRONE, "helped up", remove=True))
    assert not engine.state.get("w").has(Condition.PRONE)
    engine.submit(GmMove("r1", (7, 4), "pushed by the crowd"))
    assert engine.state.get("r1").position == (7, 4)
    order = tuple(reversed(engine.state.order))
    active = engine.state.active_id
    engine.submit(GmOrder(order, "ruled a re-roll"))
    assert tuple(engine.state.order) == order and engine.state.active_id == active
    events = engine.submit(GmSkipTurn("stunned by the blast"))
    assert any(isinstance(e, ev.TurnEnded) and e.actor == active for e in events)
    assert engine.state.active_id != active
    engine.submit(GmMorale(("r2",), Status.SURRENDERED, "throws down its spear"))
    assert engine.state.get("r2").left_fight


@pytest.mark.rule("GM")
def test_gm_override__refused_without_a_reason_or_for_a_creature_not_in_the_fight() -> None:
    engine = skirmish()
    size = len(engine.log)
    for bad in (GmSetHp(("r1",), " ", delta=-1), GmSetHp(("zz",), "why", delta=-1),
                GmSetHp(("r1",), "both", hp=3, delta=2), GmMorale(("w",), Status.BROKEN, "a PC has no morale"),
                GmSetHp(("r1",), "not the GM", delta=-1, actor="w")):
        with pytest.raises(Refused) as refused:
            engine.submit(bad)
        assert refused.value.rule == "GM"
    assert len(engine.log) == size


@pytest.mark.rule("GM")
def test_gm_override__a_fight_with_overrides_and_entered_faces_replays_from_its_log() -> None:
    engine = skirmish(entered=frozenset({"r1"}))
    intent = GmDamage(RAIDERS, 9, DamageType.COLD, "frost trap", save=Save.FORTITUDE, dc=12, half_on_save=False)
    engine.submit(intent, faces={0: 17})
    engine.submit(GmCondition(("w",), Condition.BLINDED, "smoke", rounds=2))
    again = replay(loads_log(dumps_log(engine.fight_log())), engine.initial_state)
    assert again.log == engine.log and again.state == engine.state



@pytest.mark.rule("GM")
@pytest.mark.rule("GRP-1")
def test_gm_override__removing_a_grappler_ends_its_grapple_and_replays() -> None:
    from dataclasses import replace

    from ashfall.core.rule_ids import rule
    from ashfall.families.gm.moves import GmRemoveCombatant
    from ashfall.rules.condition_durations import AppliedCondition, Duration

    held = AppliedCondition(Condition.GRAPPLED, rule("GRP-1"), "r1", Duration.until_removed())
    fighters = [replace(make_combatant(LIB, "warrior", "w", "party", (1, 2)), conditions=(held,))]
    fighters += [make_combatant(LIB, "raider", cid, "raiders", (5, 1 + i)) for i, cid in enumerate(RAIDERS)]
    engine = new_engine(new_state(fighters, board=Board(10, 6)), seed=4,
                        controllers={c.id: Decline() for c in fighters})
    engine.start()
    active = engine.state.active_id
    events = engine.submit(GmRemoveCombatant(("r1",), "the grappler is dragged off"))
    assert [e.target for e in events if isinstance(e, ev.ConditionRemoved)] == ["w"]
    assert "r1" not in engine.state.combatants and "r1" not in engine.state.order
    assert not engine.state.get("w").conditions
    if active != "r1":
        assert engine.state.active_id == active
    replayed = replay(loads_log(dumps_log(engine.fight_log())), engine.initial_state)
    assert dumps_log(replayed.fight_log()) == dumps_log(engine.fight_log())
    engine.undo(1)
    assert "r1" in engine.state.combatants and engine.state.get("w").conditions == (held,)
