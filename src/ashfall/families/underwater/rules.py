"""Underwater combat as pure rules: breath, swimming, attacks, elemental interactions, sight and speech (UW, E-42).

Breath (UW-1..6): a creature holds its breath for END + proficiency rounds (at least
``underwater.breath_min_rounds``); a strenuous turn (taking damage, 2+ actions on attacks, sprinting)
costs extra rounds, at most ``strenuous_max_per_turn``; out of breath it becomes Suffocating (UW-4,
G-15). Sealed gear and the Biological Repurposer remove the need for air (UW-5, UW-6).
Movement (UW-7..11, X-03): water costs x2 without a swim speed; diving or surfacing needs Athletics
DC 10; heavy armor gives disadvantage on swimming and sinks 10 ft a round.
Attacks (UW-12..19, X-24): melee by damage type unless the attacker swims; ranged weapons miss
automatically beyond normal range (a natural 20 does not help) and have disadvantage within it;
thrown weapons follow the melee rules; spells are normal. Damage (UW-20..23, G-27, G-28, G-39 step 2):
fire halved and thunder +1d6 as :class:`~ashfall.rules.damage_ledger.DamageAdjuster` objects; cold
and electric damage spread. Sight (UW-24..26, VIS-12) and speech (UW-27, UW-28).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from ashfall.content.schema import AirSupply, Armor, ArmorCategory, Creature, Weapon, WeaponKind, WeaponProperty
from ashfall.core.dice import DiceExpr, parse
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.rules.damage_ledger import DamageAdjuster
from ashfall.rules.dc import DC, fixed_dc, formula_dc
from ashfall.ruleset import Ruleset

UW = {n: rule(f"UW-{n}") for n in range(1, 30)}
G_28, X_24, VIS_12 = rule("G-28"), rule("X-24"), rule("VIS-12")

_MELEE_MODES = frozenset({AttackMode.MELEE, AttackMode.UNARMED, AttackMode.NATURAL, AttackMode.IMPROVISED})
_SPELL_MODES = frozenset({AttackMode.SPELL, AttackMode.PSIONIC})


class WaterClarity(Enum):
    """How far one sees underwater (UW-24..26); the engine's ``WaterType`` has the same values."""

    CLEAR = "clear"
    MURKY = "murky"
    DARK = "dark"


class Obscured(Enum):
    """Obscurement tiers (CONC-1) with the engine's ``Obscurement`` values: none, lightly (LO), heavily (HO)."""

    NONE = 0
    LIGHT = 1
    HEAVY = 2


# ----- breath (UW-1..6) -----


@dataclass(frozen=True, slots=True)
class Strenuous:
    """What made a turn strenuous (UW-3): the extra rounds of breath it costs and why (labels)."""

    extra: int
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BreathTick:
    """The breath clock at the end of a turn: rounds left, rounds spent, and whether breath ran out (UW-4)."""

    rounds_left: int
    spent: int
    out_of_breath: bool


def breath_rounds(creature: Creature, ruleset: Ruleset) -> int:
    """Rounds the creature holds its breath: END + proficiency, at least ``breath_min_rounds`` (UW-1)."""
    return max(creature.attributes.END + creature.proficiency, ruleset.underwater.breath_min_rounds)


def strenuous(took_damage: bool, attack_actions: int, sprinted: bool, ruleset: Ruleset) -> Strenuous:
    """The extra breath a turn costs (UW-3): taking damage, 2+ actions on attacks, sprinting, capped per turn."""
    u = ruleset.underwater
    reasons = tuple(label for label, done in (
        ("took damage", took_damage),
        (f"{attack_actions} actions on attacks", attack_actions >= u.strenuous_attack_actions),
        ("sprinted", sprinted),
    ) if done)
    extra = min(len(reasons) * u.strenuous_extra_rounds, u.strenuous_max_per_turn)
    return Strenuous(extra, reasons)


def breath_after_turn(rounds_left: int, effort: Strenuous) -> BreathTick:
    """One turn of holding breath: 1 round plus the strenuous extra (UW-2: it acts normally meanwhile)."""
    spent = 1 + effort.extra
    left = max(rounds_left - spent, 0)
    return BreathTick(left, spent, left == 0)


