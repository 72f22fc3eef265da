"""Breakdown records the events carry: labelled parts, advantage sources, d20 rolls, ledger lines."""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.core.d20 import D20Roll
from ashfall.core.modifiers import Modifier, RollSource


@dataclass(frozen=True, slots=True)
class Part:
    """One labelled number of a breakdown: ``label`` contributes ``value`` because of ``rule``."""

    label: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class Source:
    """One advantage (``True``) or disadvantage source of a d20 roll."""

    advantage: bool
    label: str
    rule: str


@dataclass(frozen=True, slots=True)
class RollRecord:
    """A d20 test as recorded in the log: faces, the kept natural, modifiers, sources and total."""

    faces: tuple[int, ...]
    natural: int
    advantage: str
    modifiers: tuple[Part, ...]
    sources: tuple[Source, ...]
    total: int

    @classmethod
    def of(cls, roll: D20Roll) -> RollRecord:
        """Record a :class:`~ashfall.core.d20.D20Roll`."""
        return cls(
            roll.faces,
            roll.natural,
            roll.advantage.value,
            parts(roll.modifiers.applied),
            tuple(Source(s.advantage, s.label, s.rule) for s in roll.sources),
            roll.total,
        )


def parts(mods: tuple[Modifier, ...]) -> tuple[Part, ...]:
    """Record modifiers as breakdown parts."""
    return tuple(Part(m.label, m.value, m.rule) for m in mods)


def sources(srcs: tuple[RollSource, ...]) -> tuple[Source, ...]:
    """Record advantage sources."""
    return tuple(Source(s.advantage, s.label, s.rule) for s in srcs)


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One row of a damage ledger as logged."""

    step: str
    damage_type: str
    before: int
    after: int
    rule: str
    label: str


@dataclass(frozen=True, slots=True)
class RolledPart:
    """One part of a damage roll as logged: its dice and faces (none for a flat part), doubled on a crit."""

    label: str
    damage_type: str
    dice: str
    faces: tuple[int, ...]
    flat: int
    doubled: bool
    total: int
    rule: str
