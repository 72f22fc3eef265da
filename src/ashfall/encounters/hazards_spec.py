"""The shape of an encounter file's ``hazards`` key (see docs/encounters.md, "Hazards").

Spreading hazards as the fight starts: flammable and burning squares (HAZF), gas sources (HAZG),
rising water and drains (HAZW), fire-suppression systems (HAZF-4), hazardous terrain (MOV-6), a
collapse already counting down (HAZC), and whether the space is enclosed or windy. What needs the map
is checked, and the environment filled in, by :mod:`ashfall.encounters.hazards`.
"""

from pydantic import Field

from ashfall.content.schema import Model, OptWhole, Whole
from ashfall.core.types import DamageType
from ashfall.encounters.coords import FileSquare as Square


class Squares(Model):
    """Squares given by coordinates, a rectangle and/or a map character (their union)."""

    squares: tuple[Square, ...] = Field((), description="Squares by coordinates.")
    area: tuple[Square, Square] | None = Field(None, description="A rectangle given by two opposite corners.")
    legend: str | None = Field(None, description="Every square drawn with this map character.")


NO_SQUARES = Squares.model_construct()
"""No squares (the default; built unvalidated so that importing this builds no validator)."""


class GasSpec(Model):
    """A toxic gas source (HAZG-1)."""

    at: Square = Field(description="The source's square.")
    radius: OptWhole = Field(None, ge=0, le=200,
                             description="Starting radius in feet (default hazards.gas_radius_ft, 10).")
    enclosed: bool | None = Field(None, description="The gas is in an enclosed space (default: hazards.enclosed).")
    producing: bool = Field(False, description="The source keeps producing: in open air it never disperses (HAZG-4).")


class WaterSpec(Model):
    """Rising water (HAZW-1)."""

    level: OptWhole = Field(None, ge=0, le=100, description="Water level in feet as the fight starts (default: rise).")
    rise: OptWhole = Field(None, ge=0, le=20,
                           description="Feet it rises each round (default hazards.flood_rise_ft, 1).")
    max: Whole = Field(0, ge=0, le=100, description="The highest it rises, in feet (0: no limit).")
    area: Squares | None = Field(None, description="The squares it floods (default: the whole map).")


class DrainSpec(Model):
    """A drain (HAZW-5, EX-9)."""

    at: Square = Field(description="The drain's square.")
    open: bool = Field(False, description="Water already runs out through it.")
    dc: OptWhole = Field(None, ge=0, le=40, description="MIG check DC to pry it open (default hazards.drain_dc, 12).")
    find_dc: Whole = Field(0, ge=0, le=40, description="Perception DC to find it (0: in plain sight).")
    rate: OptWhole = Field(None, ge=0, le=20, description="Feet of water it drains a round (default hazards.drain_ft).")


class SuppressionSpec(Model):
    """A fire-suppression system (HAZF-4)."""

    area: Squares = Field(description="The squares it covers.")
    control: Square | None = Field(None, description="Where a creature (in or next to it) sets it off; none: GM only.")


class TerrainSpec(Model):
    """Hazardous terrain (MOV-6): its damage type, and where."""

    type: DamageType = Field(description="The damage type (acid for toxic sludge, fire for lava, electric …).")
    where: Squares = Field(description="Its squares.")


class CollapseSpec(Model):
    """A structural collapse already counting down (HAZC-1, HAZC-2)."""

    at: Square = Field(description="The centre (the failing support).")
    radius: OptWhole = Field(None, ge=0, le=200,
                             description="Radius in feet (default hazards.collapse_radius_ft, 20).")
    countdown: Whole = Field(ge=1, le=100, description="Rounds before it comes down.")


class HazardsSpec(Model):
    """Spreading hazards on the battlefield as the fight starts."""

    enclosed: bool = Field(False, description="An enclosed space: heavy smoke (HAZF-6), growing gas (HAZG-3).")
    wind: bool = Field(False, description="A strong wind: gas disperses in 1 round (HAZG-5).")
    flammable: Squares = Field(NO_SQUARES, description="Squares with flammable material fire spreads into (HAZF-2).")
    burning: Squares = Field(NO_SQUARES, description="Squares on fire as the fight starts (HAZF-1).")
    gas: tuple[GasSpec, ...] = Field((), description="Toxic gas sources (HAZG).")
    water: WaterSpec | None = Field(None, description="Rising water (HAZW).")
    drains: dict[str, DrainSpec] = Field(default_factory=dict, description="Drains by id (HAZW-5).")
    suppression: dict[str, SuppressionSpec] = Field(default_factory=dict, description="Fire-suppression systems by "
                                                    "id (HAZF-4).")
    terrain: tuple[TerrainSpec, ...] = Field((), description="Hazardous terrain (MOV-6, G-29).")
    collapse: tuple[CollapseSpec, ...] = Field((), description="Collapses already counting down (HAZC).")


__all__ = ["CollapseSpec", "DrainSpec", "GasSpec", "HazardsSpec", "Squares", "SuppressionSpec", "TerrainSpec",
           "WaterSpec"]
