"""Attack rolls: gathering modifiers and advantage sources, rolling against DV, hits, crits and damage parts.

This module owns the attack-roll formulas (ATK-1..4, PSI-3), attack modifiers (AMOD-1..8, POS-1..5),
natural 20/1 and automatic crits (CRIT-1, CRIT-3, CRIT-5, G-44), the activities' roll and damage changes
(MAA-2/3/5/7, SWP-1..3, RX-13, RX-30, E-05), called shots (CS-0..6), two-weapon fighting (TWF-4..8,
X-11) and improvised/natural weapons (IMP-1/2, NAT-1/2/6). It builds the :class:`DamagePart` tuple of a
hit; :mod:`ashfall.rules.damage` rolls it. Multi-target activities (Sweeping Strike, Full Auto Burst)
are in :mod:`ashfall.families.attacks.rules_multi_attack`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from enum import Enum

from ashfall.content.schema import Creature, Weapon
from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.dice import parse
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, adv, dis
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType
from ashfall.families.attacks.rules_activities import (
    ACTIVITIES,
    MODES,
    Activity,
    ActivitySpec,
    AttackMode,
    ModeSpec,
    Reach,
    counts_for_map,
    effective_mode,
    is_ranged,
    takes_map,
    weapon_for,
)
from ashfall.families.attacks.rules_called_shots import (
    CalledShot,
    CalledShotSpec,
    Rider,
    called_shot_modifier,
    called_shot_spec,
)
from ashfall.families.attacks.rules_map import TwoWeapon, two_weapon_modifiers
from ashfall.rules import conditions as cond
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import DefenseBreakdown
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset

NATURAL_MAX = 20
"""The top face of the d20 (CRIT-1); a property of the die, not a tunable number."""
NATURAL_MIN = 1
"""The bottom face of the d20 (CRIT-3)."""

ATK_3 = rule("ATK-3")
ATK_4 = rule("ATK-4")
ATK_5 = rule("ATK-5")
AMOD_1 = rule("AMOD-1")
AMOD_2 = rule("AMOD-2")
AMOD_5 = rule("AMOD-5")
AMOD_7 = rule("AMOD-7")
CRIT_1 = rule("CRIT-1")
CRIT_3 = rule("CRIT-3")
G_10 = rule("G-10")
CS_5 = rule("CS-5")
CS_6 = rule("CS-6")
DMG_1 = rule("DMG-1")
E_05 = rule("E-05")
G_36 = rule("G-36")
IMP_2 = rule("IMP-2")
NAT_2 = rule("NAT-2")
TWF_1 = rule("TWF-1")
TWF_4 = rule("TWF-4")
TWF_6 = rule("TWF-6")


class Outcome(Enum):
    """The result of one attack roll against one DV."""

    MISS = "miss"
    HIT = "hit"
    CRIT = "crit"


@dataclass(frozen=True, slots=True)
class AttackContext:
    """Everything about the situation of one attack that the attacker and weapon do not say.

    Attributes:
        activity: The activity the attack is part of.
        map_modifier: The MAP for this attack, from :func:`ashfall.families.attacks.rules_map.map_modifier` (the turn
            engine
            counts attacks). Dropped for activities that take no MAP (G-41, MAP-6).
        flanking: The attacker flanks the target (AMOD-1, POS-1; see :func:`provides_flanking`).
        high_ground: The attacker has high ground (AMOD-2, POS-4).
        hostile_within_5ft: A hostile creature is within 5 ft of the attacker (AMOD-7).
        ranged_in_melee_exempt: A feature removes the AMOD-7 disadvantage.
        within_5ft: The attacker is within 5 ft of the target (auto-crits, X-02).
        target_conditions: The target's conditions.
        attacker_conditions: The attacker's conditions.
        fear_source_visible: The source of the attacker's Frightened condition is in view (C-FRI).
        unseen_attacker: The target cannot see the attacker (AMOD-5, X-10).
        called_shot: A called shot declared before the roll (CS-0), or None.
        two_weapon: Two-weapon fighting details (TWF-4..8), or None.
        aimed: The attacker took edition 1's Aim action before this ranged attack (E-05).
        damage_type: A damage type chosen for this attack (natural weapons, NAT-2), or None for the weapon's.
        extra_modifiers: Further labelled attack modifiers.
        extra_sources: Further advantage/disadvantage sources.
        extra_damage: Further damage parts added on a hit.
    """

    activity: Activity = Activity.STRIKE
    map_modifier: Modifier | None = None
    flanking: bool = False
    high_ground: bool = False
    hostile_within_5ft: bool = False
    ranged_in_melee_exempt: bool = False
    within_5ft: bool = True
    target_conditions: frozenset[Condition] = frozenset()
    attacker_conditions: frozenset[Condition] = frozenset()
    fear_source_visible: bool = True
    unseen_attacker: bool = False
    called_shot: CalledShot | None = None
    two_weapon: TwoWeapon | None = None
    aimed: bool = False
    damage_type: DamageType | None = None
    extra_modifiers: tuple[Modifier, ...] = ()
    extra_sources: tuple[RollSource, ...] = ()
    extra_damage: tuple[DamagePart, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class PreparedAttack:
    """An attack ready to roll: the resolved mode, weapon, specs, modifiers and sources."""

    mode: AttackMode
    mode_spec: ModeSpec
    weapon: Weapon | None
    ranged: bool
    activity: ActivitySpec
    called: CalledShotSpec | None
    modifiers: tuple[Modifier, ...]
    sources: tuple[RollSource, ...]


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One resolved attack roll against one target.

    Attributes:
        mode: The attack mode after natural/improvised weapons were recognised.
        activity: The activity it was part of.
        weapon: The weapon used (a built-in one for unarmed, natural and improvised attacks without one;
            None for a spell or psionic attack without one).
        roll: The d20 roll with every modifier and source.
        defense: The DV it was compared with.
        outcome: Miss, hit or crit.
        reasons: The rules that decided the outcome (ATK-4, CRIT-1, CRIT-3, CRIT-5, CS-6 ...).
        damage_parts: What a hit deals, unrolled (empty on a miss).
        riders: Non-damage effects of a hit (empty on a miss).
        counts_for_map: Whether the attack advances MAP (G-41).
        fumble: The GM's fumble-table effect for this missed roll's face, or None (G-10; off by default).
        target_id: The creature the roll was made against, set by ``perform_attack``: the one declared, or the
            creature that took the attack on itself (Intercept, RX-27). None for a roll resolved on its own.
    """

    mode: AttackMode
    activity: Activity
    weapon: Weapon | None
    roll: D20Roll
    defense: DefenseBreakdown
    outcome: Outcome
    reasons: tuple[RuleId, ...]
    damage_parts: tuple[DamagePart, ...]
    riders: tuple[Rider, ...]
    counts_for_map: bool
    fumble: str | None = None
    target_id: str | None = None

    @property
    def hit(self) -> bool:
        """A hit or a crit."""
        return self.outcome is not Outcome.MISS

    @property
    def crit(self) -> bool:
        """A critical hit."""
        return self.outcome is Outcome.CRIT


