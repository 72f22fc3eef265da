"""Vehicles in the engine (VEH-3..5) and edition 1's pilot actions (E-43): crews, passengers, damage track, Ram."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from ashfall.core.rng import ScriptedRng
from ashfall.encounters import build, encounter_from_text
from ashfall.engine import Combatant, Decline, Drive, Engine, EvasiveManeuvers, Mount, Ram, Refused, Strike, new_state
from ashfall.engine import events as ev
from ashfall.engine.records import supplies_of
from ashfall.explain import log_lines
from ashfall.families.vehicles.moves import MOVING, status
from ashfall.families.vehicles.rules import DamageTrack
from ashfall.files.yaml_marks import InputError
from ashfall.grid.board import Board
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import TIEBREAK, fighter, of_type, script

ED1 = preset("ashfall-1")


def aboard(c: Combatant, vehicle: Combatant, station: str) -> Combatant:
    return replace(c, mounted_on=vehicle.id, station=station, position=vehicle.position)


def begin(roster: Sequence[Combatant], ruleset: Ruleset | None = None) -> Engine:
    """A started fight (morale off); the first combatant rolls 20 for initiative, the rest 1."""
    state = new_state(roster, ruleset or preset(), Board(20, 12))
    state.morale_enabled = False
    init = [f for i, _c in enumerate(roster) for f in ((20, 20 if i == 0 else 1), (TIEBREAK, 1))]
    engine = Engine(state, ScriptedRng(init), {c.id: Decline() for c in roster}, seed=None)
    engine.start()
    return engine


def buggy(moving: bool = False, creature: str = "dune-buggy", rs: Ruleset | None = None) -> Combatant:
    b = fighter("b", "raiders", (5, 5), creature, ruleset=rs)
    return replace(b, supplies=supplies_of({MOVING: 1} if moving else {}))


def crew(vehicle: Combatant, rs: Ruleset | None = None) -> list[Combatant]:
    return [aboard(fighter("p", "raiders", None, "raider", ruleset=rs), vehicle, "pilot"),
            aboard(fighter("g", "raiders", None, "raider", ruleset=rs), vehicle, "gunner"),
            aboard(fighter("x", "raiders", None, "raider", ruleset=rs), vehicle, "passenger")]


# ----- turns and victory (VEH-3) -----


@pytest.mark.rule("VEH-3")
def test_veh_3__the_vehicle_has_no_turn__its_crew_act_on_their_own_initiative() -> None:
    b = buggy()
    engine = begin([fighter("w", "party", (1, 1)), b, *crew(b)])
    assert "b" not in engine.state.order and set(engine.state.order) == {"w", "p", "g", "x"}
    assert engine.state.get("p").turn.actions_left == 0
    engine.end_turn("w")
    assert engine.state.get(engine.state.active_id or "").turn.actions_left == 3


@pytest.mark.rule("VEH-3")
def test_veh_3__an_intact_vehicle_without_crew_does_not_keep_its_side_in_the_fight() -> None:
    b = buggy()
    pilot = aboard(fighter("p", "raiders", None, "raider"), b, "pilot")
    pilot = replace(pilot, health=pilot.health.evolve(hp=1))
    engine = begin([fighter("w", "party", (4, 5), weapons=["spear"]), b, pilot])
    script(engine, [19, 3])
    events = engine.submit(Strike("w", "p", "spear"))
    assert of_type(events, ev.CombatEnded)[0].winner == "party"


# ----- passengers (VEH-5, E-43) -----


@pytest.mark.rule("VEH-5", "E-43")
@pytest.mark.parametrize(("vehicle", "moving", "shooter", "ruleset", "expected"), [
    ("dune-buggy", True, "x", preset(), ["VEH-5"]),
    ("dune-buggy", False, "x", preset(), []),
    ("armored-hauler", True, "x", preset(), []),
    ("dune-buggy", True, "g", preset(), []),
    ("dune-buggy", False, "x", ED1, ["E-43"]),
    ("armored-hauler", False, "x", ED1, []),
], ids=["veh_5-moving-disadvantage", "stationary-normal", "stabilized-normal", "crew-station-normal",
        "e_43-edition-1-always", "e_43-edition-1-stabilized"])
def test_veh_5__passengers_fire_at_disadvantage_from_a_moving_vehicle(
        vehicle: str, moving: bool, shooter: str, ruleset: Ruleset, expected: list[str]) -> None:
    b = buggy(moving, vehicle, ruleset)
    people = crew(b, ruleset)
    first = next(c for c in people if c.id == shooter)
    engine = begin([first, *(c for c in people if c is not first), b, fighter("w", "party", (5, 1), ruleset=ruleset)],
                   ruleset)
    script(engine, [2] * (2 if expected else 1))
    (attack,) = of_type(engine.submit(Strike(shooter, "w", "pistol")), ev.AttackRolled)
    assert [s.rule for s in attack.roll.sources] == expected


# ----- System Damage Track (VEH-4) and DV -----


@pytest.mark.rule("VEH-4", "DV-1")
def test_veh_4__the_vehicle_moves_down_the_damage_track_as_it_takes_damage() -> None:
    b = buggy()
    engine = begin([fighter("w", "party", (4, 5), weapons=["greataxe"]), b, *crew(b)])
    script(engine, [15, 9, 15, 12, 15, 12])  # 13, then 16, then 16 slashing (1d12 + MIG 4)
    steps = []
    for _ in range(3):
        events = engine.submit(Strike("w", "b", "greataxe"))
        steps += [e.status for e in of_type(events, ev.VehicleStatus)]
        assert of_type(events, ev.AttackRolled)[0].dv == 13  # the hull (DV-1)
    assert steps == ["stressed", "damaged", "disabled"]  # 40 -> 27 -> 11 -> 0 HP
    assert "b is disabled [VEH-4]" in log_lines(engine.log)
    assert status(engine.state.get("b"), engine.state) is DamageTrack.DISABLED


# ----- edition 1's pilot actions (E-43) -----


@pytest.mark.rule("E-43")
@pytest.mark.parametrize("intent", [Drive("p", ((6, 5),)), EvasiveManeuvers("p"), Ram("p", "w")],
                         ids=["drive", "evasive", "ram"])
def test_e_43__edition_2_refuses_the_pilot_actions(intent: object) -> None:
    b = buggy()
    engine = begin([*crew(b), b, fighter("w", "party", (7, 5))])
    with pytest.raises(Refused) as refused:
        engine.submit(intent)
    assert refused.value.rule == "E-43"


@pytest.mark.rule("E-43", "VEH-2")
def test_e_43__edition_1_drive_moves_the_vehicle_and_its_crew_for_1_action() -> None:
    b = buggy(rs=ED1)
    engine = begin([*crew(b, ED1), b, fighter("w", "party", (15, 1), ruleset=ED1)], ED1)
    events = engine.submit(Drive("p", ((6, 5), (7, 5), (8, 5))))
    assert [(e.count, e.label) for e in of_type(events, ev.ActionsSpent)] == [(1, "drive")]
    assert engine.state.get("b").position == (8, 5)
    assert {engine.state.get(c).position for c in ("p", "g", "x")} == {(8, 5)}
    assert engine.state.get("b").uses[MOVING] == 1
    while engine.state.active_id != "g":
        engine.end_turn(engine.state.active_id or "")
    with pytest.raises(Refused) as refused:
        engine.submit(Drive("g", ((9, 5),)))
    assert refused.value.rule == "VEH-2"  # only the pilot drives


@pytest.mark.rule("E-43")
def test_e_43__evasive_maneuvers_give_attacks_against_the_vehicle_disadvantage_until_the_pilots_next_turn() -> None:
    b = buggy(rs=ED1)
    engine = begin([*crew(b, ED1), b, fighter("w", "party", (4, 5), weapons=["spear"], ruleset=ED1)], ED1)
    engine.submit(EvasiveManeuvers("p"))
    while engine.state.active_id != "w":
        engine.end_turn(engine.state.active_id or "")
    script(engine, [2, 3])
    (attack,) = of_type(engine.submit(Strike("w", "b", "spear")), ev.AttackRolled)
    assert [s.rule for s in attack.roll.sources] == ["E-43"]
    while engine.state.active_id != "p":
        assert engine.state.effects
        engine.end_turn(engine.state.active_id or "")
    assert not engine.state.effects  # it ends as the pilot's next turn starts


@pytest.mark.rule("E-43")
def test_e_43__ram_costs_2_actions_and_deals_size_and_speed_damage() -> None:
    b = buggy(rs=ED1)
    engine = begin([*crew(b, ED1), b, fighter("w", "party", (7, 5), ruleset=ED1)], ED1)
    script(engine, [18, 8, 8, 6, 6])  # the buggy's attack; 2d8 (Large) + 2d6 (60 ft: two 30-ft steps) + MIG 2
    events = engine.submit(Ram("p", "w"))
    assert [(e.count, e.label) for e in of_type(events, ev.ActionsSpent)] == [(2, "ram")]
    (attack,) = of_type(events, ev.AttackRolled)
    assert (attack.actor, attack.label, attack.outcome) == ("b", "Ram", "hit")
    assert of_type(events, ev.DamageRolled)[0].total == 8 + 8 + 6 + 6 + 2


# ----- boarding (VEH-2) and encounter files -----


@pytest.mark.rule("VEH-2", "ACT-6")
def test_veh_2__boarding_takes_a_free_station_then_a_seat__a_full_vehicle_refuses() -> None:
    b = buggy()
    riders = [fighter(f"r{i}", "raiders", (4, 5), "raider") for i in range(5)]
    engine = begin([*riders, b, fighter("w", "party", (15, 1))])
    stations = []
    for r in riders[:4]:
        while engine.state.active_id != r.id:
            engine.end_turn(engine.state.active_id or "")
        engine.submit(Mount(r.id, "b"))
        stations.append(engine.state.get(r.id).station)
    assert stations == ["pilot", "gunner", "passenger", "passenger"]
    assert "r0 mounts b as pilot [ACT-6]" in log_lines(engine.log)
    engine.end_turn(engine.state.active_id or "")
    with pytest.raises(Refused) as refused:
        engine.submit(Mount("r4", "b"))
    assert refused.value.rule == "VEH-2"


CHASE = """
name: Buggy chase
map: {width: 16, height: 8}
sides: [{name: party}, {name: raiders}]
combatants:
  - {creature: gunslinger, side: party, position: [1, 1]}
  - {creature: dune-buggy, id: buggy, side: raiders, position: [10, 4], moving: true}
  - {creature: raider, side: raiders, count: 3, mounted_on: buggy}
"""


@pytest.mark.rule("VEH-2", "VEH-5")
def test_veh_2__encounter_crews_take_their_stations_aboard_a_moving_vehicle() -> None:
    engine, _ = build(encounter_from_text(CHASE))
    aboard_ = [(c.id, c.station, c.position) for c in engine.state.combatants.values() if c.mounted_on == "buggy"]
    assert aboard_ == [("raider-1", "pilot", (10, 4)), ("raider-2", "gunner", (10, 4)),
                       ("raider-3", "passenger", (10, 4))]
    assert engine.state.get("buggy").uses[MOVING] == 1


@pytest.mark.rule("VEH-2", "VEH-5")
@pytest.mark.parametrize(("change", "message"), [
    ("count: 3, mounted_on: buggy", "count: 6, mounted_on: buggy"),
    ("position: [1, 1]", "position: [1, 1], moving: true"),
], ids=["too-many-aboard", "moving-creature"])
def test_veh_2__bad_vehicle_entries_are_reported(change: str, message: str) -> None:
    text = CHASE.replace(change, message)
    with pytest.raises(InputError) as info:
        encounter_from_text(text)
    assert any(("station or seat" in str(p)) or ("moving is for vehicles" in str(p)) for p in info.value.problems)
