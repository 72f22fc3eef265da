"""What an attack or effect deals, before it is rolled: labelled damage parts.

An attack builds a tuple of :class:`DamagePart` (weapon dice, MIG, Power Strike +4, Brace +1d6,
Head +2d6 ...); :mod:`ashfall.rules.damage` rolls them (doubling dice on a crit, G-40) and applies
them through the damage ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.core.dice import DiceExpr
from ashfall.core.rule_ids import RuleId
from ashfall.core.types import DamageType


@dataclass(frozen=True, slots=True)
class DamagePart:
    """One labelled component of damage.

    Attributes:
        type: The damage type of this part.
        rule: The rule that grants it (DMG-2 for weapon dice + MIG, MAA-5 for Power Strike ...).
        label: A short human name ("Greataxe", "MIG", "Power Strike", "Brace").
        dice: Dice to roll, or None for a flat part.
        flat: A flat amount (added once, never doubled on a crit: CRIT-2).
        weapon_dice: True for the weapon's own dice (matters when ``crit_dice`` is weapon-dice-only).
    """

    type: DamageType
    rule: RuleId
    label: str
    dice: DiceExpr | None = None
    flat: int = 0
    weapon_dice: bool = False
