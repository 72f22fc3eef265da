"""Fire (HAZF-1..6, G-51, X-18/EX-6), hazardous terrain (MOV-6, G-29) and when hazards act (HAZ-0)."""

from __future__ import annotations

import pytest

from ashfall.core.types import DamageType
from ashfall.engine import ActivateSuppression, Extinguish, Refused, Stride, catalog
from ashfall.engine import events as ev
from ashfall.engine.environment import Cause, Environment, MapObject, Obscurement, Suppressor, Veil
from ashfall.engine.rulebook import Family
from ashfall.engine.turns import END_OF_ROUND_ORDER
from ashfall.explain import event_lines
from ashfall.families.hazards.engine import extinguish, suppress
from ashfall.families.hazards.engine_fire import fire_round, flammable, ignite
from ashfall.families.maneuvers.engine import push
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.ruleset import preset
from tests.engine.hazard_kit import arena, ctx_of, fighter, hazard_engine, of_type, ruleset


def _burning(*squares: tuple[int, int]) -> object:
    def setup(env: Environment) -> None:
        env.fire.update(dict.fromkeys(squares, 0))
    return setup


def _damage_to(log: list[object], cid: str) -> list[int]:
    return [e.amount for e in of_type(log, ev.DamageTaken) if e.target == cid]


# ----- damage (HAZF-1, G-51) -----


@pytest.mark.rule("HAZF-1")
def test_hazf_1__starting_a_turn_in_a_burning_square_deals_1d6_fire() -> None:
    state = arena([fighter("r", "raiders", (1, 1), "raider"), fighter("w", "party", (9, 9))], env=_burning((1, 1)))
    engine = hazard_engine(state, "r", [(6, 4)])
    rolled = of_type(engine.log, ev.DamageRolled)
    assert rolled[0].actor == "hazard:fire" and rolled[0].parts[0].damage_type == "fire"
    assert _damage_to(engine.log, "r") == [4]
    assert of_type(engine.log, ev.HazardTriggered)[0].rule == "HAZF-1"


@pytest.mark.rule("HAZF-1", "G-51")
@pytest.mark.parametrize(("once", "burns"), [(True, 1), (False, 2)])
def test_hazf_1_g_51__walking_through_two_burning_squares_burns_once_per_turn(once: bool, burns: int) -> None:
    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")],
                  rules=ruleset(once_per_turn=once), env=_burning((2, 1), (3, 1)))
    engine = hazard_engine(state, "w", [(6, 3)] * burns)
    events = engine.submit(Stride("w", ((2, 1), (3, 1))))
    assert _damage_to(events, "w") == [3] * burns


@pytest.mark.rule("HAZF-1", "G-51")
def test_g_51__a_creature_that_burned_at_its_turn_start_does_not_burn_again_moving_in_fire() -> None:
    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")],
                  env=_burning((1, 1), (2, 1)))
    engine = hazard_engine(state, "w", [(6, 5)])
    assert _damage_to(engine.log, "w") == [5]
    assert _damage_to(engine.submit(Stride("w", ((2, 1),))), "w") == []


@pytest.mark.rule("HAZF-1")
def test_hazf_1__stepping_out_of_fire_into_a_clear_square_does_not_burn() -> None:
    state = arena([fighter("w", "party", (5, 5)), fighter("r", "raiders", (10, 10), "raider")], env=_burning((1, 1)))
    engine = hazard_engine(state, "w")
    assert not of_type(engine.submit(Stride("w", ((6, 5),))), ev.DamageTaken)


@pytest.mark.rule("HAZF-1", "SHV-3")
def test_hazf_1__a_creature_pushed_into_fire_burns() -> None:
    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")], env=_burning((3, 1)))
    ctx, log, rng = ctx_of(state, [(6, 6)])
    with rng:
        push(ctx, "r", (3, 1), "SHV-3")
    assert _damage_to(log, "r") == [6]


# ----- spread, burnout and smoke (HAZF-2, HAZF-5, HAZF-6) -----


