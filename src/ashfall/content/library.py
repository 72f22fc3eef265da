"""The :class:`Library`: a frozen, validated collection of creatures, weapons, armor and shields.

A library only ever holds entries that passed validation and whose references (a creature's
weapons, armor and shield) resolve; :mod:`ashfall.content.loader` builds it from YAML files.
Lookups by an unknown id raise :class:`UnknownIdError`, which suggests close matches.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeVar

from ashfall.content.schema import Armor, Creature, Model, ObjectTemplate, Shield, Weapon
from ashfall.files.yaml_marks import InputError, Problem

Kind = Literal["creature", "weapon", "armor", "shield", "object"]
"""The kinds of library entry."""

KINDS: tuple[Kind, ...] = ("creature", "weapon", "armor", "shield", "object")

SECTION_OF_KIND: Mapping[Kind, str] = MappingProxyType(
    {"creature": "creatures", "weapon": "weapons", "armor": "armor", "shield": "shields", "object": "objects"}
)
"""The content-file key that lists each kind (``armor`` is both singular and plural)."""

_M = TypeVar("_M", bound=Model)


class UnknownIdError(KeyError):
    """An id that is not in the library; the message lists close matches."""

    def __init__(self, kind: str, wanted: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.wanted = wanted
        self.suggestions = tuple(close_matches(wanted, known))
        self.message = f"no {kind} {wanted!r} in the library" + suggestion_text(self.suggestions)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def close_matches(wanted: str, known: Iterable[str]) -> list[str]:
    """Up to three known ids that look like ``wanted`` (difflib), best first."""
    return difflib.get_close_matches(wanted, sorted(known), n=3, cutoff=0.6)


def suggestion_text(suggestions: Iterable[str]) -> str:
    """``"; did you mean 'a' or 'b'?"``, or an empty string when there is nothing close."""
    names = [repr(s) for s in suggestions]
    if not names:
        return ""
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"
    return f"; did you mean {joined}?"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a library entry was defined."""

    file: str
    line: int | None
    path: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


def _frozen(items: Mapping[str, _M] | None) -> Mapping[str, _M]:
    return MappingProxyType(dict(items or {}))


