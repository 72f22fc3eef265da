"""Vehicles in a fight (VEH-3..5) and edition 1's pilot actions Drive, Evasive Maneuvers and Ram (E-43).

A vehicle is a combatant whose stat block has a ``vehicle`` block (HP, size and speed from the entry; DV,
crew stations, passengers and a Stabilization System from the block). Its hull gives it its DV.

* **No turn of its own** (VEH-3): the vehicle is left out of the initiative order; its crew and passengers
  act on their own initiative with the 3-action economy. A side is beaten when its creatures are: an
  intact vehicle fights only through its crew.
* **Aboard**: creatures aboard ride it like a mount (``mounted_on`` names the vehicle; they move with it).
  Each has a crew station (pilot, gunner, engineer, commander, VEH-2) or rides as a passenger. Boarding
  is the Mount action (1 action, 5 ft): a named station if free, else the first free one, else a passenger
  seat; a full vehicle refuses.
* **Passengers' attacks** (VEH-5): a passenger attacks at disadvantage while the vehicle is moving (declared
  in the encounter file, or driven with edition 1's Drive), unless it has a Stabilization System; in
  edition 1 always unless stabilized (E-43). Crew at their stations use the vehicle's systems (Vehicles &
  Operations, reference only) and are not penalized here.
* **System Damage Track** (VEH-4): as its HP falls the vehicle moves Operational -> Stressed -> Damaged ->
  Critical -> Disabled (``vehicles.damage_track_percent``, a documented ruling); a ``VehicleStatus`` event
  records each step. At 0 HP it is disabled.
* **Pilot actions** (edition 1, E-43; ``vehicles.pilot_actions``): the pilot's Drive (1 action: the vehicle
  moves up to its speed), Evasive Maneuvers (1 action: attacks against the vehicle have disadvantage until
  the pilot's next turn) and Ram (2 actions: the vehicle attacks an adjacent creature, damage by size and
  speed from a placeholder table, no MAP). Edition 2 refuses them (E-43: its numbers are in Vehicles &
  Operations).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ashfall.content.schema import CrewStation, Weapon, WeaponKind
from ashfall.core.modifiers import dis
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Cost, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.records import Tally, use_name
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackExtra, AttackPlan, distance, perform_attack
from ashfall.families.attacks.engine_common import require_target
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.movement.moves import path_cost, walk
from ashfall.families.vehicles.rules import DamageTrack, damage_track, passenger_source, ram_damage
from ashfall.grid.board import SQUARE_FT, Square
from ashfall.rules.condition_durations import Duration
from ashfall.rules.damage import DamageResult
from ashfall.rules.damage_spec import DamagePart

E_43, VEH_2, VEH_4 = rule("E-43"), rule("VEH-2"), rule("VEH-4")
MOVING = Tally.MOVING.value
"""The event-log name of a vehicle's motion (VEH-5): not 0 while it is moving."""
PASSENGER = CrewStation.PASSENGER.value


def is_vehicle(c: Combatant) -> bool:
    """A vehicle, not a creature."""
    return c.creature.vehicle is not None


def vehicle_of(state: EncounterState, c: Combatant) -> Combatant | None:
    """The vehicle the combatant is aboard, or None."""
    if c.mounted_on is None or c.mounted_on not in state.combatants:
        return None
    found = state.get(c.mounted_on)
    return found if is_vehicle(found) else None


def aboard(state: EncounterState, vehicle: str) -> list[Combatant]:
    """Everyone aboard a vehicle, in roster order."""
    return [c for c in state.combatants.values() if c.mounted_on == vehicle]


def is_moving(vehicle: Combatant) -> bool:
    """Whether the vehicle is moving (VEH-5)."""
    return vehicle.supplies.count(Tally.MOVING) > 0


def status(vehicle: Combatant, state: EncounterState) -> DamageTrack:
    """Where the vehicle stands on the System Damage Track (VEH-4)."""
    return damage_track(vehicle.health.hp, vehicle.health.max_hp, state.ruleset)


