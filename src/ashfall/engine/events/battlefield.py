"""Events of the living battlefield: zones, objects and chain reactions, hazards, water, mounts, vehicles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ashfall.engine.environment import Collapse, Drain, Flood, GasCloud, MapObject
from ashfall.engine.events.records import LedgerLine
from ashfall.engine.lasting import Zone
from ashfall.grid.board import Square


@dataclass(frozen=True, slots=True)
class ZoneCreated:
    """A suppression zone begins (SUP-3, SUP-4)."""

    zone: Zone
    rule: str = "SUP-3"
    type: Literal["zone-created"] = "zone-created"


@dataclass(frozen=True, slots=True)
class ZoneTriggered:
    """A creature moving in a zone makes its save there this turn (SUP-5, SUP-6)."""

    key: str
    actor: str
    round: int
    turn_of: str
    rule: str = "SUP-6"
    type: Literal["zone-triggered"] = "zone-triggered"


@dataclass(frozen=True, slots=True)
class ZoneEnded:
    """A zone ends (the start of its owner's next turn, SUP-4)."""

    key: str
    rule: str = "SUP-4"
    type: Literal["zone-ended"] = "zone-ended"


@dataclass(frozen=True, slots=True)
class ObjectPlaced:
    """An object appears on the battlefield or changes shape: placed, flipped (IEA-4), moved or fallen (IEA-2)."""

    obj: MapObject
    label: str
    rule: str = "OBJ-1"
    type: Literal["object-placed"] = "object-placed"


@dataclass(frozen=True, slots=True)
class ObjectDamaged:
    """Damage applied to an object through its ledger (Hardness, piercing, immunities: OBJ-3..10, G-39)."""

    object: str
    source: str
    amount: int
    rows: tuple[LedgerLine, ...]
    hp: int
    label: str
    rule: str = "OBJ-3"
    name: str = ""
    type: Literal["object-damaged"] = "object-damaged"


@dataclass(frozen=True, slots=True)
class ObjectDestroyed:
    """An object is broken, spent or brought down; ``exposed`` lost the cover it gave (STC-10, STC-11)."""

    object: str
    label: str
    exposed: tuple[str, ...] = ()
    rule: str = "OBJ-1"
    name: str = ""
    type: Literal["object-destroyed"] = "object-destroyed"


@dataclass(frozen=True, slots=True)
class ChainReaction:
    """A chain-reaction element goes off (a fuel explosion CHN-2, a discharge CHN-6, a collapse CHN-9)."""

    object: str
    kind: str
    squares: tuple[Square, ...]
    rule: str
    name: str = ""
    type: Literal["chain-reaction"] = "chain-reaction"


@dataclass(frozen=True, slots=True)
class ChainPending:
    """An adjacent fuel container awaits its end-of-round chain roll (``pending``) or has had it (CHN-4, G-52)."""

    object: str
    pending: bool
    rule: str = "CHN-4"
    name: str = ""
    type: Literal["chain-pending"] = "chain-pending"


@dataclass(frozen=True, slots=True)
class DebrisFell:
    """A fallen object strews squares: difficult terrain (IEA-5)."""

    squares: tuple[Square, ...]
    rule: str = "IEA-5"
    type: Literal["debris-fell"] = "debris-fell"


@dataclass(frozen=True, slots=True)
class FireChanged:
    """Squares catch fire (HAZF-1, HAZF-2; an explosion CHN-3) or go out (HAZF-3..5); a re-lit square gets fresh fuel.

    ``fuel_spent``: the squares burned out, their fuel is gone (fire cannot spread back, HAZF-5).
    """

    squares: tuple[Square, ...]
    burning: bool
    rule: str
    cause: str = ""
    fuel_spent: bool = False
    type: Literal["fire-changed"] = "fire-changed"


@dataclass(frozen=True, slots=True)
class FireTicked:
    """End of round: each burning square as (square, rounds burned, rounds left before it burns out) (HAZF-5)."""

    squares: tuple[tuple[Square, int, int], ...]
    rule: str = "HAZF-5"
    type: Literal["fire-ticked"] = "fire-ticked"


@dataclass(frozen=True, slots=True)
class SmokeChanged:
    """Smoke over burning squares: ``level`` 0 clears it, 1 lightly, 2 heavily obscured (HAZF-6)."""

    squares: tuple[Square, ...]
    level: int
    rule: str = "HAZF-6"
    type: Literal["smoke-changed"] = "smoke-changed"


@dataclass(frozen=True, slots=True)
class GasChanged:
    """A gas cloud is released, grows, is sealed or ages (``cloud``), or clears (``cloud`` None) (HAZG-1..6)."""

    cloud_id: str
    cloud: GasCloud | None
    rule: str
    type: Literal["gas-changed"] = "gas-changed"


@dataclass(frozen=True, slots=True)
class CountdownChanged:
    """A hazard countdown is set, ticks or ends (``rounds`` None) (a collapse, HAZC-2, G-30)."""

    key: str
    rounds: int | None
    label: str
    rule: str
    type: Literal["countdown-changed"] = "countdown-changed"


@dataclass(frozen=True, slots=True)
class CollapseChanged:
    """A structural collapse begins (``collapse``) or has come down (None) (HAZC-1, HAZC-3)."""

    collapse_id: str
    collapse: Collapse | None
    rule: str
    type: Literal["collapse-changed"] = "collapse-changed"


@dataclass(frozen=True, slots=True)
class RubbleAdded:
    """Collapse rubble: the squares become greater difficult terrain (HAZC-5)."""

    squares: tuple[Square, ...]
    rule: str = "HAZC-5"
    type: Literal["rubble-added"] = "rubble-added"


@dataclass(frozen=True, slots=True)
class WaterChanged:
    """Rising water starts, rises, drains (``flood``) or is gone (None); depths follow the level (HAZW-1, HAZW-5)."""

    flood_id: str
    flood: Flood | None
    rule: str
    type: Literal["water-changed"] = "water-changed"


@dataclass(frozen=True, slots=True)
class DrainChanged:
    """A drain is found or opened (HAZW-5, EX-9)."""

    drain: Drain
    rule: str = "HAZW-5"
    type: Literal["drain-changed"] = "drain-changed"


@dataclass(frozen=True, slots=True)
class HazardTriggered:
    """A hazard harms a creature this turn (fire HAZF-1, hazardous terrain G-29): at most once per turn (G-51)."""

    hazard: str
    actor: str
    round: int
    turn_of: str
    rule: str
    type: Literal["hazard-triggered"] = "hazard-triggered"


@dataclass(frozen=True, slots=True)
class GuessMissed:
    """An attack at a guessed square where the hidden target is not: an automatic miss (CONC-11, G-20)."""

    actor: str
    target: str
    square: tuple[int, int]
    weapon: str
    counts_for_map: bool
    rule: str = "CONC-11"
    type: Literal["guess-missed"] = "guess-missed"


@dataclass(frozen=True, slots=True)
class BreathChanged:
    """A creature's breath clock (UW-1..3, G-16): rounds of breath left, or None once it breathes freely again."""

    actor: str
    rounds_left: int | None
    spent: int = 0
    reasons: tuple[str, ...] = ()
    rule: str = "UW-1"
    type: Literal["breath-changed"] = "breath-changed"


@dataclass(frozen=True, slots=True)
class DepthChanged:
    """A creature dives, surfaces or sinks underwater (UW-9, UW-10): its depth in feet below where the fight began."""

    actor: str
    depth_ft: int
    change_ft: int
    rule: str = "UW-9"
    type: Literal["depth-changed"] = "depth-changed"


@dataclass(frozen=True, slots=True)
class DamageSpread:
    """Underwater, cold or electric damage spreads through the water to the creatures near its target (UW-21, UW-22)."""

    source: str
    target: str
    damage_type: str
    amount: int
    radius_ft: int
    affected: tuple[str, ...]
    dc: int | None = None
    rule: str = "UW-22"
    type: Literal["damage-spread"] = "damage-spread"


@dataclass(frozen=True, slots=True)
class VehicleStatus:
    """A vehicle moves along the System Damage Track (VEH-4)."""

    vehicle: str
    status: str
    rule: str = "VEH-4"
    type: Literal["vehicle-status"] = "vehicle-status"


@dataclass(frozen=True, slots=True)
class MountChanged:
    """A creature gets on a mount (``mount`` is its id) or off it (``mount`` is None) (ACT-6, MNT-1)."""

    actor: str
    mount: str | None
    rule: str = "ACT-6"
    type: Literal["mount-changed"] = "mount-changed"
    station: str = ""
    """Boarding a vehicle: the crew station taken, or "passenger" (VEH-2)."""