@pytest.mark.rule("HAZF-2", "HAZ-0")
def test_hazf_2__fire_spreads_to_adjacent_flammable_squares_but_not_stone_metal_water_or_walls() -> None:
    def setup(env: Environment) -> None:
        env.fire[(2, 2)] = 0
        env.flammable |= {(3, 2), (2, 3), (5, 5), (1, 1), (3, 3)}
        env.water_depth[(1, 1)] = 1
        env.objects["barricade"] = MapObject("barricade", "wooden barricade", ((1, 2),), 15, 15, flammable=True)
        env.objects["crate"] = MapObject("crate", "metal crate", ((1, 3),), 20, 20, metal=True)

    state = arena(board=Board(12, 12, walls=frozenset({(3, 3)})), env=setup)
    ctx, log, rng = ctx_of(state, [(4, 3)])
    with rng:
        fire_round(ctx)
    assert set(state.environment.fire) == {(2, 2), (3, 2), (2, 3), (1, 2)}
    spread = [e for e in of_type(log, ev.FireChanged) if e.burning]
    assert spread[0].squares == ((1, 2), (2, 3), (3, 2)) and spread[0].rule == "HAZF-2"
    assert of_type(log, ev.FireTicked)[0].squares == (((2, 2), 1, 3),)


@pytest.mark.rule("HAZF-2")
def test_hazf_2__fire_spreads_one_ring_per_round_not_in_a_cascade() -> None:
    def setup(env: Environment) -> None:
        env.fire[(0, 0)] = 0
        env.flammable |= {(1, 0), (2, 0), (3, 0)}

    state = arena(env=setup)
    ctx, _log, rng = ctx_of(state, [(4, 4)])
    with rng:
        fire_round(ctx)
    assert set(state.environment.fire) == {(0, 0), (1, 0)}


@pytest.mark.rule("HAZF-5")
@pytest.mark.parametrize("spends", [True, False])
def test_hazf_5__a_square_burns_out_after_1d4_plus_1_rounds_and_its_fuel_is_spent(spends: bool) -> None:
    def setup(env: Environment) -> None:
        env.fire[(5, 5)] = 0
        env.flammable.add((5, 5))

    state = arena(rules=ruleset(burnout_spends_fuel=spends), env=setup)
    ctx, log, rng = ctx_of(state, [(4, 1)])  # 1d4+1 = 2 rounds
    with rng:
        fire_round(ctx)
        assert state.environment.fire_burnout[(5, 5)] == 1
        fire_round(ctx)
    assert (5, 5) not in state.environment.fire
    out = next(e for e in of_type(log, ev.FireChanged) if not e.burning)
    assert out.rule == "HAZF-5" and out.fuel_spent is spends
    assert flammable(state, (5, 5)) is not spends


@pytest.mark.rule("HAZF-5", "CHN-3")
def test_hazf_5__lighting_a_burning_square_again_is_fresh_fuel() -> None:
    def setup(env: Environment) -> None:
        env.fire[(5, 5)] = 2
        env.fire_burnout[(5, 5)] = 1

    state = arena(env=setup)
    ctx, _log, rng = ctx_of(state, [(4, 4)])
    assert ignite(ctx, [(5, 5), (20, 20)], "CHN-3") == ((5, 5),)
    assert (5, 5) not in state.environment.fire_burnout
    with rng:
        fire_round(ctx)
    assert state.environment.fire[(5, 5)] == 3 and state.environment.fire_burnout[(5, 5)] == 4


@pytest.mark.rule("HAZF-6")
@pytest.mark.parametrize(("enclosed", "burned", "level"), [
    (False, 0, None), (False, 1, Obscurement.LIGHT), (False, 3, Obscurement.LIGHT),
    (True, 2, Obscurement.LIGHT), (True, 3, Obscurement.HEAVY),
])
def test_hazf_6__smoke_after_2_rounds_of_fire_and_heavy_after_4_when_enclosed(
        enclosed: bool, burned: int, level: Obscurement | None) -> None:
    def setup(env: Environment) -> None:
        env.fire[(5, 5)] = burned
        env.fire_burnout[(5, 5)] = 5
        env.enclosed = enclosed

    state = arena(env=setup)
    ctx, _log, _rng = ctx_of(state)
    fire_round(ctx)
    veil = state.environment.veils.get((5, 5))
    assert (veil.level if veil else None) is level
    if veil is not None:
        assert veil.cause is Cause.SMOKE


