"""The encounter file format as pydantic models (frozen, unknown keys are errors); see docs/encounters.md.

These models check the shape of an encounter file: types, allowed names, required keys. What needs
the library, the ruleset or the map (creature ids, squares inside walls, zones, sides) is checked by
:mod:`ashfall.encounters.loader`, which reports every problem with its file, field path and line.
"""

from enum import Enum
from typing import Any

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from ashfall.content.schema import CrewStation, Model, OptWhole, Whole
from ashfall.encounters.coords import MAX_MAP_SIDE
from ashfall.encounters.coords import FileSquare as Square
from ashfall.encounters.hazards_spec import HazardsSpec
from ashfall.encounters.lighting_spec import LightSpec, ObscuredSpec
from ashfall.encounters.objects_spec import ObjectPlacement
from ashfall.grid.board import CoverLevel, Terrain

# Every model below is a content ``Model``: frozen, and unknown keys are errors.


class ControllerKind(Enum):
    """Who runs a side: an AI policy or a person at the table."""

    AI = "ai"
    HUMAN = "human"


class CoverName(Enum):
    """Cover tiers as written in files (COV-1..3)."""

    PARTIAL = "partial"
    HEAVY = "heavy"
    TOTAL = "total"

    @property
    def level(self) -> CoverLevel:
        """The board's cover level."""
        return CoverLevel[self.name]


class TurnActivity(Enum):
    """What a scripted turn plan may use (the simulator plays these in order every turn)."""

    STRIKE = "strike"
    POWER_STRIKE = "power-strike"
    ALL_OUT_ATTACK = "all-out-attack"
    FULL_AUTO_BURST = "full-auto-burst"
    SWEEPING_STRIKE = "sweeping-strike"
    SUPPRESSIVE_FIRE = "suppressive-fire"


MAX_COUNT = 100
"""The most creatures one ``combatants`` entry may add with ``count``."""

MAX_COMBATANTS = 100
"""The most creatures an encounter may field in all: the AI weighs every foe each turn."""

MAX_ROUNDS = 1000
"""The highest round limit a file may set."""

MAX_SEED = 2**63 - 1
"""The largest seed (a 64-bit seed, as ``--seed`` prints them)."""


class TargetRule(Enum):
    """Whom a scripted plan attacks (``target``); without one, the AI chooses (focus fire, ``ashfall.ai.targeting``)."""

    NEAREST = "nearest"
    """The nearest enemy still fighting."""
    WEAKEST = "weakest"
    """The enemy with the fewest hit points left (then the nearest)."""
    STRONGEST = "strongest"
    """The enemy with the most hit points left (then the nearest)."""
    HIGHEST_THREAT = "highest-threat"
    """The enemy with the deadliest weapon: the highest average damage of its weapon dice (then the nearest)."""


AI_TACTICS = "ai"
"""The ``tactics`` value that leaves every turn to the AI (the default)."""


def _one_of(value: Any, kinds: tuple[type, ...], what: str) -> Any:
    if not isinstance(value, kinds):
        raise ValueError(f"expected {what}")
    return value


class LegendEntry(Model):
    """What one map character stands for."""

    terrain: Terrain = Field(Terrain.NORMAL, description="Movement cost of the square (MOV-2..MOV-5).")
    wall: bool = Field(False, description="A wall: impassable and blocks sight (total cover, COV-3).")
    cover: CoverName | None = Field(None, description="A cover object in the square (COV-1..3).")
    name: str | None = Field(None, description="The cover object's name in explanations.")
    light: bool = Field(False, description="Light cover that heavy weapons ignore (STC-2).")
    blocks_movement: bool = Field(True, description="Whether the cover object's square can be entered.")
    height: Whole = Field(0, ge=0, le=1000, description="Elevation of the square in feet (POS-4, G-37).")
    exit: bool = Field(False, description="A way off the battlefield for creatures that flee (MOR-20).")


class CoverSpec(Model):
    """A cover object placed by coordinates."""

    at: Square
    level: CoverName
    name: str = "cover"
    light: bool = False
    blocks_movement: bool = True


class ElevationSpec(Model):
    """The height of one square."""

    at: Square
    height: Whole = Field(ge=0, le=1000)


