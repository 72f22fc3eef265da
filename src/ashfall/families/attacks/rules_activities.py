"""Attack modes and attack activities as data: attributes, default weapons, costs, modifiers and MAP use.

:data:`MODES` says which attribute a melee, ranged, thrown, spell, psionic, unarmed, natural or improvised
attack adds to the roll and to damage (ATK-1..3, PSI-3, DMG-2..4, G-23, NAT-1, NAT-2, IMP-1).
:data:`ACTIVITIES` describes Strike, Power Strike (MAA-5, G-36), All-Out Attack (MAA-7), Full Auto
Burst (MAA-2, G-35, X-12), Sweeping Strike (MAA-3, SWP-1..3, G-09), the attack reactions (Return Fire
RX-30, Brace RX-13, Attack of Opportunity, readied attacks), Disarm, Coup de Grace, spell attacks and
the non-attack activities that never touch MAP (MAP-4, G-41). The turn engine reads
:data:`COUNTS_FOR_MAP` and :data:`TAKES_MAP`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, DamageType
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import AttackSection

if TYPE_CHECKING:
    from ashfall.rules.defense import AttackTraits

SINGLE_ACTION = 1
"""What "an action" costs (ACT-1); not a tunable number."""


class Activity(Enum):
    """What an attack roll (or attack-like action) is part of."""

    STRIKE = "strike"
    POWER_STRIKE = "power-strike"
    ALL_OUT = "all-out-attack"
    FULL_AUTO = "full-auto-burst"
    SWEEPING = "sweeping-strike"
    RETURN_FIRE = "return-fire"
    BRACE = "brace"
    ATTACK_OF_OPPORTUNITY = "attack-of-opportunity"
    READIED = "readied-attack"
    DISARM = "disarm"
    COUP_DE_GRACE = "coup-de-grace"
    SPELL_ATTACK = "spell-attack"
    SAVE_SPELL = "save-spell"
    SUPPRESSIVE_FIRE = "suppressive-fire"
    CONSTRICTION = "constriction"
    MANEUVER = "maneuver"


class Reach(Enum):
    """Which attacks an activity allows."""

    ANY = "any"
    MELEE_ONLY = "melee-only"
    RANGED_ONLY = "ranged-only"


def _none(_: AttackSection) -> None:
    return None


@dataclass(frozen=True, slots=True)
class ActivitySpec:
    """One activity's rules.

    Attributes:
        rule: The rule that defines it.
        takes_map: Its attack roll suffers the current MAP (G-41).
        counts_for_map: It counts as one attack for later MAP (G-41, MAP-3, MAP-4, MAP-6).
        map_rule: The rule behind the two MAP flags.
        reach: Melee only, ranged only or any attack.
        reaction: Used as a reaction (no action cost on the turn).
        multi_target: One roll against several DVs (SWP-2, G-35).
        attack: Attack-roll modifier, read from the ruleset (None for none).
        damage_flat: Flat damage added on a hit, added once on a crit (CRIT-2).
        damage_dice: Extra damage dice on a hit, of the weapon's type.
        actions: Actions it costs on the turn (MAA-1), or None for reactions.
        unavailable: Returns the rule that removes the activity from this ruleset, or None.
    """

    rule: RuleId
    takes_map: bool
    counts_for_map: bool
    map_rule: RuleId
    reach: Reach = Reach.ANY
    reaction: bool = False
    multi_target: bool = False
    attack: Callable[[AttackSection], int | None] = _none
    damage_flat: Callable[[AttackSection], int | None] = _none
    damage_dice: Callable[[AttackSection], str | None] = _none
    actions: Callable[[AttackSection], int | None] = lambda _: SINGLE_ACTION
    unavailable: Callable[[Ruleset], RuleId | None] = lambda _: None


G_41 = rule("G-41")
POS_3 = rule("POS-3")
E_10 = rule("E-10")


def _reaction(
    rule_id: RuleId,
    reach: Reach,
    *,
    map_rule: RuleId = G_41,
    attack: Callable[[AttackSection], int | None] = _none,
    damage_dice: Callable[[AttackSection], str | None] = _none,
) -> ActivitySpec:
    """A reaction attack: neither takes nor advances MAP (G-41, MAP-6) and costs no action."""
    return ActivitySpec(
        rule_id, False, False, map_rule, reach, reaction=True, attack=attack, damage_dice=damage_dice, actions=_none
    )


def _sweeping_unavailable(rs: Ruleset) -> RuleId | None:
    return None if rs.attack.sweeping_available else E_10


ACTIVITIES: Mapping[Activity, ActivitySpec] = MappingProxyType({
    Activity.STRIKE: ActivitySpec(rule("ACT-7"), True, True, rule("MAP-1")),
    Activity.POWER_STRIKE: ActivitySpec(
        rule("MAA-5"), True, True, G_41,
        attack=lambda a: a.power_strike_attack, damage_flat=lambda a: a.power_strike_damage,
        actions=lambda a: a.power_strike_actions,
    ),
    Activity.ALL_OUT: ActivitySpec(rule("MAA-7"), True, True, rule("MAP-5"), actions=lambda a: a.all_out_actions),
    Activity.FULL_AUTO: ActivitySpec(
        rule("MAA-2"), True, True, G_41, Reach.RANGED_ONLY, multi_target=True,
        attack=lambda a: a.full_auto_attack, actions=lambda a: a.full_auto_actions,
    ),
    Activity.SWEEPING: ActivitySpec(
        rule("SWP-1"), True, True, rule("G-09"), Reach.MELEE_ONLY, multi_target=True,
        attack=lambda a: a.sweeping_attack, actions=lambda a: a.sweeping_actions, unavailable=_sweeping_unavailable,
    ),
    Activity.RETURN_FIRE: _reaction(
        rule("RX-30"), Reach.RANGED_ONLY, map_rule=rule("MAP-6"), attack=lambda a: a.return_fire_attack
    ),
    Activity.BRACE: _reaction(rule("RX-13"), Reach.MELEE_ONLY, damage_dice=lambda a: a.brace_damage),
    Activity.ATTACK_OF_OPPORTUNITY: _reaction(rule("RX-22"), Reach.MELEE_ONLY),
    Activity.READIED: _reaction(G_41, Reach.ANY),
    Activity.DISARM: ActivitySpec(rule("E-08"), True, True, G_41),
    Activity.COUP_DE_GRACE: ActivitySpec(rule("CRIT-5"), False, True, G_41, Reach.MELEE_ONLY),
    Activity.SPELL_ATTACK: ActivitySpec(rule("MAP-3"), True, True, rule("MAP-3")),
    Activity.SAVE_SPELL: ActivitySpec(rule("MAP-4"), False, False, rule("MAP-4")),
    Activity.SUPPRESSIVE_FIRE: ActivitySpec(rule("MAA-4"), False, False, G_41, Reach.RANGED_ONLY),
    Activity.CONSTRICTION: ActivitySpec(G_41, False, False, G_41),
    Activity.MANEUVER: ActivitySpec(G_41, False, False, G_41),
})
"""Every activity's rules, by activity."""

