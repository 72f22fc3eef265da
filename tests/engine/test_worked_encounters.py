"""The chapter's two worked encounters as shipped files (000:807-835), and the encounter ``hazards`` block.

The fights are played with a scripted plan (the examples' decisive moves; everyone else ends its
turn) and a fixed seed: the Collapsing Fuel Depot (EX-1..6: a barrel set off by fire, its blast on
fire, the chain roll, fire spreading into the barricades, smoke) and the Flooding Basement (EX-7..9:
water rising 1 ft a round, drones hovering, the power panel discharging, the drain found and opened).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ashfall.content.schema import WeaponKind
from ashfall.core.types import DamageType
from ashfall.encounters import build, encounter_from_text, load_encounter
from ashfall.engine import Engine, FindDrain, OpenDrain, Refused, StrikeObject
from ashfall.engine import apply_events as replay  # the state after some events
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.explain import log_lines
from ashfall.families.objects.engine import damage_object
from ashfall.files.yaml_marks import InputError
from tests.engine.hazard_kit import of_type

ROOT = Path(__file__).resolve().parents[2] / "encounters"
DEPOT = ROOT / "collapsing-fuel-depot.yaml"
BASEMENT = ROOT / "flooding-basement.yaml"

Step = Callable[[Engine, str], None]


def _until(engine: Engine, actor: str, intent: Any, done: Callable[[], bool]) -> None:
    """Submit ``intent`` again and again while the actor has actions and it is not ``done``."""
    while not done() and engine.state.active_id == actor and engine.state.get(actor).turn.actions_left > 0:
        try:
            engine.submit(intent)
        except Refused:
            return


def _play(engine: Engine, plan: dict[tuple[int, str], Step], rounds: int) -> None:
    """Play ``rounds`` rounds: a creature with a step for this round takes it, everyone ends its turn."""
    while not engine.state.ended and engine.state.round <= rounds:
        actor = engine.state.active_id
        assert actor is not None
        step = plan.get((engine.state.round, actor))
        if step is not None:
            step(engine, actor)
        if engine.state.active_id == actor and not engine.state.ended:
            engine.end_turn(actor)


def _types(log: list[Any]) -> set[str]:
    return {getattr(e, "type", "") for e in log}


# ----- The Collapsing Fuel Depot (000:809-821) -----


def _depot(seed: int) -> Engine:
    engine, info = build(load_encounter(DEPOT), seed=seed)
    info.start(engine)
    return engine


def _fire_at(target: str) -> Step:
    def step(engine: Engine, actor: str) -> None:
        broken = lambda: engine.state.environment.objects[target].broken  # noqa: E731
        _until(engine, actor, StrikeObject(actor, target, "firebolt"), broken)
    return step


@pytest.mark.rule("EX-1", "CHN-3", "HAZF-2", "HAZF-6", "HAZ-0", "HAZF-5")
def test_fuel_depot__firebolt_sets_off_a_barrel_fire_spreads_into_the_barricades_and_smoke_rises() -> None:
    engine = _depot(seed=7)
    mystic = "mystic"
    _play(engine, {(1, mystic): _fire_at("fuel-barrel-1")}, rounds=4)
    log = engine.log
    blasts = [e for e in of_type(log, ev.ChainReaction) if e.object == "fuel-barrel-1"]
    assert blasts and blasts[0].kind == "fuel"
    lit = [e for e in of_type(log, ev.FireChanged) if e.burning]
    assert lit[0].rule == "CHN-3" and len(lit[0].squares) == 25  # every square of the 10-ft blast
    spread = [e for e in lit if e.rule == "HAZF-2"]
    assert spread, "fire spreads along the planks at the end of the round"
    barricades = {sq for o in engine.state.environment.objects.values() if o.name == "Wooden Barricade"
                  for sq in o.squares}
    assert barricades & {sq for e in spread for sq in e.squares}, "the barricades catch fire (000:817)"
    assert any(e.level == 1 for e in of_type(log, ev.SmokeChanged)), "smoke after 2 rounds (000:819)"
    assert ev.FireTicked in {type(e) for e in log}
    text = "\n".join(log_lines(log))
    assert "Fire spreads to" in text and "Smoke lightly obscures" in text


@pytest.mark.rule("CHN-9", "HAZC-1", "HAZC-2", "HAZC-3", "HAZC-5", "G-30")
def test_fuel_depot__bringing_down_a_support_column_starts_the_collapse_countdown() -> None:
    engine = _depot(seed=7)
    ctx = Context(engine.state, engine.rng, engine.log, engine.controllers)
    damage_object(ctx, "support-column-2", {DamageType.BLUDGEONING: 200}, source="vanguard", label="test")
    countdown = of_type(engine.log, ev.CountdownChanged)
    assert countdown and countdown[0].rule == "HAZC-2" and 1 <= countdown[0].rounds <= 4
    zone = next(iter(engine.state.environment.collapses.values()))
    assert zone.radius_ft == 20 and (12, 6) in zone.squares
    _play(engine, {}, rounds=5)
    assert of_type(engine.log, ev.RubbleAdded), "the ceiling comes down within 1d4 rounds"
    assert not engine.state.environment.collapses


@pytest.mark.rule("HAZ-0")
def test_fuel_depot__the_hazard_log_round_trips_through_json_and_replays_to_the_same_battlefield() -> None:
    engine = _depot(seed=7)
    initial = build(load_encounter(DEPOT), seed=7)[0].state
    _play(engine, {(1, "mystic"): _fire_at("fuel-barrel-1")}, rounds=3)
    events = ev.loads(ev.dumps(engine.log))
    assert ev.dumps(events) == ev.dumps(engine.log)
    replayed = replay(initial, events).environment
    env = engine.state.environment
    assert (replayed.fire, replayed.fire_burnout, replayed.burnt, replayed.veils) == (
        env.fire, env.fire_burnout, env.burnt, env.veils)


# ----- The Flooding Basement (000:823-835) -----


def _basement(seed: int) -> Engine:
    engine, info = build(load_encounter(BASEMENT), seed=seed)
    info.start(engine)
    return engine


def _strike_panel(engine: Engine, actor: str) -> None:
    broken = lambda: engine.state.environment.objects["panel"].broken  # noqa: E731
    c = engine.state.get(actor)
    ranged = next((w.id for w in c.weapons if w.kind is WeaponKind.RANGED), None)
    _until(engine, actor, StrikeObject(actor, "panel", ranged), broken)


def _find_drain(engine: Engine, actor: str) -> None:
    _until(engine, actor, FindDrain(actor, "grate"), lambda: engine.state.environment.drains["grate"].found)


def _open_drain(engine: Engine, actor: str) -> None:
    _until(engine, actor, OpenDrain(actor, "grate"), lambda: engine.state.environment.drains["grate"].open)


@pytest.mark.rule("EX-7", "EX-8", "EX-9", "HAZW-1", "HAZW-2", "HAZW-3", "HAZW-4", "HAZW-5", "X-04")
def test_flooding_basement__water_rises_the_panel_discharges_and_the_drain_is_opened() -> None:
    engine = _basement(seed=3)
    plan: dict[tuple[int, str], Step] = {
        **{(r, who): _strike_panel for r in (2, 3) for who in ("operative", "scavenger", "psion")},
        **{(r, who): _find_drain for r in (4, 5) for who in ("operative", "psion")},
        **{(r, "scavenger"): _open_drain for r in (4, 5)},
    }
    levels = []
    while engine.state.round <= 5 and not engine.state.ended:
        levels.append((engine.state.round, engine.state.environment.floods["flood"].level_ft))
        start = engine.state.round
        _play(engine, plan, rounds=start)
    assert levels[:4] == [(1, 1), (2, 2), (3, 3), (4, 4)], "1 ft, 2 ft, 3 ft, 4 ft (000:827-833)"
    log = engine.log
    discharge = of_type(log, ev.ChainReaction)
    assert [e.kind for e in discharge] == ["electrical"] and discharge[0].rule == "CHN-6"
    swims = [e for e in of_type(log, ev.CheckRolled) if e.rule == "HAZW-3"]
    assert swims and {e.actor for e in swims} <= {"psion", "warrior", "operative", "scavenger"}
    warrior = next(e for e in swims if e.actor == "warrior")
    assert [s.rule for s in warrior.roll.sources if not s.advantage] == ["HAZW-4"]
    assert not [e for e in swims if e.actor.startswith("security-drone")], "the drones hover above the water"
    assert engine.state.environment.drains["grate"].open
    drained = [e for e in of_type(log, ev.WaterChanged) if e.rule == "HAZW-5"]
    assert drained and drained[0].flood is not None and drained[0].flood.level_ft == 4, "5 ft + 1 - 2: it drains"
    text = "\n".join(log_lines(log))
    assert "Water level 2 ft" in text and "Drain grate" in text
    replayed = replay(build(load_encounter(BASEMENT), seed=3)[0].state, ev.loads(ev.dumps(log))).environment
    env = engine.state.environment
    assert (replayed.floods, replayed.water_depth, replayed.drains) == (env.floods, env.water_depth, env.drains)


# ----- the hazards block of an encounter file -----

FILE = """
name: Hazard block
map:
  rows: |
    #########
    #A.ww...#
    #..ww..B#
    #########
