"""Flooding (HAZW-1..5, G-16, X-04, EX-7, EX-9): rising water, shallow and deep water, swimming, drains."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition
from ashfall.engine import FindDrain, OpenDrain, Refused, Stride
from ashfall.engine import events as ev
from ashfall.engine.environment import Drain
from ashfall.families.hazards.engine_flood import add_drain, flood_round, start_flood, swim_at_turn_start
from ashfall.families.movement.moves import step_cost
from ashfall.grid.board import Board
from ashfall.rules.condition_durations import AppliedCondition
from tests.engine.hazard_kit import arena, ctx_of, fighter, hazard_engine, of_type, ruleset


def _flooded(level: int, *combatants: object, rules: object = None, board: Board | None = None) -> object:
    state = arena(list(combatants), board, rules=rules)  # type: ignore[arg-type]
    ctx, _log, _rng = ctx_of(state)
    start_flood(ctx, None, "HAZW-1", level_ft=level)
    return state


# ----- the level (HAZW-1, X-04, EX-7) -----


@pytest.mark.rule("HAZW-1", "X-04", "EX-7")
def test_x_04_ex_7__water_rises_1_ft_a_round_by_default_as_in_the_flood_example() -> None:
    state = arena()
    ctx, log, _rng = ctx_of(state)
    start_flood(ctx, None, "HAZW-1")
    depths = [state.environment.water_depth[(0, 0)]]
    for _ in range(3):
        flood_round(ctx)
        depths.append(state.environment.water_depth[(0, 0)])
    assert depths == [1, 2, 3, 4]
    assert of_type(log, ev.WaterChanged)[-1].rule == "HAZW-1"


@pytest.mark.rule("HAZW-1", "X-04")
def test_hazw_1__the_rule_text_rate_of_5_ft_is_an_option() -> None:
    state = arena(rules=ruleset(flood_rise_ft=5))
    ctx, _log, _rng = ctx_of(state)
    start_flood(ctx, None, "HAZW-1")
    flood_round(ctx)
    assert state.environment.water_depth[(3, 3)] == 10


@pytest.mark.rule("HAZW-1")
def test_hazw_1__water_fills_the_lowest_points_first_and_stops_at_its_maximum() -> None:
    board = Board(6, 6, elevation={(1, 1): 2, (2, 2): 5}, walls=frozenset({(4, 4)}))
    state = arena(board=board)
    ctx, _log, _rng = ctx_of(state)
    start_flood(ctx, 2, "HAZW-1", level_ft=3, max_ft=4)
    assert state.environment.water_depth[(0, 0)] == 3 and state.environment.water_depth[(1, 1)] == 1
    assert (2, 2) not in state.environment.water_depth and (4, 4) not in state.environment.water_depth
    flood_round(ctx)
    assert state.environment.water_depth[(0, 0)] == 4


# ----- moving through water (HAZW-2, HAZW-3, X-03) -----


@pytest.mark.rule("HAZW-2", "HAZW-3", "X-03")
@pytest.mark.parametrize(("level", "swim", "fly", "cost"), [
    (0, 0, 0, 5), (1, 0, 0, 10), (3, 0, 0, 10), (4, 0, 0, 10), (4, 30, 0, 5), (2, 30, 0, 10), (4, 0, 30, 5),
])
def test_hazw_2__shallow_water_is_difficult_and_deep_water_is_swum(level: int, swim: int, fly: int,
                                                                   cost: int) -> None:
    w = fighter("w", "party", (1, 1), swim=swim)
    if fly:
        w.creature = w.creature.model_copy(update={"speeds": w.creature.speeds.model_copy(update={"fly": fly})})
    state = _flooded(level, w) if level else arena([w])
    assert step_cost(state, (1, 1), (2, 1), 0, w) == cost


# ----- staying afloat (HAZW-3, HAZW-4, G-16) -----


@pytest.mark.rule("HAZW-3", "G-16")
@pytest.mark.parametrize(("d20", "drowning"), [(2, True), (12, False)])
def test_hazw_3__deep_water_athletics_dc_12_each_round_or_begin_drowning(d20: int, drowning: bool) -> None:
    state = _flooded(4, fighter("g", "party", (1, 1), "gunslinger"))
    ctx, log, rng = ctx_of(state, [(20, d20)])
    with rng:
        swim_at_turn_start(ctx, state.get("g"))
    check = of_type(log, ev.CheckRolled)[0]
    assert (check.against, check.rule) == (12, "HAZW-3")
    assert state.get("g").has(Condition.DROWNING) is drowning


@pytest.mark.rule("HAZW-3")
@pytest.mark.parametrize(("level", "swim", "fly"), [(3, 0, 0), (4, 30, 0), (4, 0, 30)])
def test_hazw_3__no_check_in_shallow_water_for_swimmers_or_for_fliers(level: int, swim: int, fly: int) -> None:
    g = fighter("g", "party", (1, 1), "gunslinger", swim=swim)
    if fly:
        g.creature = g.creature.model_copy(update={"speeds": g.creature.speeds.model_copy(update={"fly": fly})})
    state = _flooded(level, g)
    ctx, log, rng = ctx_of(state)
    with rng:
        swim_at_turn_start(ctx, state.get("g"))
    assert not of_type(log, ev.CheckRolled)


@pytest.mark.rule("HAZW-4")
def test_hazw_4__heavy_armor_gives_disadvantage_on_the_swim_check() -> None:
    state = _flooded(5, fighter("w", "party", (1, 1)))
    ctx, log, rng = ctx_of(state, [(20, 18), (20, 3)])
    with rng:
        swim_at_turn_start(ctx, state.get("w"))
    check = of_type(log, ev.CheckRolled)[0]
    assert check.roll.faces == (18, 3) and check.roll.natural == 3
    assert [s.rule for s in check.roll.sources] == ["HAZW-4"]


@pytest.mark.rule("G-16", "HAZW-3")
def test_g_16__a_drowning_creature_surfaces_on_a_success_or_by_leaving_deep_water() -> None:
    g = fighter("g", "party", (1, 1), "gunslinger")
    g.conditions = (AppliedCondition(Condition.DROWNING, "G-16"),)
    state = _flooded(4, g, fighter("r", "raiders", (10, 10), "raider"), board=Board(12, 12, elevation={
        (x, y): 4 for x in range(3, 12) for y in range(12)}))
    ctx, log, rng = ctx_of(state, [(20, 12)])
    with rng:
        swim_at_turn_start(ctx, state.get("g"))
    assert not state.get("g").has(Condition.DROWNING) and of_type(log, ev.CheckRolled)[0].rule == "G-16"
    state.get("g").conditions = (AppliedCondition(Condition.DROWNING, "G-16"),)
    engine = hazard_engine(state, "g", [(20, 1)])
    assert state.get("g").has(Condition.DROWNING)
    events = engine.submit(Stride("g", ((2, 1), (3, 1))))
    assert not state.get("g").has(Condition.DROWNING)
    assert of_type(events, ev.ConditionRemoved)[0].rule == "G-16"


# ----- drains (HAZW-5, EX-9) -----


@pytest.mark.rule("HAZW-5")
def test_hazw_5__an_open_drain_lowers_the_water_each_round() -> None:
    state = _flooded(4)
    ctx, log, _rng = ctx_of(state)
    add_drain(ctx, (0, 0))
    flood_round(ctx)  # +1 rise, -2 drain
    assert state.environment.water_depth[(5, 5)] == 3
    assert of_type(log, ev.WaterChanged)[-1].rule == "HAZW-5"


@pytest.mark.rule("EX-9", "HAZW-5")
@pytest.mark.parametrize(("d20", "opens"), [(8, True), (7, False)])
def test_ex_9__opening_a_drain_takes_a_mig_check_dc_12(d20: int, opens: bool) -> None:
    state = _flooded(2, fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider"))
    state.environment.drains["grate"] = Drain("grate", (2, 2), 2)
    engine = hazard_engine(state, "w", [(20, d20)])
    events = engine.submit(OpenDrain("w", "grate"))
    check = of_type(events, ev.CheckRolled)[0]
    assert (check.against, check.rule) == (12, "EX-9") and check.roll.total == d20 + 4
    assert state.environment.drains["grate"].open is opens


@pytest.mark.rule("EX-9")
def test_ex_9__a_hidden_drain_is_found_with_perception_before_it_can_be_opened() -> None:
    state = _flooded(2, fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider"))
    state.environment.drains["grate"] = Drain("grate", (2, 2), 2, found=False, find_dc=12)
    engine = hazard_engine(state, "w", [(20, 14)])
    with pytest.raises(Refused) as info:
        engine.submit(OpenDrain("w", "grate"))
    assert info.value.rule == "EX-9"
    events = engine.submit(FindDrain("w", "grate"))
    assert of_type(events, ev.CheckRolled)[0].label == "Perception: find drain"
    assert state.environment.drains["grate"].found


@pytest.mark.rule("HAZF-4", "HAZW-1")
def test_hazf_4__rising_water_puts_out_the_fire_it_covers() -> None:
    state = arena(board=Board(6, 6, elevation={(3, 3): 5}))
    state.environment.fire.update({(1, 1): 1, (3, 3): 1})
    ctx, log, _rng = ctx_of(state)
    start_flood(ctx, None, "HAZW-1")
    assert set(state.environment.fire) == {(3, 3)}
    assert [e.rule for e in of_type(log, ev.FireChanged)] == ["HAZF-4"]