@dataclass(frozen=True, slots=True)
class Library:
    """Validated content, looked up by id. Build it with :mod:`ashfall.content.loader`.

    Attributes:
        creature_map: Creatures by id.
        weapon_map: Weapons by id.
        armor_map: Armor by id.
        shield_map: Shields by id.
        object_map: Destructible battlefield objects by id (OBJ-1).
        origins: Where each ``(kind, id)`` was defined (file and line), for messages.
    """

    creature_map: Mapping[str, Creature] = field(default_factory=dict)
    weapon_map: Mapping[str, Weapon] = field(default_factory=dict)
    armor_map: Mapping[str, Armor] = field(default_factory=dict)
    shield_map: Mapping[str, Shield] = field(default_factory=dict)
    object_map: Mapping[str, ObjectTemplate] = field(default_factory=dict)
    origins: Mapping[tuple[Kind, str], Origin] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "creature_map", _frozen(self.creature_map))
        object.__setattr__(self, "weapon_map", _frozen(self.weapon_map))
        object.__setattr__(self, "armor_map", _frozen(self.armor_map))
        object.__setattr__(self, "shield_map", _frozen(self.shield_map))
        object.__setattr__(self, "object_map", _frozen(self.object_map))
        object.__setattr__(self, "origins", MappingProxyType(dict(self.origins)))

    # ----- lookups -----

    def creature(self, creature_id: str) -> Creature:
        """The creature with this id.

        Raises:
            UnknownIdError: If there is none (the message lists close matches).
        """
        return _get(self.creature_map, "creature", creature_id)

    def weapon(self, weapon_id: str) -> Weapon:
        """The weapon with this id.

        Raises:
            UnknownIdError: If there is none (the message lists close matches).
        """
        return _get(self.weapon_map, "weapon", weapon_id)

    def armor(self, armor_id: str) -> Armor:
        """The armor with this id.

        Raises:
            UnknownIdError: If there is none (the message lists close matches).
        """
        return _get(self.armor_map, "armor", armor_id)

    def shield(self, shield_id: str) -> Shield:
        """The shield with this id.

        Raises:
            UnknownIdError: If there is none (the message lists close matches).
        """
        return _get(self.shield_map, "shield", shield_id)

    def object(self, object_id: str) -> ObjectTemplate:
        """The battlefield object with this id.

        Raises:
            UnknownIdError: If there is none (the message lists close matches).
        """
        return _get(self.object_map, "object", object_id)

    def objects(self) -> tuple[ObjectTemplate, ...]:
        """Every battlefield object, sorted by id."""
        return tuple(self.object_map[k] for k in sorted(self.object_map))

    def creatures(self) -> tuple[Creature, ...]:
        """Every creature, sorted by id."""
        return tuple(self.creature_map[k] for k in sorted(self.creature_map))

    def weapons(self) -> tuple[Weapon, ...]:
        """Every weapon, sorted by id (natural weapons live on their creatures)."""
        return tuple(self.weapon_map[k] for k in sorted(self.weapon_map))

    def armors(self) -> tuple[Armor, ...]:
        """Every suit of armor, sorted by id."""
        return tuple(self.armor_map[k] for k in sorted(self.armor_map))

    def shields(self) -> tuple[Shield, ...]:
        """Every shield, sorted by id."""
        return tuple(self.shield_map[k] for k in sorted(self.shield_map))

    def ids(self, kind: Kind) -> tuple[str, ...]:
        """The sorted ids of one kind of entry."""
        return tuple(sorted(self._map(kind)))

    def has(self, kind: Kind, entry_id: str) -> bool:
        """Whether an entry of this kind and id exists."""
        return entry_id in self._map(kind)

    def origin(self, kind: Kind, entry_id: str) -> Origin | None:
        """Where an entry was defined, if known."""
        return self.origins.get((kind, entry_id))

    # ----- a creature's gear -----

    def weapons_of(self, creature: Creature) -> tuple[Weapon, ...]:
        """The creature's weapons: the library weapons it lists, in order, then its natural weapons.

        Raises:
            UnknownIdError: If the creature lists a weapon this library does not have.
        """
        return tuple(self.weapon(w) for w in creature.weapons) + creature.natural_weapons

    def weapon_of(self, creature: Creature, weapon_id: str) -> Weapon:
        """One of the creature's weapons (library or natural) by id.

        Raises:
            UnknownIdError: If the creature has no such weapon.
        """
        own = {w.id: w for w in self.weapons_of(creature)}
        if weapon_id not in own:
            raise UnknownIdError(f"weapon of {creature.id}", weapon_id, own)
        return own[weapon_id]

    def armor_of(self, creature: Creature) -> Armor | None:
        """The armor the creature wears, or None."""
        return None if creature.armor is None else self.armor(creature.armor)

    def shield_of(self, creature: Creature) -> Shield | None:
        """The shield the creature carries, or None."""
        return None if creature.shield is None else self.shield(creature.shield)

    # ----- combining -----

    def merge(self, other: Library) -> Library:
        """This library plus ``other`` (e.g. a user's content file).

        Raises:
            InputError: Naming every entry of ``other`` whose id is already taken.
        """
        problems = [
            _clash(kind, entry_id, other.origin(kind, entry_id), self.origin(kind, entry_id))
            for kind in KINDS
            for entry_id in other.ids(kind)
            if self.has(kind, entry_id)
        ]
        if problems:
            raise InputError(problems)
        return Library(
            creature_map={**self.creature_map, **other.creature_map},
            weapon_map={**self.weapon_map, **other.weapon_map},
            armor_map={**self.armor_map, **other.armor_map},
            shield_map={**self.shield_map, **other.shield_map},
            object_map={**self.object_map, **other.object_map},
            origins={**self.origins, **other.origins},
        )

    def __len__(self) -> int:
        return (len(self.creature_map) + len(self.weapon_map) + len(self.armor_map) + len(self.shield_map)
                + len(self.object_map))

    def _map(self, kind: Kind) -> Mapping[str, Model]:
        maps: dict[Kind, Mapping[str, Model]] = {
            "creature": self.creature_map,
            "weapon": self.weapon_map,
            "armor": self.armor_map,
            "shield": self.shield_map,
            "object": self.object_map,
        }
        return maps[kind]


def _get(items: Mapping[str, _M], kind: str, wanted: str) -> _M:
    try:
        return items[wanted]
    except KeyError:
        raise UnknownIdError(kind, wanted, items) from None


def _clash(kind: Kind, entry_id: str, new: Origin | None, old: Origin | None) -> Problem:
    where = f" (at {old})" if old else ""
    path = f"{new.path}.id" if new and new.path else f"{SECTION_OF_KIND[kind]}.{entry_id}"
    return Problem(new.file if new else "<library>", path, new.line if new else None,
                   f"{kind} id {entry_id!r} is already defined{where}")


__all__ = ["KINDS", "Kind", "Library", "Origin", "UnknownIdError", "close_matches"]
