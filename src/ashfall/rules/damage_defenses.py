"""What stands between damage and hit points: the :class:`Defenses` value and the questions the ledger asks it.

A creature's defenses are its resistances, vulnerabilities, immunities and Damage Reduction entries
(armor DR tagged ``from_armor`` so a Weak Point can ignore it, DR-7), plus what conditions add
(Petrified: resist all, immune to poison; RVI-4, C-PET). An object's defenses are its Hardness, the
``fragile`` and ``flammable`` tags and its built-in immunity to psychic and poison (OBJ-7, RVI-5).
The damage ledger (:mod:`ashfall.rules.damage`) applies them in the G-39 order.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ashfall.content import names
from ashfall.content.schema import Armor, Creature, DrEntry, Weapon, WeaponProperty
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import PHYSICAL_TYPES, Condition, DamageCategory, DamageType
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import DrStacking, HardnessBypass

R_DR = rule("DR-1")
R_DR_TYPED = rule("DR-2")
R_DR_STACK = rule("DR-4")
R_DR_SAME_SOURCE = rule("DR-5")
R_DR_WEAK_POINT = rule("DR-7")
R_DR_ARMOR_ONLY = rule("E-27")
R_PSI_DR = rule("PSI-10")
R_PSI_RESIST = rule("PSI-11")
R_IMMUNE = rule("RVI-3")
R_PETRIFIED = rule("RVI-4")
R_OBJECT_IMMUNE = rule("OBJ-7")
R_HARDNESS_ENERGY = rule("OBJ-5")
R_HARDNESS_RULING = rule("X-06")
R_HARDNESS_FLAMMABLE = rule("OBJ-10")
R_RESIST = rule("RVI-1")

OBJECT_IMMUNITIES = frozenset({DamageType.PSYCHIC, DamageType.POISON})
"""Objects are immune to psychic and poison damage (OBJ-7, RVI-5)."""

PETRIFIED_IMMUNITIES = frozenset({DamageType.POISON})
"""Petrified creatures are immune to poison (RVI-4, C-PET); disease is not a damage type."""

_HARDNESS_BYPASS: dict[HardnessBypass, frozenset[DamageType]] = {
    HardnessBypass.FIRE_ELECTRIC_FORCE: frozenset({DamageType.FIRE, DamageType.ELECTRIC, DamageType.FORCE}),
    HardnessBypass.ENERGY_AND_FORCE: frozenset(
        {t for t in DamageType if t.category is DamageCategory.ENERGY} | {DamageType.FORCE}
    ),
    HardnessBypass.FIRE_ON_FLAMMABLE_ONLY: frozenset(),
}
"""Damage types that ignore Hardness on every object, per the X-06 switch (fire on flammable objects: OBJ-10)."""

_HARDNESS_BYPASS_RULE: dict[HardnessBypass, RuleId] = {
    HardnessBypass.FIRE_ELECTRIC_FORCE: R_HARDNESS_ENERGY,
    HardnessBypass.ENERGY_AND_FORCE: R_HARDNESS_RULING,
    HardnessBypass.FIRE_ON_FLAMMABLE_ONLY: R_HARDNESS_RULING,
}


@dataclass(frozen=True, slots=True)
class DrTotal:
    """The Damage Reduction that applies to one damage type.

    Attributes:
        amount: Points removed (0 when nothing applies).
        sources: The sources that count, in entry order.
        rule: Why this much: DR-1 (one source), DR-2 (type-limited), DR-4 (different sources stack),
            DR-5 (a source counted once), E-27 (edition 1: highest only / armor only).
        ignored: Rules of entries that would have applied but did not (DR-7 Weak Point, PSI-10, E-27).
    """

    amount: int
    sources: tuple[str, ...]
    rule: RuleId
    ignored: tuple[RuleId, ...] = ()


@dataclass(frozen=True, slots=True)
class Defenses:
    """Everything that changes damage on its way to hit points, as one frozen value.

    Attributes:
        resistances: Types halved, rounded down (RVI-1). Several sources do not stack (G-43).
        vulnerabilities: Types doubled (RVI-2).
        immunities: Types reduced to 0 (RVI-3), including the ones conditions or being an object add.
        dr: Damage Reduction entries; armor DR has ``from_armor`` set (DR-7).
        resist_all: Resistance to every type (Petrified, RVI-4, C-PET).
        petrified: Whether resist-all and poison immunity come from Petrified (for citing RVI-4).
        is_object: An object: Hardness replaces DR and piercing is halved (OBJ-3, OBJ-8).
        hardness: Flat reduction of every hit on an object (OBJ-3, OBJ-4).
        fragile: A fragile object (glass) takes full piercing damage (OBJ-8).
        flammable: Fire ignores this object's Hardness (OBJ-10).
    """

    resistances: frozenset[DamageType] = frozenset()
    vulnerabilities: frozenset[DamageType] = frozenset()
    immunities: frozenset[DamageType] = frozenset()
    dr: tuple[DrEntry, ...] = ()
    resist_all: bool = False
    petrified: bool = False
    is_object: bool = False
    hardness: int = 0
    fragile: bool = False
    flammable: bool = False

    def __post_init__(self) -> None:
        if self.hardness < 0:
            raise ValueError("hardness < 0")

    @classmethod
    def of_creature(
        cls, creature: Creature, armor: Armor | None = None, conditions: Collection[Condition] = (),
        *, magical_weapon: bool = False,
    ) -> Defenses:
        """A creature's defenses from its stat block, its worn armor and its conditions.

        Args:
            creature: The stat block (resistances, vulnerabilities, immunities, DR entries).
            armor: Worn armor; its DR becomes an entry with ``from_armor=True`` and ``source`` = the armor id.
            conditions: Current conditions; Petrified adds resistance to all damage and poison immunity (RVI-4).
            magical_weapon: The damage comes from a magic weapon, which bypasses resistance to non-magical
                weapons (natural weapons are not magical, NAT-7).
        """
        dr = creature.dr
        if armor is not None and armor.dr > 0:
            entry = DrEntry(amount=armor.dr, physical_only=armor.dr_physical_only, source=armor.id, from_armor=True)
            dr = (*dr, entry)
        petrified = Condition.PETRIFIED in conditions
        immunities = creature.immunities | (PETRIFIED_IMMUNITIES if petrified else frozenset())
        resistances = creature.resistances if magical_weapon else creature.resistances | creature.nonmagical_resistances
        return cls(resistances, creature.vulnerabilities, immunities, dr, petrified, petrified)

    @classmethod
    def of_object(
        cls,
        hardness: int,
        fragile: bool = False,
        flammable: bool = False,
        resistances: Iterable[DamageType] = (),
        vulnerabilities: Iterable[DamageType] = (),
        immunities: Iterable[DamageType] = (),
    ) -> Defenses:
        """An object's defenses: Hardness and tags; objects are always immune to psychic and poison (OBJ-7).

        Args:
            hardness: Flat reduction of every hit (OBJ-3).
            fragile: Takes full piercing damage (OBJ-8).
            flammable: Fire ignores its Hardness (OBJ-10).
            resistances: Extra resistances the object's description gives.
            vulnerabilities: Extra vulnerabilities.
            immunities: Extra immunities (psychic and poison are always added).
        """
        return cls(
            resistances=frozenset(resistances),
            vulnerabilities=frozenset(vulnerabilities),
            immunities=frozenset(immunities) | OBJECT_IMMUNITIES,
            is_object=True,
            hardness=hardness,
            fragile=fragile,
            flammable=flammable,
        )

    # ----- questions the ledger asks -----

    def immunity_rule(self, damage_type: DamageType) -> RuleId | None:
        """The rule making this type deal no damage (RVI-3, PSI-11, RVI-4, OBJ-7), or None if not immune."""
        if damage_type not in self.immunities:
            return None
        if self.is_object and damage_type in OBJECT_IMMUNITIES:
            return R_OBJECT_IMMUNE
        if self.petrified and damage_type in PETRIFIED_IMMUNITIES:
            return R_PETRIFIED
        return R_PSI_RESIST if damage_type is DamageType.PSYCHIC else R_IMMUNE

    def resistance_rule(self, damage_type: DamageType) -> RuleId | None:
        """The rule halving this type (RVI-1, PSI-11, RVI-4 for Petrified), or None if not resistant."""
        if damage_type in self.resistances:
            return R_PSI_RESIST if damage_type is DamageType.PSYCHIC else R_RESIST
        return R_PETRIFIED if self.resist_all else None

    def is_vulnerable(self, damage_type: DamageType) -> bool:
        """Whether this type is doubled (RVI-2)."""
        return damage_type in self.vulnerabilities

    def hardness_bypass(self, damage_type: DamageType, ruleset: Ruleset) -> RuleId | None:
        """The rule by which this type ignores the object's Hardness (OBJ-5/X-06, OBJ-10), or None."""
        mode = ruleset.damage.hardness_bypass
        if damage_type in _HARDNESS_BYPASS[mode]:
            return _HARDNESS_BYPASS_RULE[mode]
        if self.flammable and damage_type is DamageType.FIRE:
            return R_HARDNESS_FLAMMABLE
        return None

    def dr_against(self, damage_type: DamageType, ruleset: Ruleset, *, ignore_armor_dr: bool = False) -> DrTotal:
        """The DR that applies to one damage type (DR-1..DR-7, PSI-10, E-27).

        Entries limited to types apply only to those types (DR-2); ``physical_only`` entries only to
        bludgeoning, piercing and slashing; physical DR never reduces psychic damage (PSI-10, DR-6)
        unless ``damage.psychic_ignores_physical_dr`` is off. Within one source only the highest entry
        counts (DR-5); different sources add up (DR-4), or only the highest counts when
        ``damage.dr_stacking`` is ``highest-only`` (edition 1, E-27). A Weak Point ignores armor DR (DR-7);
        with ``damage.dr_sources_any`` off (edition 1) only armor DR exists (E-27).

        Args:
            damage_type: The type of the damage packet.
            ruleset: Supplies the stacking and psychic switches.
            ignore_armor_dr: True for a Weak Point called shot (CS-5, DR-7).
        """
        options = ruleset.damage
        best: dict[str, int] = {}
        seen: dict[str, int] = {}
        ignored: list[RuleId] = []
        typed = False
        for entry in self.dr:
            applies, why_not = _entry_applies(entry, damage_type, options.psychic_ignores_physical_dr)
            if not applies:
                if why_not is not None:
                    ignored.append(why_not)
                continue
            if entry.from_armor and ignore_armor_dr:
                ignored.append(R_DR_WEAK_POINT)
                continue
            if not entry.from_armor and not options.dr_sources_any:
                ignored.append(R_DR_ARMOR_ONLY)
                continue
            typed = typed or bool(entry.types) or entry.physical_only
            best[entry.source] = max(best.get(entry.source, 0), entry.amount)
            seen[entry.source] = seen.get(entry.source, 0) + 1
        amount, sources = _combine(best, options.dr_stacking)
        why = _dr_rule(len(best), any(n > 1 for n in seen.values()), typed, options.dr_stacking)
        return DrTotal(amount, sources, why, tuple(dict.fromkeys(ignored)))