# ----- boarding (VEH-2) -----


def station_for(state: EncounterState, vehicle: Combatant, wanted: str = "") -> str | None:
    """The station a boarding creature takes: ``wanted`` if free, else a free crew station, else a passenger seat.

    None when there is no room (or the wanted station does not exist or is taken).
    """
    profile = vehicle.creature.vehicle
    assert profile is not None
    taken = [c.station for c in aboard(state, vehicle.id)]
    free = [s.value for s in profile.stations if s.value not in taken]
    seats = profile.passengers - taken.count(PASSENGER)
    if wanted:
        return wanted if wanted in free or (wanted == PASSENGER and seats > 0) else None
    return free[0] if free else (PASSENGER if seats > 0 else None)


def boarding_problem(state: EncounterState, c: Combatant, vehicle: Combatant, wanted: str = "") -> str | None:
    """Why the creature cannot board (None if it can): the vehicle has no room for it (VEH-2)."""
    if station_for(state, vehicle, wanted) is None:
        return f"{vehicle.name} has no {wanted or 'free station or seat'} for {c.name}"
    return None


# ----- no turn of its own (VEH-3) -----


def without_vehicles(state: EncounterState, order: list[str]) -> list[str]:
    """The initiative order without vehicles: their crew act on their own initiative (VEH-3)."""
    return [cid for cid in order if not is_vehicle(state.get(cid))]


# ----- attacks (VEH-5, E-43) -----


def _attack(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
            mode: AttackMode) -> AttackExtra:
    sources = []
    vehicle = vehicle_of(state, attacker)
    if vehicle is not None and attacker.station == PASSENGER:
        profile = vehicle.creature.vehicle
        assert profile is not None
        found = passenger_source(is_moving(vehicle), profile.stabilized, state.ruleset)
        if found is not None:
            sources.append(found)
    if is_vehicle(target) and state.effects_on(target.id, EffectKind.EVASIVE):
        sources.append(dis(E_43, "the vehicle takes evasive maneuvers"))
    return AttackExtra(sources=tuple(sources))


# ----- System Damage Track (VEH-4) -----


def _track(ctx: Context, target: str, source: str, result: DamageResult) -> None:
    c = ctx.state.get(target)
    if not is_vehicle(c):
        return
    rs = ctx.ruleset
    before = damage_track(result.health_before.hp, result.health_before.max_hp, rs)
    after = damage_track(result.health_after.hp, result.health_after.max_hp, rs)
    if after is not before:
        ctx.emit(ev.VehicleStatus(target, after.value, VEH_4))


# ----- edition 1's pilot actions (E-43) -----


@dataclass(frozen=True, slots=True)
class Drive:
    """Edition 1: move the vehicle up to its speed along ``path`` (E-43)."""

    actor: str
    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class EvasiveManeuvers:
    """Edition 1: attacks against the vehicle have disadvantage until the pilot's next turn (E-43)."""

    actor: str


@dataclass(frozen=True, slots=True)
class Ram:
    """Edition 1: the vehicle rams an adjacent creature: an attack roll, damage by size and speed (E-43)."""

    actor: str
    target: str


def _piloted(state: EncounterState, actor: str) -> Combatant:
    """The vehicle the actor pilots, refusing when there are no pilot actions (edition 2) or it is no pilot."""
    if not state.ruleset.vehicles.pilot_actions:
        raise refuse("E-43", "pilot actions are edition 1's; edition 2 leaves them to Vehicles & Operations")
    c = state.get(actor)
    vehicle = vehicle_of(state, c)
    if vehicle is None or c.station != CrewStation.PILOT.value:
        raise refuse("VEH-2", f"{c.name} is not at a vehicle's pilot station")
    if not vehicle.is_active:
        raise refuse("VEH-4", f"{vehicle.name} is disabled")
    return vehicle


def _check_drive(state: EncounterState, intent: Drive) -> None:
    vehicle = _piloted(state, intent.actor)
    cost, speed = path_cost(state, vehicle, intent.path), vehicle.creature.speeds.walk
    if cost > speed:
        raise refuse("E-43", f"the path costs {cost} ft; {vehicle.name}'s speed is {speed} ft")


