"""Toxic gas (HAZG-1..6, G-29): release, exposure, poisoning, growth, dispersal, wind and sealing."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition
from ashfall.engine import Refused, SealGas, Stride
from ashfall.engine import events as ev
from ashfall.families.hazards.engine_collapse import start_collapse
from ashfall.families.hazards.engine_gas import (
    IN_GAS,
    gas_at_turn_end,
    gas_at_turn_start,
    gas_round,
    release_gas,
    seal_gas,
    spread_squares,
)
from ashfall.grid.board import Board
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.ruleset.sections import GasPoisonEnds
from tests.engine.hazard_kit import arena, ctx_of, fighter, hazard_engine, of_type, ruleset


def _gassed(poisoned: bool = False, **options: object) -> tuple[object, str]:
    raider = fighter("r", "raiders", (5, 5), "raider")
    state = arena([raider, fighter("w", "party", (11, 11))], rules=ruleset(**options) if options else None)
    if poisoned:
        state.get("r").conditions = (AppliedCondition(Condition.POISONED, "HAZG-2", None, Duration.while_(IN_GAS)),)
    ctx, _log, _rng = ctx_of(state)
    key = release_gas(ctx, (5, 5), "HAZG-1", enclosed=False)
    return state, key


# ----- release (HAZG-1) -----


@pytest.mark.rule("HAZG-1")
def test_hazg_1__gas_fills_a_10_ft_radius_around_its_source() -> None:
    state, key = _gassed()
    cloud = state.environment.gas_clouds[key]
    assert cloud.radius_ft == 10 and len(cloud.squares) == 25
    assert set(state.environment.gas) == set(cloud.squares)


@pytest.mark.rule("HAZG-1")
def test_hazg_1__gas_flows_around_walls_not_through_them() -> None:
    walls = frozenset((6, y) for y in range(12) if y != 5)
    squares = set(spread_squares(Board(12, 12, walls=walls), (5, 5), 10))
    assert (7, 5) in squares and (7, 3) not in squares and (6, 4) not in squares
    assert (3, 3) in squares


# ----- exposure (HAZG-2, G-29) -----


@pytest.mark.rule("HAZG-2")
@pytest.mark.parametrize(("d20", "poisoned", "damage"), [(5, True, 4), (15, False, 2)])
def test_hazg_2__fortitude_dc_13_or_poisoned_and_1d6_poison_success_halves(
        d20: int, poisoned: bool, damage: int) -> None:
    state, _key = _gassed()
    ctx, log, rng = ctx_of(state, [(20, d20), (6, 4)])
    with rng:
        gas_at_turn_start(ctx, state.get("r"))
    check = of_type(log, ev.CheckRolled)[0]
    assert check.against == 13 and check.rule == "HAZG-2" and check.label == "fortitude save vs toxic gas"
    assert state.get("r").has(Condition.POISONED) is poisoned
    assert [e.amount for e in of_type(log, ev.DamageTaken)] == [damage]
    assert of_type(log, ev.DamageRolled)[0].parts[0].damage_type == "poison"


@pytest.mark.rule("G-29", "HAZG-2")
@pytest.mark.parametrize(("inside", "still_poisoned"), [(True, True), (False, False)])
def test_g_29__gas_poisoning_ends_when_a_turn_ends_outside_the_gas(inside: bool, still_poisoned: bool) -> None:
    state, _key = _gassed(poisoned=True)
    if not inside:
        state.get("r").position = (10, 1)
    ctx, log, _rng = ctx_of(state)
    gas_at_turn_end(ctx, state.get("r"))
    assert state.get("r").has(Condition.POISONED) is still_poisoned
    if not still_poisoned:
        assert of_type(log, ev.ConditionRemoved)[0].rule == "G-29"


@pytest.mark.rule("G-29")
def test_g_29__the_alternative_ends_it_when_a_turn_starts_outside() -> None:
    state, _key = _gassed(poisoned=True, gas_poison_ends=GasPoisonEnds.START_TURN_OUTSIDE.value)
    state.get("r").position = (10, 1)
    ctx, _log, _rng = ctx_of(state)
    gas_at_turn_end(ctx, state.get("r"))
    assert state.get("r").has(Condition.POISONED)
    gas_at_turn_start(ctx, state.get("r"))
    assert not state.get("r").has(Condition.POISONED)


@pytest.mark.rule("HAZG-2", "G-29")
def test_hazg_2_g_29__in_a_fight_a_creature_poisoned_in_gas_walks_out_and_recovers_at_its_turn_end() -> None:
    raider = fighter("r", "raiders", (5, 5), "raider")
    state = arena([raider, fighter("w", "party", (11, 11))])
    ctx, _log, _rng = ctx_of(state)
    release_gas(ctx, (5, 5), "HAZG-1", enclosed=False)
    engine = hazard_engine(state, "r", [(20, 2), (6, 1)])
    assert state.get("r").has(Condition.POISONED)
    engine.submit(Stride("r", ((6, 5), (7, 5), (8, 5))))
    assert state.get("r").has(Condition.POISONED)
    events = engine.end_turn("r")
    assert any(isinstance(e, ev.ConditionRemoved) and e.rule == "G-29" for e in events)
    assert not state.get("r").has(Condition.POISONED)


# ----- spread, dispersal, wind, sealing (HAZG-3..6) -----


@pytest.mark.rule("HAZG-3")
def test_hazg_3__enclosed_gas_grows_10_ft_each_round() -> None:
    state = arena(board=Board(20, 20))
    ctx, log, _rng = ctx_of(state)
    key = release_gas(ctx, (10, 10), "HAZG-1", enclosed=True)
    gas_round(ctx)
    gas_round(ctx)
    cloud = state.environment.gas_clouds[key]
    assert cloud.radius_ft == 30 and len(cloud.squares) == 13 * 13
    assert of_type(log, ev.GasChanged)[-1].rule == "HAZG-3"


@pytest.mark.rule("HAZG-4")
@pytest.mark.parametrize(("producing", "left"), [(False, False), (True, True)])
def test_hazg_4__open_air_gas_disperses_after_3_rounds_unless_the_source_keeps_producing(
        producing: bool, left: bool) -> None:
    state = arena()
    ctx, log, _rng = ctx_of(state)
    key = release_gas(ctx, (5, 5), "HAZG-1", enclosed=False, producing=producing)
    gas_round(ctx)
    gas_round(ctx)
    assert key in state.environment.gas_clouds
    gas_round(ctx)
    assert (key in state.environment.gas_clouds) is left and bool(state.environment.gas) is left
    if not left:
        assert of_type(log, ev.GasChanged)[-1].rule == "HAZG-4"


@pytest.mark.rule("HAZG-5")
@pytest.mark.parametrize("enclosed", [True, False])
def test_hazg_5__strong_wind_disperses_gas_in_1_round(enclosed: bool) -> None:
    state = arena()
    state.environment.wind = True
    ctx, log, _rng = ctx_of(state)
    release_gas(ctx, (5, 5), "HAZG-1", enclosed=enclosed, producing=True)
    gas_round(ctx)
    assert not state.environment.gas_clouds and not state.environment.gas
    assert of_type(log, ev.GasChanged)[-1].rule == "HAZG-5"


@pytest.mark.rule("HAZG-6")
def test_hazg_6__sealing_stops_growth_and_the_gas_lingers_1d4_rounds() -> None:
    state = arena(board=Board(20, 20))
    ctx, log, rng = ctx_of(state, [(4, 2)])
    key = release_gas(ctx, (10, 10), "HAZG-1", enclosed=True)
    with rng:
        seal_gas(ctx, key)
    gas_round(ctx)
    cloud = state.environment.gas_clouds[key]
    assert cloud.radius_ft == 10 and cloud.linger == 1
    gas_round(ctx)
    assert key not in state.environment.gas_clouds
    assert of_type(log, ev.GasChanged)[-1].rule == "HAZG-6"


@pytest.mark.rule("HAZG-6")
def test_hazg_6__seal_gas_action_needs_the_source_in_reach() -> None:
    state = arena([fighter("w", "party", (4, 5)), fighter("r", "raiders", (11, 11), "raider")])
    ctx, _log, _rng = ctx_of(state)
    near = release_gas(ctx, (5, 5), "HAZG-1", enclosed=False)
    far = release_gas(ctx, (9, 9), "HAZG-1", enclosed=False)
    engine = hazard_engine(state, "w", [(20, 19), (6, 1), (4, 3)])  # its own start-of-turn save, then the linger
    with pytest.raises(Refused) as info:
        engine.submit(SealGas("w", far))
    assert info.value.rule == "HAZG-6"
    engine.submit(SealGas("w", near))
    assert state.environment.gas_clouds[near].sealed and state.environment.gas_clouds[near].linger == 3


@pytest.mark.rule("HAZG-3", "HAZC-2")
def test_hazard_events__round_trip_through_json() -> None:
    state = arena(board=Board(20, 20))
    ctx, log, _rng = ctx_of(state)
    release_gas(ctx, (10, 10), "HAZG-1", enclosed=True)
    gas_round(ctx)
    start_collapse(ctx, (3, 3), 10, "HAZC-1", countdown=2)
    assert ev.dumps(ev.loads(ev.dumps(log))) == ev.dumps(log)
    assert ev.loads(ev.dumps(log)) == log
