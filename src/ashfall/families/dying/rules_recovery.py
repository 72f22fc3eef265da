"""A creature's recovery resources as one frozen value: Hit Dice, spell slots, per-rest uses, Exhaustion, timers.

Rest, healing and resurrection read a :class:`Recovery` and return a new one; nothing here is mutated.
Time is game time passed in as whole hours (:func:`advance_time`), never the wall clock. Timers count
hours *since* something happened (or hours *left* of a lockout), so ageing them is a pure function.

Invariants: ``0 <= hit_dice_remaining <= level`` (a creature has one Hit Die per level, the reading
REST-2 and REST-8 assume), ``0 <= slots[i] <= slots_max[i]``, Exhaustion counts are never negative.
Exhaustion is two counters (X-07): ``exhaustion`` follows REST-9 (all removed by a long rest) and
``resurrection_exhaustion`` (RES-1) comes off one level per long rest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ashfall.core.dice import parse


@dataclass(frozen=True, slots=True)
class AbilityUse:
    """A limited-use ability that a short rest restores (REST-4), such as Second Wind (HEAL-5).

    Attributes:
        name: A stable key ("second-wind").
        max_uses: Uses between short rests.
        used: Uses spent since the last rest.
    """

    name: str
    max_uses: int
    used: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.used <= self.max_uses:
            raise ValueError(f"{self.name}: used {self.used} outside 0..{self.max_uses}")

    @property
    def remaining(self) -> int:
        """Uses left."""
        return self.max_uses - self.used


@dataclass(frozen=True, slots=True)
class Recovery:
    """Recovery resources and timers of one creature.

    Attributes:
        level: Character level (Second Wind, Hit Dice).
        hit_die: The Hit Die per level, e.g. ``"1d10"`` (REST-3; the size is from the class chapter).
        hit_dice_remaining: Unspent Hit Dice.
        slots_max: Spell slots per spell level; index 0 is 1st level.
        slots: Current spell slots, same shape as ``slots_max``.
        short_rest_uses: Abilities restored by a short rest (REST-4).
        exhaustion: Exhaustion levels that follow REST-9 (G-17).
        resurrection_exhaustion: Exhaustion from Resurrection, removed one per long rest (RES-1, X-07).
        hours_since_short_rest: Hours since the last short rest began; None if none is on record (REST-6).
        stims_hours_ago: Hours since each recent stim (E-29, G-31).
        efm_lockout_hours: Hours left before Emergency Field Medicine can help again (E-12).
        field_surgery_hours_ago: Hours since the last Field Surgery benefit; None if none (HEAL-6).
        medical_treatment_used: Medical Treatment already helped this rest period (HEAL-9).
    """

    level: int
    hit_die: str = "1d8"
    hit_dice_remaining: int = 0
    slots_max: tuple[int, ...] = ()
    slots: tuple[int, ...] = ()
    short_rest_uses: tuple[AbilityUse, ...] = ()
    exhaustion: int = 0
    resurrection_exhaustion: int = 0
    hours_since_short_rest: int | None = None
    stims_hours_ago: tuple[int, ...] = ()
    efm_lockout_hours: int = 0
    field_surgery_hours_ago: int | None = None
    medical_treatment_used: bool = False

    def __post_init__(self) -> None:
        if self.level < 1:
            raise ValueError("level < 1")
        parse(self.hit_die)
        if not 0 <= self.hit_dice_remaining <= self.level:
            raise ValueError(f"hit_dice_remaining {self.hit_dice_remaining} outside 0..{self.level}")
        if len(self.slots) != len(self.slots_max):
            raise ValueError("slots and slots_max differ in length")
        if any(not 0 <= cur <= top for cur, top in zip(self.slots, self.slots_max, strict=True)):
            raise ValueError("a spell slot count is outside 0..max")
        if self.exhaustion < 0 or self.resurrection_exhaustion < 0:
            raise ValueError("negative exhaustion")
        if len({u.name for u in self.short_rest_uses}) != len(self.short_rest_uses):
            raise ValueError("duplicate short-rest ability names")

    @classmethod
    def fresh(
        cls,
        level: int,
        hit_die: str = "1d8",
        slots_max: tuple[int, ...] = (),
        short_rest_uses: tuple[AbilityUse, ...] = (),
    ) -> Recovery:
        """A rested creature: every Hit Die, every slot and every use available."""
        return cls(level, hit_die, level, slots_max, slots_max, short_rest_uses)

    @property
    def hit_dice_max(self) -> int:
        """One Hit Die per level."""
        return self.level

    @property
    def total_exhaustion(self) -> int:
        """Both Exhaustion counters together (uncapped; the cap is ``conditions.exhaustion_max``)."""
        return self.exhaustion + self.resurrection_exhaustion

    def use(self, name: str) -> AbilityUse | None:
        """The short-rest ability called ``name``, if tracked."""
        return next((u for u in self.short_rest_uses if u.name == name), None)

    def with_use(self, updated: AbilityUse) -> Recovery:
        """A copy with ``updated`` replacing (or adding) the ability of the same name."""
        others = tuple(u for u in self.short_rest_uses if u.name != updated.name)
        return replace(self, short_rest_uses=(*others, updated))

    def evolve(self, **changes: object) -> Recovery:
        """A copy with fields changed (validated)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def advance_time(recovery: Recovery, hours: int) -> Recovery:
    """Age every timer by ``hours`` of game time.

    Args:
        recovery: The state to age.
        hours: Whole hours that pass (0 or more).

    Returns:
        The aged state; lockouts never go below 0.
    """
    if hours < 0:
        raise ValueError("time does not run backwards")
    if hours == 0:
        return recovery
    return replace(
        recovery,
        hours_since_short_rest=None if recovery.hours_since_short_rest is None
        else recovery.hours_since_short_rest + hours,
        stims_hours_ago=tuple(h + hours for h in recovery.stims_hours_ago),
        efm_lockout_hours=max(0, recovery.efm_lockout_hours - hours),
        field_surgery_hours_ago=None if recovery.field_surgery_hours_ago is None
        else recovery.field_surgery_hours_ago + hours,
    )
