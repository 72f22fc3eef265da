"""Called shots (optional rule, CS-0..6) and the riders a hit carries as data.

A called shot is declared before rolling (CS-0) and gives an attack penalty; a hit gains extra damage
(Head), riders the target may negate with a save whose DC is the damage dealt (CS-1, G-53), a DV without
the armor bonus and no armor DR (Weak Point, CS-5, G-54), or an automatic crit (Vitals, CS-6).
Edition 1 has no Vitals and no Daze (E-39).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Save
from ashfall.rules.dc import DC, fixed_dc
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import AttackSection

CS_0 = rule("CS-0")
CS_1 = rule("CS-1")
CS_2 = rule("CS-2")
CS_3 = rule("CS-3")
CS_4 = rule("CS-4")
CS_5 = rule("CS-5")
CS_6 = rule("CS-6")
E_39 = rule("E-39")
G_53 = rule("G-53")
DR_7 = rule("DR-7")


class CalledShot(Enum):
    """The called-shot targets (CS-2..6)."""

    HEAD = "head"
    ARM = "arm"
    LEG = "leg"
    WEAK_POINT = "weak-point"
    VITALS = "vitals"


class RiderEffect(Enum):
    """What a rider does to the target."""

    DAZED = "dazed"
    DROP_ITEM = "drop-item"
    SPEED_CHANGE = "speed-change"
    IGNORE_ARMOR_DR = "ignore-armor-dr"


class RiderDuration(Enum):
    """How long a rider lasts."""

    INSTANT = "instant"
    UNTIL_END_OF_TARGETS_NEXT_TURN = "until-end-of-targets-next-turn"
    THIS_ATTACK = "this-attack"


@dataclass(frozen=True, slots=True)
class Rider:
    """A non-damage effect of a hit, as data for the engine to apply.

    Attributes:
        effect: What happens.
        rule: The rule that grants it.
        save: The save that negates it, or None when no save is allowed (Leg, CS-4).
        dc_is_damage_dealt: The save DC equals the damage the hit dealt (CS-1, G-53).
        duration: How long it lasts.
        condition: The condition it imposes, if any (Dazed).
        amount: A number the effect uses (speed change in feet).
        attacker_chooses: The attacker picks (the item dropped, CS-3).
    """

    effect: RiderEffect
    rule: RuleId
    save: Save | None
    dc_is_damage_dealt: bool
    duration: RiderDuration
    condition: Condition | None = None
    amount: int = 0
    attacker_chooses: bool = False


def rider_dc(rider: Rider, damage_dealt: int) -> DC:
    """The DC of the save against ``rider``: the damage the hit dealt (CS-1, G-53).

    Raises:
        RuleViolation: The rider allows no save, or its DC is not the damage dealt.
    """
    if rider.save is None or not rider.dc_is_damage_dealt:
        raise RuleViolation(rider.rule, "this effect allows no save against the damage dealt")
    return fixed_dc(damage_dealt, CS_1, "damage dealt")


@dataclass(frozen=True, slots=True)
class CalledShotSpec:
    """One called shot's rules.

    Attributes:
        rule: Its catalog rule.
        penalty: The attack penalty, read from the ruleset.
        extra_dice: Extra damage dice on a hit (Head +2d6), or None.
        riders: The riders a hit carries under a ruleset.
        weak_point: Resolve against DV without the armor bonus and ignore armor DR (CS-5).
        auto_crit: A hit becomes a critical hit (CS-6).
        unavailable: The rule that removes this called shot from a ruleset, or None.
    """

    rule: RuleId
    penalty: Callable[[AttackSection], int]
    extra_dice: Callable[[AttackSection], str | None] = lambda _: None
    riders: Callable[[AttackSection], tuple[Rider, ...]] = lambda _: ()
    weak_point: bool = False
    auto_crit: bool = False
    unavailable: Callable[[AttackSection], RuleId | None] = lambda _: None


def _head_riders(a: AttackSection) -> tuple[Rider, ...]:
    if not a.called_head_dazes:
        return ()
    return (Rider(RiderEffect.DAZED, CS_2, Save.FORTITUDE, True, RiderDuration.UNTIL_END_OF_TARGETS_NEXT_TURN,
                  Condition.DAZED),)


def _arm_riders(a: AttackSection) -> tuple[Rider, ...]:
    # G-53: the drop is negated by a MIG save (1127) at the damage-dealt DC; ``attack.called_arm_save``
    return (Rider(RiderEffect.DROP_ITEM, CS_3, a.called_arm_save, True, RiderDuration.INSTANT, attacker_chooses=True),)


def _leg_riders(a: AttackSection) -> tuple[Rider, ...]:
    return (Rider(RiderEffect.SPEED_CHANGE, CS_4, None, False, RiderDuration.UNTIL_END_OF_TARGETS_NEXT_TURN,
                  amount=a.called_leg_speed),)


def _weak_point_riders(_: AttackSection) -> tuple[Rider, ...]:
    return (Rider(RiderEffect.IGNORE_ARMOR_DR, DR_7, None, False, RiderDuration.THIS_ATTACK),)


CALLED_SHOTS: Mapping[CalledShot, CalledShotSpec] = MappingProxyType({
    CalledShot.HEAD: CalledShotSpec(CS_2, lambda a: a.called_head, lambda a: a.called_head_dice, _head_riders),
    CalledShot.ARM: CalledShotSpec(CS_3, lambda a: a.called_arm, riders=_arm_riders),
    CalledShot.LEG: CalledShotSpec(CS_4, lambda a: a.called_leg, riders=_leg_riders),
    CalledShot.WEAK_POINT: CalledShotSpec(
        CS_5, lambda a: a.called_weak_point, riders=_weak_point_riders, weak_point=True
    ),
    CalledShot.VITALS: CalledShotSpec(
        CS_6, lambda a: a.called_vitals, auto_crit=True,
        unavailable=lambda a: None if a.called_vitals_available else E_39,
    ),
})
"""Every called shot's rules."""


def called_shot_spec(shot: CalledShot, ruleset: Ruleset) -> CalledShotSpec:
    """The rules of ``shot``, checking the optional rule is in use (CS-0) and the shot exists (E-39).

    Raises:
        RuleViolation: Called shots are off, or this one does not exist in the ruleset.
    """
    if not ruleset.attack.called_shots:
        raise RuleViolation(CS_0, "the optional called-shot rule is not in use")
    spec = CALLED_SHOTS[shot]
    missing = spec.unavailable(ruleset.attack)
    if missing is not None:
        raise RuleViolation(missing, f"there is no {shot.value} called shot in this edition")
    return spec


def called_shot_modifier(shot: CalledShot, ruleset: Ruleset) -> Modifier:
    """The attack penalty of ``shot`` (CS-2..6)."""
    spec = called_shot_spec(shot, ruleset)
    return Modifier(spec.penalty(ruleset.attack), ModifierKind.CALLED_SHOT, spec.rule, f"called shot: {shot.value}")
