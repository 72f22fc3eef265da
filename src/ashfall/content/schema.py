"""Schemas for content files: creatures, weapons, armor and shields (pydantic, frozen, strict keys).

These are static descriptions. Current HP, conditions and resources of a creature in a fight live
in the engine's state, not here. Derived numbers (save and skill modifiers) are methods, so every
caller computes them the same way.
"""

import re
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ashfall.core.dice import BinOp, Dice, DiceError, Neg, Node, parse
from ashfall.core.types import Attribute, DamageType, Save, Size, Skill
from ashfall.ruleset.ranges import spelled

Slug = str


def whole_number(value: Any) -> Any:
    """A whole number as written: ``true``, ``2.0`` or ``"3"`` is not one (YAML booleans are not numbers).

    The field's own range is checked afterwards.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError("whole_number", "expected a whole number, not {value}", {"value": spelled(value)})
    return value


def optional_whole_number(value: Any) -> Any:
    """A whole number (see :func:`whole_number`) or ``None``."""
    return value if value is None else whole_number(value)


Whole = Annotated[int, BeforeValidator(whole_number)]
"""A strict whole number (give its range with ``Field(ge=..., le=...)``)."""

OptWhole = Annotated[int | None, BeforeValidator(optional_whole_number)]
"""A strict whole number or nothing."""

WEAPON_MAX_ROLL = 1000
"""A weapon's dice term may roll at most this much (count x faces): its crit (doubled dice) keeps exact odds."""

WEAPON_MAX_DAMAGE = 10_000
"""The most (or least) damage a weapon's expression can come to: the AI turns its odds into floats."""

WEAPON_KEEP = frozenset({"h", "l"})
"""Keep/drop selectors weapon damage may use: highest or lowest (exact odds support these)."""


class Model(BaseModel):
    """Base for content models: frozen, unknown keys are errors."""

    # defer_build: each model builds its validator on first use, so a nested model (a creature's senses, a
    # map's legend entry) validated only inside its parent never builds one of its own, and defaults written as
    # ``X.model_construct()`` (the field defaults, unvalidated; tests check they equal ``X()``) build none at import
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    @field_serializer("*", mode="wrap", when_used="json", return_type=Any)  # given: not read off each field
    def _sets_sorted(self, value: Any, handler: SerializerFunctionWrapHandler) -> Any:
        """Sets (a weapon's properties, a creature's proficiencies …) as sorted lists in JSON.

        A set's order follows string hashing, which differs from process to process: unsorted, an event that
        carries a stat block (a creature the GM adds) would not be the same text in a replay or an export.
        """
        out = handler(value)
        return sorted(out, key=str) if isinstance(value, frozenset) else out


def _check_dice(value: str) -> str:
    try:
        parsed = parse(value)
    except DiceError as err:
        raise ValueError(str(err)) from None
    if parsed.tag:
        raise ValueError(f"{value!r}: give the damage type in its own field, not after the dice")
    return value


def _check_weapon_dice(value: str) -> str:
    """Damage dice the exact odds (and so the AI) can weigh, crits included: see docs/content.md."""
    _check_dice(value)
    for die in _dice_terms(parse(value).root):
        if die.count * die.sides > WEAPON_MAX_ROLL:
            raise ValueError(f"{value!r}: {die.count}d{die.sides} can roll {die.count * die.sides:,}; a weapon's "
                             f"dice term rolls at most {WEAPON_MAX_ROLL:,} (count x faces)")
        for op in die.ops:
            if op.op not in ("k", "p") or any(s.cat not in WEAPON_KEEP for s in op.sels):
                raise ValueError(f"{value!r}: weapon damage uses plain dice, or keep/drop highest or lowest "
                                 "(kh, kl, ph, pl): the AI weighs its exact odds")
    low, high = _span(parse(value).root)
    if max(abs(low), abs(high)) > WEAPON_MAX_DAMAGE:
        shown = value if len(value) <= 40 else value[:37] + "..."
        raise ValueError(f"{shown!r} can come to more than {WEAPON_MAX_DAMAGE:,} (or less than "
                         f"-{WEAPON_MAX_DAMAGE:,}); a weapon's damage stays within that")
    return value