class MapSpec(Model):
    """The battle map: an ASCII grid with a legend, explicit lists, or both (explicit lists apply on top)."""

    width: OptWhole = Field(None, ge=1, le=MAX_MAP_SIDE)
    height: OptWhole = Field(None, ge=1, le=MAX_MAP_SIDE)
    rows: tuple[str, ...] | None = Field(None, description="The grid, one string per row (or one block of text).")
    legend: dict[str, LegendEntry] = Field(default_factory=dict, description="Extra or changed map characters.")
    walls: tuple[Square, ...] = ()
    terrain: dict[Terrain, tuple[Square, ...]] = Field(default_factory=dict)
    cover: tuple[CoverSpec, ...] = ()
    elevation: tuple[ElevationSpec, ...] = ()
    zones: dict[str, tuple[Square, ...]] = Field(default_factory=dict)
    exits: tuple[Square, ...] = Field((), description="Squares where fleeing creatures leave (default: the edge).")

    @field_validator("rows", mode="before")
    @classmethod
    def _split_block(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = tuple(value.splitlines())
        if isinstance(value, list | tuple) and len(value) > MAX_MAP_SIDE:
            raise PydanticCustomError("map_size", "the rows draw a map {rows} high; a map is at most {top} squares "
                                      "each way", {"rows": len(value), "top": MAX_MAP_SIDE})
        return value

    @field_validator("rows")
    @classmethod
    def _row_widths(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        wide = max((len(row) for row in value or ()), default=0)
        if wide > MAX_MAP_SIDE:
            raise PydanticCustomError("map_size", "a row is {wide} squares wide; a map is at most {top} squares "
                                      "each way", {"wide": wide, "top": MAX_MAP_SIDE})
        return value


class SideSpec(Model):
    """One side of the fight."""

    name: str = Field(min_length=1)
    controller: ControllerKind = ControllerKind.AI
    morale: bool = Field(True, description="Whether its NPCs check morale (MOR-38); PCs never do (MOR-2).")
    ambush: bool = Field(False, description="The side ambushes: Stealth against passive Perception (SUR-1).")


class CombatantSpec(Model):
    """One entry of ``combatants``: a creature (or ``count`` of them) on a side."""

    creature: str | dict[str, Any] = Field(description="A library creature id or an inline stat block.")
    side: str
    count: OptWhole = Field(None, ge=1, le=MAX_COUNT, description="How many of this creature (at most 100).")
    id: str | None = None
    name: str | None = None
    position: Square | None = None
    positions: tuple[Square, ...] | None = None
    zone: str | None = Field(None, min_length=1, description="A spawn zone of the map.")
    leader: bool | None = Field(None, description="Overrides the stat block's leader flag (MOR-8).")
    tactics: tuple[TurnActivity, ...] | None = Field(None, description="A turn plan; None lets the AI decide.")
    target: TargetRule | None = Field(None, description="Whom a turn plan attacks; None lets the AI choose.")
    mounted_on: str | None = Field(None, description="The combatant id of the mount or vehicle it rides (MNT, VEH).")
    station: CrewStation | None = Field(None, description="Aboard a vehicle: its crew station (VEH-2).")
    moving: bool | None = Field(None, description="A vehicle that is moving as the fight starts (VEH-5).")
    initiative_group: str | None = Field(None, min_length=1, max_length=60, description=(
        "Creatures with the same initiative group share one initiative die (and tie-break coin), each adding its "
        "own modifiers (INIT-1): a table convenience; without it every creature rolls."))

    @field_validator("creature", mode="before")
    @classmethod
    def _creature_shape(cls, value: Any) -> Any:
        return _one_of(value, (str, dict), "a creature id or an inline stat block (a mapping)")

    @field_validator("tactics", mode="before")
    @classmethod
    def _tactics_shape(cls, value: Any) -> Any:
        if value == AI_TACTICS:
            return None
        if isinstance(value, str):
            return [value]
        return value


class WaterName(Enum):
    """The water an underwater fight is in (UW-24..26)."""

    CLEAR = "clear"
    MURKY = "murky"
    DARK = "dark"


class VictorySpec(Model):
    """When the fight stops besides one side being beaten."""

    round_limit: OptWhole = Field(None, ge=1, le=MAX_ROUNDS, description="Stop after this round with no winner.")


class EncounterFile(Model):
    """A whole encounter file."""

    name: str = Field(min_length=1)
    description: str = ""
    seed: OptWhole = Field(None, ge=0, le=MAX_SEED)
    ruleset: str | dict[str, Any] = Field("ashfall-2", description="A preset, a house-rule file or house rules.")
    map: MapSpec | None = None
    sides: tuple[SideSpec, ...]
    combatants: tuple[CombatantSpec, ...]
    content: tuple[str, ...] = ()
    victory: VictorySpec = VictorySpec.model_construct()
    light: LightSpec = Field(LightSpec.model_construct(), description="Ambient and per-square light (CONC-2, "
                             "CONC-8).")
    obscured: tuple[ObscuredSpec, ...] = Field((), description="Obscured zones: fog, smoke, magical darkness.")
    hazards: HazardsSpec = Field(HazardsSpec.model_construct(), description="Spreading hazards as the fight "
                                 "starts: fire, gas, water, drains, hazardous terrain (HAZ*, MOV-6).")
    underwater: WaterName | None = Field(None, description="The fight is underwater, in clear, murky or dark water "
                                         "(UW-24..26).")
    objects: tuple[ObjectPlacement, ...] = Field((), description="Destructible objects on the map: barrels, "
                                                 "barricades, chandeliers (OBJ-1, CHN-0).")

    @field_validator("ruleset", mode="before")
    @classmethod
    def _ruleset_shape(cls, value: Any) -> Any:
        return _one_of(value, (str, dict), "a preset name, a house-rule file or {base, name, options}")


__all__ = [
    "AI_TACTICS",
    "MAX_COMBATANTS",
    "MAX_COUNT",
    "MAX_MAP_SIDE",
    "MAX_ROUNDS",
    "MAX_SEED",
    "CombatantSpec",
    "ControllerKind",
    "CoverName",
    "CoverSpec",
    "ElevationSpec",
    "EncounterFile",
    "LegendEntry",
    "MapSpec",
    "SideSpec",
    "TargetRule",
    "TurnActivity",
    "VictorySpec",
    "WaterName",
]
