"""Structural collapse (HAZC-1..6, C-BUR, G-18, G-30, X-22): countdown, the fall, Buried, digging out, rubble."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition
from ashfall.engine import DigOut, FirstOption, Refused
from ashfall.engine import events as ev
from ashfall.families.hazards.engine_collapse import collapse_round, start_collapse
from ashfall.families.movement.moves import step_cost
from ashfall.grid.board import Board
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition
from tests.engine.hazard_kit import arena, ctx_of, fighter, hazard_engine, of_type

BIG = Board(25, 25)


@pytest.mark.rule("HAZC-1", "HAZC-2")
def test_hazc_1_hazc_2__a_collapse_covers_20_ft_and_counts_down_1d4_rounds() -> None:
    state = arena(board=BIG)
    ctx, log, rng = ctx_of(state, [(4, 3)])
    with rng:
        key = start_collapse(ctx, (10, 10), None, "CHN-9")
    zone = state.environment.collapses[key].squares
    assert len(zone) == 9 * 9 and (6, 6) in zone and (5, 10) not in zone
    countdown = of_type(log, ev.CountdownChanged)[0]
    assert (countdown.rounds, countdown.rule) == (3, "HAZC-2")
    assert state.environment.countdowns[key] == 3


@pytest.mark.rule("HAZC-1")
def test_hazc_1__walls_and_off_map_squares_are_not_in_the_zone() -> None:
    state = arena(board=Board(6, 6, walls=frozenset({(1, 1)})))
    ctx, _log, _rng = ctx_of(state)
    key = start_collapse(ctx, (0, 0), 10, "HAZC-1", countdown=1)
    assert set(state.environment.collapses[key].squares) == {(x, y) for x in range(3) for y in range(3)} - {(1, 1)}


@pytest.mark.rule("G-30", "HAZC-2")
def test_g_30__the_countdown_ticks_at_the_end_of_each_round_and_the_collapse_comes_at_0() -> None:
    state = arena(board=BIG)
    ctx, log, _rng = ctx_of(state)
    key = start_collapse(ctx, (10, 10), None, "HAZC-1", countdown=2)
    collapse_round(ctx)
    assert state.environment.countdowns[key] == 1 and not state.environment.rubble
    collapse_round(ctx)
    assert key not in state.environment.countdowns and key not in state.environment.collapses
    assert [e.rule for e in of_type(log, ev.CountdownChanged)] == ["HAZC-2", "G-30", "G-30"]
    assert of_type(log, ev.RubbleAdded)[0].rule == "HAZC-5"


@pytest.mark.rule("HAZC-3", "C-BUR", "G-18")
def test_hazc_3__reflex_dc_15_failure_4d10_and_buried_success_half_and_a_5_ft_move_out() -> None:
    state = arena([fighter("a", "party", (10, 10), "gunslinger"), fighter("b", "party", (14, 10), "gunslinger"),
                   fighter("r", "raiders", (24, 24), "raider")], BIG)
    ctx, log, _rng = ctx_of(state)
    start_collapse(ctx, (10, 10), None, "HAZC-1", countdown=1)
    ctx, log, rng = ctx_of(state, [(20, 1), (20, 15), 5, 5, 5, 5], {"b": FirstOption()})
    with rng:
        collapse_round(ctx)
    saves = of_type(log, ev.CheckRolled)
    assert [(s.actor, s.against, s.success, s.rule) for s in saves] == [("a", 15, False, "HAZC-3"),
                                                                       ("b", 15, True, "HAZC-3")]
    assert [(e.target, e.amount) for e in of_type(log, ev.DamageTaken)] == [("a", 20), ("b", 10)]
    assert state.get("a").has(Condition.BURIED) and not state.get("b").has(Condition.BURIED)
    moved = of_type(log, ev.Moved)
    assert [(m.actor, m.to, m.rule) for m in moved] == [("b", (15, 9), "HAZC-3")]
    assert (15, 9) not in state.environment.rubble and (14, 10) in state.environment.rubble


@pytest.mark.rule("C-BUR", "G-18")
def test_c_bur__buried_is_restrained_and_cannot_breathe() -> None:
    assert Condition.RESTRAINED in cond.expand({Condition.BURIED})
    assert cond.cannot_breathe({Condition.BURIED}) == "G-18"


@pytest.mark.rule("HAZC-5")
def test_hazc_5__rubble_is_greater_difficult_terrain() -> None:
    state = arena([fighter("w", "party", (1, 1))])
    state.environment.rubble.add((2, 1))
    assert step_cost(state, (1, 1), (2, 1), 0) == 15
    assert step_cost(state, (1, 1), (1, 2), 0) == 5


@pytest.mark.rule("HAZC-6", "G-18")
def test_hazc_6__a_buried_creature_takes_1d6_bludgeoning_at_the_start_of_its_turns() -> None:
    state = arena([fighter("a", "party", (1, 1), "gunslinger"), fighter("r", "raiders", (10, 10), "raider")])
    state.get("a").conditions = (AppliedCondition(Condition.BURIED, "HAZC-3"),)
    engine = hazard_engine(state, "a", [(6, 4)])
    rolled = of_type(engine.log, ev.DamageRolled)[0]
    assert rolled.parts[0].damage_type == "bludgeoning" and rolled.parts[0].rule == "G-18"
    assert [e.amount for e in of_type(engine.log, ev.DamageTaken)] == [4]


def _dig_state() -> object:
    state = arena([fighter("a", "party", (1, 1), "gunslinger"), fighter("b", "party", (2, 1), "operative"),
                   fighter("c", "party", (6, 6), "operative"), fighter("r", "raiders", (1, 2), "raider")])
    state.get("a").conditions = (AppliedCondition(Condition.BURIED, "HAZC-3"),)
    return state


@pytest.mark.rule("HAZC-4", "X-22")
@pytest.mark.parametrize("digger", ["a", "b"])
def test_hazc_4__dig_out_is_1_action_by_the_buried_creature_or_an_adjacent_ally_with_no_check(digger: str) -> None:
    state = _dig_state()
    faces = [(6, 1)] if digger == "a" else []  # the buried creature's own turn starts with its 1d6 (HAZC-6)
    engine = hazard_engine(state, digger, faces)
    events = engine.submit(DigOut(digger, "a"))
    assert not state.get("a").has(Condition.BURIED)
    assert not of_type(events, ev.CheckRolled) and of_type(events, ev.ActionsSpent)[0].count == 1
    assert of_type(events, ev.ConditionRemoved)[0].rule == "HAZC-4"


@pytest.mark.rule("HAZC-4")
@pytest.mark.parametrize("digger", ["c", "r"])
def test_hazc_4__a_far_ally_or_an_enemy_cannot_dig_it_out(digger: str) -> None:
    engine = hazard_engine(_dig_state(), digger)
    with pytest.raises(Refused) as info:
        engine.submit(DigOut(digger, "a"))
    assert info.value.rule == "HAZC-4"
