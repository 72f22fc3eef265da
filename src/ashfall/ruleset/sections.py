"""Every number and switch the rules use, grouped by area; defaults are the current edition.

Each section's ``LEGACY`` dict lists how the earlier edition (``ashfall-1``) differs, citing the
edition difference (E-nn) it implements. Rulings (G-nn, X-nn) are options whose default is our
ruling and whose ``alternative`` names the other reading.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar

from ashfall.core.types import DamageType, Save
from ashfall.ruleset.base import Section, option


class MapCounting(Enum):
    """What the multiple attack penalty counts (E-01)."""

    PER_ATTACK_ROLL = "per-attack-roll"
    PER_STRIKE_ACTION = "per-strike-action"


class CoverApplies(Enum):
    """Which attacks cover's DV bonus applies against (X-01)."""

    RANGED_ONLY = "ranged-only"
    ALL_ATTACKS = "all-attacks"


class ProneMelee(Enum):
    """Which melee attacks get advantage against a prone target (X-02)."""

    ALL_MELEE = "all-melee"
    WITHIN_5_FT = "within-5-ft"


class TwfSchedule(Enum):
    """How two-weapon fighting interacts with MAP (X-11)."""

    OWN_SCHEDULE = "own-schedule"
    STRICT_MAP = "strict-map"


class CritDice(Enum):
    """Which dice a critical hit doubles (G-40)."""

    ALL_DICE = "all-dice"
    WEAPON_DICE_ONLY = "weapon-dice-only"


class ContestTie(Enum):
    """Who wins a tied contest (G-45, CON-2)."""

    STATUS_QUO = "status-quo"
    REROLL = "reroll"


class ManeuverContest(Enum):
    """How Grapple, Shove and Disarm defences are rolled (E-06, E-07, E-08)."""

    SKILLS = "skills"
    RAW_ATTRIBUTES = "raw-attributes"


class DrStacking(Enum):
    """How Damage Reduction from several sources combines (DR-4, DR-5, E-27)."""

    DIFFERENT_SOURCES_STACK = "different-sources-stack"
    HIGHEST_ONLY = "highest-only"


class ResistVuln(Enum):
    """Resistance plus vulnerability to the same type (G-43)."""

    CANCEL = "cancel"
    HALVE_THEN_DOUBLE = "halve-then-double"


class HardnessBypass(Enum):
    """Which damage types ignore an object's Hardness (X-06)."""

    FIRE_ELECTRIC_FORCE = "fire-electric-force"
    ENERGY_AND_FORCE = "energy-and-force"
    FIRE_ON_FLAMMABLE_ONLY = "fire-on-flammable-only"


class MassiveDamageBasis(Enum):
    """Which damage the massive-damage test uses (G-50)."""

    AFTER_TEMP_HP = "after-temp-hp"
    BEFORE_TEMP_HP = "before-temp-hp"


class DeflectStep(Enum):
    """Where Deflect falls in the damage order (G-39)."""

    BEFORE_DR = "before-dr"
    AFTER_RESISTANCE = "after-resistance"


class StabiliseBy(Enum):
    """What can stabilise a dying creature (DEATH-17, E-31)."""

    HEALING_ONLY = "healing-only"
    HEALING_OR_MEDICINE_CHECK = "healing-or-medicine-check"


class DazedEffect(Enum):
    """What Dazed does (G-13)."""

    TWO_ACTIONS_NO_REACTIONS = "two-actions-no-reactions"
    FLAT_FOOTED = "flat-footed"


class ResurrectionCost(Enum):
    """What coming back from the dead costs (E-32)."""

    EXHAUSTION = "exhaustion"
    ATTRIBUTE_LOSS = "attribute-loss"


