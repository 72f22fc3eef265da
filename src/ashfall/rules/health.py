"""A creature's hit points and dying track as one frozen value (HP, temp HP, death saves, status).

Rules return a new :class:`Health` instead of changing one; the engine stores it. Invariants:
``0 <= hp <= max_hp``, ``temp_hp >= 0``, death-save counts only while dying.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition

if TYPE_CHECKING:
    from ashfall.content.schema import Creature
    from ashfall.ruleset import Ruleset


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


def makes_death_saves(creature: Creature, ruleset: Ruleset) -> bool:
    """Whether a creature makes death saves at 0 HP instead of dying (DEATH-2, G-38).

    Player characters always do; an NPC does when its stat block says so or when the ruleset lets every NPC
    fall dying (``dying.npcs_die_at_zero`` off).
    """
    return creature.is_pc or creature.uses_death_saves or not ruleset.dying.npcs_die_at_zero


def falls_dying(health: Health, ruleset: Ruleset) -> bool:
    """Whether a creature dropped to 0 HP falls dying (DEATH-1) rather than dying outright (G-38)."""
    return health.uses_death_saves or not ruleset.dying.npcs_die_at_zero


# ----- DEATH-1: what being down means -----
# Here, with the health record, because every Combatant.condition_set read asks it: the engine core needs it
# without naming the dying family (which re-exports it).

_DEATH_1, _DEATH_3, _DEATH_14, _C_STB = (rule(r) for r in ("DEATH-1", "DEATH-3", "DEATH-14", "C-STB"))

_DOWN: Mapping[Vitality, frozenset[Condition]] = MappingProxyType({
    Vitality.ALIVE: frozenset(),
    Vitality.DYING: frozenset({Condition.UNCONSCIOUS, Condition.PRONE, Condition.INCAPACITATED, Condition.DYING}),
    Vitality.STABILIZED: frozenset(
        {Condition.UNCONSCIOUS, Condition.PRONE, Condition.INCAPACITATED, Condition.STABILIZED}
    ),
    Vitality.DEAD: frozenset({Condition.DEAD}),
})
_DOWN_RULES: Mapping[Vitality, tuple[RuleId, ...]] = MappingProxyType({
    Vitality.ALIVE: (),
    Vitality.DYING: (_DEATH_1,),
    Vitality.STABILIZED: (_DEATH_1, _DEATH_14, _C_STB),
    Vitality.DEAD: (_DEATH_3,),
})


@dataclass(frozen=True, slots=True)
class DownState:
    """The conditions a creature has because of where it stands on the life track."""

    conditions: frozenset[Condition]
    rules: tuple[RuleId, ...]


def down_conditions(health: Health) -> DownState:
    """Unconscious, prone and incapacitated at 0 HP (DEATH-1); stabilised stays unconscious (DEATH-14)."""
    return _DOWN_STATE[health.vitality]


_DOWN_STATE: Mapping[Vitality, DownState] = MappingProxyType({v: DownState(_DOWN[v], _DOWN_RULES[v]) for v in Vitality})
"""One frozen answer per vitality, built once: every ``Combatant.condition_set`` read asks for it."""
