"""The living battlefield's state: light, obscurement, objects, and the spreading-hazard layers.

This module only holds the data (a mutable :class:`Environment` owned by the encounter state and
changed by appliers). The rules that read and change it live in the rules core and in
``ashfall.families`` modules: concealment (CONC, VIS), objects (OBJ, STC), hazards (HAZ*),
chain reactions (CHN), underwater (UW).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ashfall.core.veils import Cause as Cause  # the concealment vocabulary (CONC-1), re-exported
from ashfall.core.veils import Light as Light
from ashfall.core.veils import Obscurement as Obscurement
from ashfall.core.veils import Veil as Veil
from ashfall.grid.board import Square


class WaterType(Enum):
    """Visibility underwater (UW-24..26)."""

    CLEAR = "clear"
    MURKY = "murky"
    DARK = "dark"


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
        template: The content id it was made from ("fuel-barrel").
        tags: What improvised actions it allows: "hanging" (falls on a hit, IEA-5), "ignites" (kick over,
            IEA-1), "flippable" (IEA-4), "throwable" (ENVW-1).
        push_dc: The MIG check DC to push it off a ledge (IEA-2); 0 when it cannot be pushed.
        facing: For cover in one direction only (a flipped table, IEA-4): the grid direction it faces.
        holds: The id of the object it holds up (a rope holding a chandelier, IEA-3).
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
    template: str = ""
    tags: frozenset[str] = frozenset()
    push_dc: int = 0
    facing: tuple[int, int] | None = None
    holds: str = ""


@dataclass(frozen=True, slots=True)
class GasCloud:
    """A toxic gas cloud (HAZG-1..6); replaced whole by the hazard events, never mutated.

    Attributes:
        id: Unique id.
        centre: The source's square.
        radius_ft: How far the gas has spread from the source (10 ft at first, HAZG-1; +10 ft a round enclosed, HAZG-3).
        squares: The squares the gas fills (the radius, flowing around walls).
        enclosed: In an enclosed space it grows (HAZG-3); in open air it disperses (HAZG-4).
        producing: The source keeps producing gas: open-air gas does not disperse (HAZG-4).
        sealed: The source was sealed: no more growth, the gas lingers (HAZG-6).
        rounds: Ends of rounds the cloud has lasted.
        linger: Rounds left before sealed gas clears (HAZG-6); -1 until sealed.
    """

    id: str
    centre: Square
    radius_ft: int
    squares: tuple[Square, ...]
    enclosed: bool
    producing: bool = False
    sealed: bool = False
    rounds: int = 0
    linger: int = -1


@dataclass(frozen=True, slots=True)
class Collapse:
    """A pending structural collapse (HAZC-1, HAZC-2): its zone; the countdown is in ``countdowns[id]``."""

    id: str
    centre: Square
    radius_ft: int
    squares: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class Flood:
    """Rising water (HAZW-1): the water level in feet above elevation 0 and how it changes each round.

    Attributes:
        id: Unique id.
        level_ft: The water surface; a square's depth is the level minus the square's elevation.
        rise_ft: Feet the water rises at the end of each round (X-04).
        max_ft: The highest the water gets (0: no limit).
        squares: The flooded area (empty: the whole map).
    """

    id: str
    level_ft: int
    rise_ft: int
    max_ft: int = 0
    squares: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class Drain:
    """A drain (HAZW-5, EX-9): once open it lowers the water by ``rate_ft`` a round.

    Attributes:
        id: Unique id.
        at: Its square.
        rate_ft: Feet of water it drains a round when open.
        open: Whether water runs out through it.
        found: Whether the party knows where it is (a hidden drain is found with Perception, EX-9).
        open_dc: The MIG check DC to pry it open (EX-9).
        find_dc: The Perception DC to find it (0: in plain sight).
    """

    id: str
    at: Square
    rate_ft: int
    open: bool = False
    found: bool = True
    open_dc: int = 0
    find_dc: int = 0


@dataclass(frozen=True, slots=True)
class Suppressor:
    """A fire-suppression system (HAZF-4): activated, it puts out every fire in its area.

    Attributes:
        id: Unique id.
        squares: The area it covers.
        control: The square of its control (a creature in or next to it can activate it), or None (GM only).
    """

    id: str
    squares: tuple[Square, ...]
    control: Square | None = None


@dataclass(frozen=True, slots=True)
class Breath:
    """A creature holding its breath (UW-1..6, G-15, G-16).

    Attributes:
        rounds_left: Rounds of breath it has left.
        ticked_round: The round its breath last ran down (None: not yet), so it runs down once a round.
    """

    rounds_left: int
    ticked_round: int | None = None


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
        debris: Squares strewn with a fallen object (difficult terrain: a chandelier, IEA-5).
        underwater: The fight is underwater, and the water type (UW), or None.
        countdowns: Pending timed events (a collapse's 1d4-round countdown, HAZC-2) by id → rounds left.
        breath: Creatures holding their breath, by id (UW-1..6); absent while one breathes freely.
        depth_ft: Each creature's depth in feet below the level where the fight began, by id (UW); absent: 0.
        chain_pending: Fuel containers awaiting their end-of-round chain roll, by object id (CHN-4).
        flammable: Squares with flammable material (wood, cloth, vegetation, fuel) fire spreads into (HAZF-2).
        burnt: Squares whose fuel has burned away (map material and flammable objects alike, HAZF-5).
        gas_clouds: Toxic gas clouds by id (HAZG); ``gas`` maps their squares.
        collapses: Pending collapses by id (HAZC-1, HAZC-2).
        floods: Rising water by id (HAZW-1); ``water_depth`` holds the resulting depths.
        drains: Drains by id (HAZW-5).
        suppressors: Fire-suppression systems by id (HAZF-4).
        hazard_terrain: Hazardous squares and their damage type (MOV-6, G-29).
        hazard_marks: (hazard, creature) → the (round, whose turn) it last took that hazard's damage (G-51).
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
    debris: set[Square] = field(default_factory=set)
    underwater: WaterType | None = None
    countdowns: dict[str, int] = field(default_factory=dict)
    breath: dict[str, Breath] = field(default_factory=dict)
    depth_ft: dict[str, int] = field(default_factory=dict)
    chain_pending: set[str] = field(default_factory=set)
    flammable: set[Square] = field(default_factory=set)
    burnt: set[Square] = field(default_factory=set)
    gas_clouds: dict[str, GasCloud] = field(default_factory=dict)
    collapses: dict[str, Collapse] = field(default_factory=dict)
    floods: dict[str, Flood] = field(default_factory=dict)
    drains: dict[str, Drain] = field(default_factory=dict)
    suppressors: dict[str, Suppressor] = field(default_factory=dict)
    hazard_terrain: dict[Square, str] = field(default_factory=dict)
    hazard_marks: dict[tuple[str, str], tuple[int, str]] = field(default_factory=dict)

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