hazards:
  enclosed: true
  flammable: {legend: w, squares: [[1, 2]]}
  burning: {squares: [[3, 1]]}
  gas: [{at: [6, 1], producing: true}]
  water: {level: 2, rise: 1, area: {area: [[1, 1], [2, 2]]}}
  drains: {grate: {at: [1, 1], find_dc: 12}}
  suppression: {sprinklers: {area: {legend: w}, control: [2, 1]}}
  terrain: [{type: acid, where: {squares: [[5, 2]]}}]
  collapse: [{at: [4, 2], radius: 5, countdown: 2}]
sides: [{name: a}, {name: b}]
combatants:
  - {creature: warrior, side: a, zone: A}
  - {creature: raider, side: b, zone: B}
"""


SMALL = """
name: Hazard block
map:
  rows: ["#####", "#A.B#", "#####"]
hazards:
  enclosed: true
sides: [{name: a}, {name: b}]
combatants:
  - {creature: warrior, side: a, zone: A}
  - {creature: raider, side: b, zone: B}
"""


@pytest.mark.rule("HAZF-2", "HAZG-1", "HAZW-1", "HAZW-5", "HAZF-4", "MOV-6", "HAZC-2")
def test_hazards_block__puts_every_hazard_on_the_battlefield() -> None:
    engine, _info = build(encounter_from_text(FILE, "h.yaml"))
    env = engine.state.environment
    assert env.enclosed
    assert env.flammable == {(3, 1), (4, 1), (3, 2), (4, 2), (1, 2)}
    assert env.fire == {(3, 1): 0}
    cloud = env.gas_clouds["gas:1"]
    assert cloud.producing and cloud.enclosed and (6, 1) in env.gas
    assert env.water_depth == {(1, 1): 2, (2, 1): 2, (1, 2): 2, (2, 2): 2}
    assert not env.drains["grate"].found and env.drains["grate"].rate_ft == 2
    assert env.suppressors["sprinklers"].control == (2, 1) and len(env.suppressors["sprinklers"].squares) == 4
    assert env.hazard_terrain == {(5, 2): "acid"}
    assert env.countdowns["collapse:1"] == 2 and (4, 2) in env.collapses["collapse:1"].squares


@pytest.mark.parametrize(("edit", "message"), [
    ("burning: {squares: [[30, 1]]}", "h.yaml:6: hazards.burning.squares[0]: square [30, 1] is off the map"),
    ("flammable: {legend: q}", "h.yaml:6: hazards.flammable.legend: the map draws no square with 'q'"),
    ("drains: {grate: {at: [1, 9]}}", "h.yaml:6: hazards.drains.grate.at: square [1, 9] is off the map"),
    ("wind: maybe", "hazards.wind"),
])
def test_hazards_block__problems_name_the_field_and_line(edit: str, message: str) -> None:
    text = SMALL.replace("  enclosed: true", "  " + edit)
    with pytest.raises(InputError) as info:
        encounter_from_text(text, "h.yaml")
    assert any(message in str(p) for p in info.value.problems), [str(p) for p in info.value.problems]


def test_hazards_block__needs_a_map_for_squares() -> None:
    text = "name: x\nhazards: {burning: {squares: [[1, 1]]}}\nsides: [{name: a}, {name: b}]\n" \
           "combatants: [{creature: warrior, side: a}, {creature: raider, side: b}]\n"
    with pytest.raises(InputError) as info:
        encounter_from_text(text, "h.yaml")
    assert any("need a map" in str(p) for p in info.value.problems)


@pytest.mark.parametrize("path", [DEPOT, BASEMENT], ids=["depot", "basement"])
def test_worked_encounters__are_documented_and_load(path: Path) -> None:
    spec = load_encounter(path)
    assert spec.document.hazards.enclosed
    docs = (ROOT.parent / "docs" / "encounters.md").read_text(encoding="utf-8")
    assert f"| `{path.name}` |" in docs