def _entry_applies(
    entry: DrEntry, damage_type: DamageType, psychic_ignores_physical: bool
) -> tuple[bool, RuleId | None]:
    """Whether a DR entry covers a type, and (when it does not because of PSI-10) the rule to explain it."""
    physical = entry.physical_only or (bool(entry.types) and entry.types <= PHYSICAL_TYPES)
    if damage_type is DamageType.PSYCHIC and physical:
        return (False, R_PSI_DR) if psychic_ignores_physical else (True, None)
    if entry.types:
        return damage_type in entry.types, None
    if entry.physical_only:
        return damage_type in PHYSICAL_TYPES, None
    return True, None


def _combine(best: dict[str, int], stacking: DrStacking) -> tuple[int, tuple[str, ...]]:
    """Total DR from the best entry of each source, per the stacking switch (DR-4, E-27)."""
    if not best:
        return 0, ()
    if stacking is DrStacking.HIGHEST_ONLY:
        top = max(best, key=lambda s: best[s])
        return best[top], (top,)
    return sum(best.values()), tuple(s for s, n in best.items() if n > 0)


def _dr_rule(n_sources: int, duplicates: bool, typed: bool, stacking: DrStacking) -> RuleId:
    if n_sources > 1:
        return R_DR_ARMOR_ONLY if stacking is DrStacking.HIGHEST_ONLY else R_DR_STACK
    if duplicates:
        return R_DR_SAME_SOURCE
    return R_DR_TYPED if typed else R_DR


__all__ = ["OBJECT_IMMUNITIES", "PETRIFIED_IMMUNITIES", "Defenses", "DrTotal"]


MAGICAL_NATURAL_WEAPONS = names.MAGICAL_NATURAL_WEAPONS
"""The talent (Mutant Apex, L6) that makes natural weapons count as magical (NAT-7)."""


def is_magical_weapon(weapon: Weapon | None, talents: Collection[str] = ()) -> bool:
    """Whether a weapon bypasses resistance to non-magical weapons (NAT-7).

    Natural weapons are not magical unless a feature says so; other weapons are magical when their
    stat block says so. Unarmed strikes (no weapon) are not magical.
    """
    if weapon is None:
        return False
    if weapon.has(WeaponProperty.NATURAL):
        return MAGICAL_NATURAL_WEAPONS in talents
    return weapon.magical