class AttackSection(Section):
    """Attack rolls, MAP, activities, called shots and crits (ATK, AMOD, MAP, MAA, CRIT, CS)."""

    map_step: int = option(-3, "MAP-1", "Penalty added per earlier attack roll this turn (0/-3/-6).")
    map_counting: MapCounting = option(
        MapCounting.PER_ATTACK_ROLL, "E-01", "Whether MAP counts attack rolls or Strike actions."
    )
    extra_attack: bool = option(False, "E-01", "Edition 1's Extra Attack: two attacks per Strike, one MAP step.")
    spell_attacks_take_map: bool = option(True, "MAP-3", "Spell attack rolls count for and take MAP (E-02).")
    twf_schedule: TwfSchedule = option(
        TwfSchedule.OWN_SCHEDULE, "X-11", "Two-weapon fighting's own penalty schedule.", "strict-map"
    )
    twf_non_light_offhand: int = option(-2, "TWF-5", "Off-hand penalty for a non-Light weapon.")
    twf_requires_light: bool = option(False, "E-40", "Edition 1: both weapons must be Light.")
    power_strike_attack: int = option(-2, "MAA-5", "Power Strike's attack penalty.")
    power_strike_damage: int = option(4, "MAA-5", "Power Strike's flat damage bonus (added once on a crit).")
    power_strike_melee_only: bool = option(False, "G-36", "Restrict Power Strike to melee.", "melee only")
    full_auto_attack: int = option(-2, "MAA-2", "Full Auto Burst's attack penalty.")
    full_auto_targets: int = option(3, "MAA-2", "Targets of a Full Auto Burst.")
    full_auto_spread_ft: int = option(10, "X-12", "Full Auto targets must be within this of one another.")
    sweeping_attack: int = option(-2, "SWP-1", "Sweeping Strike's attack penalty.")
    sweeping_targets: int = option(3, "SWP-1", "Targets of a Sweeping Strike.")
    sweeping_available: bool = option(True, "E-10", "Sweeping Strike exists (edition 2 only).")
    sweeping_single_roll: bool = option(
        True, "G-09", "Sweeping Strike makes one attack roll compared with every target's DV (the example, 1010).",
        "one roll per target",
    )
    fumble_table: dict[int, str] = option(
        {}, "G-10", "The optional fumble table (255): natural d20 face of a missed attack roll -> the effect the GM "
        "applies, logged as a note; empty (the default) means no fumbles.", "a GM-supplied table, e.g. {1: ...}",
    )
    coup_de_grace_counts_for_map: bool = option(
        True, "G-41", "Coup de Grace (no roll, no MAP of its own) counts as one attack for later MAP.",
        "it does not count",
    )
    flanking: int = option(2, "AMOD-1", "Flanking bonus to melee attacks.")
    flanking_excludes_disabled: bool = option(
        True, "E-22", "Incapacitated or grappled allies do not provide flanking (POS-3)."
    )
    high_ground: int = option(2, "AMOD-2", "High-ground bonus to ranged attacks.")
    ranged_in_melee_disadvantage: bool = option(
        True, "AMOD-7", "Ranged attacks with a hostile within 5 ft have disadvantage (E-25)."
    )
    natural_20_hits: bool = option(True, "CRIT-1", "A natural 20 hits and crits whatever the DV.")
    natural_1_misses: bool = option(True, "CRIT-3", "A natural 1 misses whatever the bonus.")
    crit_dice: CritDice = option(
        CritDice.ALL_DICE, "G-40", "Which dice a crit doubles (riders such as Brace +1d6 included).",
        "weapon-dice-only",
    )
    aim_available: bool = option(False, "E-05", "Edition 1's Aim action.")
    aim_bonus: int = option(2, "E-05", "Aim's bonus to the next ranged attack (edition 1).")
    return_fire_attack: int = option(-2, "RX-30", "Return Fire's attack penalty.")
    proficiency_only_if_proficient: bool = option(
        True, "ATK-5", "Add proficiency to attacks only with weapons the attacker is proficient with."
    )
    improvised_disadvantage: bool = option(
        True, "IMP-2", "Improvised weapons attack at disadvantage without proficiency."
    )
    called_shots: bool = option(True, "CS-0", "The optional called-shot rule is in use.", "off")
    called_head: int = option(-5, "CS-2", "Head called-shot penalty.")
    called_head_dice: str = option("2d6", "CS-2", "Head called-shot extra damage.")
    called_arm: int = option(-3, "CS-3", "Arm/Weapon called-shot penalty.")
    called_arm_save: Save = option(
        Save.MIG, "G-53", "The save (DC = damage dealt) that negates Arm's drop: its own MIG save (1127).",
        "fortitude (the generic called-shot save, 1124)",
    )
    called_leg: int = option(-3, "CS-4", "Leg called-shot penalty.")
    called_leg_speed: int = option(-10, "CS-4", "Leg called-shot speed change, feet.")
    called_weak_point: int = option(-5, "CS-5", "Weak Point called-shot penalty.")
    called_vitals: int = option(-4, "CS-6", "Vitals called-shot penalty.")
    called_vitals_available: bool = option(True, "E-39", "The Vitals called shot exists (edition 2 only).")
    called_head_dazes: bool = option(True, "E-39", "A Head called shot can Daze (edition 2 only).")
    unarmed_damage: str = option("1d4", "G-23", "Unarmed strike damage dice (plus MIG), bludgeoning.")
    natural_weapon_damage: str = option("1d6", "NAT-2", "Natural weapon damage dice (plus MIG).")
    improvised_damage: str = option("1d4", "IMP-1", "Improvised weapon damage dice (plus MIG).")
    natural_reach: int = option(5, "NAT-6", "Reach in feet of natural weapons and unarmed strikes without a feature.")
    brace_damage: str = option("1d6", "RX-13", "Extra damage dice of a Brace attack that hits (weapon's type).")
    all_out_attacks: int = option(3, "MAA-7", "Attacks made by All-Out Attack (0/-3/-6).")
    power_strike_actions: int = option(2, "MAA-5", "Actions Power Strike costs (MAA-1).")
    full_auto_actions: int = option(2, "MAA-2", "Actions Full Auto Burst costs (MAA-1).")
    sweeping_actions: int = option(2, "MAA-3", "Actions Sweeping Strike costs (MAA-1).")
    all_out_actions: int = option(3, "MAA-7", "Actions All-Out Attack costs (MAA-1).")
    full_auto_single_roll: bool = option(
        True, "G-35", "Full Auto Burst makes one attack roll compared with every target's DV.", "one roll per target"
    )
    full_auto_ammo_per_target: int = option(
        1, "G-35", "Rounds a Full Auto Burst spends per target (placeholder until the Equipment chapter)."
    )
    draw_stow_actions: int = option(1, "G-31", "Actions drawing or stowing one item takes (imported from edition 1).")
    suppressive_actions: int = option(2, "SUP-1", "Actions Suppressive Fire costs (MAA-1).")
    suppressive_ammo: int = option(5, "SUP-2", "Rounds Suppressive Fire spends (and needs loaded).")
    suppressive_length_ft: int = option(15, "SUP-3", "Length of Suppressive Fire's cone or line.")
    suppressive_line_width_ft: int = option(5, "SUP-3", "Width of Suppressive Fire's line.")
    covering_fire_ammo: int = option(1, "SUP-11", "Rounds the Covering Fire talent's reaction spends.")

    LEGACY: ClassVar[dict[str, Any]] = {
        "map_counting": MapCounting.PER_STRIKE_ACTION,  # E-01
        "extra_attack": True,  # E-01
        "spell_attacks_take_map": False,  # E-02
        "twf_requires_light": True,  # E-40
        "sweeping_available": False,  # E-10
        "flanking_excludes_disabled": False,  # E-22
        "ranged_in_melee_disadvantage": False,  # E-25
        "aim_available": True,  # E-05
        "return_fire_attack": 0,  # E-20
        "called_vitals_available": False,  # E-39
        "called_head_dazes": False,  # E-39
    }


