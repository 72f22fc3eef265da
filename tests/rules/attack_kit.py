"""Builders shared by the attack, defense, MAP and check tests (not a test module)."""

from __future__ import annotations

from typing import Any

from ashfall.content.schema import (
    Armor,
    ArmorCategory,
    Attributes,
    Creature,
    Shield,
    Weapon,
    WeaponKind,
    WeaponProperty,
)
from ashfall.core.types import DamageType

P = WeaponProperty


def creature(name: str = "c", *, proficiency: int = 2, **kw: Any) -> Creature:
    """A creature with attribute modifiers given as keywords (MIG=4, AGI=2 ...) and other fields."""
    attrs = {k: kw.pop(k) for k in ("MIG", "AGI", "END", "INT", "WIS", "PRE") if k in kw}
    return Creature(id=name, name=name, hp=kw.pop("hp", 20), proficiency=proficiency,
                    attributes=Attributes(**attrs), **kw)


WARRIOR = creature("warrior", MIG=4, AGI=2, weapon_proficiencies=frozenset({"simple", "martial"}))
SHOOTER = creature("shooter", MIG=1, AGI=3, weapon_proficiencies=frozenset({"simple", "martial"}))


def melee(name: str = "sword", damage: str = "1d10", *props: WeaponProperty, **kw: Any) -> Weapon:
    """A martial melee weapon."""
    kw.setdefault("category", "martial")
    return Weapon(id=name, name=name, kind=WeaponKind.MELEE, damage=damage,
                  damage_type=kw.pop("damage_type", DamageType.SLASHING), properties=frozenset(props), **kw)


def ranged(name: str = "rifle", damage: str = "1d10", *props: WeaponProperty, **kw: Any) -> Weapon:
    """A martial ranged weapon with 100 ft range."""
    kw.setdefault("category", "martial")
    return Weapon(id=name, name=name, kind=WeaponKind.RANGED, damage=damage,
                  damage_type=kw.pop("damage_type", DamageType.PIERCING), properties=frozenset(props),
                  range_normal=kw.pop("range_normal", 100), **kw)


SWORD = melee("salvaged-sword", "1d10")
GREATAXE = melee("greataxe", "1d12", P.HEAVY, P.TWO_HANDED)
KNIFE = melee("combat-knife", "1d4", P.LIGHT, damage_type=DamageType.PIERCING)
RIFLE = ranged("rifle", "1d10")
LMG = ranged("lmg", "1d12", P.HEAVY)
AP_RIFLE = ranged("ap-rifle", "1d10", P.ARMOR_PIERCING)
GRENADE = Weapon(id="grenade", name="grenade", kind=WeaponKind.RANGED, damage="3d6", damage_type=DamageType.FIRE,
                 properties=frozenset({P.EXPLOSIVE, P.THROWN}), range_normal=30)
JAVELIN = melee("javelin", "1d6", P.THROWN, damage_type=DamageType.PIERCING, category="simple", range_normal=30)
CHAIR = melee("chair", "1d4", P.IMPROVISED, damage_type=DamageType.BLUDGEONING, category="simple")
CLAWS = melee("claws", "1d6", P.NATURAL, category="simple",
              alt_damage_types=(DamageType.PIERCING, DamageType.BLUDGEONING))


def armor(category: ArmorCategory, bonus: int) -> Armor:
    """Armor of a category with a DV bonus."""
    return Armor(id=f"{category.value}-{bonus}", name=f"{category.value} armor", category=category, bonus=bonus)


LIGHT_2 = armor(ArmorCategory.LIGHT, 2)
MEDIUM_4 = armor(ArmorCategory.MEDIUM, 4)
HEAVY_7 = armor(ArmorCategory.HEAVY, 7)
SHIELD_2 = Shield(id="shield", name="shield", bonus=2)