COUNTS_FOR_MAP: Mapping[Activity, bool] = MappingProxyType({a: s.counts_for_map for a, s in ACTIVITIES.items()})
"""Whether an activity counts as one attack for later MAP (G-41). Spell attacks: see :func:`counts_for_map`."""

TAKES_MAP: Mapping[Activity, bool] = MappingProxyType({a: s.takes_map for a, s in ACTIVITIES.items()})
"""Whether an activity's roll suffers the current MAP (G-41, MAP-6)."""


def counts_for_map(activity: Activity, ruleset: Ruleset) -> bool:
    """Whether ``activity`` advances MAP under ``ruleset`` (spell attacks only when E-02 allows, MAP-3; G-41)."""
    if activity is Activity.SPELL_ATTACK and not ruleset.attack.spell_attacks_take_map:
        return False
    if activity is Activity.COUP_DE_GRACE and not ruleset.attack.coup_de_grace_counts_for_map:
        return False  # G-41's alternative: no roll, so it neither takes nor advances MAP
    return COUNTS_FOR_MAP[activity]


def takes_map(activity: Activity, ruleset: Ruleset) -> bool:
    """Whether ``activity``'s roll suffers MAP under ``ruleset`` (MAP-2, MAP-3, MAP-6, G-41, E-02)."""
    if activity is Activity.SPELL_ATTACK and not ruleset.attack.spell_attacks_take_map:
        return False
    return TAKES_MAP[activity]