def _check_activity(act: Activity, spec: ActivitySpec, ranged: bool, ruleset: Ruleset) -> None:
    missing = spec.unavailable(ruleset)
    if missing is not None:
        raise RuleViolation(missing, f"{act.value} does not exist in this ruleset")
    if (spec.reach is Reach.MELEE_ONLY and ranged) or (spec.reach is Reach.RANGED_ONLY and not ranged):
        raise RuleViolation(spec.rule, f"{act.value} needs a {'melee' if ranged else 'ranged'} attack")
    if act is Activity.POWER_STRIKE and ranged and ruleset.attack.power_strike_melee_only:
        raise RuleViolation(G_36, "Power Strike is melee only in this ruleset")


def _proficiency(attacker: Creature, spec: ModeSpec, weapon: Weapon | None, ruleset: Ruleset) -> Modifier | None:
    proficient = spec.always_proficient or weapon is None or attacker.is_proficient_with(weapon)
    if proficient or not ruleset.attack.proficiency_only_if_proficient:
        return Modifier(attacker.proficiency, ModifierKind.PROFICIENCY, spec.attack_rule, "proficiency")
    return None


def _map_part(ctx: AttackContext, weapon: Weapon | None, mode: AttackMode, ruleset: Ruleset) -> list[Modifier]:
    if not takes_map(ctx.activity, ruleset) or (
        mode is AttackMode.SPELL and not ruleset.attack.spell_attacks_take_map
    ):
        return []
    if ctx.two_weapon is not None:
        if weapon is None:
            raise RuleViolation(TWF_1, "two-weapon fighting needs a weapon in each hand")
        return list(two_weapon_modifiers(ctx.two_weapon, weapon, ctx.map_modifier, ruleset))
    return [ctx.map_modifier] if ctx.map_modifier is not None else []


