"""The board: a grid of 5-ft squares with terrain, walls, cover objects and elevation (MOV, POS, COV).

Squares are ``(x, y)`` tuples. A creature of size S occupies an S.squares × S.squares block whose
top-left square is its position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from ashfall.core.rule_ids import RuleId, rule

Square = tuple[int, int]
SQUARE_FT = 5


class Terrain(Enum):
    """Movement cost classes (MOV-2..MOV-5); water costs by the swimmer (X-03)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    NORMAL = "normal"
    DIFFICULT = "difficult"
    GREATER_DIFFICULT = "greater-difficult"
    IMPASSABLE = "impassable"
    WATER = "water"

    @property
    def multiplier(self) -> int | None:
        """Feet of movement per foot travelled, or None when impassable."""
        return _MULT[self]

    @property
    def rule(self) -> RuleId:
        """The rule that sets this terrain's cost."""
        return _TERRAIN_RULE[self]


_MULT = {Terrain.NORMAL: 1, Terrain.DIFFICULT: 2, Terrain.GREATER_DIFFICULT: 3, Terrain.IMPASSABLE: None,
         Terrain.WATER: 2}
"""The cost of water here is for a creature without a swim speed at the default ``turn.water_cost`` (X-03)."""
_TERRAIN_RULE = {
    Terrain.NORMAL: rule("MOV-2"),
    Terrain.DIFFICULT: rule("MOV-3"),
    Terrain.GREATER_DIFFICULT: rule("MOV-4"),
    Terrain.IMPASSABLE: rule("MOV-5"),
    Terrain.WATER: rule("X-03"),
}


class CoverLevel(Enum):
    """Cover tiers (COV-1..3), ordered by strength."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    NONE = 0
    PARTIAL = 1
    HEAVY = 2
    TOTAL = 3


@dataclass(frozen=True, slots=True)
class CoverObject:
    """Something on the map that gives cover to creatures behind it.

    Attributes:
        level: Partial, heavy or total cover for a line passing through its square.
        blocks_movement: Whether creatures can enter its square (a low wall cannot be walked through).
        name: A label for explanations ("stone wall", "crate").
        light: Light cover (wooden barricade, furniture) that heavy weapons ignore (STC-2).
    """

    level: CoverLevel
    blocks_movement: bool = True
    name: str = "cover"
    light: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """A rectangular battle map.

    Attributes:
        width: Squares across.
        height: Squares down.
        terrain: Non-normal terrain by square.
        walls: Squares that block movement and sight entirely.
        cover: Cover objects by square.
        elevation: Height in feet by square (0 when absent).
    """

    width: int
    height: int
    terrain: Mapping[Square, Terrain] = field(default_factory=dict)
    walls: frozenset[Square] = frozenset()
    cover: Mapping[Square, CoverObject] = field(default_factory=dict)
    elevation: Mapping[Square, int] = field(default_factory=dict)

    def in_bounds(self, sq: Square) -> bool:
        """Whether a square is on the map."""
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def terrain_at(self, sq: Square) -> Terrain:
        """The terrain of a square (walls and blocking cover count as impassable)."""
        if sq in self.walls:
            return Terrain.IMPASSABLE
        obj = self.cover.get(sq)
        if obj is not None and obj.blocks_movement:
            return Terrain.IMPASSABLE
        return self.terrain.get(sq, Terrain.NORMAL)

    def height_at(self, sq: Square) -> int:
        """Elevation of a square in feet."""
        return self.elevation.get(sq, 0)

    def blocks_sight(self, sq: Square) -> bool:
        """Walls block lines of sight and effect."""
        return sq in self.walls


@lru_cache(maxsize=16384)
def footprint(origin: Square, side: int) -> tuple[Square, ...]:
    """The squares a creature whose space is ``side`` × ``side`` occupies (cached: pure geometry)."""
    x0, y0 = origin
    return tuple((x0 + dx, y0 + dy) for dy in range(side) for dx in range(side))


def neighbours(sq: Square) -> Iterable[Square]:
    """The eight adjacent squares, in a fixed order."""
    x, y = sq
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                yield (x + dx, y + dy)
