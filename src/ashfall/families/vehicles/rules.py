"""Vehicles as pure rules: the System Damage Track, passengers' shots, the hull's DV and edition 1's Ram (VEH, E-43).

The full vehicle rules are in Vehicles & Operations (VEH-1, reference only). The combat chapter gives
the summary this module automates: crew act on their own initiative (VEH-3, the engine's job), the
System Damage Track Operational -> Stressed -> Damaged -> Critical -> Disabled as HP falls (VEH-4; its
thresholds are a documented ruling, ``vehicles.damage_track_percent``), and passengers firing at
disadvantage from a moving vehicle unless it has a Stabilization System (VEH-5; edition 1: always,
E-43). Edition 1's Ram deals damage by size and speed from a placeholder table (E-43).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ashfall.core.dice import parse
from ashfall.core.modifiers import RollSource, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Size
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import hull as hull  # DV-1: setup needs it before any rulebook, re-exported
from ashfall.ruleset import Ruleset

VEH_4, VEH_5, E_43, DV_1 = rule("VEH-4"), rule("VEH-5"), rule("E-43"), rule("DV-1")


class DamageTrack(Enum):
    """The System Damage Track, best first (VEH-4)."""

    OPERATIONAL = "operational"
    STRESSED = "stressed"
    DAMAGED = "damaged"
    CRITICAL = "critical"
    DISABLED = "disabled"


_WORSE = (DamageTrack.STRESSED, DamageTrack.DAMAGED, DamageTrack.CRITICAL, DamageTrack.DISABLED)


def damage_track(hp: int, max_hp: int, ruleset: Ruleset) -> DamageTrack:
    """Where a vehicle stands on the track: the worst step whose threshold its HP is at or below (VEH-4).

    The thresholds are percentages of maximum HP (75/50/25/0 by default); at 0 HP it is Disabled.
    """
    found = DamageTrack.OPERATIONAL
    for step, percent in zip(_WORSE, ruleset.vehicles.damage_track_percent, strict=False):
        if hp * 100 <= percent * max_hp:
            found = step
    return found


def passenger_source(moving: bool, stabilized: bool, ruleset: Ruleset) -> RollSource | None:
    """Disadvantage for a passenger's attack from a vehicle (VEH-5; edition 1 also when it stands still, E-43)."""
    if stabilized:
        return None
    if ruleset.vehicles.passengers_moving_only:
        return dis(VEH_5, "firing from a moving vehicle") if moving else None
    return dis(E_43, "firing from a vehicle")


@dataclass(frozen=True, slots=True)
class RamDamage:
    """Edition 1's Ram damage (E-43): the size dice plus speed dice, as damage parts."""

    parts: tuple[DamagePart, ...]
    rule: RuleId = E_43


def ram_damage(size: Size, speed_ft: int, ruleset: Ruleset) -> RamDamage:
    """Ram damage by the vehicle's size and speed: the size's dice, plus the speed dice per full speed step (E-43)."""
    v = ruleset.vehicles
    kind = v.ram_damage_type
    parts = [DamagePart(kind, E_43, f"ram ({size.value})", dice=parse(v.ram_size_dice[size.value]))]
    steps = speed_ft // max(v.ram_speed_step_ft, 1)
    if steps:
        dice = parse("+".join([v.ram_speed_dice] * steps))
        parts.append(DamagePart(kind, E_43, f"ram (speed {speed_ft} ft)", dice=dice))
    return RamDamage(tuple(parts))


__all__ = ["DamageTrack", "RamDamage", "damage_track", "hull", "passenger_source", "ram_damage"]
