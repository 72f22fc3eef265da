"""Scripted tactics: closing in by Stride along a shortest legal path, then the plan (ACT-2, MAA-5, MAA-7)."""

from typing import Any

import pytest

from ashfall.content.schema import Creature
from ashfall.core.types import Condition
from ashfall.encounters import Tactics
from ashfall.engine import AllOutAttack, Engine, PowerStrike, Reload, Stand, Stride, Strike
from ashfall.engine import events as ev
from ashfall.engine.apply import apply
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.movement.moves import path_cost
from ashfall.grid.board import Board, Square
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.ruleset import preset
from ashfall.sim import policy as pol
from ashfall.sim.policy import ScriptedTactics, parse_plan
from ashfall.sim.setups import InlineCombatant, InlineSetup, policy_for
from tests.sim.duel_kit import ALICE, BOB

SWORD = "salvaged-sword"


def engine_with(alice_at: Square, bob_at: Square, board: Board, bob: Creature = BOB,
                morale: bool = False) -> Engine:
    rs = preset() if morale else preset().with_options(morale={"enabled": False})
    setup = InlineSetup("t", (InlineCombatant("alice", "a", ALICE, alice_at), InlineCombatant("bob", "b", bob, bob_at)),
                        ruleset=rs, board=board)
    engine = setup.build_fight(1).engine
    engine.start()
    assert engine.state.active_id == "alice"  # +100 initiative
    return engine


def play_turn(engine: Engine, tactics: ScriptedTactics, actor: str = "alice") -> list[Any]:
    """Submit the policy's intents until it ends the turn; return them."""
    done = []
    while (intent := tactics.next_intent(engine, actor)) is not None:
        engine.submit(intent)
        done.append(intent)
        if engine.state.ended:
            break
    return done


@pytest.mark.rule("ACT-2", "ACT-7")
def test_act_2__far_enemy_is_approached_by_a_shortest_stride_then_struck() -> None:
    engine = engine_with((0, 1), (6, 1), Board(10, 3))
    first = ScriptedTactics().next_intent(engine, "alice")
    assert isinstance(first, Stride)
    assert first.path[-1] == (5, 1) or max(abs(first.path[-1][0] - 6), abs(first.path[-1][1] - 1)) == 1
    assert path_cost(engine.state, engine.state.get("alice"), first.path) == 25  # 5 squares, the least possible
    engine.submit(first)
    assert ScriptedTactics().next_intent(engine, "alice") == Strike("alice", "bob", SWORD)


@pytest.mark.rule("ACT-2", "MOV-5")
def test_mov_5__the_path_goes_around_a_wall() -> None:
    wall = frozenset({(3, 0), (3, 1), (3, 2), (3, 3)})
    engine = engine_with((1, 1), (5, 1), Board(8, 6, walls=wall))
    stride = ScriptedTactics().next_intent(engine, "alice")
    assert isinstance(stride, Stride)
    assert not set(stride.path) & wall
    assert (3, 4) in stride.path  # the only gap in the wall is at y = 4, 5
    assert path_cost(engine.state, engine.state.get("alice"), stride.path) == 25  # 3 squares to the gap, 2 beyond
    end = stride.path[-1]
    assert max(abs(end[0] - 5), abs(end[1] - 1)) == 1  # next to Bob


@pytest.mark.rule("ACT-2")
def test_act_2__beyond_one_speed_the_creature_strides_twice_then_strikes() -> None:
    engine = engine_with((0, 0), (11, 0), Board(14, 2))
    done = play_turn(engine, ScriptedTactics())
    assert [type(i) for i in done] == [Stride, Stride, Strike]
    assert len(done[0].path) == 6  # a full 30 ft first


@pytest.mark.rule("MAA-5", "MAP-1")
def test_maa_5__power_strike_then_strike_when_adjacent() -> None:
    engine = engine_with((1, 1), (2, 1), Board(4, 3))
    done = play_turn(engine, ScriptedTactics(("power-strike", "strike")))
    if engine.state.ended:
        pytest.skip("the power strike killed")
    assert done == [PowerStrike("alice", "bob", SWORD), Strike("alice", "bob", SWORD)]