@pytest.mark.rule("HAZF-6", "HAZF-3")
def test_hazf_6__smoke_clears_when_the_fire_is_put_out_but_fog_stays() -> None:
    def setup(env: Environment) -> None:
        env.fire[(5, 5)] = 3
        env.fire[(6, 5)] = 3
        env.veils[(5, 5)] = _veil(Obscurement.LIGHT, Cause.SMOKE)
        env.veils[(6, 5)] = _veil(Obscurement.HEAVY, Cause.FOG)

    state = arena(env=setup)
    ctx, _log, _rng = ctx_of(state)
    extinguish(ctx, [(5, 5), (6, 5)], "HAZF-3")
    assert (5, 5) not in state.environment.veils and state.environment.veils[(6, 5)].cause is Cause.FOG


def _veil(level: Obscurement, cause: Cause) -> Veil:
    return Veil(level, cause)


# ----- putting fire out (HAZF-3, HAZF-4) -----


@pytest.mark.rule("HAZF-3")
def test_hazf_3__extinguish_costs_1_action_for_one_adjacent_square() -> None:
    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")],
                  env=_burning((2, 2), (3, 2)))
    engine = hazard_engine(state, "w")
    events = engine.submit(Extinguish("w", (2, 2)))
    assert set(state.environment.fire) == {(3, 2)}
    assert of_type(events, ev.ActionsSpent)[0].count == 1 and state.get("w").turn.actions_left == 2


@pytest.mark.rule("HAZF-3")
@pytest.mark.parametrize("square", [(3, 2), (5, 5)])
def test_hazf_3__extinguish_refuses_a_far_or_unlit_square(square: tuple[int, int]) -> None:
    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")],
                  env=_burning((3, 2)))
    engine = hazard_engine(state, "w")
    with pytest.raises(Refused) as info:
        engine.submit(Extinguish("w", square))
    assert info.value.rule == "HAZF-3"


@pytest.mark.rule("HAZF-4")
def test_hazf_4__a_suppression_system_puts_out_all_fire_in_its_area() -> None:
    def setup(env: Environment) -> None:
        env.fire.update(dict.fromkeys([(5, 5), (6, 6), (9, 9)], 1))
        env.suppressors["sprinklers"] = Suppressor("sprinklers", ((5, 5), (6, 6)), control=(1, 2))

    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")], env=setup)
    engine = hazard_engine(state, "w")
    engine.submit(ActivateSuppression("w", "sprinklers"))
    assert set(state.environment.fire) == {(9, 9)}
    ctx, _log, _rng = ctx_of(state)
    assert suppress(ctx, [(9, 9)]) == ((9, 9),)


# ----- X-18 / EX-6: burning cover -----


@pytest.mark.rule("X-18", "EX-6")
@pytest.mark.parametrize("switch", [True, False])
def test_x_18_ex_6__burning_cover_burns_creatures_behind_it_only_with_the_switch(switch: bool) -> None:
    board = Board(12, 12, cover={(2, 1): CoverObject(CoverLevel.PARTIAL, name="barricade", light=True)})
    state = arena([fighter("r", "raiders", (1, 1), "raider"), fighter("w", "party", (9, 9))], board,
                  rules=ruleset(burning_cover_damages=switch), env=_burning((2, 1)))
    engine = hazard_engine(state, "r", [(6, 2)] if switch else [])
    assert _damage_to(engine.log, "r") == ([2] if switch else [])


# ----- hazardous terrain (MOV-6, G-29) -----


