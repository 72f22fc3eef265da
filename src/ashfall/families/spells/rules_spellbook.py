"""Spells as data: a small frozen :class:`Spell` schema and the built-in registry (ACT-8, HEAL-1..3).

A spell costs 1 to 3 actions (ACT-8) and resolves by a spell attack roll against DV (ATK-3), a save
against the caster's DC (8 + spell attribute + proficiency), healing (dice + the caster's WIS), or a
condition. It may cover an area (radius, cone, line), be *sustained* (1 action each turn to keep it,
ACT-9) or need *concentration* (free in edition 2, ACT-10; an action each turn in edition 1, E-09).
The full spell list is in the Magic chapter (reference only); the registry holds the healing spells
of families/dying/rules_healing.py and three generic examples. Creatures know the spells whose ids are among their
talents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType, Save
from ashfall.families.dying.rules_healing import HEALING_SPELLS, HealingSpell

ACT_8 = rule("ACT-8")
MIN_ACTIONS = 1
"""Fewest actions a spell costs (ACT-8: "1-3 actions")."""
MAX_ACTIONS = 3
"""Most actions a spell costs (ACT-8); also the whole turn (AE-1)."""
TOUCH_FT = 5
"""Range of a touch spell: an adjacent creature."""


class AreaShape(Enum):
    """The shape of an area spell."""

    RADIUS = "radius"
    CONE = "cone"
    LINE = "line"


@dataclass(frozen=True, slots=True)
class Area:
    """An area: a radius around a point in range (or around the caster at range 0), or a cone/line from the caster."""

    shape: AreaShape
    size_ft: int


class Resolution(Enum):
    """How a spell decides what happens to each creature it affects."""

    ATTACK = "attack"
    SAVE = "save"
    HEAL = "heal"
    AUTOMATIC = "automatic"


class ConditionSpan(Enum):
    """How long a spell's condition lasts."""

    TARGETS_NEXT_TURN = "until-end-of-targets-next-turn"
    WHILE_SPELL_LASTS = "while-the-spell-lasts"


@dataclass(frozen=True, slots=True)
class Spell:
    """One spell.

    Attributes:
        id: Registry key; a creature knows the spell when the id is among its talents.
        name: Display name.
        level: Spell level (0 for a cantrip); Counterspell's DC is 10 + level (RX-17).
        actions: Actions to cast, 1-3 (ACT-8).
        rule: The catalog rule of the spell (ACT-8 for spells without their own entry).
        attack: Resolved by a spell attack roll against DV (ATK-3; counts for MAP, MAP-3).
        save: The save targets make against the caster's DC (no MAP, MAP-4), or None.
        half_on_save: A successful save halves the damage instead of negating it.
        damage: Damage dice, or None.
        damage_type: The damage's type (needed with ``damage``).
        healing: Healing dice (the caster's WIS is added, HEAL-1..3), or None.
        condition: A condition imposed on a hit or a failed save, or None.
        condition_span: How long the condition lasts.
        range_ft: Range in feet: 0 for self (a radius around the caster), 5 for touch.
        area: The area, or None for a targeted spell.
        targets: How many creatures a targeted spell can target.
        allies_only: An area spell that affects only the caster's allies (Mass Healing, HEAL-3).
        sustained: Needs the Sustain action each turn to keep going (ACT-9).
        concentration: Needs concentration (ACT-10, G-19).
        verbal: Has a verbal component: a creature that cannot speak cannot cast it (UW-28). Components are
            in the Magic chapter (reference only), so a spell has none unless it says so.
    """

    id: str
    name: str
    level: int
    actions: int
    rule: RuleId = ACT_8
    attack: bool = False
    save: Save | None = None
    half_on_save: bool = False
    damage: str | None = None
    damage_type: DamageType | None = None
    healing: str | None = None
    condition: Condition | None = None
    condition_span: ConditionSpan = ConditionSpan.TARGETS_NEXT_TURN
    range_ft: int = 0
    area: Area | None = None
    targets: int = 1
    allies_only: bool = False
    sustained: bool = False
    concentration: bool = False
    verbal: bool = False

    def __post_init__(self) -> None:
        if not MIN_ACTIONS <= self.actions <= MAX_ACTIONS:
            raise ValueError(f"{self.name}: a spell costs {MIN_ACTIONS}-{MAX_ACTIONS} actions (ACT-8)")
        if self.attack and self.save is not None:
            raise ValueError(f"{self.name}: an attack roll or a save, not both")
        if (self.damage is None) != (self.damage_type is None):
            raise ValueError(f"{self.name}: damage needs both dice and a type")
        if self.half_on_save and (self.save is None or self.damage is None):
            raise ValueError(f"{self.name}: half on a save needs a save and damage")
        if self.sustained and self.concentration:
            raise ValueError(f"{self.name}: sustained or concentration, not both")
        if self.condition_span is ConditionSpan.WHILE_SPELL_LASTS and not (self.sustained or self.concentration):
            raise ValueError(f"{self.name}: a condition 'while the spell lasts' needs a kept spell")
        if self.attack and self.area is not None:
            raise ValueError(f"{self.name}: an area spell uses saves, not attack rolls")

    @property
    def resolution(self) -> Resolution:
        """How it resolves."""
        if self.attack:
            return Resolution.ATTACK
        if self.save is not None:
            return Resolution.SAVE
        if self.healing is not None:
            return Resolution.HEAL
        return Resolution.AUTOMATIC

    @property
    def harmful(self) -> bool:
        """It harms its targets (they must be creatures the caster may harm, C-CHA)."""
        return self.healing is None

    @property
    def kept(self) -> bool:
        """It lasts while sustained or concentrated on (G-19)."""
        return self.sustained or self.concentration


def from_healing(h: HealingSpell) -> Spell:
    """A healing spell of families/dying/rules_healing.py as a castable spell (HEAL-1..3)."""
    area = Area(AreaShape.RADIUS, h.radius_ft) if h.radius_ft else None
    return Spell(h.id, h.name, h.level, h.actions, h.rule, healing=h.dice, range_ft=TOUCH_FT if h.touch else 0,
                 area=area, allies_only=area is not None)


EXAMPLES = (
    Spell("arc-bolt", "Arc Bolt", 0, 1, attack=True, damage="1d10", damage_type=DamageType.ELECTRIC, range_ft=60),
    Spell("flame-burst", "Flame Burst", 2, 2, save=Save.REFLEX, half_on_save=True, damage="3d6",
          damage_type=DamageType.FIRE, range_ft=60, area=Area(AreaShape.RADIUS, 10)),
    Spell("binding-hex", "Binding Hex", 2, 2, save=Save.WILL, condition=Condition.RESTRAINED,
          condition_span=ConditionSpan.WHILE_SPELL_LASTS, range_ft=60, sustained=True),
)
"""Generic examples: an attack cantrip, a save-for-half area spell and a sustained condition spell."""

_SPELLS: dict[str, Spell] = {s.id: s for s in (*map(from_healing, HEALING_SPELLS.values()), *EXAMPLES)}
SPELLS: Mapping[str, Spell] = MappingProxyType(_SPELLS)
"""Every spell the engine knows, by id."""


def register_spell(spell: Spell) -> None:
    """Add a spell (from content or a test) to the registry."""
    if spell.id in _SPELLS:
        raise ValueError(f"spell {spell.id!r} registered twice")
    _SPELLS[spell.id] = spell


def unregister_spell(spell_id: str) -> None:
    """Remove a spell added with :func:`register_spell` (tests)."""
    _SPELLS.pop(spell_id, None)
