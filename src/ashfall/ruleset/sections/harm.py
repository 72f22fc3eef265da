"""Options for damage, DR, resistance, temporary HP, massive damage, dying, healing, rest and resurrection.

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

# annotations evaluated here, not postponed: pydantic would otherwise compile each option's from a string

from typing import Any, ClassVar

from ashfall.ruleset.base import Section, option
from ashfall.ruleset.sections.enums import (
    DeflectStep,
    DrStacking,
    HardnessBypass,
    MassiveDamageBasis,
    ResistVuln,
    ResurrectionCost,
    SecondWindAdds,
    StabiliseBy,
)


class DamageSection(Section):
    """Damage, DR, resistance, temporary HP, massive damage and objects (DMG, DR, RVI, THP, MASS, OBJ)."""

    minimum_damage: int = option(0, "G-42", "A hit never deals less than this.")
    dr_stacking: DrStacking = option(
        DrStacking.DIFFERENT_SOURCES_STACK, "DR-4", "How DR from several sources combines (E-27)."
    )
    dr_sources_any: bool = option(True, "E-27", "DR can come from features and abilities, not only armor.")
    resist_vuln: ResistVuln = option(
        ResistVuln.CANCEL, "G-43", "Resistance and vulnerability to one type.", "halve-then-double"
    )
    hardness_bypass: HardnessBypass = option(
        HardnessBypass.FIRE_ELECTRIC_FORCE, "X-06", "Damage types that ignore Hardness.",
        "energy-and-force | fire-on-flammable-only",
    )
    object_piercing_halved: bool = option(True, "OBJ-8", "Piercing deals half damage to non-fragile objects.")
    psychic_ignores_physical_dr: bool = option(True, "PSI-10", "Physical DR does not reduce psychic damage.")
    massive_damage: bool = option(True, "MASS-1", "Massive damage kills outright.")
    massive_damage_basis: MassiveDamageBasis = option(
        MassiveDamageBasis.AFTER_TEMP_HP, "G-50", "Damage counted for massive damage.", "before-temp-hp"
    )
    deflect_step: DeflectStep = option(
        DeflectStep.BEFORE_DR, "G-39", "Where Deflect falls in the damage order: before DR (step 3).",
        "after-resistance (after step 6, just before temporary HP)",
    )
    arcane_ward_stacks: bool = option(True, "THP-4", "Arcane Ward temporary HP stack with themselves (E-28).")
    resistance_divisor: int = option(2, "RVI-1", "Resistance divides damage by this, rounding down.")
    vulnerability_multiplier: int = option(2, "RVI-2", "Vulnerability multiplies damage by this.")
    object_piercing_divisor: int = option(
        2, "OBJ-8", "Piercing damage to a non-fragile object is divided by this, rounding down (G-48)."
    )
    stabilized_damage_resumes_dying: bool = option(
        True, "DEATH-14",
        "The text is silent on damage to a stabilized creature (0 HP, no death saves): by default it starts "
        "dying again with the usual damage failures (DEATH-10, DEATH-11); switched off, it stays stabilized "
        "unless the damage kills it outright (MASS-3).",
        "stays stabilized",
    )

    LEGACY: ClassVar[dict[str, Any]] = {
        "dr_stacking": DrStacking.HIGHEST_ONLY,  # E-27: no stacking rule
        "dr_sources_any": False,  # E-27: armor only
        "arcane_ward_stacks": False,  # E-28
    }


class DyingSection(Section):
    """Death saves, damage while dying, stabilising (DEATH, STAB, G-38)."""

    save_success_min: int = option(10, "DEATH-5", "Lowest death-save face that is a success.")
    natural_20_hp: int = option(1, "DEATH-7", "HP regained on a natural 20 death save.")
    natural_1_failures: int = option(2, "DEATH-8", "Failures marked by a natural 1.")
    successes_to_stabilise: int = option(3, "DEATH-3", "Successes that stabilise.")
    failures_to_die: int = option(3, "DEATH-3", "Failures that kill.")
    damage_failures: int = option(1, "DEATH-10", "Failures marked by any damage while dying.")
    crit_failures: int = option(2, "DEATH-11", "Failures marked by a critical hit while dying.")
    stabilise_by: StabiliseBy = option(StabiliseBy.HEALING_ONLY, "DEATH-17", "What stabilises (E-31).")
    medicine_stabilise_dc: int = option(10, "E-31", "Edition 1's Medicine check DC to stabilise.")
    stabilised_wake: str = option("1d4", "DEATH-15", "Hours until a stabilised creature wakes at 1 HP.")
    stabilised_wake_hp: int = option(1, "DEATH-15", "HP a stabilised creature has when it wakes on its own.")
    medicine_stabilise_actions: int = option(1, "E-31", "Actions edition 1's Medicine check to stabilise takes.")
    stabilised_hp: int = option(
        0, "X-08", "HP a creature has once stabilised (unconscious either way; it wakes at DEATH-15's 1 HP).",
        "1 (the Coup de Grace example's guard, 1081)",
    )
    npcs_die_at_zero: bool = option(
        True, "G-38", "NPCs die at 0 HP unless their stat block uses death saves.", "NPCs make death saves"
    )

    LEGACY: ClassVar[dict[str, Any]] = {"stabilise_by": StabiliseBy.HEALING_OR_MEDICINE_CHECK}  # E-31


class HealingSection(Section):
    """Healing spells, Second Wind, medicine, stims, rest and resurrection (HEAL, REST, RES)."""

    second_wind_dice: str = option("2d10", "HEAL-5", "Second Wind healing dice.")
    second_wind_adds: SecondWindAdds = option(
        SecondWindAdds.LEVEL, "HEAL-5", "What Second Wind adds: 'level' or 'END' (E-30)."
    )
    second_wind_temp_hp: bool = option(True, "HEAL-5", "Second Wind also grants temporary HP equal to level.")
    efm_dice: str = option("2d6", "MAA-6", "Emergency Field Medicine healing dice (plus the healer's WIS).")
    efm_dc: int = option(15, "MAA-6", "Emergency Field Medicine DC out of combat.")
    efm_dc_combat: int = option(20, "X-23", "Emergency Field Medicine DC once initiative is rolled.")
    efm_failure_lockout_hours: int = option(0, "E-12", "Hours a failed attempt locks the target out.")
    efm_stabilises: bool = option(
        True, "G-57", "Emergency Field Medicine treats a dying creature, and its healing stabilises it (DEATH-13).",
        "it cannot treat a dying creature",
    )
    stims_available: bool = option(True, "G-31", "Stims (T1-T3) exist, imported from edition 1.")
    stims_per_day: int = option(2, "E-29", "Most stims one creature can take in 24 hours.")
    field_surgery_dc: int = option(15, "HEAL-6", "Field Surgery Medicine DC.")
    field_surgery_dice: str = option("4d8", "HEAL-6", "Field Surgery healing dice (plus WIS).")
    medical_treatment_dc: int = option(15, "HEAL-9", "Medical Treatment Medicine DC.")
    medical_treatment_dice: str = option("2d8", "HEAL-9", "Medical Treatment healing dice.")
    medical_bay_percent: int = option(25, "HEAL-8", "Percent of max HP a Medical Bay restores per hour.")
    medical_bay_cost: int = option(50, "HEAL-8", "Credits per hour of Medical Bay treatment.")
    short_rest_hours: int = option(8, "REST-1", "Length of a short rest.")
    long_rest_days: int = option(7, "REST-7", "Length of a long rest.")
    short_rests_per_day: int = option(1, "REST-6", "Most short rests in 24 hours.")
    short_rest_slot_max_level: int = option(3, "REST-5", "Highest slot level a short rest restores.")
    resurrection_cost: ResurrectionCost = option(
        ResurrectionCost.EXHAUSTION, "E-32", "Resurrection's price: Exhaustion (ed. 2) or an attribute point."
    )
    resurrection_level: int = option(7, "RES-1", "Spell level of Resurrection (Revive is 6th in edition 1).")
    resurrection_exhaustion: int = option(3, "RES-1", "Exhaustion levels Resurrection adds.")
    second_wind_uses: int = option(1, "HEAL-5", "Second Wind uses per short rest.")
    second_wind_actions: int = option(1, "HEAL-5", "Actions Second Wind takes.")
    efm_actions: int = option(2, "MAA-6", "Actions Emergency Field Medicine takes.")
    stim_dice: tuple[str, ...] = option(
        ("1d8+2", "2d8+2", "3d8+2"), "G-31", "Healing of stim tiers 1, 2, 3 (imported from edition 1, E-29)."
    )
    stim_costs: tuple[int, ...] = option((25, 75, 200), "G-31", "Credits a stim of tier 1, 2, 3 costs.")
    stim_actions: int = option(1, "G-31", "Actions applying a stim takes (self or an adjacent ally).")
    stims_window_hours: int = option(24, "E-29", "The rolling window, in hours, that stims_per_day counts.")
    field_surgery_minutes: int = option(10, "HEAL-6", "Minutes Field Surgery takes.")
    field_surgery_cooldown_hours: int = option(24, "HEAL-6", "Hours before a creature can benefit again.")
    field_surgery_failure_kit_uses: int = option(
        1, "G-49", "Kit uses a failed Field Surgery spends (a failure does not use the 24-hour benefit)."
    )
    ritual_base_minutes: int = option(30, "X-13", "Ritual Healing's base casting time in minutes.")
    ritual_minutes_per_level: int = option(10, "X-13", "Ritual Healing's extra minutes per spell level.")
    medical_bay_min_hp: int = option(1, "G-48", "Least HP an hour of Medical Bay treatment restores.")
    medical_treatment_hours: int = option(1, "HEAL-9", "Hours of care Medical Treatment takes.")
    natural_healing_min: int = option(1, "HEAL-10", "Least HP a day of natural healing restores.")
    hit_die_min_per_die: int = option(
        0, "REST-3", "Least HP one spent Hit Die restores (a negative END never makes a die hurt)."
    )
    short_rest_hit_dice_divisor: int = option(2, "REST-2", "Hit Dice recovered = level // this (G-48).")
    short_rest_hit_dice_min: int = option(1, "G-48", "Least Hit Dice a short rest recovers.")
    short_rest_slots: int = option(1, "REST-5", "Spell slots a short rest restores.")
    short_rest_window_hours: int = option(24, "REST-6", "Hours between the starts of two short rests.")
    severe_exhaustion_from: int = option(5, "REST-9", "Exhaustion level from which a long rest needs an extra week.")
    severe_exhaustion_extra_days: int = option(7, "REST-9", "Extra days of complete rest severe Exhaustion needs.")
    resurrection_exhaustion_per_long_rest: int = option(
        1, "X-07", "Resurrection Exhaustion levels one long rest removes (not all of them, as REST-9 would)."
    )
    resurrection_max_days_dead: int = option(10, "RES-1", "Most days a target may have been dead.")
    resurrection_hours: int = option(1, "RES-1", "Resurrection's ritual casting time in hours.")
    resurrection_credits: int = option(5000, "RES-1", "Credits of components Resurrection consumes.")
    resurrection_essence: int = option(10, "RES-1", "Essence Resurrection consumes (none for Revive, E-32).")
    resurrection_hp: int = option(1, "RES-1", "HP a resurrected creature returns with.")
    resurrection_attribute_loss: int = option(1, "E-32", "Points Revive takes from a random attribute.")
    true_resurrection_level: int = option(9, "RES-2", "Spell level of True Resurrection.")
    true_resurrection_max_years_dead: int = option(200, "RES-2", "Most years a target may have been dead.")
    true_resurrection_hours: int = option(1, "RES-2", "True Resurrection's casting time in hours.")
    true_resurrection_credits: int = option(25000, "RES-2", "Credits True Resurrection costs.")
    true_resurrection_exhaustion: int = option(3, "RES-2", "Exhaustion level True Resurrection leaves.")
    true_resurrection_sets_exhaustion: bool = option(
        True, "G-17", "True Resurrection sets Exhaustion to max(current, 3) instead of adding 3.", "add 3 levels"
    )
    true_resurrection_penalty: int = option(-4, "RES-2", "Penalty to all rolls after True Resurrection.")
    true_resurrection_penalty_days: int = option(7, "RES-2", "Days the True Resurrection penalty lasts.")

    LEGACY: ClassVar[dict[str, Any]] = {
        "second_wind_dice": "1d10",  # E-30
        "second_wind_adds": SecondWindAdds.END,  # E-30
        "second_wind_temp_hp": False,  # E-30
        "efm_failure_lockout_hours": 8,  # E-12
        "resurrection_cost": ResurrectionCost.ATTRIBUTE_LOSS,  # E-32
        "resurrection_level": 6,  # E-32
        "resurrection_exhaustion": 0,  # E-32
        "resurrection_essence": 0,  # E-32
    }
