"""Morale's vocabulary, which the core stores on the state: statuses, the marks they leave, a group's record.

The engine core keeps a :class:`GroupMorale` per NPC group and :class:`MoraleMark` supplies on combatants
(a broken creature takes no reactions, MOR-22; one that fled or surrendered is out, MOR-20), and applies the
morale events that set them, without naming the morale family. The rules that decide statuses (checks,
triggers, rallies) stay in :mod:`ashfall.families.morale.rules`, which re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Status(Enum):
    """A group's or an NPC's morale state, from best to worst (MOR-17..26)."""

    HOLD = "hold"
    FALL_BACK = "fall-back"
    BROKEN = "broken"
    ROUTED = "routed"
    SURRENDERED = "surrendered"


class MoraleMark(Enum):
    """What morale leaves on an NPC (MOR-17..23): its status's marks, and whether it fled the battlefield (MOR-20)."""

    FALLING_BACK = "falling-back"
    BROKEN = "broken"
    ROUTED = "routed"
    SURRENDERED = "surrendered"
    FLED = "fled"


STATUS_MARKS: dict[Status, frozenset[MoraleMark]] = {
    Status.HOLD: frozenset(),
    Status.FALL_BACK: frozenset({MoraleMark.FALLING_BACK}),
    Status.BROKEN: frozenset({MoraleMark.BROKEN}),
    Status.ROUTED: frozenset({MoraleMark.BROKEN, MoraleMark.ROUTED}),
    Status.SURRENDERED: frozenset({MoraleMark.BROKEN, MoraleMark.SURRENDERED}),
}
"""The marks the engine keeps on a combatant per status (broken: no reactions, MOR-22; surrendered: out)."""
STATUS_MARKED = frozenset().union(*STATUS_MARKS.values())
"""Every mark a status leaves (a new status replaces them; fleeing, MOR-20, is not a status and stays)."""


@dataclass(frozen=True, slots=True)
class GroupMorale:
    """One NPC group's morale record for the encounter.

    Attributes:
        status: The group's status.
        rallies: Successful rallies so far (MOR-26).
        first_blood_done: First Blood has happened (MOR-7).
        casualties: Members reduced to 0 HP since the encounter began (MOR-9), in order.
        failed_dc: The DC of the group's last failed check, which a rally must meet (G-04).
    """

    status: Status = Status.HOLD
    rallies: int = 0
    first_blood_done: bool = False
    casualties: tuple[str, ...] = ()
    failed_dc: int | None = None

    @property
    def rallied(self) -> bool:
        """Whether the group has been rallied this encounter."""
        return self.rallies > 0


__all__ = ["STATUS_MARKED", "STATUS_MARKS", "GroupMorale", "MoraleMark", "Status"]
