"""A player character quick-added at the table: the stat block whose numbers are the ones the player reads out.

A GM who adds a PC mid-fight (or assembles a fight) knows its HP, DV, attack bonus, damage and initiative bonus,
not its attributes. :func:`quick_pc` builds a stat block that the ordinary rules turn into exactly those numbers:

* DV = the ruleset's base DV + AGI, no armor (DV-1), so AGI is ``dv - base``;
* initiative = 1d20 + AGI + proficiency + equipment (INIT-1), so the equipment bonus makes up the rest (under the
  first edition's E-21 a quick-added PC counts as combat-trained);
* its one weapon is a natural melee weapon (always proficient, NAT-1) rolling the damage dice plus the flat part
  (DMG-1); its attack bonus = MIG 0 + proficiency + the weapon's bonus (ATK-1).

Its other attributes are 0, so its saves and checks add only what proficiency the rules give (none). Pure: no
engine, no files.
"""

from __future__ import annotations

import re

from ashfall.content.schema import Creature, Weapon, WeaponKind, WeaponProperty
from ashfall.core.types import DamageType
from ashfall.ruleset import Ruleset

PC_PROFICIENCY = 2
"""The proficiency bonus of a quick-added PC (the attack bonus and initiative are given whole, so it only matters for
saves it is proficient in: none)."""

_DAMAGE = re.compile(r"^\s*(\d{1,2})d(\d{1,3})\s*(?:([+-])\s*(\d{1,2}))?\s*$")


class QuickPcError(ValueError):
    """Numbers a quick-added PC cannot have (the message names the field)."""


def split_damage(text: str) -> tuple[str, int]:
    """``"1d8+3"`` as its dice (``"1d8"``) and flat part (3).

    Raises:
        QuickPcError: Not ``NdS``, ``NdS+K`` or ``NdS-K``.
    """
    found = _DAMAGE.match(text)
    if found is None:
        raise QuickPcError(f"damage: {text!r} is not dice such as 1d8+3")
    count, sides, sign, flat = found.groups()
    if not (1 <= int(count) <= 20 and 2 <= int(sides) <= 100):
        raise QuickPcError(f"damage: {text!r}: 1..20 dice of 2..100 sides")
    return f"{int(count)}d{int(sides)}", (-1 if sign == "-" else 1) * int(flat or 0)


def quick_pc(slug: str, name: str, *, hp: int, dv: int, attack_bonus: int, damage: str, initiative_bonus: int,
             ruleset: Ruleset, damage_type: DamageType = DamageType.SLASHING) -> Creature:
    """The stat block of a PC given by its table numbers (see the module docstring for how each is reached).

    Raises:
        QuickPcError: A number the rules cannot reach (DV below the base - 10 or above base + 20, an attack bonus
            outside -8..22, bad damage dice).
    """
    agi = dv - ruleset.defense.dv_base
    if not -10 <= agi <= 20:
        raise QuickPcError(f"dv: {dv} is outside {ruleset.defense.dv_base - 10}..{ruleset.defense.dv_base + 20}")
    bonus = attack_bonus - PC_PROFICIENCY
    if not -10 <= bonus <= 20:
        raise QuickPcError(f"attack_bonus: {attack_bonus} is outside {PC_PROFICIENCY - 10}..{PC_PROFICIENCY + 20}")
    dice, flat = split_damage(damage)
    weapon = Weapon(id="attack", name="Attack", kind=WeaponKind.MELEE, damage=dice, damage_type=damage_type,
                    properties=frozenset({WeaponProperty.NATURAL}), bonus=bonus, damage_bonus=flat)
    return Creature.model_validate({
        "id": slug, "name": name, "kind": "pc", "level": 1, "proficiency": PC_PROFICIENCY,
        "attributes": {"AGI": agi}, "hp": hp, "natural_weapons": (weapon,),
        "initiative_bonus": initiative_bonus - agi - PC_PROFICIENCY, "combat_trained": True,
    })


__all__ = ["PC_PROFICIENCY", "QuickPcError", "quick_pc", "split_damage"]