def air_supply_rounds(supply: AirSupply, ruleset: Ruleset) -> int | None:
    """Rounds of air sealed gear holds (UW-5); None for a supply that never runs out (UW-6, gills)."""
    u = ruleset.underwater
    minutes = {
        AirSupply.REBREATHER: u.rebreather_minutes,
        AirSupply.SEALED_HELMET: u.sealed_helmet_minutes,
        AirSupply.SEALED_ENVIRONMENT: u.sealed_environment_minutes,
    }.get(supply)
    return None if minutes is None else minutes * u.rounds_per_minute


def breathes_freely(creature: Creature, rounds_used: int, ruleset: Ruleset) -> RuleId | None:
    """The rule that spares the creature holding its breath, else None (UW-5, UW-6, UW-7, UW-1).

    Sealed gear works while its air lasts (``rounds_used`` rounds spent underwater so far); the
    Biological Repurposer and gills always; machines and vehicles need no air unless
    ``underwater.machines_breathe``.
    """
    supply = creature.air_supply
    if supply is AirSupply.BIOLOGICAL_REPURPOSER:
        return UW[6]
    if supply is AirSupply.GILLS:
        return UW[7]
    if supply is not None:
        rounds = air_supply_rounds(supply, ruleset)
        if rounds is None or rounds_used < rounds:
            return UW[5]
    if (creature.machine or creature.vehicle is not None) and not ruleset.underwater.machines_breathe:
        return UW[1]
    return None


def can_speak(creature: Creature, rounds_used: int, ruleset: Ruleset) -> RuleId | None:
    """Underwater, None if the creature can speak, else UW-27 (it needs a way to breathe)."""
    return None if breathes_freely(creature, rounds_used, ruleset) in (UW[5], UW[6], UW[7]) else UW[27]


def verbal_spell_blocked(verbal: bool, speaks: RuleId | None) -> RuleId | None:
    """UW-28 when a spell with a verbal component is cast by a creature that cannot speak, else None.

    Telepathy and psionic communication are unaffected (they are not spells with verbal components).
    """
    return UW[28] if verbal and speaks is not None else None


# ----- movement (UW-7..11, X-03) -----


def water_cost(creature: Creature, ruleset: Ruleset) -> tuple[int, RuleId]:
    """Movement multiplier in water: 1 with a swim speed (UW-7), else ``turn.water_cost`` (UW-8, X-03)."""
    if creature.speeds.swim > 0:
        return 1, UW[7]
    return ruleset.turn.water_cost, UW[8]


def swim_sources(armor: Armor | None) -> tuple[RollSource, ...]:
    """Disadvantage on Athletics checks to swim in heavy armor (UW-10); medium armor has none (UW-11)."""
    if armor is not None and armor.category is ArmorCategory.HEAVY:
        return (dis(UW[10], "swimming in heavy armor"),)
    return ()


def vertical_dc(ruleset: Ruleset) -> DC:
    """The Athletics DC to dive or surface as part of a move (UW-9); a failure makes no vertical progress."""
    return fixed_dc(ruleset.underwater.vertical_dc, UW[9], "dive or surface (Athletics)")


def needs_vertical_check(creature: Creature) -> bool:
    """Only a creature without a swim speed checks to move up or down (UW-7, UW-9)."""
    return creature.speeds.swim == 0


def sinks_ft(armor: Armor | None, swam: bool, ruleset: Ruleset) -> int:
    """Feet the creature sinks this round: heavy armor and not actively swimming (UW-10); medium never (UW-11)."""
    if swam or armor is None or armor.category is not ArmorCategory.HEAVY:
        return 0
    return ruleset.underwater.heavy_armor_sink_ft


# ----- attacks (UW-12..19, X-24) -----


@dataclass(frozen=True, slots=True)
class UnderwaterAttack:
    """What the water does to one attack roll.

    Attributes:
        sources: Disadvantage sources (UW-13, UW-15, UW-17, UW-18).
        auto_miss: UW-16 when the attack misses whatever it rolls, else None.
        notes: Rules that left the attack unchanged (UW-12 piercing, UW-14 natural, UW-19 spells, X-24 swim speed).
    """

    sources: tuple[RollSource, ...] = ()
    auto_miss: RuleId | None = None
    notes: tuple[RuleId, ...] = ()