def _situational(ctx: AttackContext, act: ActivitySpec, ranged: bool, ruleset: Ruleset) -> list[Modifier]:
    a = ruleset.attack
    mods: list[Modifier] = []
    penalty = act.attack(a)
    if penalty:
        mods.append(Modifier(penalty, ModifierKind.ACTIVITY, act.rule, ctx.activity.value))
    if ctx.aimed:
        if not a.aim_available or not ranged:
            raise RuleViolation(E_05, "Aim exists only in edition 1 and only helps a ranged attack")
        mods.append(Modifier(a.aim_bonus, ModifierKind.ACTIVITY, E_05, "Aim"))
    if ctx.flanking and not ranged:
        mods.append(Modifier(a.flanking, ModifierKind.CIRCUMSTANCE, AMOD_1, "flanking"))
    if ctx.high_ground and ranged:
        mods.append(Modifier(a.high_ground, ModifierKind.CIRCUMSTANCE, AMOD_2, "high ground"))
    return mods


def _sources(attacker: Creature, weapon: Weapon | None, mode: AttackMode, ranged: bool, ctx: AttackContext,
             ruleset: Ruleset) -> tuple[RollSource, ...]:
    found: list[RollSource] = []
    if ctx.attacker_conditions or ctx.target_conditions:
        found.extend(cond.attack_sources(ctx.attacker_conditions, ctx.target_conditions, melee=not ranged,
                                         within_5ft=ctx.within_5ft, ruleset=ruleset,
                                         fear_source_visible=ctx.fear_source_visible))
    if ctx.unseen_attacker:
        found.append(adv(AMOD_5, "unseen attacker"))
    if ranged and ctx.hostile_within_5ft and ruleset.attack.ranged_in_melee_disadvantage and not (
        ctx.ranged_in_melee_exempt
    ):
        found.append(dis(AMOD_7, "ranged attack with a hostile within 5 ft"))
    if mode is AttackMode.IMPROVISED and weapon is not None and ruleset.attack.improvised_disadvantage and not (
        attacker.is_proficient_with(weapon)
    ):
        found.append(dis(IMP_2, "improvised weapon without proficiency"))
    found.extend(ctx.extra_sources)
    return tuple(found)


def prepare_attack(attacker: Creature, weapon: Weapon | None, mode: AttackMode, ruleset: Ruleset,
                   context: AttackContext) -> PreparedAttack:
    """Check the attack is allowed and gather its modifiers and advantage sources (before any roll).

    Raises:
        RuleViolation: A mode, activity, called shot or two-weapon attack the ruleset does not allow.
    """
    mode = effective_mode(mode, weapon)
    spec = MODES[mode]
    missing = spec.unavailable(ruleset)
    if missing is not None:
        raise RuleViolation(missing, f"{mode.value} attacks do not exist in this ruleset")
    used = weapon_for(spec, mode, weapon, ruleset)
    ranged = is_ranged(spec, used)
    act = ACTIVITIES[context.activity]
    _check_activity(context.activity, act, ranged, ruleset)
    called = called_shot_spec(context.called_shot, ruleset) if context.called_shot else None
    attribute = spec.attack_attribute or attacker.spell_attribute
    if attribute is None:
        raise RuleViolation(ATK_3, f"{attacker.name} has no spellcasting attribute")
    mods: list[Modifier] = [
        Modifier(attacker.attributes[attribute], ModifierKind.ABILITY, spec.attack_rule, attribute.name)
    ]
    prof = _proficiency(attacker, spec, used, ruleset)
    if prof is not None:
        mods.append(prof)
    if used is not None and spec.weapon_bonus and used.bonus:
        mods.append(Modifier(used.bonus, ModifierKind.ITEM, spec.attack_rule, used.name))
    mods.extend(_map_part(context, used, mode, ruleset))
    mods.extend(_situational(context, act, ranged, ruleset))
    if called is not None and context.called_shot is not None:
        mods.append(called_shot_modifier(context.called_shot, ruleset))
    mods.extend(context.extra_modifiers)
    sources = _sources(attacker, used, mode, ranged, context, ruleset)
    return PreparedAttack(mode, spec, used, ranged, act, called, tuple(mods), sources)


