"""The shape of an encounter file's ``light`` and ``obscured`` keys (see docs/encounters.md, "Light and obscurement").

``light`` sets the ambient light and the light of chosen squares (by coordinates or by map character);
``obscured`` lays zones of light or heavy obscurement with their cause (fog, smoke, magical darkness …)
over squares, a rectangle or every square drawn with a map character (CONC-2, CONC-8). What needs the
map is checked, and the environment filled in, by :mod:`ashfall.encounters.lighting`.
"""

from enum import Enum

from pydantic import Field

from ashfall.content.schema import Model
from ashfall.core.veils import Cause, Light, Obscurement
from ashfall.encounters.coords import FileSquare as Square


class ObscuredLevel(Enum):
    """Obscurement tiers as written in files (CONC-1)."""

    LIGHT = "light"
    HEAVY = "heavy"

    @property
    def obscurement(self) -> Obscurement:
        """The engine's tier."""
        return Obscurement[self.name]


class LightSpec(Model):
    """Light on the battlefield: bright unless the ambient or a square says otherwise."""

    ambient: Light = Field(Light.BRIGHT, description="Light where nothing else is said: bright, dim or dark.")
    squares: dict[Light, tuple[Square, ...]] = Field(default_factory=dict, description="Squares by light level.")
    legend: dict[str, Light] = Field(default_factory=dict, description="Map characters whose squares have this light.")


class ObscuredSpec(Model):
    """One obscured zone: where (one of ``squares``, ``area``, ``legend``), how heavily, and why."""

    squares: tuple[Square, ...] = Field((), description="The zone's squares.")
    area: tuple[Square, Square] | None = Field(None, description="A rectangle given by two opposite corners.")
    legend: str | None = Field(None, description="Every square drawn with this map character.")
    level: ObscuredLevel = Field(description="light (LO) or heavy (HO).")
    cause: Cause = Field(description="What obscures it: fog, smoke, magical-darkness, foliage …")


__all__ = ["LightSpec", "ObscuredLevel", "ObscuredSpec"]