class DefenseSection(Section):
    """Defense Value, flat-footed and cover (DV, FF, COV, CVB, STC)."""

    dv_base: int = option(10, "DV-1", "The base of every Defense Value.")
    agi_cap_light: int = option(5, "DV-2", "Most AGI added to DV in light armor.")
    agi_cap_medium: int = option(3, "DV-2", "Most AGI added to DV in medium armor.")
    agi_cap_heavy: int = option(1, "DV-2", "Most AGI added to DV in heavy armor.")
    frightened_dv: int = option(-2, "DV-8", "DV change while Frightened and the source is visible.")
    cover_partial: int = option(2, "COV-1", "Partial cover's DV bonus.")
    cover_heavy: int = option(5, "COV-2", "Heavy cover's DV bonus.")
    cover_reflex_partial: int = option(2, "COV-1", "Partial cover's Reflex bonus against area effects.")
    cover_reflex_heavy: int = option(5, "X-21", "Heavy cover's Reflex bonus (area effects only).")
    cover_applies: CoverApplies = option(
        CoverApplies.RANGED_ONLY, "X-01", "Which attacks cover's DV bonus applies to.", "all-attacks"
    )
    prone_melee: ProneMelee = option(
        ProneMelee.ALL_MELEE, "X-02", "Which melee attacks get advantage against the prone.", "within-5-ft"
    )
    flat_footed_keeps_negative_agi: bool = option(
        True, "G-11", "Flat-footed loses only a positive AGI; a negative AGI still applies (G-46)."
    )
    weak_point_armor_only: bool = option(
        True, "G-54", "Weak Point removes only the armor bonus (not the AGI cap, shield, cover).",
        "remove the whole armor line",
    )
    explosives_keep_cover_reflex: bool = option(
        True, "X-14", "Explosives ignore cover's DV bonus but not its Reflex bonus.", "ignore cover entirely"
    )
    flat_footed_with_unseen: bool = option(
        True, "G-46", "Against an unseen attacker (hidden or invisible) a flat-footed target loses its AGI as well as "
        "giving advantage: both apply.", "advantage only: the target keeps its AGI",
    )


class ChecksSection(Section):
    """Saves, checks, contests and DC formulas (CON, G-22, G-44, G-45)."""

    dc_base: int = option(8, "PSI-4", "Base of the 8 + modifier + proficiency DC formula.")
    contest_tie: ContestTie = option(
        ContestTie.STATUS_QUO, "G-45", "A tied contest of two rolls keeps the status quo: the initiator fails (CON-2; "
        "a check against a fixed number succeeds on meet-or-exceed either way).", "reroll",
    )
    degree_margin: int = option(10, "CON-5", "Margin for a critical success or failure (Trip, Overrun, Feint).")
    natural_rules_on_saves: bool = option(
        False, "G-44", "Natural 20/1 also auto-succeed/fail saves and checks.", "apply to saves and checks"
    )
    maneuver_contest: ManeuverContest = option(
        ManeuverContest.SKILLS, "E-06", "Grapple/Shove/Disarm defences roll skills with proficiency."
    )
    help_attack_dc: int = option(10, "HLP-2", "DC of the skill check that lets Help grant attack advantage.")
    help_attack_check: bool = option(
        True, "HLP-2", "Help with an attack needs the DC check (edition 1's Help has none, E-38)."
    )
    help_range_ft: int = option(5, "HLP-1", "How close the ally you Help must be, in feet.")
    maneuver_max_larger: int = option(
        1, "TRP-1", "Most sizes larger than you a Trip, Disarm or Overrun target may be (DIS-5, OVR-8)."
    )
    grapple_shove_defender_chooses: bool = option(
        True, "X-09", "A Grapple or Shove defender rolls its choice of Athletics or Acrobatics (939, 964).",
        "Athletics only (the contest summary, 265)",
    )
    grapple_shove_size_limit: bool = option(
        True, "G-47", "Grapple and Shove have Trip's size limit (the text sets none).", "no size limit"
    )
    hands: int = option(2, "GRP-1", "Hands for Grapple's free-hand test: two-handed items take 2, others 1.")
    grapple_drag_divisor: int = option(2, "GRP-4", "Dragging a grappled creature: your speed divided by this.")
    shove_natural_reach_only: bool = option(True, "SHV-1", "Shove works only at natural reach (E-07).")
    disarm_failure_aoo: bool = option(True, "DIS-4", "A failed Disarm lets the target make an AoO against you (E-08).")
    disarm_size_limit: bool = option(True, "DIS-5", "Disarm is refused against a target too large (E-08).")
    disarm_scatter_ft: int = option(10, "DIS-3", "A disarmed item lands in a random unoccupied square this close.")
    new_maneuvers: bool = option(
        True, "E-37", "Constriction, Trip, Feint, Overrun and Multiple Grapplers' disadvantage exist (edition 2)."
    )
    overrun_grants_movement: bool = option(
        False, "X-22", "Overrun itself moves you; by default it needs a Stride on the same turn.",
        "Overrun includes its own movement",
    )

    LEGACY: ClassVar[dict[str, Any]] = {
        "maneuver_contest": ManeuverContest.RAW_ATTRIBUTES,  # E-06
        "shove_natural_reach_only": False,  # E-07
        "disarm_failure_aoo": False,  # E-08
        "disarm_size_limit": False,  # E-08
        "new_maneuvers": False,  # E-37
        "help_attack_check": False,  # E-38
    }


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
    second_wind_adds: str = option("level", "HEAL-5", "What Second Wind adds: 'level' or 'END' (E-30).")
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
        "second_wind_adds": "END",  # E-30
        "second_wind_temp_hp": False,  # E-30
        "efm_failure_lockout_hours": 8,  # E-12
        "resurrection_cost": ResurrectionCost.ATTRIBUTE_LOSS,  # E-32
        "resurrection_level": 6,  # E-32
        "resurrection_exhaustion": 0,  # E-32
        "resurrection_essence": 0,  # E-32
    }