@pytest.mark.rule("MOV-6", "G-29")
def test_mov_6_g_29__hazardous_terrain_deals_1d6_of_its_type_at_turn_start_and_on_entering() -> None:
    def setup(env: Environment) -> None:
        env.hazard_terrain.update({(1, 1): "acid", (3, 1): "acid"})

    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")], env=setup)
    engine = hazard_engine(state, "w", [(6, 2)])
    rolled = of_type(engine.log, ev.DamageRolled)[0]
    assert rolled.parts[0].damage_type == DamageType.ACID.value and rolled.parts[0].rule == "G-29"
    assert _damage_to(engine.log, "w") == [2]
    assert _damage_to(engine.submit(Stride("w", ((2, 1), (3, 1)))), "w") == []  # once per turn (G-51, as fire)


# ----- when hazards act (HAZ-0, E-36) -----


@pytest.mark.rule("HAZ-0")
def test_haz_0__end_of_round_hooks_run_in_the_documented_order() -> None:
    names = list(catalog.build().hook_names["end_of_round"])
    known = [n for n in names if n in END_OF_ROUND_ORDER]
    assert known == [n for n in END_OF_ROUND_ORDER if n in names]
    assert {"fire", "gas", "collapse", "flood"} <= set(names)
    assert END_OF_ROUND_ORDER == ("chains", "fire", "gas", "collapse", "flood")


@pytest.mark.rule("HAZ-0", "HAZF-2")
def test_haz_0__fire_spreads_after_every_creature_has_acted() -> None:
    def setup(env: Environment) -> None:
        env.fire[(5, 5)] = 0
        env.flammable.add((5, 6))

    state = arena([fighter("w", "party", (1, 1)), fighter("r", "raiders", (10, 10), "raider")], env=setup)
    engine = hazard_engine(state, "w", [(4, 4)])
    engine.end_turn("w")
    assert (5, 6) not in state.environment.fire
    events = engine.end_turn("r")
    kinds = [type(e) for e in events]
    assert kinds.index(ev.RoundEnded) < kinds.index(ev.FireChanged) < kinds.index(ev.RoundStarted)
    assert (5, 6) in state.environment.fire


@pytest.mark.rule("E-36")
def test_e_36__edition_1_has_no_spreading_hazards() -> None:
    rules = preset("ashfall-1")
    state = arena([fighter("r", "raiders", (1, 1), "raider", ruleset=rules), fighter("w", "party", (9, 9),
                                                                                    ruleset=rules)],
                  rules=rules, env=_burning((1, 1)))
    engine = hazard_engine(state, "r")
    assert not of_type(engine.log, ev.DamageTaken)
    ctx, _log, _rng = ctx_of(state)
    assert ignite(ctx, [(2, 2)], "IEA-1") == ()


@pytest.mark.rule("HAZF-2")
def test_hazf_2__change_hooks_hear_every_fire_change() -> None:
    heard: list[object] = []
    state = arena()
    state.chosen_rulebook = catalog.build(extra=(Family("test", lambda book: book.on_change(
        "test", lambda ctx, e: heard.append(e))),))
    ctx, _log, _rng = ctx_of(state)
    ignite(ctx, [(2, 2)], "IEA-1")
    assert [type(e) for e in heard] == [ev.FireChanged]
    assert flammable(state, (2, 2)) is False


@pytest.mark.rule("HAZF-2", "HAZF-5")
def test_fire_events__explain_as_table_lines() -> None:
    lit = event_lines(ev.FireChanged(((1, 1), (2, 1)), True, "HAZF-2", "spreads"))
    out = event_lines(ev.FireChanged(((1, 1),), False, "HAZF-5", "burned out", True))
    smoke = event_lines(ev.SmokeChanged(((1, 1),), 1, "HAZF-6"))
    assert lit == ["Fire spreads to 2 squares: (1, 1), (2, 1) [HAZF-2]"]
    assert out == ["Fire out (burned out) in 1 square: (1, 1); the fuel is spent [HAZF-5]"]
    assert smoke == ["Smoke lightly obscures (1, 1) [HAZF-6]"]
    assert event_lines(ev.FireTicked((((1, 1), 2, 1),)), explain=True)[0].startswith("Fire burns on")