def action_cost(activity: Activity, ruleset: Ruleset) -> int | None:
    """Actions ``activity`` costs on the turn (MAA-1), or None for a reaction."""
    return ACTIVITIES[activity].actions(ruleset.attack)


# ----- attack modes -----


class AttackMode(Enum):
    """How an attack is made; each mode names its attack and damage attributes in :data:`MODES`."""

    MELEE = "melee"
    RANGED = "ranged"
    THROWN = "thrown"
    SPELL = "spell"
    PSIONIC = "psionic"
    UNARMED = "unarmed"
    NATURAL = "natural"
    IMPROVISED = "improvised"


@dataclass(frozen=True, slots=True)
class ModeSpec:
    """One attack mode's rules.

    Attributes:
        attack_attribute: Attribute added to the roll; None means the creature's spellcasting attribute (ATK-3).
        attack_rule: The rule of the attack-roll formula.
        damage_attribute: Attribute added to damage, or None (ranged DMG-3, spell DMG-4).
        damage_rule: The rule of the damage formula.
        ranged: Ranged (cover, high ground, AMOD-7); None means from the weapon's kind, ranged without one.
        weapon_bonus: The weapon's attack bonus counts (not for spell or psionic attack rolls).
        always_proficient: Proficiency is always added (spell and psionic formulas).
        default_dice: Damage dice used when no weapon is given (unarmed, natural, improvised), or None.
        default_property: The property of the weapon built from ``default_dice``.
        default_types: Damage types of that weapon, first the default (NAT-2 lets the attacker choose).
        needs: The weapon kind or property the given weapon must have, or None.
        unavailable: The rule removing this mode from a ruleset, or None.
    """

    attack_attribute: Attribute | None
    attack_rule: RuleId
    damage_attribute: Attribute | None
    damage_rule: RuleId
    ranged: bool | None
    weapon_bonus: bool = True
    always_proficient: bool = False
    default_dice: Callable[[AttackSection], str] | None = None
    default_property: WeaponProperty | None = None
    default_types: tuple[DamageType, ...] = (DamageType.BLUDGEONING,)
    needs: WeaponKind | WeaponProperty | None = None
    unavailable: Callable[[Ruleset], RuleId | None] = lambda _: None


_MIG, _AGI, _WIS = Attribute.MIG, Attribute.AGI, Attribute.WIS
_PHYSICAL = (DamageType.BLUDGEONING, DamageType.PIERCING, DamageType.SLASHING)

MODES: Mapping[AttackMode, ModeSpec] = MappingProxyType({
    AttackMode.MELEE: ModeSpec(_MIG, rule("ATK-1"), _MIG, rule("DMG-2"), False, needs=WeaponKind.MELEE),
    AttackMode.RANGED: ModeSpec(_AGI, rule("ATK-2"), None, rule("DMG-3"), True, needs=WeaponKind.RANGED),
    AttackMode.THROWN: ModeSpec(_AGI, rule("ATK-2"), None, rule("DMG-3"), True, needs=WeaponProperty.THROWN),
    AttackMode.SPELL: ModeSpec(None, rule("ATK-3"), None, rule("DMG-4"), None, False, True),
    AttackMode.PSIONIC: ModeSpec(
        _WIS, rule("PSI-3"), None, rule("PSI-2"), None, False, True,
        unavailable=lambda rs: None if rs.psionics.available else rule("E-23"),
    ),
    AttackMode.UNARMED: ModeSpec(
        _MIG, rule("ATK-1"), _MIG, rule("G-23"), False, default_dice=lambda a: a.unarmed_damage
    ),
    AttackMode.NATURAL: ModeSpec(
        _MIG, rule("NAT-1"), _MIG, rule("NAT-2"), False, default_dice=lambda a: a.natural_weapon_damage,
        default_property=WeaponProperty.NATURAL, default_types=_PHYSICAL,
    ),
    AttackMode.IMPROVISED: ModeSpec(
        _MIG, rule("IMP-1"), _MIG, rule("IMP-1"), False, default_dice=lambda a: a.improvised_damage,
        default_property=WeaponProperty.IMPROVISED,
    ),
})
"""Every attack mode's rules."""