def _melee(attacker: Creature, weapon: Weapon | None, mode: AttackMode, thrown: bool,
           ruleset: Ruleset) -> UnderwaterAttack:
    u = ruleset.underwater
    if attacker.speeds.swim > 0 and u.swim_speed_exempt:
        return UnderwaterAttack(notes=(X_24,))
    natural = mode is AttackMode.NATURAL or (weapon is not None and weapon.has(WeaponProperty.NATURAL))
    if natural and u.natural_weapons_exempt:
        return UnderwaterAttack(notes=(UW[14],))
    if mode is AttackMode.UNARMED or weapon is None:
        if u.unarmed_disadvantage:
            return UnderwaterAttack((dis(UW[15], "unarmed strike underwater"),))
        return UnderwaterAttack()
    why = UW[18] if thrown else UW[13]
    if weapon.damage_type in u.melee_penalty_types:
        return UnderwaterAttack((dis(why, f"{weapon.damage_type.value} {'thrown' if thrown else 'melee'} underwater"),))
    return UnderwaterAttack(notes=(UW[18] if thrown else UW[12],))


def _ranged(weapon: Weapon | None, distance_ft: int | None, ruleset: Ruleset) -> UnderwaterAttack:
    u = ruleset.underwater
    normal = weapon.range_normal if weapon is not None else None
    if u.ranged_auto_miss and normal is not None and distance_ft is not None and distance_ft > normal:
        return UnderwaterAttack(auto_miss=UW[16])
    if u.ranged_disadvantage:
        return UnderwaterAttack((dis(UW[17], "ranged attack underwater"),))
    return UnderwaterAttack()


def underwater_attack(attacker: Creature, weapon: Weapon | None, mode: AttackMode, distance_ft: int | None,
                      ruleset: Ruleset) -> UnderwaterAttack:
    """How the water changes one attack (UW-12..19, X-24, E-42).

    Args:
        attacker: The attacker (its swim speed).
        weapon: The weapon (None unarmed, or a spell without one).
        mode: How the attack is made.
        distance_ft: Feet to the target, or None when unknown (theater of mind: no automatic miss).
        ruleset: The ``underwater`` options.
    """
    if mode in _SPELL_MODES:
        return UnderwaterAttack(notes=(UW[19],))
    thrown = mode is AttackMode.THROWN
    if thrown and ruleset.underwater.thrown_as_melee:
        return _melee(attacker, weapon, mode, True, ruleset)
    ranged = thrown or mode is AttackMode.RANGED or (weapon is not None and weapon.kind is WeaponKind.RANGED
                                                       and mode not in _MELEE_MODES)
    if ranged:
        return _ranged(weapon, distance_ft, ruleset)
    return _melee(attacker, weapon, mode, False, ruleset)


# ----- damage (UW-20..23, G-27, G-28, G-39 step 2) -----


@dataclass(frozen=True, slots=True)
class FireHalved:
    """Underwater fire is divided by ``divisor``, rounding down (UW-20, G-39 step 2)."""

    divisor: int

    def __call__(self, damage_type: DamageType, amount: int) -> tuple[int, RuleId, str]:
        """Halve fire; leave other types alone."""
        if damage_type is DamageType.FIRE:
            return amount // max(self.divisor, 1), UW[20], "underwater: fire halved"
        return amount, UW[20], ""


@dataclass(frozen=True, slots=True)
class ThunderBoost:
    """Underwater thunder (sonic, G-27) deals ``extra`` more: the rolled +1d6 (UW-23, G-39 step 2)."""

    extra: int

    def __call__(self, damage_type: DamageType, amount: int) -> tuple[int, RuleId, str]:
        """Add the extra to sonic damage; leave other types alone."""
        if damage_type is DamageType.SONIC:
            return amount + self.extra, UW[23], f"underwater: thunder +{self.extra}"
        return amount, UW[23], ""


def thunder_dice(ruleset: Ruleset) -> DiceExpr:
    """The extra dice underwater thunder deals (UW-23)."""
    return parse(ruleset.underwater.thunder_extra)


def adjusters(types: Iterable[DamageType], thunder_extra: int | None, ruleset: Ruleset) -> tuple[DamageAdjuster, ...]:
    """The step-2 adjusters for damage of these types dealt underwater (UW-20, UW-23).

    Args:
        types: The damage event's types.
        thunder_extra: The rolled extra for sonic damage (roll :func:`thunder_dice` once per damage event).
        ruleset: The ``underwater`` options.
    """
    found = set(types)
    out: list[DamageAdjuster] = []
    if DamageType.FIRE in found:
        out.append(FireHalved(ruleset.underwater.fire_divisor))
    if DamageType.SONIC in found and thunder_extra is not None:
        out.append(ThunderBoost(thunder_extra))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Spread:
    """Damage the water carries to other creatures (UW-21, UW-22, G-28).

    Attributes:
        damage_type: Cold or electric.
        radius_ft: Creatures this close to the target are affected (the target itself not again).
        save: They make a Reflex save for half against the original DC (or the G-28 DC).
        rule: UW-21 or UW-22.
    """

    damage_type: DamageType
    radius_ft: int
    save: bool
    rule: RuleId