class PsionicsSection(Section):
    """Psionic attacks, Focus and Backlash (PSI)."""

    available: bool = option(True, "E-23", "Psionics exist (edition 2 only).")
    strained_focus: int = option(7, "PSI-5", "Focus at which psionic DCs rise.")
    strained_dc_bonus: int = option(1, "PSI-5", "DC bonus at Strained Focus.")
    backlash_base: int = option(10, "PSI-14", "Backlash threshold = this + MIG.")
    backlash_self: str = option("3d6", "PSI-15", "Psychic damage the psion takes on Backlash.")
    backlash_area: str = option("2d6", "PSI-15", "Psychic damage to other creatures nearby on Backlash.")
    backlash_radius_ft: int = option(15, "PSI-15", "Radius of the Backlash burst.")
    backlash_dc_uses_strained: bool = option(
        False, "G-26", "Backlash save DC includes the Strained +1.", "include the +1"
    )
    psi_strike_range_ft: int = option(60, "PSI-18", "Range of Psi Strike (Psion level 1), feet.")
    psi_strike_dice: str = option("1d8", "PSI-18", "Psi Strike damage dice at level 1 (plus WIS).")
    psi_strike_type: str = option("force", "PSI-18", "Psi Strike damage type.")
    psi_strike_actions: int = option(1, "PSI-18", "Actions Psi Strike costs (placeholder: Classes: Psion).")
    focus_per_psionic_action: int = option(
        1, "PSI-13", "Focus each psionic action adds (placeholder: the amounts are in Classes: Psion)."
    )

    LEGACY: ClassVar[dict[str, Any]] = {"available": False}  # E-23


class ConditionsSection(Section):
    """Conditions the chapter uses but never defines (G-11, G-13 to G-20)."""

    dazed: DazedEffect = option(
        DazedEffect.TWO_ACTIONS_NO_REACTIONS, "G-13", "What Dazed does.", "flat-footed"
    )
    dazed_actions: int = option(2, "G-13", "Actions a Dazed creature has on its turn.")
    suffocation_min_rounds: int = option(1, "G-15", "Least rounds a Suffocating creature survives.")
    exhaustion_max: int = option(6, "G-17", "Highest Exhaustion level.")
    blinded_passive: int = option(-10, "C-BLI", "Passive Perception change while Blinded.")
    deafened_passive: int = option(-10, "C-DEA", "Passive Perception change while Deafened.")
    passive_base: int = option(10, "G-24", "Passive Perception = this + Perception modifier.")
    prone_stand_actions: int = option(1, "C-PRO", "Actions that standing up from prone costs.")
    prone_crawl_divisor: int = option(2, "C-PRO", "A prone creature can only crawl, at its speed divided by this.")
    grapple_escape_actions: int = option(1, "C-GRA", "Actions an attempt to escape a grapple costs.")
    petrified_weight_factor: int = option(10, "C-PET", "A petrified creature's weight is multiplied by this.")
    drowning_escape_dc: int = option(12, "G-16", "Athletics DC whose success (reaching the surface) ends Drowning.")
    buried_damage: str = option("1d6", "G-18", "Bludgeoning a Buried creature takes at the start of each of its turns.")
    buried_dig_out_actions: int = option(
        1, "G-18", "Actions (the buried creature's own or an adjacent ally's) that dig it out; no check."
    )
    exhaustion_penalty_per_level: int = option(
        0, "G-17", "GM placeholder: penalty to d20 tests per Exhaustion level (0 = none until Exhaustion is defined)."
    )
    unaware_targets_flat_footed: bool = option(
        True, "G-11", "A target unaware of its attacker (hidden attacker, unconscious target) is flat-footed (G-46).",
        "advantage only",
    )
    hidden_targets_guessed: bool = option(
        True, "G-20", "Attacks against a hidden creature must guess its square and have disadvantage.", "GM decides"
    )
    shaken_attack_disadvantage: bool = option(
        False, "G-14", "Shaken also gives disadvantage on the creature's attack rolls (by default it affects only Will "
        "saves).", "disadvantage on attacks too",
    )
    unconscious_attackers_advantage: bool = option(
        True, "X-16", "Attacks against an unconscious creature have advantage (931 read as for Paralyzed and Stunned).",
        "no advantage from Unconscious itself (Prone still applies)",
    )


class TurnSection(Section):
    """Action economy and initiative numbers the turn engine reads (AE, INIT)."""

    actions_per_turn: int = option(3, "AE-1", "Actions on each turn.")
    reactions_per_round: int = option(1, "AE-2", "Reactions each round.")
    bonus_actions_per_turn: int = option(1, "AE-5", "Bonus actions per turn (each costs an action).")
    initiative_proficiency: str = option(
        "always", "INIT-1", "Add proficiency to initiative: 'always' or 'combat-trained' (E-21)."
    )
    one_reaction_per_trigger: bool = option(True, "RX-4", "At most one reaction per triggering event (E-13).")
    diagonals: str = option("five", "G-37", "Diagonal steps cost 5 ft ('five') or alternate 5/10 ('alternating').",
                            "alternating")
    water_cost: int = option(
        2, "X-03", "Movement multiplier in water for a creature without a swim speed (as difficult terrain).",
        "3 (swimming as greater difficult terrain, line 175)"
    )
    free_actions_per_turn: int = option(
        3, "AE-3", "Free actions allowed per turn (the text says 'limited, GM discretion').", "GM approval hook"
    )
    deflect_dice: str = option("1d10", "RX-7", "Deflect reduces a ranged hit's damage by these dice + AGI (min 0).")
    deflect_needs_proficiency: bool = option(
        True, "E-14", "Deflect needs proficiency with a melee weapon or shields besides a free hand (edition 2)."
    )
    dive_for_cover_ft: int = option(10, "RX-10", "How far Dive for Cover moves you (and how near cover must be).")
    brace_charge_ft: int = option(20, "RX-12", "Straight-line approach that sets off Brace.")
    intercept_range_ft: int = option(5, "RX-26", "How close to the attacked ally an interceptor must be.")
    intercept_melee_only: bool = option(True, "E-19", "Intercept answers melee attacks only (edition 1: any attack).")
    return_fire_ally_ft: int = option(
        30, "G-56", "Return Fire answers hits on allies within this many feet of the reacting creature."
    )
    return_fire_allies: bool = option(
        True, "E-20", "Return Fire answers hits on allies too (edition 1: only when you were the target)."
    )
    ready_actions: int = option(2, "RDY-1", "Actions readying an action costs.")
    lean_out_actions: int = option(1, "COV-4", "Actions leaning out around cover costs (G-55: apart from the attack).")
    lean_out_until_next_turn: bool = option(
        True, "G-55", "Leaning out loses your cover until the start of your next turn.",
        "only until the end of your turn",
    )
    brace_stops_turn_movement: bool = option(
        True, "X-20", "A charger Brace stops cannot move again this turn (no further Stride or Step).",
        "only the current move ends",
    )

    LEGACY: ClassVar[dict[str, Any]] = {
        "initiative_proficiency": "combat-trained",  # E-21
        "one_reaction_per_trigger": False,  # E-13
        "deflect_needs_proficiency": False,  # E-14
        "intercept_melee_only": False,  # E-19
        "return_fire_allies": False,  # E-20
    }


