"""A loaded, fully checked encounter: what :func:`~ashfall.encounters.loader.load_encounter` returns.

An :class:`EncounterSpec` holds everything the file said, resolved: the ruleset, the library (with
the file's extra content and inline stat blocks), the board and the roster with final ids, names,
squares and tactics. Building an engine from it cannot fail (:mod:`ashfall.encounters.building`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ashfall.content.library import Library
from ashfall.content.schema import Creature
from ashfall.encounters.schema import EncounterFile, SideSpec, TargetRule
from ashfall.families.attacks.rules_activities import Activity
from ashfall.grid.board import Board, Square
from ashfall.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Tactics:
    """How a combatant plays its turns: a fixed plan of activities, or (empty plan) whatever the AI picks.

    A plan fixes *what* the creature does; *whom* it attacks stays the AI's choice unless ``target`` names
    a rule (nearest, weakest, strongest, highest threat).

    Attributes:
        plan: Activities tried in order every turn, e.g. Power Strike then Strike.
        target: Whom the plan attacks, or None for the AI's choice.
    """

    plan: tuple[Activity, ...] = ()
    target: TargetRule | None = None

    @property
    def is_ai(self) -> bool:
        """The AI decides every turn."""
        return not self.plan

    def __str__(self) -> str:
        if self.is_ai:
            return "ai"
        return ", ".join(a.value for a in self.plan) + (f" (target: {self.target.value})" if self.target else "")


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One creature of the encounter, as it will enter the fight.

    Attributes:
        id: Its combatant id (``raider-2``).
        name: Its display name (``Raider 2``).
        creature: Its stat block.
        side: The side it fights on.
        position: Its top-left square, or None in theater of mind.
        leader: Whether it leads its side (MOR-8), from the file or else the stat block.
        tactics: How it plays its turns.
        source: Where in the file it was declared (``combatants[2]``).
        mounted_on: The id of the mount or vehicle it rides (it stands in its square, MNT-4), or None.
        station: Aboard a vehicle: its crew station or "passenger" (VEH-2); "" otherwise.
        moving: A vehicle moving as the fight starts (VEH-5).
        initiative_group: The initiative group it shares a roll with, or None (it rolls its own, INIT-1).
    """

    id: str
    name: str
    creature: Creature
    side: str
    position: Square | None
    leader: bool
    tactics: Tactics
    source: str
    mounted_on: str | None = None
    station: str = ""
    moving: bool = False
    initiative_group: str | None = None


@dataclass(frozen=True, slots=True)
class EncounterSpec:
    """A checked encounter file, ready to build.

    Attributes:
        file: The file it came from.
        document: The validated file as written.
        ruleset: The resolved ruleset.
        library: The shipped library plus the file's ``content`` files and inline stat blocks.
        board: The battle map, or None in theater of mind.
        zones: Spawn zone squares by zone name, in reading order.
        roster: Every creature, in file order (``count`` expanded).
        exits: Squares where fleeing creatures leave the battlefield (MOR-20), in reading order; empty
            in theater of mind.
    """

    file: str
    document: EncounterFile
    ruleset: Ruleset
    library: Library
    board: Board | None
    zones: Mapping[str, tuple[Square, ...]] = field(default_factory=dict)
    roster: tuple[RosterEntry, ...] = ()
    exits: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "zones", MappingProxyType(dict(self.zones)))

    @property
    def name(self) -> str:
        """The encounter's name."""
        return self.document.name

    @property
    def sides(self) -> tuple[SideSpec, ...]:
        """The declared sides, in file order."""
        return self.document.sides

    @property
    def seed(self) -> int | None:
        """The file's seed, if it gives one."""
        return self.document.seed

    @property
    def round_limit(self) -> int | None:
        """The round after which the fight stops undecided, if any."""
        return self.document.victory.round_limit

    @property
    def ambushers(self) -> str | None:
        """The ambushing side's name, if one ambushes (SUR-1)."""
        return next((s.name for s in self.sides if s.ambush), None)

    def members(self, side: str) -> tuple[RosterEntry, ...]:
        """The roster entries of one side."""
        return tuple(e for e in self.roster if e.side == side)


__all__ = ["EncounterSpec", "RosterEntry", "Tactics"]
