"""A creature's hit points and dying track as one frozen value (HP, temp HP, death saves, status).

Rules return a new :class:`Health` instead of changing one; the engine stores it. Invariants:
``0 <= hp <= max_hp``, ``temp_hp >= 0``, death-save counts only while dying.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Vitality(Enum):
    """Where a creature stands on the life track (DEATH, STAB)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    ALIVE = "alive"
    DYING = "dying"
    STABILIZED = "stabilized"
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class Health:
    """Hit points and the dying track.

    Attributes:
        hp: Current HP, 0..max_hp.
        max_hp: Maximum HP.
        temp_hp: Temporary HP (THP-1); never stacked except Arcane Ward (THP-2, THP-4).
        temp_source: What granted the current temporary HP ("" when none).
        vitality: Alive, dying, stabilized or dead.
        successes: Death-save successes while dying.
        failures: Death-save failures while dying.
        uses_death_saves: False for NPCs that die at 0 HP (G-38).
    """

    hp: int
    max_hp: int
    temp_hp: int = 0
    temp_source: str = ""
    vitality: Vitality = Vitality.ALIVE
    successes: int = 0
    failures: int = 0
    uses_death_saves: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.hp <= self.max_hp:
            raise ValueError(f"hp {self.hp} outside 0..{self.max_hp}")
        if self.temp_hp < 0:
            raise ValueError("temp_hp < 0")

    @classmethod
    def full(cls, max_hp: int, *, temp_hp: int = 0, uses_death_saves: bool = True) -> Health:
        """A creature at full HP."""
        return cls(max_hp, max_hp, temp_hp, "", Vitality.ALIVE, 0, 0, uses_death_saves)

    @property
    def is_dead(self) -> bool:
        """Dead."""
        return self.vitality is Vitality.DEAD

    @property
    def is_dying(self) -> bool:
        """At 0 HP and making death saves."""
        return self.vitality is Vitality.DYING

    @property
    def is_down(self) -> bool:
        """At 0 HP (dying, stabilized or dead): out of the fight."""
        return self.vitality is not Vitality.ALIVE

    def evolve(self, **changes: object) -> Health:
        """A copy with fields changed (validated)."""
        return replace(self, **changes)  # type: ignore[arg-type]