class MoraleGrouping(Enum):
    """Which NPCs roll one morale check together (MOR-4)."""

    SIDE = "side"
    SIDE_AND_TYPE = "side-and-type"


class MoraleSection(Section):
    """NPC morale: checks, triggers, the Morale DC, outcomes, Rally and Breaking Points (MOR, G-01 to G-04)."""

    enabled: bool = option(True, "MOR-1", "NPC sides check morale (an encounter can still switch it off, MOR-38).")
    grouping: MoraleGrouping = option(
        MoraleGrouping.SIDE, "MOR-4", "NPCs roll once per side, or once per morale type within a side.",
        "side-and-type",
    )
    base_dc: int = option(12, "MOR-14", "The base Morale DC.")
    leader_down_dc: int = option(4, "MOR-15", "Morale DC modifier of Leader Down (MOR-8).")
    outnumbered_dc: int = option(
        2, "MOR-15", "Morale DC modifier while the group's side has fewer active combatants than its opponents (G-02)."
    )
    first_blood_dc: int = option(2, "G-02", "Morale DC modifier of First Blood (MOR-7).")
    half_strength_dc: int = option(4, "G-02", "Morale DC modifier of Half Strength (MOR-9).")
    fear_dc: int = option(0, "G-02", "Morale DC modifier of a Fear Effect (MOR-10); fear's own effects apply apart.")
    half_strength_divisor: int = option(2, "MOR-9", "Half Strength when casualties x this >= the group's size.")
    will_civilian: int = option(0, "G-01", "Morale Will of a civilian without a Will save on its stat block.")
    will_bandit: int = option(2, "G-01", "Morale Will of a bandit or raider without a Will save (MOR-15).")
    will_soldier: int = option(4, "G-01", "Morale Will of a soldier without a Will save on its stat block.")
    will_elite: int = option(6, "G-01", "Morale Will of an elite NPC without a Will save on its stat block.")
    will_fanatic: int = option(6, "G-01", "Morale Will of a fanatic without a Will save on its stat block.")
    bosses_immune: bool = option(True, "MOR-33", "Boss and Legendary NPCs never check morale.", "they check")
    fall_back_band: int = option(
        4, "G-03", "A check failed by at most this is Fall Back; a worse failure is Break.",
        "10 (gives 30% Break for MOR-15's bandits, against its 'most will break')",
    )
    fall_back_escape_actions: int = option(1, "MOR-17", "Least actions per turn a falling-back NPC moves to an exit.")
    broken_stride_actions: int = option(3, "MOR-21", "Actions per turn a broken NPC spends on Stride, fleeing.")
    broken_cornered_surrenders: bool = option(
        True, "MOR-23", "A broken NPC with no reachable exit surrenders.", "cowers or begs (GM)"
    )
    fall_back_cornered_surrenders: bool = option(
        False, "MOR-19", "A falling-back NPC with every exit blocked surrenders instead of fighting desperately.",
        "surrender",
    )
    rally_actions: int = option(1, "G-04", "Actions a leader's Rally costs.")
    rallies_per_encounter: int = option(1, "MOR-26", "Successful rallies a group can have per encounter.")

    LEGACY: ClassVar[dict[str, Any]] = {"enabled": False}  # E-33: edition 1 has no morale


class MagicSection(Section):
    """Casting, sustaining and countering spells in a fight (ACT-8..10, RX-16..18, G-19, E-09)."""

    sustain_actions: int = option(1, "ACT-9", "Actions Sustain Spell costs, once per turn.")
    max_concentration: int = option(1, "G-19", "Concentration spells a caster may hold at once.")
    max_sustained: int = option(1, "G-19", "Sustained spells a caster may keep going at once.")
    concentration_costs_action: bool = option(
        False, "E-09", "Keeping a concentration spell going costs the Sustain action each turn (edition 1)."
    )
    save_half_divisor: int = option(
        2, "ACT-8", "A successful save against a save-for-half effect divides its damage by this, rounding down."
    )
    counterspell_range_ft: int = option(60, "RX-16", "Counterspell reaches casters within this many feet.")
    counterspell_dc_base: int = option(10, "RX-17", "Counterspell's check DC = this + the spell's level.")

    LEGACY: ClassVar[dict[str, Any]] = {"concentration_costs_action": True}  # E-09


