"""The enumerations ruleset options take (one per ruling or edition switch that is not a number).

Defaults are the current edition; each section's ``LEGACY`` dict lists edition 1's differences.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from ashfall.core.types import Diagonals

__all__ = ["Diagonals"]  # the measure of diagonal steps is grid vocabulary (core); re-exported as an option type


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


class MoraleGrouping(Enum):
    """Which NPCs roll one morale check together (MOR-4)."""

    SIDE = "side"
    SIDE_AND_TYPE = "side-and-type"


class GasPoisonEnds(Enum):
    """When poisoning from toxic gas ends (G-29)."""

    END_TURN_OUTSIDE = "end-turn-outside"
    START_TURN_OUTSIDE = "start-turn-outside"


class HeavyObscurement(Enum):
    """What heavy obscurement does to attacks (CONC-10, CONC-12, E-34)."""

    TERRAIN = "terrain"
    AS_IF_BLINDED = "as-if-blinded"


class BreakBehaviour(Enum):
    """What a broken NPC of a morale type does (MOR-21, MOR-23, MOR-24; 000:539–542)."""

    FLEE = "flee"
    """Flee toward an exit with every action (MOR-21)."""
    SCATTER = "scatter"
    """Bandits: flee as MOR-21, each for itself; surrender once cornered (MOR-23)."""
    SURRENDER = "surrender"
    """Surrender at once (soldiers "surrender with honor", or bandits under the other reading)."""
    FLEE_RANDOM = "flee-random"
    """Animals: flee in a random direction (one die, eight directions); cornered, they cower."""
    CHARGE = "charge"
    """Zealots: a final suicidal charge instead of surrendering: they fight on and never flee or give up."""
    COWER = "cower"
    """Cower where it stands, out of the fight like a surrender (MOR-23: "surrender …, cower, or beg")."""


class InitiativeProficiency(StrEnum):
    """When proficiency is added to initiative (INIT-1, E-21).

    A string enum: it was a plain string option, so its members still equal those strings (house rules, readers).
    """

    ALWAYS = "always"
    COMBAT_TRAINED = "combat-trained"


class SecondWindAdds(StrEnum):
    """What Second Wind adds to its healing dice (HEAL-5, E-30); a string enum like :class:`InitiativeProficiency`."""

    LEVEL = "level"
    END = "END"
