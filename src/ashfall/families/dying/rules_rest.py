"""Resting: short rests, spending Hit Dice and long rests (REST-1 to REST-9, X-07, G-17, G-48).

A short rest is 8 hours of sleep, at most one starting in any 24 hours; it recovers half the level in
Hit Dice (minimum 1), every "per short rest" ability and one spell slot of 3rd level or lower. Hit
Dice are spent separately (:func:`spend_hit_dice`), each die healing its roll + END, never below
``healing.hit_die_min_per_die`` (0: our reading, so a negative END cannot make a die hurt). A long
rest is 7 days: all HP, Hit Dice and slots, and all Exhaustion (REST-9) — except that a creature at
Exhaustion 5-6 needs the extra week of complete rest before any comes off (our reading of "levels 5-6
require an additional week"), and Resurrection's levels come off only one per long rest (X-07). The
two pools are judged separately: "levels 5-6" looks at the REST-9 pool only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.core.dice import Roll, parse, roll
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.dying.rules_healing import HealResult, heal, require_alive_body
from ashfall.families.dying.rules_recovery import AbilityUse, Recovery, advance_time
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset

REST_1 = rule("REST-1")
REST_2 = rule("REST-2")
REST_3 = rule("REST-3")
REST_4 = rule("REST-4")
REST_5 = rule("REST-5")
REST_6 = rule("REST-6")
REST_7 = rule("REST-7")
REST_8 = rule("REST-8")
REST_9 = rule("REST-9")
HEAL_9 = rule("HEAL-9")
G_17 = rule("G-17")
G_48 = rule("G-48")
X_07 = rule("X-07")

HOURS_PER_DAY = 24
"""Hours in a day (for converting rest lengths into the hours timers count)."""


def _expended_levels(recovery: Recovery, top_level: int) -> list[int]:
    """Spell levels (1-based) up to ``top_level`` with at least one slot spent, highest first."""
    return [lvl for lvl in range(min(top_level, len(recovery.slots)), 0, -1)
            if recovery.slots[lvl - 1] < recovery.slots_max[lvl - 1]]


def _restore_slot(slots: tuple[int, ...], level: int) -> tuple[int, ...]:
    return tuple(n + 1 if i == level - 1 else n for i, n in enumerate(slots))


@dataclass(frozen=True, slots=True)
class ShortRestResult:
    """A short rest.

    Attributes:
        recovery: The state afterwards (timers aged by the rest's hours).
        before: The state before.
        hours: Length of the rest (REST-1).
        hit_dice_recovered: Hit Dice regained (REST-2, G-48).
        abilities_restored: Names of short-rest abilities that had uses spent (REST-4).
        slots_restored: Spell levels of the slots regained (REST-5).
        rules: Every rule applied.
    """

    recovery: Recovery
    before: Recovery
    hours: int
    hit_dice_recovered: int
    abilities_restored: tuple[str, ...]
    slots_restored: tuple[int, ...]
    rules: tuple[RuleId, ...]


def short_rest(recovery: Recovery, ruleset: Ruleset, *, slot_level: int | None = None) -> ShortRestResult:
    """Take a short rest.

    Args:
        recovery: The resting creature's resources.
        ruleset: Rest lengths and limits.
        slot_level: Which spell level's slot to regain; default the highest spent one allowed.

    Raises:
        RuleViolation: Another short rest began less than 24 hours ago (REST-6); ``slot_level`` is
            above 3rd or has no spent slot (REST-5).
    """
    opts = ruleset.healing
    since = recovery.hours_since_short_rest
    if since is not None and since < opts.short_rest_window_hours:
        raise RuleViolation(REST_6, f"the last short rest began {since} hours ago (at most 1 per 24 hours)")
    top = opts.short_rest_slot_max_level
    spent = _expended_levels(recovery, top)
    if slot_level is not None and slot_level > top:
        raise RuleViolation(REST_5, f"a short rest restores a slot of level {top} or lower, not {slot_level}")
    if slot_level is not None and slot_level not in spent:
        raise RuleViolation(REST_5, f"no spent level-{slot_level} slot to restore")
    slots, restored = recovery.slots, list[int]()
    for _ in range(opts.short_rest_slots):
        choices = _expended_levels(recovery.evolve(slots=slots), top)
        if not choices:
            break
        level = slot_level if slot_level in choices else choices[0]
        slots, restored = _restore_slot(slots, level), [*restored, level]
    gain = max(opts.short_rest_hit_dice_min, recovery.level // opts.short_rest_hit_dice_divisor)
    dice = min(recovery.hit_dice_max, recovery.hit_dice_remaining + gain)
    names = tuple(u.name for u in recovery.short_rest_uses if u.used)
    uses = tuple(AbilityUse(u.name, u.max_uses) for u in recovery.short_rest_uses)
    rested = recovery.evolve(hit_dice_remaining=dice, slots=slots, short_rest_uses=uses, medical_treatment_used=False)
    aged = advance_time(rested, opts.short_rest_hours).evolve(hours_since_short_rest=opts.short_rest_hours)
    rules = (REST_1, REST_6, REST_2, G_48, REST_4, *((REST_5,) if restored else ()), HEAL_9)
    return ShortRestResult(aged, recovery, opts.short_rest_hours, dice - recovery.hit_dice_remaining, names,
                           tuple(restored), rules)


# ----- spending Hit Dice (REST-3) -----


@dataclass(frozen=True, slots=True)
class HitDieRoll:
    """One spent Hit Die: its roll, the END modifier added, and the HP it gives (never below the minimum)."""

    roll: Roll
    end_mod: int
    hp: int


@dataclass(frozen=True, slots=True)
class HitDiceResult:
    """Hit Dice spent to heal."""

    health: Health
    recovery: Recovery
    dice: tuple[HitDieRoll, ...]
    heal: HealResult
    rules: tuple[RuleId, ...]


def spend_hit_dice(
    health: Health, recovery: Recovery, n: int, end_mod: int, rng: Rng, ruleset: Ruleset
) -> HitDiceResult:
    """Spend ``n`` Hit Dice: each heals its roll + END modifier (at least ``hit_die_min_per_die``).

    Raises:
        RuleViolation: Fewer than ``n`` Hit Dice remain (REST-3), or the creature is dead.
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError("spend at least one Hit Die")
    if n > recovery.hit_dice_remaining:
        raise RuleViolation(REST_3, f"only {recovery.hit_dice_remaining} Hit Dice left, cannot spend {n}")
    require_alive_body(health)
    expr, floor = parse(recovery.hit_die), ruleset.healing.hit_die_min_per_die
    dice = []
    for _ in range(n):
        rolled = roll(expr, rng)
        dice.append(HitDieRoll(rolled, end_mod, max(floor, rolled.total + end_mod)))
    healed = heal(health, sum(d.hp for d in dice), REST_3, "Hit Dice")
    after = recovery.evolve(hit_dice_remaining=recovery.hit_dice_remaining - n)
    return HitDiceResult(healed.health, after, tuple(dice), healed, healed.rules)


# ----- long rest (REST-7 to REST-9, X-07, G-17) -----


@dataclass(frozen=True, slots=True)
class LongRestResult:
    """A long rest.

    Attributes:
        health: Full HP, conscious (REST-8); temporary HP untouched (THP-3).
        recovery: All Hit Dice and slots, uses restored, Exhaustion reduced, timers aged.
        days: Length of the rest (7, or 14 with the extra week of complete rest).
        exhaustion_removed: General Exhaustion levels removed (REST-9).
        resurrection_exhaustion_removed: Resurrection levels removed (X-07).
        needs_extra_week: True when Exhaustion 5-6 stayed because the extra week was not taken.
        rules: Every rule applied.
    """

    health: Health
    recovery: Recovery
    days: int
    exhaustion_removed: int
    resurrection_exhaustion_removed: int
    needs_extra_week: bool
    rules: tuple[RuleId, ...]


def long_rest(health: Health, recovery: Recovery, ruleset: Ruleset, *, extra_week: bool = False) -> LongRestResult:
    """Take a long rest (7 days in a safe settlement; ``extra_week`` adds 7 days of complete rest).

    Per-short-rest abilities are restored too and Medical Treatment's rest period starts again (a
    long rest contains nights of sleep; the text is silent).

    Raises:
        RuleViolation: The creature is dead (DEATH-3).
    """
    require_alive_body(health)
    opts = ruleset.healing
    severe = recovery.exhaustion >= opts.severe_exhaustion_from  # the two pools are separate
    blocked = severe and not extra_week
    general = recovery.exhaustion if blocked else 0
    res = max(0, recovery.resurrection_exhaustion - opts.resurrection_exhaustion_per_long_rest)
    days = opts.long_rest_days + (opts.severe_exhaustion_extra_days if extra_week else 0)
    uses = tuple(AbilityUse(u.name, u.max_uses) for u in recovery.short_rest_uses)
    rested = recovery.evolve(
        hit_dice_remaining=recovery.hit_dice_max, slots=recovery.slots_max, short_rest_uses=uses,
        exhaustion=general, resurrection_exhaustion=res, medical_treatment_used=False,
    )
    after = health.evolve(hp=health.max_hp, vitality=Vitality.ALIVE, successes=0, failures=0)
    rules = (REST_7, REST_8, REST_9, G_17, *((X_07,) if recovery.resurrection_exhaustion else ()))
    return LongRestResult(after, advance_time(rested, days * HOURS_PER_DAY), days, recovery.exhaustion - general,
                          recovery.resurrection_exhaustion - res, blocked and recovery.exhaustion > 0, rules)