class ObjectsSection(Section):
    """Objects in a fight, shooting through cover, chain reactions, improvised actions (OBJ, STC, CHN, IEA, ENVW).

    How damage treats objects (Hardness, piercing) is in the ``damage`` section.
    """

    environmental_combat: bool = option(
        True, "E-36", "Objects take part in the fight: shooting through cover damages it, chain reactions and "
        "improvised environmental actions exist (edition 2)."
    )
    object_dv: int = option(10, "G-25", "DV of a static object whose description gives none.")
    light_cover_max_hp: int = option(15, "OBJ-11", "'Destroys light cover' destroys every object with at most this HP.")
    fuel_radius_ft: int = option(10, "CHN-2", "Radius of a fuel container's explosion.")
    fuel_damage: str = option("3d6 fire", "CHN-2", "A fuel container explosion's damage.")
    fuel_save_dc: int = option(14, "CHN-2", "Reflex DC to halve a fuel explosion's damage.")
    chain_chance_percent: int = option(50, "CHN-4", "Chance that an adjacent fuel container goes off at the end of "
                                       "the round.")
    chain_die: int = option(100, "EX-3", "The die rolled for the chain (a roll at most the chance explodes).")
    blast_sets_off_fuel: bool = option(
        False, "G-52", "A blast's fire sets off fuel containers inside it at once (otherwise only the chain roll).",
        "the blast sets them off",
    )
    electrical_radius_ft: int = option(15, "CHN-6", "Radius of an electrical discharge.")
    electrical_damage: str = option("2d6 electric", "CHN-6", "An electrical discharge's damage.")
    electrical_save_dc: int = option(13, "CHN-6", "Reflex DC to halve a discharge's damage.")
    metal_armor_disadvantage: bool = option(True, "CHN-7", "Creatures in metal armor save against a discharge at "
                                            "disadvantage.")
    water_conducts: bool = option(
        False, "X-18", "Creatures standing in water save against a discharge at disadvantage (only in the flood "
        "example, EX-8).", "apply it",
    )
    electronics_disrupted: bool = option(True, "CHN-8", "Machines in a discharge stop working until the end of their "
                                         "next turn.")
    collapse_radius_ft: int = option(20, "CHN-9", "Radius of the collapse a destroyed support column starts.")
    fall_step_ft: int = option(10, "IEA-2", "A falling object deals its dice once per this many feet fallen.")
    push_damage: str = option("1d6 bludgeoning", "X-05", "Damage per fall step of an object pushed off a ledge "
                              "(IEA-2).")
    push_save_dc: int = option(12, "IEA-2", "Reflex DC to halve a pushed object's damage.")
    chandelier_damage: str = option("2d6 bludgeoning", "IEA-5", "A falling chandelier's damage to creatures below.")
    chandelier_save_dc: int = option(12, "IEA-5", "Reflex DC to halve a falling chandelier's damage.")
    drop_damage: str = option("1d10 bludgeoning", "X-05", "Damage per fall step of a heavy object dropped as an "
                              "improvised attack (ENVW-3).")

    LEGACY: ClassVar[dict[str, Any]] = {"environmental_combat": False}  # E-36


class UnderwaterSection(Section):
    """Fighting underwater: breath, movement, attacks, elemental interactions, sight and speech (UW, E-42)."""

    breath_min_rounds: int = option(3, "UW-1", "Least rounds a creature holds its breath (END + proficiency).")
    strenuous_extra_rounds: int = option(1, "UW-3", "Extra rounds of breath a strenuous turn costs.")
    strenuous_max_per_turn: int = option(
        1, "UW-3", "Most extra rounds one turn costs, however many strenuous things it did.",
        "one extra round per strenuous activity",
    )
    strenuous_attack_actions: int = option(2, "UW-3", "Actions spent on attacks in a turn that make it strenuous.")
    machines_breathe: bool = option(
        False, "UW-1", "Machines (drones, turrets) and vehicles hold their breath too.", "they hold their breath"
    )
    rounds_per_minute: int = option(
        10, "UW-5", "Rounds in a minute, to count sealed gear's air in rounds (the chapter gives no round length).",
        "GM decides",
    )
    rebreather_minutes: int = option(30, "UW-5", "Air a Rebreather holds.")
    sealed_helmet_minutes: int = option(60, "UW-5", "Air a Sealed Helmet holds.")
    sealed_environment_minutes: int = option(480, "UW-5", "Air the Sealed Environment armor modification holds.")
    vertical_dc: int = option(10, "UW-9", "Athletics DC to dive or surface as part of a move.")
    heavy_armor_sink_ft: int = option(10, "UW-10", "Feet a creature in heavy armor sinks in a round it does not swim.")
    melee_penalty_types: tuple[DamageType, ...] = option(
        (DamageType.SLASHING, DamageType.BLUDGEONING), "UW-13",
        "Melee (and thrown) damage types with disadvantage underwater.",
    )
    swim_speed_exempt: bool = option(
        True, "X-24", "A creature with a swim speed has no underwater melee penalties.", "only unarmed strikes exempt"
    )
    natural_weapons_exempt: bool = option(
        True, "UW-14", "Natural weapons work normally underwater (edition 1: they follow the damage-type rule, E-42)."
    )
    unarmed_disadvantage: bool = option(True, "UW-15", "Unarmed strikes have disadvantage without a swim speed.")
    ranged_auto_miss: bool = option(
        True, "UW-16", "Ranged weapon attacks beyond normal range miss automatically, even on a natural 20."
    )
    ranged_disadvantage: bool = option(
        True, "UW-17", "Ranged weapon attacks within normal range have disadvantage (edition 1: they do not, E-42)."
    )
    thrown_as_melee: bool = option(True, "UW-18", "Thrown weapons follow the melee rules, not the ranged ones.")
    fire_divisor: int = option(2, "UW-20", "Fire damage dealt underwater is divided by this, rounding down (G-39).")
    thunder_extra: str = option("1d6", "UW-23", "Extra dice sonic (thunder, G-27) damage deals underwater.")
    cold_spread_ft: int = option(5, "UW-21", "Cold damage also hits every creature this close to the target.")
    cold_spread_save: bool = option(
        False, "G-28", "The creatures cold spreads to save for half (the text gives no save).", "Reflex save for half"
    )
    electric_spread_ft: int = option(
        10, "UW-22", "Electric damage also hits every creature this close to the target (edition 1: 5 ft, E-42)."
    )
    electric_spread_save: bool = option(
        True, "UW-22", "The creatures electric damage spreads to make a Reflex save for half (edition 1: none, E-42)."
    )
    spread_save_divisor: int = option(2, "UW-22", "A successful save against spreading damage divides it by this.")
    clear_sight_ft: int = option(60, "UW-24", "Clear water: normal sight this far; beyond it creatures are LO.")
    murky_sight_ft: int = option(15, "UW-25", "Murky water: sight this far; beyond it creatures are HO.")
    murky_passive_perception: int = option(-5, "UW-25", "Passive Perception change in murky water (G-24).")
    darkvision_divisor: int = option(2, "UW-26", "Darkvision range is divided by this underwater (VIS-12).")

    LEGACY: ClassVar[dict[str, Any]] = {
        "natural_weapons_exempt": False,  # E-42
        "ranged_disadvantage": False,  # E-42
        "electric_spread_ft": 5,  # E-42
        "electric_spread_save": False,  # E-42
    }


