"""Defense Value: base, AGI with the armor cap, armor, shield, conditions, flat-footed, cover and Weak Point.

This module owns the number an attack roll must meet (DV-1..9), flat-footedness as it touches DV (FF-1,
FF-2, G-11, G-46), and cover as a DV bonus (COV-1..4, CVB-1, POS-6, AMOD-3, X-01, E-24), including how
heavy, armor-piercing and explosive attacks treat cover (STC-2..9, X-14). Cover is always a DV bonus,
never an attack penalty (E-24). Condition effects come from :mod:`ashfall.rules.conditions`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from ashfall.content.schema import Armor, ArmorCategory, Creature, Shield
from ashfall.core.modifiers import Modifier, ModifierKind, Stacked, stack
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.rules import conditions as cond
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import CoverApplies

DV_1 = rule("DV-1")
DV_2 = rule("DV-2")
FF_1 = rule("FF-1")
FF_2 = rule("FF-2")
G_11 = rule("G-11")
G_46 = rule("G-46")
G_54 = rule("G-54")
CS_5 = rule("CS-5")
COV_1 = rule("COV-1")
COV_2 = rule("COV-2")
COV_3 = rule("COV-3")
COV_4 = rule("COV-4")
X_01 = rule("X-01")
X_14 = rule("X-14")
STC_2 = rule("STC-2")
STC_3 = rule("STC-3")
STC_4 = rule("STC-4")
STC_5 = rule("STC-5")
STC_6 = rule("STC-6")
STC_7 = rule("STC-7")
STC_8 = rule("STC-8")
STC_9 = rule("STC-9")

COVER_GROUP = "cover"


class Cover(Enum):
    """How much cover stands between attacker and target (COV-1..3). Partial is the "light cover" of STC."""

    NONE = "none"
    PARTIAL = "partial"
    HEAVY = "heavy"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class AttackTraits:
    """What an attack is, as far as cover cares (X-01, STC-1..9).

    Attributes:
        ranged: A ranged weapon or ranged spell attack (cover's DV applies only to these by default, X-01).
        heavy: The weapon has the Heavy property (STC-1).
        armor_piercing: Armor-piercing ammunition or weapon (STC-5).
        explosive: An explosive (STC-6).
        same_side: For an explosive: it lands on the target's side of a total-cover barrier (STC-9).
    """

    ranged: bool = True
    heavy: bool = False
    armor_piercing: bool = False
    explosive: bool = False
    same_side: bool = False


GENERIC_RANGED = AttackTraits()
"""Used when no attack is given: a standard ranged attack, the case the cover table describes."""


@dataclass(frozen=True, slots=True)
class DefenseBreakdown:
    """A Defense Value with every part that made it.

    Attributes:
        total: The number an attack roll must meet or exceed (ATK-4).
        modifiers: Every part, each with its rule (base, AGI, armor, shield, conditions, cover ...).
        untargetable_reason: The rule that forbids targeting the creature (total cover), or None.
        cover: The cover that counted after heavy, armor-piercing and explosive attacks were considered.
        notes: Rules that changed the result without a number of their own (cover ignored, not vs melee ...).
        weak_point: True when computed for a Weak Point called shot (armor bonus dropped, CS-5).
    """

    total: int
    modifiers: Stacked
    untargetable_reason: RuleId | None = None
    cover: Cover = Cover.NONE
    notes: tuple[RuleId, ...] = ()
    weak_point: bool = False

    @property
    def targetable(self) -> bool:
        """Whether an attack may target the creature at all."""
        return self.untargetable_reason is None


def is_flat_footed(*, surprised: bool, unaware_of_attacker: bool) -> RuleId | None:
    """Whether the target is flat-footed against this attack: surprised, or unaware of the attacker (FF-1, G-11)."""
    if surprised:
        return FF_1
    if unaware_of_attacker:
        return G_11
    return None


_AGI_CAP_OPTION = {
    ArmorCategory.LIGHT: "agi_cap_light",
    ArmorCategory.MEDIUM: "agi_cap_medium",
    ArmorCategory.HEAVY: "agi_cap_heavy",
}
"""The defense option capping AGI for each armor category (a constant table: no dict built per attack)."""


def _agi_cap(armor: Armor | None, ruleset: Ruleset) -> int | None:
    if armor is None:
        return None
    cap: int | None = getattr(ruleset.defense, _AGI_CAP_OPTION[armor.category])
    return cap


def _agi_modifiers(
    agi: int, cap: int | None, flat_footed_rule: RuleId | None, ruleset: Ruleset
) -> list[Modifier]:
    """AGI capped by armor (DV-2, a negative AGI in full), then the flat-footed loss (FF-2, G-11, G-46)."""
    capped = agi if cap is None or agi <= cap else cap
    label = "AGI" if capped == agi else f"AGI (capped at {cap})"
    mods = [Modifier(capped, ModifierKind.ABILITY, DV_2 if capped != agi else DV_1, label)]
    if flat_footed_rule is not None:
        lost = capped if capped > 0 or not ruleset.defense.flat_footed_keeps_negative_agi else 0
        if lost:
            mods.append(Modifier(-lost, ModifierKind.CONDITION, flat_footed_rule, "flat-footed: AGI lost"))
    return mods


def _effective_cover(cover: Cover, attack: AttackTraits) -> tuple[Cover, RuleId | None]:
    """Cover after the attack's traits (STC-2..9, X-14) with the rule that decided it."""
    if cover is Cover.NONE:
        return cover, None
    if attack.explosive:
        if cover is Cover.TOTAL and not attack.same_side:
            return Cover.TOTAL, STC_8
        return Cover.NONE, (STC_9 if cover is Cover.TOTAL else STC_6)
    if cover is Cover.TOTAL:
        return Cover.TOTAL, STC_8
    if attack.heavy:
        return (Cover.NONE, STC_2) if cover is Cover.PARTIAL else (Cover.PARTIAL, STC_4)
    if attack.armor_piercing and cover is Cover.HEAVY:
        return Cover.PARTIAL, STC_5
    return cover, (STC_3 if cover is Cover.PARTIAL else STC_7)


def _cover_modifier(cover: Cover, decided_by: RuleId | None, ruleset: Ruleset) -> Modifier | None:
    if cover is not Cover.PARTIAL and cover is not Cover.HEAVY:
        return None  # the usual case (no cover): no table to build
    values = {
        Cover.PARTIAL: (ruleset.defense.cover_partial, COV_1, "partial cover"),
        Cover.HEAVY: (ruleset.defense.cover_heavy, COV_2, "heavy cover"),
    }
    if cover not in values:
        return None
    value, base_rule, label = values[cover]
    reduced = decided_by in (STC_4, STC_5)
    return Modifier(
        value,
        ModifierKind.COVER,
        decided_by if reduced and decided_by else base_rule,
        "heavy cover reduced to light" if reduced else label,
        COVER_GROUP,
    )


def _cover_part(
    cover: Cover, attack: AttackTraits, ruleset: Ruleset, leaning_out: bool
) -> tuple[Modifier | None, RuleId | None, Cover, list[RuleId]]:
    """The cover modifier, the untargetable rule, the cover that counted and notes."""
    notes: list[RuleId] = []
    if leaning_out and cover is not Cover.NONE:
        return None, None, Cover.NONE, [COV_4]
    effective, decided_by = _effective_cover(cover, attack)
    if effective is Cover.TOTAL:
        return None, (decided_by or COV_3), Cover.TOTAL, notes
    if decided_by in (STC_2, STC_6, STC_9):
        notes.append(decided_by)
        if decided_by != STC_2:
            notes.append(X_14)
        return None, None, Cover.NONE, notes
    if effective is not Cover.NONE and not attack.ranged and ruleset.defense.cover_applies is CoverApplies.RANGED_ONLY:
        return None, None, Cover.NONE, [X_01]
    return _cover_modifier(effective, decided_by, ruleset), None, effective, notes


def untargetable_behind(cover: Cover, attack: AttackTraits | None, ruleset: Ruleset, *,
                        leaning_out: bool = False) -> RuleId | None:
    """:func:`defense_value`'s ``untargetable_reason`` alone (COV-3, STC-8): only the cover part decides it.

    Legality checks ask it of every attack behind total cover, so the rest of the DV is not built for them.
    """
    return _cover_part(cover, attack or GENERIC_RANGED, ruleset, leaning_out)[1]


def defense_value(
    creature: Creature,
    armor: Armor | None,
    shield: Shield | None,
    ruleset: Ruleset,
    *,
    conditions: Collection[Condition] = (),
    cover: Cover = Cover.NONE,
    attack: AttackTraits | None = None,
    weak_point: bool = False,
    flat_footed: bool = False,
    misc: Sequence[Modifier] = (),
    fear_source_visible: bool = True,
    leaning_out: bool = False,
    unseen_attacker: bool = False,
) -> DefenseBreakdown:
    """Compute a creature's Defense Value against one attack (DV-1..9).

    Args:
        creature: The defender (its AGI modifier is read).
        armor: Worn armor, or None (no AGI cap, DV-2).
        shield: Carried shield, or None.
        ruleset: Supplies every number.
        conditions: The defender's conditions (Frightened -2 DV, flat-footed; from :mod:`conditions`).
        cover: Cover between attacker and defender (COV-1..3).
        attack: The attack's traits; None means a standard ranged attack.
        weak_point: A Weak Point called shot: drop the armor bonus only (CS-5, G-54).
        flat_footed: The defender is flat-footed against this attack (FF-1, G-11, G-46).
        misc: Further labelled DV modifiers (DV-1 "misc").
        fear_source_visible: Whether the source of a Frightened condition is visible (DV-8).
        leaning_out: The defender leaned out around its cover this round and loses it (COV-4, G-55).
        unseen_attacker: The attacker is unseen (hidden, invisible): with ``defense.flat_footed_with_unseen``
            off the defender keeps its AGI, the advantage being the only effect (G-46).

    Returns:
        The breakdown; ``untargetable_reason`` is set behind total cover (COV-3, STC-8, CVB-1, POS-6).
    """
    traits = attack or GENERIC_RANGED
    mods: list[Modifier] = [Modifier(ruleset.defense.dv_base, ModifierKind.DV_BASE, DV_1, "base")]
    ff_rule: RuleId | None = FF_2 if flat_footed else None
    if conditions:
        ff_rule = ff_rule or cond.loses_positive_agi(conditions, ruleset=ruleset)
    kept_agi = ff_rule is not None and unseen_attacker and not ruleset.defense.flat_footed_with_unseen
    if kept_agi:
        ff_rule = None  # G-46's alternative: an unseen attacker's advantage replaces the AGI loss
    armor_whole_line = weak_point and not ruleset.defense.weak_point_armor_only
    cap = None if armor_whole_line else _agi_cap(armor, ruleset)
    mods.extend(_agi_modifiers(creature.attributes.AGI, cap, ff_rule, ruleset))
    if armor is not None:
        mods.append(Modifier(armor.bonus, ModifierKind.ARMOR, DV_1, armor.name))
        if weak_point and armor.bonus:
            rule_id = G_54 if ruleset.defense.weak_point_armor_only else CS_5
            mods.append(Modifier(-armor.bonus, ModifierKind.CALLED_SHOT, rule_id, "Weak Point: armor bonus ignored"))
    if shield is not None:
        mods.append(Modifier(shield.bonus, ModifierKind.SHIELD, DV_1, shield.name))
    if conditions:
        mods.extend(cond.dv_modifiers(conditions, ruleset, fear_source_visible=fear_source_visible))
    mods.extend(misc)
    cover_mod, untargetable, effective, notes = _cover_part(cover, traits, ruleset, leaning_out)
    if cover_mod is not None:
        mods.append(cover_mod)
    stacked = stack(mods)
    notes.extend((G_46,) if kept_agi else ())
    return DefenseBreakdown(stacked.total, stacked, untargetable, effective, tuple(notes), weak_point)


def hull(creature: Creature, ruleset: Ruleset) -> Armor | None:
    """The armor a vehicle wears so that its DV is ``vehicle.dv`` (DV-1): dv - base - AGI, never below 0.

    Here, not in the vehicles family, because building any combatant (before a fight has a rulebook) asks it.
    """
    v = creature.vehicle
    if v is None:
        return None
    bonus = max(v.dv - ruleset.defense.dv_base - creature.attributes.AGI, 0)
    return Armor(id=f"{creature.id}-hull", name="hull", category=ArmorCategory.LIGHT, bonus=bonus)
