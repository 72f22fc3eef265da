"""Vocabulary shared by every layer: damage types, attributes, saves, skills, sizes, conditions.

Enums are used by name everywhere (``DamageType.FIRE``), never by their string values in logic.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from ashfall.core.rule_ids import RuleId, rule


class DamageCategory(Enum):
    """The three damage families (TYPE-1..3)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    PHYSICAL = "physical"
    ENERGY = "energy"
    EXOTIC = "exotic"


class DamageType(Enum):
    """The chapter's damage types; ``thunder`` and ``lightning`` are aliases (G-27)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    BLUDGEONING = "bludgeoning"
    PIERCING = "piercing"
    SLASHING = "slashing"
    FIRE = "fire"
    COLD = "cold"
    ELECTRIC = "electric"
    ACID = "acid"
    SONIC = "sonic"
    FORCE = "force"
    PSYCHIC = "psychic"
    NECROTIC = "necrotic"
    RADIANT = "radiant"
    POISON = "poison"

    @property
    def category(self) -> DamageCategory:
        """Physical, energy or exotic (TYPE-1..3)."""
        return _CATEGORY[self]

    @property
    def rule(self) -> RuleId:
        """The catalog rule that lists this type."""
        return _TYPE_RULE[self.category]

    @classmethod
    def parse(cls, name: str) -> DamageType:
        """A type by name, accepting the aliases ``thunder`` (sonic) and ``lightning`` (electric) (G-27)."""
        key = name.strip().lower()
        return cls(_ALIASES.get(key, key))


_ALIASES = {"thunder": "sonic", "lightning": "electric", "electricity": "electric"}
_CATEGORY = {
    **{t: DamageCategory.PHYSICAL for t in (DamageType.BLUDGEONING, DamageType.PIERCING, DamageType.SLASHING)},
    **{t: DamageCategory.ENERGY for t in (DamageType.FIRE, DamageType.COLD, DamageType.ELECTRIC,
                                          DamageType.ACID, DamageType.SONIC)},
    **{t: DamageCategory.EXOTIC for t in (DamageType.FORCE, DamageType.PSYCHIC, DamageType.NECROTIC,
                                          DamageType.RADIANT, DamageType.POISON)},
}
_TYPE_RULE = {
    DamageCategory.PHYSICAL: rule("TYPE-1"),
    DamageCategory.ENERGY: rule("TYPE-2"),
    DamageCategory.EXOTIC: rule("TYPE-3"),
}
PHYSICAL_TYPES = frozenset(t for t in DamageType if t.category is DamageCategory.PHYSICAL)


class Attribute(Enum):
    """The six attribute modifiers."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    MIG = "MIG"
    AGI = "AGI"
    END = "END"
    INT = "INT"
    WIS = "WIS"
    PRE = "PRE"


class Save(Enum):
    """Saving throws. AGI save = Reflex; Fortitude is END-based and separate from a MIG save (G-22)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    FORTITUDE = "fortitude"
    REFLEX = "reflex"
    WILL = "will"
    MIG = "mig"

    @property
    def attribute(self) -> Attribute:
        """The attribute a save adds (G-22)."""
        return _SAVE_ATTR[self]


_SAVE_ATTR = {
    Save.FORTITUDE: Attribute.END,
    Save.REFLEX: Attribute.AGI,
    Save.WILL: Attribute.WIS,
    Save.MIG: Attribute.MIG,
}


class Skill(Enum):
    """Skills the combat chapter uses, each with its attribute."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    ATHLETICS = "athletics"
    ACROBATICS = "acrobatics"
    STEALTH = "stealth"
    PERCEPTION = "perception"
    MEDICINE = "medicine"
    DECEPTION = "deception"
    INSIGHT = "insight"
    INVESTIGATION = "investigation"
    PERSUASION = "persuasion"
    INTIMIDATION = "intimidation"
    SPELLCASTING = "spellcasting"

    @property
    def attribute(self) -> Attribute:
        """The attribute the skill adds."""
        return _SKILL_ATTR[self]


_SKILL_ATTR = {
    Skill.ATHLETICS: Attribute.MIG,
    Skill.ACROBATICS: Attribute.AGI,
    Skill.STEALTH: Attribute.AGI,
    Skill.PERCEPTION: Attribute.WIS,
    Skill.MEDICINE: Attribute.WIS,
    Skill.DECEPTION: Attribute.PRE,
    Skill.INSIGHT: Attribute.WIS,
    Skill.INVESTIGATION: Attribute.INT,
    Skill.PERSUASION: Attribute.PRE,
    Skill.INTIMIDATION: Attribute.PRE,
    Skill.SPELLCASTING: Attribute.INT,
}


class Size(Enum):
    """Creature sizes, ordered; ``steps_to`` compares them (DIS-5, TRP-1, OVR-3)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"

    @property
    def rank(self) -> int:
        """0 for tiny up to 5 for gargantuan."""
        return _SIZE_RANK[self.value]

    @property
    def squares(self) -> int:
        """Side of the space on a 5-ft grid (1 for tiny to medium)."""
        return _SIZE_SIDE[self]  # keyed by member: read for every creature's space, ``.value`` is slow

    def steps_to(self, other: Size) -> int:
        """How many sizes larger ``other`` is than this (negative if smaller)."""
        return other.rank - self.rank


_SIZES = list(Size)
_SIZE_RANK = {s.value: i for i, s in enumerate(_SIZES)}
_SIZE_SQUARES = {s.value: {"large": 2, "huge": 3, "gargantuan": 4}.get(s.value, 1) for s in _SIZES}
_SIZE_SIDE = {s: _SIZE_SQUARES[s.value] for s in _SIZES}


class Condition(Enum):
    """Every condition the chapter names, defined or not (C-*, G-11, G-13 to G-20)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    BLINDED = "blinded"
    CHARMED = "charmed"
    DEAFENED = "deafened"
    FRIGHTENED = "frightened"
    GRAPPLED = "grappled"
    INCAPACITATED = "incapacitated"
    INVISIBLE = "invisible"
    PARALYZED = "paralyzed"
    PETRIFIED = "petrified"
    POISONED = "poisoned"
    PRONE = "prone"
    RESTRAINED = "restrained"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    DAZED = "dazed"
    SHAKEN = "shaken"
    FLAT_FOOTED = "flat-footed"
    SUFFOCATING = "suffocating"
    DROWNING = "drowning"
    EXHAUSTED = "exhausted"
    BURIED = "buried"
    HIDDEN = "hidden"
    DODGING = "dodging"
    DYING = "dying"
    STABILIZED = "stabilized"
    DEAD = "dead"


class Diagonals(StrEnum):
    """How diagonal steps are measured (G-37): every one 5 ft, or alternating 5 and 10 ft.

    A string enum: the ruleset option was a plain string, so its members still equal those strings.
    """

    FIVE = "five"
    ALTERNATING = "alternating"