class MountedSection(Section):
    """Mounted combat: who acts when, the rider's attack bonuses and falling off (MNT)."""

    trained_mount_follows_rider: bool = option(
        True, "MNT-2", "A trained mount acts right after its rider in the initiative order."
    )
    smaller_unmounted_advantage: bool = option(
        True, "MNT-5", "A rider has advantage on melee attacks against unmounted creatures smaller than its mount."
    )
    unmounted_melee_bonus: int = option(1, "MNT-6", "A rider's melee attack bonus against unmounted creatures.")
    fall_damage: str = option("1d6 bludgeoning", "MNT-7", "Damage a rider takes when its mount is knocked prone.")
    mount_down_save: Save = option(Save.REFLEX, "MNT-9", "The rider's save when its mount drops to 0 HP (AGI, G-22).")
    mount_down_dc: int = option(15, "MNT-9", "DC of that save; a failure knocks the rider prone.")


class VehiclesSection(Section):
    """Vehicles in a fight: crew turns, passengers' shots, the System Damage Track and edition 1's pilot actions.

    (VEH, E-43; the full rules are in Vehicles & Operations, VEH-1.)
    """

    damage_track_percent: tuple[int, ...] = option(
        (75, 50, 25, 0), "VEH-4",
        "HP thresholds (percent of maximum) at or below which a vehicle is Stressed, Damaged, Critical, Disabled.",
        "the thresholds of Vehicles & Operations",
    )
    passengers_moving_only: bool = option(
        True, "VEH-5", "Passengers fire at disadvantage only from a moving vehicle (edition 1: always, E-43)."
    )
    pilot_actions: bool = option(False, "E-43", "Edition 1's pilot actions exist: Drive, Evasive Maneuvers, Ram.")
    drive_actions: int = option(1, "E-43", "Actions Drive costs (move the vehicle up to its speed).")
    evasive_actions: int = option(1, "E-43", "Actions Evasive Maneuvers costs.")
    ram_actions: int = option(2, "E-43", "Actions Ram costs.")
    ram_size_dice: dict[str, str] = option(
        {"tiny": "1d4", "small": "1d6", "medium": "1d8", "large": "2d8", "huge": "4d8", "gargantuan": "6d8"}, "E-43",
        "Placeholder: Ram damage dice by the vehicle's size (001 gives no table).", "GM table",
    )
    ram_speed_step_ft: int = option(30, "E-43", "Placeholder: Ram adds speed dice per this many feet of speed.")
    ram_speed_dice: str = option("1d6", "E-43", "Placeholder: Ram's dice per speed step.")
    ram_damage_type: DamageType = option(DamageType.BLUDGEONING, "E-43", "Ram's damage type.")

    LEGACY: ClassVar[dict[str, Any]] = {"passengers_moving_only": False, "pilot_actions": True}  # E-43


class GasPoisonEnds(Enum):
    """When poisoning from toxic gas ends (G-29)."""

    END_TURN_OUTSIDE = "end-turn-outside"
    START_TURN_OUTSIDE = "start-turn-outside"


class HazardsSection(Section):
    """Spreading hazards: fire, toxic gas, structural collapse, flooding; hazardous terrain (HAZ*, MOV-6, E-36)."""

    enabled: bool = option(True, "E-36", "Spreading hazards and hazardous terrain act (edition 2).")
    fire_damage: str = option("1d6 fire", "HAZF-1", "Damage for entering a burning square or starting a turn in one.")
    once_per_turn: bool = option(
        True, "G-51", "A creature takes a burning square's (or hazardous terrain's) damage at most once per turn.",
        "every square entered",
    )
    fire_burnout: str = option("1d4+1", "HAZF-5", "Rounds a square burns before it burns out without fresh fuel.")
    burnout_spends_fuel: bool = option(
        True, "HAZF-5", "A square that burned out has no fuel left: fire cannot spread back into it.",
        "its material stays flammable",
    )
    water_stops_fire: int = option(1, "HAZF-2", "Water at least this deep stops fire spreading and puts out fire "
                                   "(a large water source, HAZF-4).")
    smoke_light_rounds: int = option(2, "HAZF-6", "Rounds a square burns before its smoke lightly obscures it.")
    smoke_heavy_rounds: int = option(4, "HAZF-6", "Rounds before the smoke heavily obscures it in an enclosed space.")
    burning_cover_damages: bool = option(
        False, "X-18", "A creature starting its turn next to a burning cover object takes the fire damage (EX-6, only "
        "in the fuel depot example).", "apply it",
    )
    extinguish_actions: int = option(1, "HAZF-3", "Actions to put out the fire in one 5-ft square.")
    suppression_actions: int = option(1, "HAZF-4", "Actions to set off a fire-suppression system from its control.")
    gas_radius_ft: int = option(10, "HAZG-1", "Radius toxic gas fills from its source at first.")
    gas_save_dc: int = option(13, "HAZG-2", "Fortitude DC against toxic gas at the start of a turn in it.")
    gas_damage: str = option("1d6 poison", "HAZG-2", "Gas damage on a failed save (halved on a success).")
    gas_poison_ends: GasPoisonEnds = option(
        GasPoisonEnds.END_TURN_OUTSIDE, "G-29", "Gas poisoning lasts until the creature ends a turn outside the gas.",
        "start-turn-outside: until it starts a turn outside",
    )
    gas_growth_ft: int = option(10, "HAZG-3", "Feet the gas radius grows each round in an enclosed space.")
    gas_open_rounds: int = option(3, "HAZG-4", "Rounds gas lasts in open air unless its source keeps producing it.")
    gas_wind_rounds: int = option(1, "HAZG-5", "Rounds gas lasts in a strong wind.")
    gas_linger: str = option("1d4", "HAZG-6", "Rounds gas lingers after its source is sealed.")
    seal_actions: int = option(1, "HAZG-6", "Actions to seal a gas source (a creature in or next to its square).")
    collapse_radius_ft: int = option(20, "HAZC-1", "Radius of a structural collapse.")
    collapse_countdown: str = option("1d4", "HAZC-2", "Rounds before the collapse comes down; it ticks at the end of "
                                     "each round (G-30).")
    collapse_trigger_round_ticks: bool = option(
        True, "G-30", "A collapse's countdown ticks at the end of the round it was triggered in too.",
        "first tick at the end of the next round (full rounds only)",
    )
    collapse_save_dc: int = option(15, "HAZC-3", "Reflex DC when the collapse comes down.")
    collapse_damage: str = option("4d10 bludgeoning", "HAZC-3", "Collapse damage on a failed save (halved on a "
                                  "success, which also avoids being buried).")
    collapse_dodge_ft: int = option(5, "HAZC-3", "Feet a creature that saves may move toward the zone's edge.")
    dig_out_actions: int = option(1, "HAZC-4", "Actions to dig a buried creature out (its own or an adjacent ally's, "
                                  "no check, G-18, X-22).")
    flood_rise_ft: int = option(1, "X-04", "Feet rising water climbs each round unless the hazard says otherwise.",
                                "5 (the rule text, HAZW-1)")
    shallow_water_ft: int = option(1, "HAZW-2", "Water at least this deep (and shallower than deep water) is "
                                   "difficult terrain.")
    deep_water_ft: int = option(4, "HAZW-3", "Water at least this deep must be swum.")
    swim_dc: int = option(12, "HAZW-3", "Athletics DC each round in deep water to stay afloat (failure: drowning, "
                          "G-16).")
    swim_heavy_armor_disadvantage: bool = option(True, "HAZW-4", "Heavy armor gives disadvantage on that check.")
    fliers_above_water: bool = option(
        True, "HAZW-2", "Creatures with a fly speed hover above the water: no water terrain, no swimming (the "
        "example's drones).", "they wade and swim like the rest",
    )
    drain_ft: int = option(2, "HAZW-5", "Feet of water an open drain takes away each round (GM input; 2 beats the "
                           "default rise, so the water goes down).")
    drain_dc: int = option(12, "EX-9", "MIG check DC to pry a drain open (with a tool, as in the example).")
    drain_actions: int = option(1, "EX-9", "Actions to try to open a drain, or to search for a hidden one.")
    terrain_damage: str = option("1d6", "G-29", "Hazardous terrain's damage (of its type) on entering or starting a "
                                 "turn there (MOV-6).")

    LEGACY: ClassVar[dict[str, Any]] = {"enabled": False}  # E-36: edition 1 has no spreading hazards


