"""The concealment vocabulary the battlefield stores (CONC-1): light levels, obscurement tiers, their causes, a veil.

The engine core's :class:`~ashfall.engine.environment.Environment` keeps veils per square without naming the
senses family; what the tiers and causes mean for seeing (darkvision, thermal optics, X-17) is the senses
family's (:mod:`ashfall.families.senses.rules`, which re-exports these names).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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
    WATER = "water"


@dataclass(frozen=True, slots=True)
class Veil:
    """Obscurement laid over squares by a zone (fog bank, smoke, Veil of Shadow …) or by the light."""

    level: Obscurement
    cause: Cause


__all__ = ["Cause", "Obscurement", "Veil"]