def _resolve_drive(ctx: Context, intent: Drive) -> None:
    vehicle = _piloted(ctx.state, intent.actor)
    if not is_moving(vehicle):
        ctx.emit(ev.ResourceUsed(vehicle.id, use_name(Tally.MOVING), 1, E_43))
    walk(ctx, vehicle.id, intent.path, "drive", E_43)


def _resolve_evasive(ctx: Context, intent: EvasiveManeuvers) -> None:
    vehicle = _piloted(ctx.state, intent.actor)
    key = f"evasive:{vehicle.id}:{ctx.state.round}:{len(ctx.log)}"
    ctx.emit(ev.EffectAdded(TimedEffect(key, EffectKind.EVASIVE, vehicle.id, E_43,
                                        Duration.start_of_next_turn(intent.actor), used_up=False,
                                        source=intent.actor), E_43))


def ram_weapon(vehicle: Combatant, state: EncounterState) -> tuple[Weapon, tuple[DamagePart, ...]]:
    """The ram as a melee weapon of the vehicle (its size dice) and the speed dice as extra damage (E-43)."""
    damage = ram_damage(vehicle.creature.size, vehicle.creature.speeds.walk, state.ruleset).parts
    size_dice = damage[0].dice
    assert size_dice is not None
    weapon = Weapon(id=f"{vehicle.id}-ram", name="Ram", kind=WeaponKind.MELEE, damage=str(size_dice).split()[0],
                    damage_type=state.ruleset.vehicles.ram_damage_type)
    return weapon, damage[1:]


def _check_ram(state: EncounterState, intent: Ram) -> None:
    vehicle = _piloted(state, intent.actor)
    target = require_target(state, vehicle, intent.target)
    if target.mounted_on == vehicle.id:
        raise refuse("E-43", f"{target.name} is aboard {vehicle.name}")
    if vehicle.space and target.space and distance(state, vehicle, target) > SQUARE_FT:
        raise refuse("E-43", f"{target.name} is not next to {vehicle.name}: Drive first")


def _resolve_ram(ctx: Context, intent: Ram) -> None:
    vehicle = _piloted(ctx.state, intent.actor)
    weapon, speed = ram_weapon(vehicle, ctx.state)
    perform_attack(ctx, AttackPlan(vehicle.id, intent.target, weapon, AttackMode.MELEE, Activity.STRIKE,
                                   label="Ram", map_given=True, map_override=None, extra_damage=speed))


def _pilot_candidates(state: EncounterState, actor: str) -> Iterable[EvasiveManeuvers]:
    c = state.get(actor)
    return [EvasiveManeuvers(actor)] if c.station == CrewStation.PILOT.value and vehicle_of(state, c) else []


def _check_evasive(state: EncounterState, intent: EvasiveManeuvers) -> None:
    _piloted(state, intent.actor)


def _cost(option: str) -> Cost:
    """An action cost read from the ``vehicles`` options (E-43)."""

    def cost(state: EncounterState, intent: Any) -> int:
        value: int = getattr(state.ruleset.vehicles, option)
        return value

    return cost


__all__ = ["MOVING", "Drive", "EvasiveManeuvers", "Ram", "aboard", "boarding_problem", "is_moving", "is_vehicle",
           "ram_weapon", "station_for", "status", "vehicle_of", "without_vehicles"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Drive, ActionDef("drive", E_43, _cost("drive_actions"), _resolve_drive, _check_drive))
    book.action(EvasiveManeuvers, ActionDef("evasive-maneuvers", E_43, _cost("evasive_actions"), _resolve_evasive,
                                            _check_evasive, _pilot_candidates))
    book.action(Ram, ActionDef("ram", E_43, _cost("ram_actions"), _resolve_ram, _check_ram))
    book.order_hook("vehicles", without_vehicles)
    book.attack_hook("vehicles", _attack)
    book.after_damage(_track)
