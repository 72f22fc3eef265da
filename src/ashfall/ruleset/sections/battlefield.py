"""Options for the living battlefield: objects and chain reactions, hazards, underwater, mounts, vehicles.

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

# annotations evaluated here, not postponed: pydantic would otherwise compile each option's from a string

from typing import Any, ClassVar

from ashfall.core.types import DamageType, Save
from ashfall.ruleset.base import Section, option
from ashfall.ruleset.sections.enums import GasPoisonEnds


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