@pytest.mark.rule("MAA-7")
def test_maa_7__all_out_attack_names_the_nearest_enemy() -> None:
    engine = engine_with((1, 1), (2, 1), Board(4, 3))
    assert ScriptedTactics("all-out-attack").next_intent(engine, "alice") == AllOutAttack("alice", ("bob",), SWORD)


@pytest.mark.rule("MAA-7", "ACT-2")
def test_maa_7__after_moving_an_unaffordable_all_out_attack_becomes_strikes() -> None:
    engine = engine_with((0, 1), (4, 1), Board(8, 3))
    done = play_turn(engine, ScriptedTactics("all-out-attack"))
    assert [type(i) for i in done][:1] == [Stride]
    assert all(isinstance(i, Strike) for i in done[1:]) and len(done) >= 2


def test_missing_activity__plan_is_played_with_strikes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pol, "activity_intent", lambda activity: None)
    engine = engine_with((1, 1), (2, 1), Board(4, 3), bob=BOB.model_copy(update={"hp": 500}))
    done = play_turn(engine, ScriptedTactics(("power-strike", "strike")))
    assert done == [Strike("alice", "bob", SWORD)] * 3  # Power Strike's 2 actions as 2 Strikes, then the Strike


@pytest.mark.rule("ACT-5")
def test_act_5__a_prone_creature_stands_first() -> None:
    engine = engine_with((1, 1), (2, 1), Board(4, 3))
    apply(engine.state, ev.ConditionAdded("alice", AppliedCondition(Condition.PRONE, "C-PRO", None,
                                                                    Duration.until_removed()), "C-PRO"))
    assert ScriptedTactics().next_intent(engine, "alice") == Stand("alice")


@pytest.mark.rule("MOR-21")
def test_mor_21__a_broken_npc_makes_no_attack() -> None:
    engine = engine_with((1, 1), (2, 1), Board(4, 3), morale=True)
    apply(engine.state, ev.ResourceUsed("alice", "uses:broken", 1, "MOR-21"))
    assert ScriptedTactics().next_intent(engine, "alice") is None


def test_not_its_turn__no_intent() -> None:
    engine = engine_with((1, 1), (2, 1), Board(4, 3))
    assert ScriptedTactics().next_intent(engine, "bob") is None


def test_theater_of_mind__strikes_without_moving() -> None:
    setup = InlineSetup("t", (InlineCombatant("alice", "a", ALICE), InlineCombatant("bob", "b", BOB)))
    engine = setup.build_fight(1).engine
    engine.start()
    assert ScriptedTactics().next_intent(engine, "alice") == Strike("alice", "bob", SWORD)


def test_parse_plan__names_and_activities() -> None:
    assert parse_plan("strike") == (Activity.STRIKE,)
    assert parse_plan(["power-strike", Activity.STRIKE]) == (Activity.POWER_STRIKE, Activity.STRIKE)
    for bad in (["dance"], [], ["disarm"]):
        with pytest.raises(ValueError):
            parse_plan(bad)


def test_policy_for__a_plan_is_scripted() -> None:
    made = policy_for(Tactics((Activity.POWER_STRIKE, Activity.STRIKE)))
    assert isinstance(made, ScriptedTactics)
    assert made.plan == (Activity.POWER_STRIKE, Activity.STRIKE)
    assert isinstance(policy_for(None), pol.Policy)


@pytest.mark.rule("G-31")
def test_g_31__an_empty_gun_is_reloaded_then_fired() -> None:
    gunner = ALICE.model_copy(update={"weapons": ("pistol",)})
    setup = InlineSetup("t", (InlineCombatant("alice", "a", gunner, (0, 1)), InlineCombatant("bob", "b", BOB, (6, 1))),
                        ruleset=preset().with_options(morale={"enabled": False}), board=Board(10, 3))
    engine = setup.build_fight(1).engine
    engine.start()
    apply(engine.state, ev.ResourceUsed("alice", "ammo:pistol", 0, "G-31"))  # an empty magazine
    done = play_turn(engine, ScriptedTactics())
    assert [type(i) for i in done] == [Reload, Strike, Strike]
    assert done[1] == Strike("alice", "bob", "pistol")
