"""Healing by Medicine check: Emergency Field Medicine, Field Surgery and Medical Treatment (MAA-6, HEAL-6, HEAL-9).

Each rolls the healer's Medicine check (:func:`ashfall.rules.checks.ability_check`) against a fixed
DC (meet or exceed succeeds, G-45) and, on a success, heals through :func:`ashfall.families.dying.rules_healing.heal`,
which also stabilises a dying target (DEATH-13, G-57). Timers and once-per-period limits live in the
target's :class:`~ashfall.families.dying.rules_recovery.Recovery`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ashfall.content.schema import Creature
from ashfall.core.dice import Roll, parse, roll
from ashfall.core.modifiers import Modifier, RollSource
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, Skill
from ashfall.families.dying.rules_healing import HealResult, heal, require_alive_body
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.rules.checks import CheckResult, ability_check
from ashfall.rules.dc import DC, fixed_dc
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health
from ashfall.ruleset import Ruleset

MAA_6 = rule("MAA-6")
HEAL_6 = rule("HEAL-6")
HEAL_9 = rule("HEAL-9")
E_12 = rule("E-12")
G_49 = rule("G-49")
G_57 = rule("G-57")
X_23 = rule("X-23")



def medicine_check(
    medic: Creature,
    dc: DC,
    rng: Rng,
    ruleset: Ruleset,
    *,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    extra: Sequence[Modifier] = (),
) -> CheckResult:
    """Roll the medic's Medicine check against ``dc`` through :func:`ashfall.rules.checks.ability_check`.

    Args:
        medic: Who makes the check (Medicine: WIS + proficiency if proficient, or the stat block's total).
        dc: The DC, naming the activity's rule.
        rng: The injected RNG.
        ruleset: Meet-or-exceed (G-45); natural 20/1 only with ``checks.natural_rules_on_saves`` (G-44).
        conditions: The medic's conditions (Poisoned ... give disadvantage).
        sources: Further advantage/disadvantage sources (Help ...).
        extra: Further labelled modifiers.
    """
    return ability_check(medic, Skill.MEDICINE, dc, rng, ruleset, conditions=conditions, sources=sources,
                         modifiers=extra)


def _healer_roll(dice: str, healer: Creature, rng: Rng) -> Roll:
    return roll(parse(dice).plus(healer.attributes[Attribute.WIS]), rng)


# ----- Emergency Field Medicine (MAA-6, X-23, E-12, G-57) -----


@dataclass(frozen=True, slots=True)
class FieldMedicineResult:
    """Emergency Field Medicine: the check, and on a success the 2d6 + WIS heal (which stabilises, G-57).

    ``lockout_hours`` is how long a failure keeps the target from benefiting again (8 in edition 1, E-12).
    """

    health: Health
    recovery: Recovery
    check: CheckResult
    roll: Roll | None
    heal: HealResult | None
    lockout_hours: int
    actions: int
    rules: tuple[RuleId, ...]


def emergency_field_medicine(
    target: Health,
    target_recovery: Recovery,
    healer: Creature,
    rng: Rng,
    ruleset: Ruleset,
    *,
    in_combat: bool,
    has_kit: bool = True,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    extra: Sequence[Modifier] = (),
) -> FieldMedicineResult:
    """Use a Medicine kit on a target: DC 15, or DC 20 once initiative is rolled (X-23); 2 actions.

    Raises:
        RuleViolation: No Medicine kit (MAA-6); the target is locked out after a failure (E-12);
            the target is dead (DEATH-3), or dying when ``healing.efm_stabilises`` is off (G-57).
    """
    opts = ruleset.healing
    if not has_kit:
        raise RuleViolation(MAA_6, "Emergency Field Medicine needs a Medicine kit")
    require_alive_body(target)
    if target.is_dying and not opts.efm_stabilises:
        raise RuleViolation(G_57, "under this ruleset Emergency Field Medicine cannot treat a dying creature")
    if target_recovery.efm_lockout_hours > 0:
        hours = target_recovery.efm_lockout_hours
        raise RuleViolation(E_12, f"a failed attempt keeps the target from benefiting for {hours} more hours")
    dc = fixed_dc(opts.efm_dc_combat, X_23, "in combat") if in_combat else fixed_dc(opts.efm_dc, MAA_6, "DC")
    check = medicine_check(healer, dc, rng, ruleset, conditions=conditions, sources=sources, extra=extra)
    base: tuple[RuleId, ...] = (MAA_6, X_23) if in_combat else (MAA_6,)
    if not check.success:
        lockout = opts.efm_failure_lockout_hours
        after = target_recovery.evolve(efm_lockout_hours=lockout) if lockout else target_recovery
        return FieldMedicineResult(
            target, after, check, None, None, lockout, opts.efm_actions, (*base, E_12) if lockout else base
        )
    rolled = _healer_roll(opts.efm_dice, healer, rng)
    healed = heal(target, max(0, rolled.total), MAA_6, "Emergency Field Medicine")
    stabilised = (G_57,) if target.is_dying else ()
    return FieldMedicineResult(
        healed.health, target_recovery, check, rolled, healed, 0, opts.efm_actions,
        (*base, *healed.rules[1:], *stabilised),
    )


# ----- Field Surgery (HEAL-6, G-49) -----


@dataclass(frozen=True, slots=True)
class SurgeryResult:
    """Field Surgery: on success 4d8 + WIS and the 24-hour benefit used; on failure a kit use spent (G-49)."""

    health: Health
    recovery: Recovery
    check: CheckResult
    roll: Roll | None
    heal: HealResult | None
    kit_uses_spent: int
    minutes: int
    rules: tuple[RuleId, ...]


def field_surgery(
    target: Health,
    target_recovery: Recovery,
    medic: Creature,
    rng: Rng,
    ruleset: Ruleset,
    *,
    in_combat: bool,
    has_kit: bool = True,
    stable_environment: bool = True,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    extra: Sequence[Modifier] = (),
) -> SurgeryResult:
    """Perform Field Surgery (10 minutes, Medicine DC 15, 4d8 + the medic's WIS).

    Raises:
        RuleViolation: In combat, without a kit or a stable environment, or within 24 hours of the
            target's last Field Surgery benefit (HEAL-6); the target is dead.
    """
    opts = ruleset.healing
    if in_combat or not stable_environment:
        raise RuleViolation(HEAL_6, "Field Surgery needs a stable environment and cannot be performed in combat")
    if not has_kit:
        raise RuleViolation(HEAL_6, "Field Surgery needs a Medicine kit")
    require_alive_body(target)
    last = target_recovery.field_surgery_hours_ago
    if last is not None and last < opts.field_surgery_cooldown_hours:
        raise RuleViolation(HEAL_6, f"the target benefited from Field Surgery {last} hours ago (once per 24 hours)")
    check = medicine_check(medic, fixed_dc(opts.field_surgery_dc, HEAL_6, "DC"), rng, ruleset,
                           conditions=conditions, sources=sources, extra=extra)
    if not check.success:
        return SurgeryResult(target, target_recovery, check, None, None, opts.field_surgery_failure_kit_uses,
                             opts.field_surgery_minutes, (HEAL_6, G_49))
    rolled = _healer_roll(opts.field_surgery_dice, medic, rng)
    healed = heal(target, max(0, rolled.total), HEAL_6, "Field Surgery")
    return SurgeryResult(healed.health, target_recovery.evolve(field_surgery_hours_ago=0), check, rolled, healed,
                         0, opts.field_surgery_minutes, healed.rules)


# ----- Medical Treatment (HEAL-9) -----


@dataclass(frozen=True, slots=True)
class TreatmentResult:
    """Medical Treatment in downtime: on success +2d8 HP and the rest period's benefit used."""

    health: Health
    recovery: Recovery
    check: CheckResult
    roll: Roll | None
    heal: HealResult | None
    hours: int
    rules: tuple[RuleId, ...]


def medical_treatment(
    target: Health,
    target_recovery: Recovery,
    medic: Creature,
    rng: Rng,
    ruleset: Ruleset,
    *,
    has_supplies: bool = True,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    extra: Sequence[Modifier] = (),
) -> TreatmentResult:
    """An hour of care: Medicine DC 15; success gives +2d8 HP, once per rest period.

    A failure gives no benefit and so does not use the rest period's benefit (the reading G-49 gives
    Field Surgery).

    Raises:
        RuleViolation: Without medical supplies, or the target already benefited this rest period (HEAL-9).
    """
    opts = ruleset.healing
    if not has_supplies:
        raise RuleViolation(HEAL_9, "Medical Treatment needs medical supplies")
    require_alive_body(target)
    if target_recovery.medical_treatment_used:
        raise RuleViolation(HEAL_9, "the target already benefited from Medical Treatment this rest period")
    check = medicine_check(medic, fixed_dc(opts.medical_treatment_dc, HEAL_9, "DC"), rng, ruleset,
                           conditions=conditions, sources=sources, extra=extra)
    if not check.success:
        return TreatmentResult(target, target_recovery, check, None, None, opts.medical_treatment_hours, (HEAL_9,))
    rolled = roll(opts.medical_treatment_dice, rng)
    healed = heal(target, max(0, rolled.total), HEAL_9, "Medical Treatment")
    return TreatmentResult(healed.health, target_recovery.evolve(medical_treatment_used=True), check, rolled, healed,
                           opts.medical_treatment_hours, healed.rules)
