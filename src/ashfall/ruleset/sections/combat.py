"""Options for attack rolls, MAP, activities, called shots, Defense Value, cover, saves, checks and contests.

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

# annotations evaluated here, not postponed: pydantic would otherwise compile each option's from a string

from typing import Any, ClassVar

from ashfall.core.types import Save
from ashfall.ruleset.base import Section, option
from ashfall.ruleset.sections.enums import (
    ContestTie,
    CoverApplies,
    CritDice,
    ManeuverContest,
    MapCounting,
    ProneMelee,
    TwfSchedule,
)


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
    suppressive_fire_available: bool = option(True, "E-11", "Suppressive Fire exists (edition 2 only; 001 has no "
                                              "such action).")
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
        "suppressive_fire_available": False,  # E-11
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