class HeavyObscurement(Enum):
    """What heavy obscurement does to attacks (CONC-10, CONC-12, E-34)."""

    TERRAIN = "terrain"
    AS_IF_BLINDED = "as-if-blinded"


class ConcealmentSection(Section):
    """Light, obscurement and senses: the G-06 concealment matrix, darkvision and optics (CONC, VIS, E-34, E-35)."""

    light_obscured_attacks: bool = option(
        True, "CONC-3", "Attacks against a lightly obscured target have disadvantage (edition 1: no attack effect)."
    )
    heavy_obscurement: HeavyObscurement = option(
        HeavyObscurement.TERRAIN, "CONC-10",
        "Heavy obscurement: attacks into it at disadvantage, out of it unpenalised ('terrain'), or edition 1's "
        "'as-if-blinded' (a creature inside attacks at disadvantage, attacks against it have advantage, E-34).",
    )
    both_heavy_cancel: bool = option(
        True, "CONC-13", "Attacker and target both heavily obscured: advantage (unseen attacker) joins the "
        "disadvantage and they cancel (649).", "no source at all (X-10 read strictly)",
    )
    heavy_obscured_attacker_unseen: bool = option(
        False, "X-10", "An attacker the target cannot see for heavy obscurement counts as unseen (advantage, 242) "
        "even when the target is in clear view.", "advantage from HO (242, 649 read broadly)",
    )
    heavy_obscured_hidden: bool = option(
        False, "X-15", "A creature heavily obscured to its attacker is effectively hidden: the attack must name a "
        "guessed square (CONC-11) without a successful Hide.", "HO alone hides its location (641)",
    )
    darkvision_darkness_only: bool = option(
        True, "X-17", "Darkvision clears only obscurement caused by darkness (dim light, darkness), not fog or smoke.",
        "all non-magical obscurement within its range",
    )
    light_obscured_stealth_advantage: bool = option(
        True, "CONC-5", "Advantage on Stealth while in a lightly obscured zone (edition 1: none, E-34)."
    )
    heavy_obscured_stealth_advantage: bool = option(
        True, "CONC-5", "Heavy obscurement also gives the Stealth advantage of CONC-5.", "lightly obscured only"
    )
    light_obscured_perception_disadvantage: bool = option(
        False, "E-34", "Sight-based Perception (Search) against a lightly obscured creature has disadvantage "
        "(edition 1)."
    )
    vision_senses: bool = option(
        True, "E-35", "Darkvision, Low-Light Optics, Thermal Optics and the Tactical HUD work (edition 1: absent)."
    )
    thermal_range_ft: int = option(30, "VIS-7", "Thermal Optics range in feet.")
    low_light_range_ft: int | None = option(
        60, "G-32", "Low-Light Optics range (placeholder until the augmentation data exists); null uses each "
        "stat block's senses.low_light_optics range.", "the stat block's range (null)",
    )
    thermal_sees_magical_darkness: bool = option(
        False, "G-32", "Thermal Optics see into magical darkness.", "they do"
    )

    LEGACY: ClassVar[dict[str, Any]] = {
        "light_obscured_attacks": False,  # E-34
        "heavy_obscurement": HeavyObscurement.AS_IF_BLINDED,  # E-34
        "light_obscured_stealth_advantage": False,  # E-34
        "heavy_obscured_stealth_advantage": False,  # E-34
        "light_obscured_perception_disadvantage": True,  # E-34
        "vision_senses": False,  # E-35
    }