def attack_modifiers(attacker: Creature, weapon: Weapon | None, mode: AttackMode, ruleset: Ruleset,
                     context: AttackContext) -> tuple[tuple[Modifier, ...], tuple[RollSource, ...]]:
    """The labelled modifiers and advantage/disadvantage sources of one attack roll.

    Cover is never among them: it is part of the target's DV (E-24, X-01).

    Raises:
        RuleViolation: See :func:`prepare_attack`.
    """
    prepared = prepare_attack(attacker, weapon, mode, ruleset, context)
    return prepared.modifiers, prepared.sources


def _damage_type(weapon: Weapon | None, ctx: AttackContext) -> DamageType:
    if weapon is None:
        if ctx.damage_type is None:
            raise RuleViolation(DMG_1, "an attack without a weapon needs a damage type")
        return ctx.damage_type
    if ctx.damage_type is None or ctx.damage_type is weapon.damage_type:
        return weapon.damage_type
    if ctx.damage_type not in weapon.alt_damage_types:
        raise RuleViolation(NAT_2, f"{weapon.name} cannot deal {ctx.damage_type.value} damage")
    return ctx.damage_type


def _attribute_part(attacker: Creature, p: PreparedAttack, ctx: AttackContext, dtype: DamageType) -> DamagePart | None:
    attribute = p.mode_spec.damage_attribute
    if attribute is None:
        return None
    value = attacker.attributes[attribute]
    rule_id = p.mode_spec.damage_rule
    twf = ctx.two_weapon
    if twf is not None and twf.off_hand:
        if twf.ability:
            rule_id = TWF_6
        elif value > 0:
            return None
        else:
            rule_id = TWF_4
    return DamagePart(dtype, rule_id, attribute.name, flat=value) if value else None


def build_damage_parts(attacker: Creature, prepared: PreparedAttack, ctx: AttackContext, ruleset: Ruleset,
                       *, dice_only: bool = False) -> tuple[DamagePart, ...]:
    """The damage of a hit as unrolled, labelled parts (DMG-1..5, MAA-5, RX-13, CS-2, TWF-4..6).

    Args:
        attacker: The attacker (its damage attribute).
        prepared: From :func:`prepare_attack`.
        ctx: The attack context (two-weapon, chosen damage type, extra damage).
        ruleset: Supplies every number.
        dice_only: Weapon dice only (Sweeping Strike's other targets, SWP-3, G-09).
    """
    weapon = prepared.weapon
    if weapon is None:
        return ctx.extra_damage
    dtype = _damage_type(weapon, ctx)
    parts: list[DamagePart] = [
        DamagePart(dtype, prepared.mode_spec.damage_rule, weapon.name, parse(weapon.damage), weapon_dice=True)
    ]
    if dice_only:
        return tuple(parts)
    attribute_part = _attribute_part(attacker, prepared, ctx, dtype)
    if attribute_part is not None:
        parts.append(attribute_part)
    if weapon.damage_bonus:
        parts.append(DamagePart(dtype, DMG_1, f"{weapon.name} bonus", flat=weapon.damage_bonus))
    act, a = prepared.activity, ruleset.attack
    flat, dice = act.damage_flat(a), act.damage_dice(a)
    if flat:
        parts.append(DamagePart(dtype, act.rule, ctx.activity.value, flat=flat))
    if dice:
        parts.append(DamagePart(dtype, act.rule, ctx.activity.value, parse(dice)))
    extra = prepared.called.extra_dice(a) if prepared.called else None
    if extra and prepared.called:
        parts.append(DamagePart(dtype, prepared.called.rule, "called shot", parse(extra)))
    parts.extend(ctx.extra_damage)
    return tuple(parts)


