"""Options for the action economy, initiative and reactions, and for NPC morale.

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

# annotations evaluated here, not postponed: pydantic would otherwise compile each option's from a string

from typing import Any, ClassVar

from ashfall.ruleset.base import Section, option
from ashfall.ruleset.sections.enums import BreakBehaviour, Diagonals, InitiativeProficiency, MoraleGrouping


class TurnSection(Section):
    """Action economy and initiative numbers the turn engine reads (AE, INIT)."""

    actions_per_turn: int = option(3, "AE-1", "Actions on each turn.")
    reactions_per_round: int = option(1, "AE-2", "Reactions each round.")
    bonus_actions_per_turn: int = option(1, "AE-5", "Bonus actions per turn (each costs an action).")
    initiative_proficiency: InitiativeProficiency = option(
        InitiativeProficiency.ALWAYS, "INIT-1", "Add proficiency to initiative: 'always' or 'combat-trained' (E-21)."
    )
    one_reaction_per_trigger: bool = option(True, "RX-4", "At most one reaction per triggering event (E-13).")
    diagonals: Diagonals = option(
        Diagonals.FIVE, "G-37", "Diagonal steps cost 5 ft ('five') or alternate 5/10 ('alternating').", "alternating"
    )
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
    ranged_attack_provokes: bool = option(
        True, "E-18", "A ranged attack made within an enemy's melee reach provokes its Attack of Opportunity (000:108; "
        "edition 1's AoO answers only leaving reach, 001:96)."
    )
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
        "initiative_proficiency": InitiativeProficiency.COMBAT_TRAINED,  # E-21
        "one_reaction_per_trigger": False,  # E-13
        "deflect_needs_proficiency": False,  # E-14
        "ranged_attack_provokes": False,  # E-18
        "intercept_melee_only": False,  # E-19
        "return_fire_allies": False,  # E-20
    }


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
    break_civilian: BreakBehaviour = option(
        BreakBehaviour.FLEE, "MOR-24", "What a broken civilian does (000:542 names no behaviour: flee, MOR-21).",
        "surrender",
    )
    break_bandit: BreakBehaviour = option(
        BreakBehaviour.SCATTER, "MOR-24", "What a broken bandit (or raider, G-01) does: 'bandits surrender or "
        "scatter' (000:542); they scatter while a way out exists and surrender when cornered (MOR-23).",
        "surrender (at once)",
    )
    break_soldier: BreakBehaviour = option(
        BreakBehaviour.SURRENDER, "MOR-24", "What a broken soldier does: 'soldiers may surrender with honor' "
        "(000:542): they lay down arms at once.", "flee",
    )
    break_elite: BreakBehaviour = option(
        BreakBehaviour.FLEE, "MOR-24", "What a broken elite NPC does (000:542 names no behaviour: flee, MOR-21).",
        "surrender",
    )
    break_fanatic: BreakBehaviour = option(
        BreakBehaviour.CHARGE, "MOR-24", "What a broken fanatic (zealot) does: 'a final suicidal charge instead of "
        "surrendering' (000:542): it keeps its weapons, fights on and never flees or surrenders.", "flee",
    )
    break_animal: BreakBehaviour = option(
        BreakBehaviour.FLEE_RANDOM, "MOR-24", "What a broken animal does: 'animals flee in a random direction' "
        "(000:542), rolled once when it breaks.", "flee (toward an exit)",
    )
    break_other: BreakBehaviour = option(
        BreakBehaviour.FLEE, "MOR-24", "What a broken NPC of type 'other' does (flee, MOR-21).", "surrender",
    )
    cornered_animals_cower: bool = option(
        True, "MOR-23", "A cornered broken animal cowers (it cannot surrender); it is out of the fight like one that "
        "surrendered.", "it surrenders like the rest",
    )
    rally_actions: int = option(1, "G-04", "Actions a leader's Rally costs.")
    rallies_per_encounter: int = option(1, "MOR-26", "Successful rallies a group can have per encounter.")

    LEGACY: ClassVar[dict[str, Any]] = {"enabled": False}  # E-33: edition 1 has no morale