_BY_PROPERTY = {WeaponProperty.NATURAL: AttackMode.NATURAL, WeaponProperty.IMPROVISED: AttackMode.IMPROVISED}


def effective_mode(mode: AttackMode, weapon: Weapon | None) -> AttackMode:
    """A melee attack with a natural or improvised weapon is a natural or improvised attack (NAT-1, IMP-1)."""
    if mode is AttackMode.MELEE and weapon is not None:
        for prop, special in _BY_PROPERTY.items():
            if weapon.has(prop):
                return special
    return mode


@cache
def default_weapon(mode: AttackMode, dice: str, reach: int) -> Weapon:
    """The weapon an unarmed, natural or improvised attack uses when none is given (G-23, NAT-2, IMP-1)."""
    spec = MODES[mode]
    props = frozenset({spec.default_property}) if spec.default_property else frozenset()
    return Weapon(
        id=mode.value, name=mode.value, kind=WeaponKind.MELEE, damage=dice, damage_type=spec.default_types[0],
        alt_damage_types=spec.default_types[1:], properties=props, reach=reach,
    )


_NO_FLANK = frozenset({
    Condition.INCAPACITATED, Condition.PARALYZED, Condition.PETRIFIED, Condition.STUNNED,
    Condition.UNCONSCIOUS, Condition.GRAPPLED,
})


def provides_flanking(ally_conditions: Collection[Condition], ruleset: Ruleset) -> RuleId | None:
    """None if the ally can provide flanking, else the rule that stops it (incapacitated or grappled, POS-3)."""
    if ruleset.attack.flanking_excludes_disabled and _NO_FLANK.intersection(ally_conditions):
        return POS_3
    return None


def reach_of(weapon: Weapon | None, mode: AttackMode, ruleset: Ruleset) -> int:
    """Reach in feet: the weapon's, or the natural reach for unarmed and natural attacks without one (NAT-6)."""
    if weapon is not None:
        return weapon.reach
    return ruleset.attack.natural_reach if MODES[mode].default_dice else 0


def attack_traits(weapon: Weapon | None, mode: AttackMode, *, armor_piercing_ammo: bool = False,
                  same_side: bool = False) -> AttackTraits:
    """What cover needs to know about an attack (X-01, STC-1..9)."""
    # here, not at the top: checking an encounter's tactics needs this module's tables, not the defence rules
    # (rules.defense and the conditions it imports, ~10 ms of `ashfall validate`'s start)
    from ashfall.rules.defense import AttackTraits

    spec = MODES[effective_mode(mode, weapon)]
    ranged = is_ranged(spec, weapon)
    if weapon is None:
        return AttackTraits(ranged=ranged)
    return AttackTraits(
        ranged=ranged,
        heavy=weapon.has(WeaponProperty.HEAVY),
        armor_piercing=armor_piercing_ammo or weapon.has(WeaponProperty.ARMOR_PIERCING),
        explosive=weapon.has(WeaponProperty.EXPLOSIVE),
        same_side=same_side,
    )


def is_ranged(spec: ModeSpec, weapon: Weapon | None) -> bool:
    """Whether an attack of this mode with this weapon is ranged (a spell without a weapon is)."""
    if spec.ranged is not None:
        return spec.ranged
    return weapon is None or weapon.kind is WeaponKind.RANGED


def weapon_for(spec: ModeSpec, mode: AttackMode, weapon: Weapon | None, ruleset: Ruleset) -> Weapon | None:
    """The weapon an attack uses: the given one if it suits the mode, else the mode's built-in one.

    Raises:
        RuleViolation: The mode needs a weapon, or the weapon cannot make this kind of attack.
    """
    if weapon is None:
        if spec.default_dice is not None:
            return default_weapon(mode, spec.default_dice(ruleset.attack), ruleset.attack.natural_reach)
        if spec.needs is not None:
            raise RuleViolation(spec.attack_rule, f"a {mode.value} attack needs a weapon")
        return None
    needs = spec.needs
    if (isinstance(needs, WeaponKind) and weapon.kind is not needs) or (
        isinstance(needs, WeaponProperty) and not weapon.has(needs)
    ):
        raise RuleViolation(spec.attack_rule, f"{weapon.name} cannot make a {mode.value} attack")
    return weapon