def judge(
    natural: int, total: int, dv: int, auto_crit: RuleId | None, ruleset: Ruleset
) -> tuple[Outcome, tuple[RuleId, ...]]:
    """Hit, miss or crit of one roll against one DV (ATK-4, CRIT-1, CRIT-3, CRIT-5; G-44: attack rolls only)."""
    a = ruleset.attack
    if natural == NATURAL_MIN and a.natural_1_misses:
        return Outcome.MISS, (CRIT_3,)
    if natural == NATURAL_MAX and a.natural_20_hits:
        return Outcome.CRIT, (CRIT_1,)
    if total >= dv:
        return (Outcome.CRIT, (ATK_4, auto_crit)) if auto_crit else (Outcome.HIT, (ATK_4,))
    return Outcome.MISS, (ATK_4,)


def fumble(natural: int, outcome: Outcome, ruleset: Ruleset) -> str | None:
    """The optional fumble table's effect for a missed roll's natural face, or None (G-10: empty by default)."""
    return ruleset.attack.fumble_table.get(natural) if outcome is Outcome.MISS else None


def auto_crit_rule(
    prepared: PreparedAttack, target_conditions: Collection[Condition], within_5ft: bool
) -> RuleId | None:
    """The rule making a hit a crit: Vitals (CS-6) or the target's condition (CRIT-5), or None."""
    if prepared.called is not None and prepared.called.auto_crit:
        return CS_6
    if target_conditions:
        return cond.auto_crit(target_conditions, melee=not prepared.ranged, within_5ft=within_5ft)
    return None


def check_target(defense: DefenseBreakdown, prepared: PreparedAttack) -> None:
    """Refuse an untargetable target or a DV that does not match a Weak Point called shot (CS-5, G-54).

    Raises:
        RuleViolation: Behind total cover, or the DV was computed for the wrong called shot.
    """
    if defense.untargetable_reason is not None:
        raise RuleViolation(defense.untargetable_reason, "the target cannot be targeted (total cover)")
    weak = prepared.called is not None and prepared.called.weak_point
    if weak != defense.weak_point:
        raise RuleViolation(CS_5, "compute the DV with weak_point=True exactly for a Weak Point called shot")


def resolve_attack(attacker: Creature, weapon: Weapon | None, mode: AttackMode, target_dv: DefenseBreakdown,
                   context: AttackContext, rng: Rng, ruleset: Ruleset, *,
                   prepared: PreparedAttack | None = None) -> AttackResult:
    """Roll one attack against one DV and say what it does.

    Args:
        attacker: The attacker.
        weapon: The weapon; None for an unarmed strike, a default natural or improvised weapon, or a spell
            without damage dice.
        mode: How the attack is made.
        target_dv: The target's DV for this attack (from :func:`ashfall.rules.defense.defense_value`).
        context: The situation.
        rng: Supplies the d20 (and nothing else: damage is rolled by :mod:`ashfall.rules.damage`).
        ruleset: Supplies every number.
        prepared: What :func:`prepare_attack` returned for these same attacker, weapon, mode, ruleset and context,
            if the caller has it (asking about one attack with many faces gathers its modifiers once); None
            gathers them here.

    Raises:
        RuleViolation: Before rolling, for an untargetable target or an attack the ruleset forbids.
    """
    if prepared is None:
        prepared = prepare_attack(attacker, weapon, mode, ruleset, context)
    check_target(target_dv, prepared)
    roll = roll_d20(rng, prepared.modifiers, prepared.sources)
    crit_rule = auto_crit_rule(prepared, context.target_conditions, context.within_5ft)
    outcome, reasons = judge(roll.natural, roll.total, target_dv.total, crit_rule, ruleset)
    hit = outcome is not Outcome.MISS
    parts = build_damage_parts(attacker, prepared, context, ruleset) if hit else ()
    riders = prepared.called.riders(ruleset.attack) if hit and prepared.called else ()
    fumbled = fumble(roll.natural, outcome, ruleset)
    return AttackResult(prepared.mode, context.activity, prepared.weapon, roll, target_dv, outcome,
                        (*reasons, G_10) if fumbled is not None else reasons, parts, riders,
                        counts_for_map(context.activity, ruleset), fumbled)
