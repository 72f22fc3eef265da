"""Options for conditions, psionics, magic (casting, sustaining, countering) and concealment and senses.

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

# annotations evaluated here, not postponed: pydantic would otherwise compile each option's from a string

from typing import Any, ClassVar

from ashfall.ruleset.base import Section, option
from ashfall.ruleset.sections.enums import DazedEffect, HeavyObscurement


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
    hide_in_light_obscurement: bool = option(
        True, "HID-1", "Light obscurement (dim light, light fog, foliage, rain, haze) is concealment enough to Hide "
        "without cover: Hide needs 'cover or concealment' (000:1109) and concealment has two tiers (617–621).",
        "heavy obscurement only (CONC-17 read as the only way to Hide without cover)",
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
