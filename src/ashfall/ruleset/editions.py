"""The edition differences E-01 … E-45 (editions-and-gaps.md, part a) and how the two presets express each.

``ashfall-1`` differs from ``ashfall-2`` exactly by the sections' ``LEGACY`` overrides. This table says,
for every E-nn, which options carry it, or why none does: the difference is only wording (E-44, E-45),
only one text gives numbers so both editions play them (E-15..E-17), or a ruling fills the gap the same
way for both (G-31 for E-03, E-04, E-29). Tests check that every E-nn is here, that each listed option
differs between the presets and that no other option does; ``scripts/gen_options_doc.py`` prints it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class EditionDifference:
    """How one E-nn is expressed.

    Attributes:
        topic: The topic, as editions-and-gaps.md names it.
        options: The ``section.option`` paths whose ``ashfall-1`` value differs (empty: no switch).
        reason: Why there is no switch (required when ``options`` is empty).
        shared: Without a switch, the options that play the one reading in both presets (same value in each).
    """

    topic: str
    options: tuple[str, ...] = ()
    reason: str = ""
    shared: tuple[str, ...] = ()


def _d(topic: str, *options: str, reason: str = "", shared: tuple[str, ...] = ()) -> EditionDifference:
    return EditionDifference(topic, options, reason, shared)


EDITION_DIFFERENCES: Mapping[str, EditionDifference] = MappingProxyType({
    "E-01": _d("MAP / Extra Attack", "attack.map_counting", "attack.extra_attack"),
    "E-02": _d("Spell attacks and MAP", "attack.spell_attacks_take_map"),
    "E-03": _d("Reload", reason="000 implies a reload cost without stating it; G-31 takes 001's numbers (1 action, "
               "a weapon's reload_actions) for both editions, so both presets reload alike"),
    "E-04": _d("Draw/Stow", reason="000 gives drawing no cost; G-31 takes 001's 1 action for both editions",
               shared=("attack.draw_stow_actions",)),
    "E-05": _d("Aim", "attack.aim_available"),
    "E-06": _d("Grapple contest", "checks.maneuver_contest"),
    "E-07": _d("Shove", "checks.shove_natural_reach_only"),
    "E-08": _d("Disarm", "checks.disarm_failure_aoo", "checks.disarm_size_limit"),
    "E-09": _d("Sustain Spell", "magic.concentration_costs_action"),
    "E-10": _d("Sweeping Strike", "attack.sweeping_available"),
    "E-11": _d("Suppressive Fire", "attack.suppressive_fire_available"),
    "E-12": _d("Emergency Field Medicine", "healing.efm_failure_lockout_hours"),
    "E-13": _d("Reactions, general", "turn.one_reaction_per_trigger"),
    "E-14": _d("Deflect", "turn.deflect_needs_proficiency"),
    "E-15": _d("Dive for Cover", reason="001 names the reaction ('move 10 feet to partial cover', 90) but defines "
               "neither its payoff nor its AoO; the only numbers are 000's, played under both presets",
               shared=("turn.dive_for_cover_ft",)),
    "E-16": _d("Brace", reason="001's 'ready weapon to attack first' (91) cannot be automated; 000's Brace is "
               "played under both presets",
               shared=("turn.brace_charge_ft", "attack.brace_damage")),
    "E-17": _d("Counterspell", reason="001 gives no numbers (92); 000's range, DC and limits are played under "
               "both presets",
               shared=("magic.counterspell_range_ft", "magic.counterspell_dc_base")),
    "E-18": _d("Attack of Opportunity", "turn.ranged_attack_provokes"),
    "E-19": _d("Intercept", "turn.intercept_melee_only"),
    "E-20": _d("Return Fire", "turn.return_fire_allies", "attack.return_fire_attack"),
    "E-21": _d("Initiative", "turn.initiative_proficiency"),
    "E-22": _d("Flanking", "attack.flanking_excludes_disabled"),
    "E-23": _d("Psionics and Focus", "psionics.available"),
    "E-24": _d("How cover is represented", reason="the same hit chances either way; the engine represents cover "
               "as +DV only in both editions, so it is never applied twice (X-01 chooses which attacks it covers)",
               shared=("defense.cover_applies",)),
    "E-25": _d("Ranged attack in melee", "attack.ranged_in_melee_disadvantage"),
    "E-26": _d("Contested checks", reason="001 has no general contest rule (its contests are raw attributes, E-06's "
               "checks.maneuver_contest); a tie keeps the status quo in both (checks.contest_tie)",
               shared=("checks.contest_tie",)),
    "E-27": _d("Damage Reduction", "damage.dr_stacking", "damage.dr_sources_any"),
    "E-28": _d("Temp HP exception", "damage.arcane_ward_stacks"),
    "E-29": _d("Stims", reason="000 only mentions stims; G-31 takes 001's stims (tiers, 2 per 24 h) for both "
               "editions (healing.stims_per_day, healing.stims_window_hours)",
               shared=("healing.stims_available", "healing.stims_per_day", "healing.stims_window_hours")),
    "E-30": _d("Second Wind", "healing.second_wind_dice", "healing.second_wind_adds", "healing.second_wind_temp_hp"),
    "E-31": _d("Stabilizing with a Medicine check", "dying.stabilise_by"),
    "E-32": _d("Resurrection / Revive", "healing.resurrection_cost", "healing.resurrection_level",
               "healing.resurrection_exhaustion", "healing.resurrection_essence"),
    "E-33": _d("Morale", "morale.enabled"),
    "E-34": _d("Concealment", "concealment.light_obscured_attacks", "concealment.heavy_obscurement",
               "concealment.light_obscured_stealth_advantage", "concealment.heavy_obscured_stealth_advantage",
               "concealment.light_obscured_perception_disadvantage"),
    "E-35": _d("Darkvision and optics", "concealment.vision_senses"),
    "E-36": _d("Environmental combat", "hazards.enabled", "objects.environmental_combat"),
    "E-37": _d("New maneuvers", "checks.new_maneuvers"),
    "E-38": _d("Help / Aid Ally", "checks.help_attack_check"),
    "E-39": _d("Called shots", "attack.called_vitals_available", "attack.called_head_dazes"),
    "E-40": _d("Two-weapon fighting", "attack.twf_requires_light"),
    "E-41": _d("Natural weapons", reason="001 has no natural weapons at all: an edition-1 stat block has none, and "
               "the NAT rules read only weapons marked natural, which only 000's content has",
               shared=("attack.natural_weapon_damage",)),
    "E-42": _d("Underwater", "underwater.natural_weapons_exempt", "underwater.ranged_disadvantage",
               "underwater.electric_spread_ft", "underwater.electric_spread_save"),
    "E-43": _d("Vehicles", "vehicles.passengers_moving_only", "vehicles.pilot_actions"),
    "E-44": _d("Terminology", reason="wording only (GM/DM, builds/classes): no mechanical effect"),
    "E-45": _d("Crit example", reason="a different weapon in the same worked example: the crit rule (CRIT-2, G-40) "
               "is the same",
               shared=("attack.crit_dice",)),
})
"""Every edition difference, in order, with the options that express it or the reason none does."""


__all__ = ["EDITION_DIFFERENCES", "EditionDifference"]
