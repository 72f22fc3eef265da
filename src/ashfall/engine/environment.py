"""The living battlefield's state: light, obscurement, objects, and the spreading-hazard layers.

This module only holds the data (a mutable :class:`Environment` owned by the encounter state and
changed by appliers). The rules that read and change it live in the rules core and in
``ashfall.engine.battlefield`` modules: concealment (CONC, VIS), objects (OBJ, STC), hazards (HAZ*),
chain reactions (CHN), underwater (UW).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ashfall.grid.board import Square


class Light(Enum):
    """Light level of a square."""

    BRIGHT = "bright"
    DIM = "dim"
    DARK = "dark"


class Obscurement(Enum):
    """Concealment tiers (CONC-1): none, lightly obscured (LO), heavily obscured (HO)."""

    NONE = 0
    LIGHT = 1
    HEAVY = 2


class Cause(Enum):
    """What obscures a square; darkvision removes only darkness (X-17), HUD/thermal only non-magical."""

    DIM_LIGHT = "dim-light"
    DARKNESS = "darkness"
    MAGICAL_DARKNESS = "magical-darkness"
    FOG = "fog"
    SMOKE = "smoke"
    FOLIAGE = "foliage"
    RAIN = "rain"
    DUST = "dust"
    BLIZZARD = "blizzard"
    SANDSTORM = "sandstorm"


class WaterType(Enum):
    """Visibility underwater (UW-24..26)."""

    CLEAR = "clear"
    MURKY = "murky"
    DARK = "dark"


@dataclass(frozen=True, slots=True)
class Veil:
    """Obscurement laid over squares by a zone (fog bank, smoke, Veil of Shadow …)."""

    level: Obscurement
    cause: Cause


@dataclass(slots=True)
class MapObject:
    """A destructible object on the map (OBJ-1): HP, DV, Hardness, material and what it does.

    Attributes:
        id: Unique id.
        name: Label ("fuel barrel", "wooden barricade").
        squares: Squares it occupies.
        hp: Current HP; max_hp its maximum.
        dv: Defense Value (10 unless stated, G-25).
        hardness: Subtracted from each hit before HP (OBJ-3).
        flammable: Fire spreads into and ignores its Hardness (HAZF-2, OBJ-10 option).
        fragile: Piercing is not halved (OBJ-8).
        metal: Conducts; stops fire spread.
        cover: The cover it gives (none/partial/heavy/total) while intact.
        light_cover: Light cover for STC purposes (heavy weapons ignore it).
        chain: The chain-reaction element it is: "fuel", "electrical", "support" or "".
        blocks_movement: Creatures cannot enter its squares while intact.
        broken: Destroyed (0 HP).
    """

    id: str
    name: str
    squares: tuple[Square, ...]
    hp: int
    max_hp: int
    dv: int = 10
    hardness: int = 0
    flammable: bool = False
    fragile: bool = False
    metal: bool = False
    cover: str = "none"
    light_cover: bool = False
    chain: str = ""
    blocks_movement: bool = False
    broken: bool = False


@dataclass(slots=True)
class Environment:
    """Every environmental layer of the battlefield.

    Attributes:
        ambient: Light where no square overrides it.
        light: Per-square light.
        veils: Per-square obscurement from zones (fog, smoke, magical darkness …).
        enclosed: An enclosed space (smoke turns heavy, gas grows: HAZF-6, HAZG-3).
        wind: Strong wind (gas disperses in 1 round, HAZG-5).
        objects: Destructible objects by id.
        fire: Burning squares → rounds burned so far.
        fire_burnout: Burning squares → rounds until they burn out (1d4+1 when fuel runs out, HAZF-5).
        gas: Squares filled with toxic gas → cloud id.
        water_depth: Water depth in feet per square (HAZW).
        rubble: Squares of collapse rubble (greater difficult terrain, HAZC-5).
        underwater: The fight is underwater, and the water type (UW), or None.
        countdowns: Pending timed events (a collapse's 1d4-round countdown, HAZC-2) by id → rounds left.
        data: Further hazard bookkeeping by key (kept JSON-friendly).
    """

    ambient: Light = Light.BRIGHT
    light: dict[Square, Light] = field(default_factory=dict)
    veils: dict[Square, Veil] = field(default_factory=dict)
    enclosed: bool = False
    wind: bool = False
    objects: dict[str, MapObject] = field(default_factory=dict)
    fire: dict[Square, int] = field(default_factory=dict)
    fire_burnout: dict[Square, int] = field(default_factory=dict)
    gas: dict[Square, str] = field(default_factory=dict)
    water_depth: dict[Square, int] = field(default_factory=dict)
    rubble: set[Square] = field(default_factory=set)
    underwater: WaterType | None = None
    countdowns: dict[str, int] = field(default_factory=dict)
    data: dict[str, int] = field(default_factory=dict)

    def light_at(self, sq: Square) -> Light:
        """The light level of a square."""
        return self.light.get(sq, self.ambient)

    def object_at(self, sq: Square) -> MapObject | None:
        """The intact object occupying a square, if any (lowest id first)."""
        for obj_id in sorted(self.objects):
            obj = self.objects[obj_id]
            if not obj.broken and sq in obj.squares:
                return obj
        return None
