"""Mounted combat as pure rules: the rider's attack bonuses, falling off and the save when the mount drops (MNT).

While mounted (MNT-5, MNT-6): advantage on melee attacks against unmounted creatures smaller than the
mount, and +1 to melee attacks against unmounted targets (the two stack). A rider whose mount is
knocked prone falls off, takes 1d6 damage and lands prone (MNT-7); when the mount drops to 0 HP the
rider makes an AGI (Reflex, G-22) save, DC 15, or falls prone (MNT-9). Vehicles are not mounts: a
vehicle's crew and passengers get none of this.
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.core.dice import parse
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, adv
from ashfall.core.rule_ids import rule
from ashfall.core.types import DamageType, Size
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import DC, fixed_dc
from ashfall.ruleset import Ruleset

MNT_5, MNT_6, MNT_7, MNT_9 = rule("MNT-5"), rule("MNT-6"), rule("MNT-7"), rule("MNT-9")


@dataclass(frozen=True, slots=True)
class MountedAttack:
    """What riding changes on one attack roll (MNT-5, MNT-6)."""

    modifiers: tuple[Modifier, ...] = ()
    sources: tuple[RollSource, ...] = ()


def mounted_attack(mount_size: Size, target_size: Size, target_mounted: bool, melee: bool,
                   ruleset: Ruleset) -> MountedAttack:
    """A rider's melee attack against an unmounted target: +1 (MNT-6) and, if smaller than the mount, advantage (MNT-5).

    Args:
        mount_size: The size of the rider's mount.
        target_size: The target's size.
        target_mounted: The target rides a mount or vehicle itself (then neither applies).
        melee: Whether the attack is a melee attack (ranged attacks get neither).
        ruleset: The ``mounted`` options.
    """
    m = ruleset.mounted
    if not melee or target_mounted:
        return MountedAttack()
    mods = (Modifier(m.unmounted_melee_bonus, ModifierKind.CIRCUMSTANCE, MNT_6, "mounted vs unmounted"),) if (
        m.unmounted_melee_bonus) else ()
    smaller = target_size.rank < mount_size.rank
    sources = (adv(MNT_5, "mounted vs smaller unmounted"),) if smaller and m.smaller_unmounted_advantage else ()
    return MountedAttack(mods, sources)


def fall_damage(ruleset: Ruleset) -> tuple[DamagePart, ...]:
    """The damage of falling off a mount knocked prone (MNT-7): ``mounted.fall_damage`` (1d6)."""
    dice = parse(ruleset.mounted.fall_damage)
    kind = DamageType.parse(dice.tag) if dice.tag else DamageType.BLUDGEONING
    return (DamagePart(kind, MNT_7, "falls off the mount", dice=dice),)


def mount_down_dc(ruleset: Ruleset) -> DC:
    """The DC of the rider's save when its mount drops to 0 HP (MNT-9)."""
    return fixed_dc(ruleset.mounted.mount_down_dc, MNT_9, "mount dropped")


__all__ = ["MountedAttack", "fall_damage", "mount_down_dc", "mounted_attack"]