def spread_of(damage_type: DamageType, ruleset: Ruleset) -> Spread | None:
    """How this damage type spreads underwater, or None (UW-21 cold, UW-22 electric; E-42 in edition 1)."""
    u = ruleset.underwater
    if damage_type is DamageType.COLD:
        return Spread(damage_type, u.cold_spread_ft, u.cold_spread_save, UW[21])
    if damage_type is DamageType.ELECTRIC:
        return Spread(damage_type, u.electric_spread_ft, u.electric_spread_save, UW[22])
    return None


def spread_dc(original: int | None, attribute_label: str, attribute_mod: int, proficiency: int,
              ruleset: Ruleset) -> DC:
    """The save DC against spreading damage: the source's own DC, else 8 + attack attribute + proficiency (G-28)."""
    if original is not None:
        return fixed_dc(original, UW[22], "the original DC")
    return formula_dc(G_28, attribute_label, attribute_mod, proficiency, ruleset)


def spread_amount(amount: int, saved: bool, ruleset: Ruleset) -> int:
    """Full damage on a failed save (or without one), divided on a success, rounding down (UW-22)."""
    return amount // max(ruleset.underwater.spread_save_divisor, 1) if saved else amount


# ----- sight and senses (UW-24..26, VIS-12, G-24) -----


@dataclass(frozen=True, slots=True)
class WaterSight:
    """What the water lays over a creature seen from ``distance_ft`` (UW-24..26).

    Attributes:
        obscured: The obscurement tier.
        darkness: Dark water: heavily obscured *by darkness*, so darkvision (halved underwater, VIS-12)
            sees through it within its range; without it the viewer is effectively blinded (UW-26).
        rule: The rule, or None when the water hides nothing.
    """

    obscured: Obscured
    darkness: bool = False
    rule: RuleId | None = None


def water_sight(water: WaterClarity, distance_ft: int | None, ruleset: Ruleset) -> WaterSight:
    """How the water obscures a creature this far away (None: the square on its own, no viewer).

    Clear water: normal sight to 60 ft, lightly obscured beyond (UW-24). Murky: 15 ft, heavily obscured
    beyond (UW-25). Dark: heavily obscured by darkness everywhere (UW-26).
    """
    u = ruleset.underwater
    if water is WaterClarity.DARK:
        return WaterSight(Obscured.HEAVY, True, UW[26])
    if distance_ft is None:
        return WaterSight(Obscured.NONE)
    if water is WaterClarity.CLEAR and distance_ft > u.clear_sight_ft:
        return WaterSight(Obscured.LIGHT, False, UW[24])
    if water is WaterClarity.MURKY and distance_ft > u.murky_sight_ft:
        return WaterSight(Obscured.HEAVY, False, UW[25])
    return WaterSight(Obscured.NONE)


def darkvision_underwater(darkvision_ft: int, ruleset: Ruleset) -> int:
    """Darkvision range underwater: divided by ``darkvision_divisor`` (UW-26, VIS-12)."""
    return darkvision_ft // max(ruleset.underwater.darkvision_divisor, 1)


def passive_perception_modifiers(water: Enum | None, ruleset: Ruleset) -> tuple[Modifier, ...]:
    """Passive Perception changes underwater: -5 in murky water (UW-25, G-24); ``water`` is the water type or None."""
    if water is not None and WaterClarity(water.value) is WaterClarity.MURKY:
        return (Modifier(ruleset.underwater.murky_passive_perception, ModifierKind.CIRCUMSTANCE, UW[25],
                         "murky water"),)
    return ()


__all__ = ["BreathTick", "FireHalved", "Obscured", "Spread", "Strenuous", "ThunderBoost", "UnderwaterAttack",
           "WaterClarity", "WaterSight", "adjusters", "air_supply_rounds", "breath_after_turn", "breath_rounds",
           "breathes_freely", "can_speak", "darkvision_underwater", "needs_vertical_check",
           "passive_perception_modifiers", "sinks_ft", "spread_amount", "spread_dc", "spread_of", "strenuous",
           "swim_sources", "thunder_dice", "underwater_attack", "verbal_spell_blocked", "vertical_dc", "water_cost",
           "water_sight"]
