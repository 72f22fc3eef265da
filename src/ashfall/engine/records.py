"""Typed records a combatant carries besides its health: morale marks, medical supplies, gear, vehicle and Stealth.

They replace the string-keyed ``uses`` counters. Every record is frozen and only the applier replaces it
(:mod:`ashfall.engine.apply`), so a cloned state may share them. ``ResourceUsed`` events keep the names they
always had in the event log (``"uses:broken"``, ``"uses:stim:2"`` …): :func:`entry_name` / :func:`use_name` are the
one place such a name is written and :func:`parse_name` the one place one is read back into a typed key, so no
caller builds or parses a key string. (The mark vocabulary, :class:`~ashfall.core.morale.MoraleMark`, is the
morale rules'.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from ashfall.core.morale import MoraleMark

USES = "uses"
"""The ``ResourceUsed`` pool of these records."""


class Tally(Enum):
    """A count a combatant keeps (its name in the event log is the value)."""

    MEDICINE_KIT = "medicine-kit"
    """Uses left of its medicine kit (MAA-6)."""
    STIMS_TAKEN = "stims-taken"
    """Stims taken today (E-29)."""
    EFM_LOCKOUT = "efm-lockout"
    """Hours it cannot benefit from Emergency Field Medicine after a failed attempt (E-12)."""
    SECOND_WIND = "second-wind"
    """Second Winds used since the last short rest (HEAL-5)."""
    STEALTH_TOTAL = "stealth-total"
    """The Stealth total it hid with (G-20, G-45)."""
    DISARMED = "disarmed"
    """Times it was disarmed (DIS-3)."""
    MOVING = "moving"
    """A vehicle that is moving (VEH-5, E-43): not 0."""
    FLEE_DIRECTION = "flee-direction"
    """A fleeing animal's direction, 1..8 clockwise from north (MOR-24); 0 when it has none."""


class Keyed(Enum):
    """A family of counts kept per item; the event log names one ``<family>:<item>``."""

    STIM = "stim"
    """Stims carried, by tier (G-31)."""
    STOWED = "stowed"
    """A weapon stowed (not in hand), by weapon id (G-31)."""
    RALLY = "rally-attempt-r"
    """A rally attempted (G-04), by round; the log names it ``rally-attempt-r<round>`` (no colon)."""
    BREAK = "break"
    """What a broken NPC does (MOR-24), by behaviour; the log names it ``break-<behaviour>``."""


_SEPARATOR = {Keyed.STIM: ":", Keyed.STOWED: ":", Keyed.RALLY: "", Keyed.BREAK: "-"}


@dataclass(frozen=True, slots=True)
class Supplies:
    """Counts and marks a combatant carries, by their typed keys (absent: 0).

    Attributes:
        marks: Morale marks (MOR-17..23).
        counts: Plain counts (:class:`Tally`).
        keyed: Counts per item (:class:`Keyed`, item) — stims by tier, stowed weapons, rallies by round.
    """

    marks: frozenset[MoraleMark] = frozenset()
    counts: Mapping[Tally, int] = field(default_factory=dict)
    keyed: Mapping[tuple[Keyed, str], int] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.marks or self.counts or self.keyed)

    def count(self, counter: Tally) -> int:
        """A plain count (0 when never set)."""
        return self.counts.get(counter, 0)

    def of(self, family: Keyed, item: str | int) -> int:
        """A count kept per item (0 when never set)."""
        return self.keyed.get((family, str(item)), 0)

    def has(self, mark: MoraleMark) -> bool:
        """Whether it bears a morale mark."""
        return mark in self.marks

    def names(self) -> Iterator[tuple[str, int]]:
        """Every non-zero entry by its event-log name (for presenters and old readers)."""
        for mark in sorted(self.marks, key=lambda m: m.value):
            yield mark.value, 1
        for counter, n in self.counts.items():
            if n:
                yield counter.value, n
        for (family, item), n in self.keyed.items():
            if n:
                yield _SEPARATOR[family].join((family.value, item)), n


NO_SUPPLIES = Supplies()
"""Nothing carried (the records are never changed in place, so one empty record serves every combatant)."""


def entry_name(key: MoraleMark | Tally | tuple[Keyed, str | int]) -> str:
    """The name of a typed key in the event log (``"broken"``, ``"stim:2"``, ``"rally-attempt-r3"`` …)."""
    if isinstance(key, tuple):
        family, item = key
        return _SEPARATOR[family].join((family.value, str(item)))
    name: str = key.value
    return name


def use_name(key: MoraleMark | Tally | tuple[Keyed, str | int]) -> str:
    """The ``ResourceUsed`` resource name of a typed key (``"uses:<entry>"``), as the event log always spelled it."""
    return ":".join((USES, entry_name(key)))


_BY_NAME: dict[str, MoraleMark | Tally] = {m.value: m for m in MoraleMark} | {c.value: c for c in Tally}


def parse_name(name: str) -> MoraleMark | Tally | tuple[Keyed, str]:
    """A typed key from its event-log name (without the ``uses:`` pool); ValueError for an unknown one."""
    found = _BY_NAME.get(name)
    if found is not None:
        return found
    for family in Keyed:
        prefix = family.value + _SEPARATOR[family]
        if name.startswith(prefix) and len(name) > len(prefix):
            return family, name[len(prefix):]
    raise ValueError(f"unknown uses key {name!r}")


def with_use(supplies: Supplies, name: str, delta: int) -> Supplies:
    """The record after ``delta`` to the entry an event names (without the ``uses:`` pool)."""
    return with_key(supplies, parse_name(name), delta)


def with_key(supplies: Supplies, key: MoraleMark | Tally | tuple[Keyed, str], delta: int) -> Supplies:
    """The record after ``delta`` to one entry (a mark is set by a positive delta, cleared by any other)."""
    if isinstance(key, MoraleMark):
        return replace(supplies, marks=supplies.marks | {key} if delta > 0 else supplies.marks - {key})
    if isinstance(key, Tally):
        return replace(supplies, counts={**supplies.counts, key: supplies.count(key) + delta})
    return replace(supplies, keyed={**supplies.keyed, key: supplies.keyed.get(key, 0) + delta})


def supplies_of(entries: Mapping[str, int]) -> Supplies:
    """A record from event-log names and counts (stat blocks or tests that give a creature supplies up front)."""
    made = NO_SUPPLIES
    for name, n in entries.items():
        made = with_use(made, name, n)
    return made


__all__ = [
    "NO_SUPPLIES",
    "Keyed",
    "MoraleMark",
    "Supplies",
    "Tally",
    "entry_name",
    "parse_name",
    "supplies_of",
    "use_name",
    "with_key",
    "with_use",
]
