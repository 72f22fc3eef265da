"""Timed effects that are not conditions, and their expiry at turn boundaries.

A feint's or Help's advantage, Aim, a Leg shot's speed loss, leaning out of cover: they expire like
conditions, and some are used up the first time they apply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ashfall.rules.condition_durations import Duration, TurnBoundary, advance


class EffectKind(Enum):
    """What a timed effect does; read by the attack pipeline, checks and movement."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    ADVANTAGE_NEXT_ATTACK = "advantage-next-attack"
    ADVANTAGE_NEXT_CHECK = "advantage-next-check"
    AIMED = "aimed"
    SPEED_CHANGE = "speed-change"
    NO_COVER = "no-cover"
    NO_REACTIONS_AGAINST = "no-reactions-against"
    NO_REACTIONS_PROVOKED = "no-reactions-provoked"
    CANNOT_MOVE = "cannot-move"
    SUPPRESSED = "suppressed"
    SUSTAINED_SPELL = "sustained-spell"
    CONCENTRATION = "concentration"
    EVASIVE = "evasive"


@dataclass(frozen=True, slots=True)
class TimedEffect:
    """An effect on ``bearer`` from ``source``.

    Attributes:
        key: A unique id within the encounter (for removal).
        kind: What it does.
        bearer: Who has it.
        rule: The rule that grants it.
        duration: When it ends.
        against: The only creature it concerns (a Feint's target), or None for any.
        amount: A number it uses (speed change in feet).
        used_up: Ends the first time it is used (the next attack, the next check).
        source: Who granted it.
        melee_only: Applies only to melee attacks (a Feint's advantage, FNT-3).
    """

    key: str
    kind: EffectKind
    bearer: str
    rule: str
    duration: Duration
    against: str | None = None
    amount: int = 0
    used_up: bool = True
    source: str | None = None
    melee_only: bool = False


def expire_effects(effects: tuple[TimedEffect, ...], boundary: TurnBoundary) -> tuple[
        tuple[TimedEffect, ...], tuple[TimedEffect, ...]]:
    """The effects kept (bookkeeping updated) and those that end at this boundary."""
    if not effects:
        return effects, ()
    kept: list[TimedEffect] = []
    gone: list[TimedEffect] = []
    changed = False
    for e in effects:
        d = advance(e.duration, boundary)
        if d is None:
            gone.append(e)
        elif d is e.duration:
            kept.append(e)
        else:
            kept.append(replace(e, duration=d))
            changed = True
    if not gone and not changed:
        return effects, ()  # the same tuple: the state's effects index (keyed by identity) stays valid
    return tuple(kept), tuple(gone)