def _span(node: Node) -> tuple[int, int]:
    """The least and greatest value an expression can take (interval arithmetic; // refuses a zero divisor)."""
    if isinstance(node, Dice):
        return 0, node.count * node.sides
    if isinstance(node, Neg):
        low, high = _span(node.value)
        return -high, -low
    if isinstance(node, BinOp):
        (a, b), (c, d) = _span(node.left), _span(node.right)
        if node.op == "+":
            return a + c, b + d
        if node.op == "-":
            return a - d, b - c
        if node.op == "//" and c <= 0 <= d:
            raise ValueError("the divisor of '//' can be zero")
        corners = [x * y for x in (a, b) for y in (c, d)] if node.op == "*" else \
            [x // y for x in (a, b) for y in (c, d)]
        return min(corners), max(corners)
    value = node.value
    return value, value


def _dice_terms(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, BinOp):
        return _dice_terms(node.left) + _dice_terms(node.right)
    if isinstance(node, Neg):
        return _dice_terms(node.value)
    return []


class WeaponKind(Enum):
    """How a weapon attacks."""

    MELEE = "melee"
    RANGED = "ranged"


class WeaponProperty(Enum):
    """Weapon properties the combat rules read (G-34)."""

    LIGHT = "light"
    HEAVY = "heavy"
    REACH = "reach"
    POLEARM = "polearm"
    THROWN = "thrown"
    EXPLOSIVE = "explosive"
    ARMOR_PIERCING = "armor-piercing"
    NATURAL = "natural"
    IMPROVISED = "improvised"
    TWO_HANDED = "two-handed"
    SINGLE_SHOT = "single-shot"
    BRACEABLE = "braceable"
    FRAGILE = "fragile"


class Weapon(Model):
    """A weapon (or natural weapon, or improvised object used as one)."""

    id: Slug
    name: str
    kind: WeaponKind
    damage: str = Field(description="Damage dice, e.g. 1d10 (attribute modifier added by the rules).")
    damage_type: DamageType
    alt_damage_types: tuple[DamageType, ...] = Field(
        (), description="Other types the wielder may choose per attack (natural weapons, NAT-2)."
    )
    category: Literal["simple", "martial", "exotic"] = "simple"
    properties: frozenset[WeaponProperty] = frozenset()
    bonus: Whole = Field(0, ge=-10, le=20, description="Weapon bonus to attack rolls (ATK-1, ATK-2).")
    magical: bool = Field(False, description="A magic weapon: bypasses resistance to non-magical weapons (NAT-7).")
    damage_bonus: Whole = Field(0, ge=-20, le=50, description="Flat bonus damage (DMG-1).")
    reach: Whole = Field(5, ge=5, le=30, description="Melee reach in feet (NAT-6, RX-24).")
    range_normal: OptWhole = Field(None, ge=5, le=1000, description="Normal range in feet (ranged and thrown).")
    range_long: OptWhole = Field(None, ge=5, le=1000, description="Long range in feet.")
    ammo_capacity: OptWhole = Field(None, ge=1, le=1000, description="Rounds in a full load; None if no ammunition.")
    reload_actions: Whole = Field(1, ge=1, le=6, description="Actions to reload (G-31).")

    _dice = field_validator("damage")(classmethod(lambda cls, v: _check_weapon_dice(v)))

    @model_validator(mode="after")
    def _ranges(self) -> "Weapon":
        ranged = self.kind is WeaponKind.RANGED or WeaponProperty.THROWN in self.properties
        if ranged and self.range_normal is None:
            raise ValueError("a ranged or thrown weapon needs range_normal")
        if self.range_long is not None and self.range_normal is not None and self.range_long < self.range_normal:
            raise ValueError("range_long is shorter than range_normal")
        return self

    def has(self, prop: WeaponProperty) -> bool:
        """Whether the weapon has a property."""
        return prop in self.properties

    @property
    def is_ranged(self) -> bool:
        """A ranged weapon (thrown melee weapons are melee unless thrown)."""
        return self.kind is WeaponKind.RANGED


class ArmorCategory(Enum):
    """Armor weight classes, which cap AGI in DV (DV-2)."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class DrEntry(Model):
    """Damage Reduction from one source (DR-1..5).

    Attributes:
        amount: Points removed from each damage packet.
        types: The damage types it applies to; empty means all types.
        physical_only: Shorthand for bludgeoning, piercing and slashing.
        source: Where it comes from; DR from the same source never stacks (DR-5).
        from_armor: Armor DR, ignored by a Weak Point called shot (DR-7).
    """

    amount: Whole = Field(ge=0, le=50)
    types: frozenset[DamageType] = frozenset()
    physical_only: bool = False
    source: str
    from_armor: bool = False


class Armor(Model):
    """A suit of armor."""

    id: Slug
    name: str
    category: ArmorCategory
    bonus: Whole = Field(ge=0, le=20, description="Armor bonus to DV (DV-1).")
    dr: Whole = Field(0, ge=0, le=50, description="DR granted by the armor (DR-2).")
    dr_physical_only: bool = True
    metal: bool = Field(False, description="Metal armor (CHN-7: electrical saves at disadvantage).")


class Shield(Model):
    """A shield."""

    id: Slug
    name: str
    bonus: Whole = Field(ge=0, le=10, description="Shield bonus to DV (DV-1).")


class ObjectCover(Enum):
    """The cover an object gives creatures behind it while intact (COV-1..3)."""

    NONE = "none"
    PARTIAL = "partial"
    HEAVY = "heavy"
    TOTAL = "total"


class ChainKind(Enum):
    """What chain reaction an object sets off (CHN-1, CHN-5, CHN-9)."""

    NONE = ""
    FUEL = "fuel"
    ELECTRICAL = "electrical"
    SUPPORT = "support"


class ObjectTag(Enum):
    """Improvised actions an object allows (IEA, ENVW)."""

    HANGING = "hanging"
    IGNITES = "ignites"
    FLIPPABLE = "flippable"
    THROWABLE = "throwable"


class ObjectTemplate(Model):
    """A destructible battlefield object (OBJ-1): placed on maps by encounter files (see docs/content.md)."""

    id: Slug
    name: str
    hp: Whole = Field(ge=1, le=10_000, description="Hit points (OBJ-1).")
    dv: OptWhole = Field(None, ge=0, le=40, description="Defense Value; none means the default (10, G-25).")
    hardness: Whole = Field(0, ge=0, le=100, description="Subtracted from every hit before HP (OBJ-3, OBJ-4).")
    flammable: bool = Field(False, description="Fire ignores its Hardness (OBJ-10) and spreads into it (HAZF-2).")
    fragile: bool = Field(False, description="Piercing is not halved against it (OBJ-8).")
    metal: bool = Field(False, description="Metal (stops fire spread).")
    cover: ObjectCover = Field(ObjectCover.NONE, description="Cover it gives while intact (COV-1..3, STC-10).")
    light_cover: bool = Field(False, description="Light cover: heavy weapons ignore it (STC-2).")
    chain: ChainKind = Field(ChainKind.NONE, description="The chain reaction it sets off (CHN).")
    blocks_movement: bool = Field(False, description="Creatures cannot enter its squares while intact.")
    tags: frozenset[ObjectTag] = Field(frozenset(), description="Improvised actions it allows (IEA, ENVW).")
    push_dc: Whole = Field(0, ge=0, le=40,
                           description="MIG check DC to push it off a ledge (IEA-2, 12-15); 0: it cannot be.")
    width: Whole = Field(1, ge=1, le=20, description="Squares across.")
    depth: Whole = Field(1, ge=1, le=20, description="Squares down.")


class Senses(Model):
    """Vision and optics (VIS, CONC)."""

    darkvision: Whole = Field(0, ge=0, le=1000, description="Darkvision range in feet.")
    low_light_optics: Whole = Field(0, ge=0, le=1000, description="Low-Light Optics range in feet (G-32).")
    thermal_optics: bool = False
    tactical_hud: bool = False
    thermal_shedding: bool = Field(False, description="Thermal Shedding Integument (VIS-9).")
    magical_sight: bool = False


class Speeds(Model):
    """Movement speeds in feet."""

    walk: Whole = Field(30, ge=0, le=500)
    swim: Whole = Field(0, ge=0, le=500)
    climb: Whole = Field(0, ge=0, le=500)
    fly: Whole = Field(0, ge=0, le=500)


class Attributes(Model):
    """The six attribute modifiers."""

    MIG: Whole = Field(0, ge=-10, le=20)
    AGI: Whole = Field(0, ge=-10, le=20)
    END: Whole = Field(0, ge=-10, le=20)
    INT: Whole = Field(0, ge=-10, le=20)
    WIS: Whole = Field(0, ge=-10, le=20)
    PRE: Whole = Field(0, ge=-10, le=20)

    def __getitem__(self, attribute: Attribute) -> int:
        value: int = getattr(self, attribute.name)
        return value


class AirSupply(Enum):
    """What lets a creature breathe underwater (UW-5, UW-6, UW-27)."""

    REBREATHER = "rebreather"
    SEALED_HELMET = "sealed-helmet"
    SEALED_ENVIRONMENT = "sealed-environment"
    BIOLOGICAL_REPURPOSER = "biological-repurposer"
    GILLS = "gills"


class CrewStation(Enum):
    """A vehicle crew station (VEH-2); passengers ride without one (VEH-5)."""

    PILOT = "pilot"
    GUNNER = "gunner"
    ENGINEER = "engineer"
    COMMANDER = "commander"
    PASSENGER = "passenger"


class VehicleProfile(Model):
    """What makes a creature entry a vehicle (VEH): HP, size and speed come from the entry itself.

    Attributes:
        dv: Defense Value (DV-1): the engine gives the vehicle a hull worth ``dv`` minus base and AGI.
        stations: The crew stations it has (VEH-2), e.g. pilot and gunner.
        passengers: How many passengers it carries besides the crew.
        stabilized: It has a Stabilization System: passengers fire normally while it moves (VEH-5).
    """

    dv: Whole = Field(ge=0, le=40, description="Defense Value (DV-1).")
    stations: tuple[CrewStation, ...] = Field((CrewStation.PILOT,), description="Crew stations (VEH-2).")
    passengers: Whole = Field(0, ge=0, le=50, description="Passengers carried besides the crew.")
    stabilized: bool = Field(False, description="Has a Stabilization System (VEH-5).")


class BreakingOutcome(Enum):
    """What a met Breaking Point forces without a roll (MOR-27, MOR-28; 000:552–563).

    The stat-block format is "Breaking Point: [trigger] → automatic Break" (563), so ``break`` is the
    default; the examples also name "Surrenders if …" and "Flees if …" (557–558).
    """

    BREAK = "break"
    SURRENDER = "surrender"
    FLEE = "flee"


BREAKING_TRIGGERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("hp-below-<N>%", re.compile(r"hp-below-(100|[1-9][0-9]?)%")),
    ("leader-killed", re.compile(r"leader-killed")),
    ("outnumbered-<A>-to-<B>", re.compile(r"outnumbered-([1-9][0-9]?)-to-([1-9][0-9]?)")),
    ("ally-killed-by-magic", re.compile(r"ally-killed-by-magic")),
)
"""The Breaking Point triggers a stat block may name (MOR-28's examples): N is 1–100, A and B are 1–99."""
_TRIGGER_HELP = "hp-below-<N>% (N 1-100), leader-killed, outnumbered-<A>-to-<B> (A, B 1-99), ally-killed-by-magic"
_ARROWS = ("->", "→")


class BreakingPointSpec(Model):
    """One Breaking Point: its trigger and what it forces (MOR-27, MOR-28).

    Written as a mapping ``{trigger: leader-killed, outcome: surrender}``, or as text in the stat-block
    format: ``"leader-killed"`` (an automatic Break, 563) or ``"leader-killed -> surrender"``.
    """

    trigger: str = Field(description="hp-below-<N>%, leader-killed, outnumbered-<A>-to-<B> or ally-killed-by-magic.")
    outcome: BreakingOutcome = Field(BreakingOutcome.BREAK, description="break (default), surrender or flee.")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: object) -> object:
        if isinstance(value, dict):
            return value
        if not isinstance(value, str):
            raise ValueError("a breaking point is text such as 'leader-killed -> surrender' or a mapping "
                             "{trigger: leader-killed, outcome: surrender}")
        for arrow in _ARROWS:
            if arrow in value:
                trigger, _, outcome = value.partition(arrow)
                return {"trigger": trigger, "outcome": outcome.strip().lower()}
        return {"trigger": value}

    @field_validator("trigger")
    @classmethod
    def _known_trigger(cls, value: str) -> str:
        cleaned = value.strip().lower()
        if any(pattern.fullmatch(cleaned) for _, pattern in BREAKING_TRIGGERS):
            return cleaned
        raise ValueError(f"unknown breaking point trigger {value!r}; use one of: {_TRIGGER_HELP}")


class MoraleProfile(Model):
    """Morale data from the stat block (MOR-5, MOR-6, MOR-24, MOR-27, MOR-33, MOR-35)."""

    will: OptWhole = Field(None, ge=-10, le=30, description="A separate morale Will modifier (MOR-6).")
    type: Literal["civilian", "bandit", "soldier", "elite", "fanatic", "animal", "other"] = "other"
    breaking_points: tuple[BreakingPointSpec, ...] = ()
    immune: bool = False

    @field_validator("breaking_points", mode="before")
    @classmethod
    def _a_list(cls, value: object) -> object:
        if isinstance(value, str | dict):
            raise ValueError("breaking_points is a list, e.g. [leader-killed] or [{trigger: leader-killed, "
                             "outcome: surrender}]")
        return value


class CreatureKind(Enum):
    """Player character or not (PCs never check morale, MOR-2)."""

    PC = "pc"
    NPC = "npc"


class Creature(Model):
    """A creature stat block."""

    id: Slug
    name: str
    kind: CreatureKind = CreatureKind.NPC
    level: Whole = Field(1, ge=0, le=30)
    size: Size = Size.MEDIUM
    proficiency: Whole = Field(2, ge=0, le=10)
    attributes: Attributes = Attributes.model_construct()
    save_proficiencies: frozenset[Save] = frozenset()
    saves: dict[Save, Annotated[Whole, Field(ge=-20, le=40)]] = Field(
        default_factory=dict, description="Explicit save totals (override).")
    skill_proficiencies: frozenset[Skill] = frozenset()
    skills: dict[Skill, Annotated[Whole, Field(ge=-20, le=40)]] = Field(
        default_factory=dict, description="Explicit skill totals (override).")
    hp: Whole = Field(ge=1, le=10_000, description="Maximum HP.")
    temp_hp: Whole = Field(0, ge=0, le=10_000)
    hit_dice: str = Field("1d8", description="Hit die per level, e.g. 1d10 (REST-3).")
    speeds: Speeds = Speeds.model_construct()
    senses: Senses = Senses.model_construct()
    resistances: frozenset[DamageType] = frozenset()
    vulnerabilities: frozenset[DamageType] = frozenset()
    immunities: frozenset[DamageType] = frozenset()
    nonmagical_resistances: frozenset[DamageType] = Field(
        frozenset(), description="Resistance only against non-magical weapons; natural weapons count as such (NAT-7)."
    )
    condition_immunities: frozenset[str] = frozenset()
    dr: tuple[DrEntry, ...] = ()
    weapons: tuple[Slug, ...] = Field((), description="Weapon ids from the library.")
    natural_weapons: tuple[Weapon, ...] = ()
    armor: Slug | None = None
    shield: Slug | None = None
    weapon_proficiencies: frozenset[str] = Field(
        frozenset({"simple"}), description="Categories (simple, martial, exotic, improvised, shields) or weapon ids."
    )
    initiative_bonus: Whole = Field(0, ge=-100, le=100, description="Equipment bonuses to initiative (INIT-1).")
    combat_trained: bool = Field(True, description="Edition 1 adds proficiency to initiative only if trained.")
    uses_death_saves: bool = Field(False, description="An NPC that makes death saves instead of dying (G-38).")
    leader: bool = False
    boss: bool = False
    legendary: bool = False
    mindless: bool = False
    undead: bool = False
    machine: bool = Field(False, description="Drones, turrets and other machines (MOR-35).")
    talents: frozenset[str] = Field(frozenset(), description="Talents such as sentinel, covering-fire.")
    spell_attribute: Attribute | None = Field(None, description="INT or WIS for spellcasters (ATK-3).")
    psionic: bool = False
    morale: MoraleProfile = MoraleProfile.model_construct()
    air_supply: AirSupply | None = Field(None, description="What lets it breathe underwater (UW-5, UW-6, UW-27).")
    independent_mount: bool = Field(
        False, description="As a mount it keeps its own initiative and acts on its own (MNT-3); else trained (MNT-2)."
    )
    vehicle: VehicleProfile | None = Field(None, description="A vehicle, not a creature (VEH).")

    _hd = field_validator("hit_dice")(classmethod(lambda cls, v: _check_dice(v)))

    @field_validator("dr", mode="before")
    @classmethod
    def _dr_shape(cls, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise PydanticCustomError(
                "dr_shape", "dr is a list of sources, e.g. [{amount: 2, source: hide}], not {value}",
                {"value": spelled(value)})
        return value

    @model_validator(mode="after")
    def _vehicle_hull(self) -> "Creature":
        if self.vehicle is not None and (self.armor is not None or self.shield is not None):
            raise ValueError("a vehicle's DV comes from vehicle.dv: give it no armor or shield")
        return self

    def save_modifier(self, save: Save) -> int:
        """Total modifier of a save: explicit, else attribute + proficiency if proficient (G-22)."""
        if save in self.saves:
            return self.saves[save]
        prof = self.proficiency if save in self.save_proficiencies else 0
        return self.attributes[save.attribute] + prof

    def skill_modifier(self, skill: Skill) -> int:
        """Total modifier of a skill: explicit, else attribute + proficiency if proficient."""
        if skill in self.skills:
            return self.skills[skill]
        prof = self.proficiency if skill in self.skill_proficiencies else 0
        return self.attributes[skill.attribute] + prof

    def is_proficient_with(self, weapon: Weapon) -> bool:
        """Whether the creature adds proficiency with ``weapon`` (ATK-5, NAT-1)."""
        if weapon.has(WeaponProperty.NATURAL):
            return True
        if weapon.has(WeaponProperty.IMPROVISED):
            return "improvised" in self.weapon_proficiencies
        return weapon.category in self.weapon_proficiencies or weapon.id in self.weapon_proficiencies

    @property
    def is_pc(self) -> bool:
        """A player character."""
        return self.kind is CreatureKind.PC
