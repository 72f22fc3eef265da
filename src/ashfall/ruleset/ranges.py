"""The range of every numeric ruleset option, and the dice rules of every dice option.

A house-rule file is hostile input: ``turn.actions_per_turn: 0`` would loop the turn engine forever and
``damage.resistance_divisor: 0`` would divide by zero mid-fight. Every whole-number option therefore has
a documented range, chosen to be generous for a GM yet small enough that the engine, the AI and the
exact odds finish in bounded time. Whole numbers are strict: ``true`` or ``"3"`` is not a number.

A range comes from :data:`EXPLICIT` (``section.option``), else from the option's name suffix
(:data:`BY_SUFFIX`: ``_ft`` is feet, ``_actions`` an action cost …), else :data:`GENERIC` (a modifier).
Options whose default is dice notation (``"2d6"``, ``"3d6 fire"``) must stay dice notation within
:data:`OPTION_MAX_DICE` dice of at most :data:`OPTION_MAX_SIDES` faces, tagged with a damage type exactly
when the default is. ``scripts/gen_options_doc.py`` prints each option's range in docs/ruleset-options.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ashfall.core.dice import BinOp, Dice, DiceError, Neg, Node, parse
from ashfall.core.types import DamageType


@dataclass(frozen=True, slots=True)
class Range:
    """An inclusive range of whole numbers.

    Attributes:
        lo: The least value allowed.
        hi: The greatest value allowed.
    """

    lo: int
    hi: int

    def __str__(self) -> str:
        return f"{self.lo} to {self.hi}"

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.lo <= value <= self.hi


ACTIONS = Range(1, 6)
"""An action cost: at least one (a free repeatable action would let a turn loop), at most a long turn."""

GENERIC = Range(-20, 20)
"""A bonus, penalty or modifier to a d20 roll or a DC (any option no other rule covers)."""

BY_SUFFIX: tuple[tuple[str, Range], ...] = (
    ("_actions", ACTIONS),
    ("_radius_ft", Range(0, 200)),
    ("_ft", Range(0, 1000)),
    ("_dc", Range(0, 40)),
    ("_divisor", Range(1, 10)),
    ("_multiplier", Range(1, 10)),
    ("_factor", Range(1, 100)),
    ("_percent", Range(0, 100)),
    ("_rounds", Range(0, 100)),
    ("_minutes", Range(0, 100_000)),
    ("_hours", Range(0, 10_000)),
    ("_days", Range(0, 10_000)),
    ("_dead", Range(0, 10_000)),
    ("_credits", Range(0, 10_000_000)),
    ("_cost", Range(0, 10_000_000)),
    ("_costs", Range(0, 10_000_000)),
    ("_level", Range(0, 9)),
    ("_exhaustion", Range(0, 10)),
    ("_hp", Range(0, 1000)),
    ("_uses", Range(0, 20)),
)
"""Ranges by the option name's ending, first match wins (``gas_radius_ft`` is a radius, not any distance)."""

EXPLICIT: dict[str, Range] = {
    # The action economy: the AI plans every order of a turn's actions, so a turn stays short.
    "turn.actions_per_turn": Range(1, 6),
    "turn.reactions_per_round": Range(0, 3),
    "turn.bonus_actions_per_turn": Range(0, 3),
    "turn.free_actions_per_turn": Range(0, 10),
    "turn.water_cost": Range(1, 4),
    "conditions.dazed_actions": Range(0, 6),
    "morale.broken_stride_actions": Range(1, 6),
    "morale.fall_back_escape_actions": Range(0, 6),
    "underwater.strenuous_attack_actions": Range(1, 6),
    # Attacks.
    "attack.full_auto_targets": Range(1, 10),
    "attack.sweeping_targets": Range(1, 10),
    "attack.all_out_attacks": Range(1, 6),
    "attack.power_strike_damage": Range(0, 20),
    "attack.natural_reach": Range(5, 30),
    "attack.suppressive_ammo": Range(1, 100),
    "attack.full_auto_ammo_per_target": Range(0, 10),
    "attack.covering_fire_ammo": Range(0, 10),
    "attack.called_leg_speed": Range(-100, 0),
    "attack.fumble_table": Range(1, 20),
    # Defense, checks and contests.
    "defense.dv_base": Range(0, 30),
    "defense.agi_cap_light": Range(0, 10),
    "defense.agi_cap_medium": Range(0, 10),
    "defense.agi_cap_heavy": Range(0, 10),
    "checks.dc_base": Range(0, 20),
    "checks.degree_margin": Range(1, 20),
    "checks.maneuver_max_larger": Range(0, 5),
    "checks.hands": Range(1, 4),
    # Damage and dying.
    "damage.minimum_damage": Range(0, 10),
    "dying.save_success_min": Range(1, 20),
    "dying.natural_20_hp": Range(1, 100),
    "dying.natural_1_failures": Range(1, 10),
    "dying.successes_to_stabilise": Range(1, 10),
    "dying.failures_to_die": Range(1, 10),
    "dying.damage_failures": Range(0, 10),
    "dying.crit_failures": Range(0, 10),
    # Healing and rest (out of combat, so the ranges are wide).
    "healing.stims_per_day": Range(0, 20),
    "healing.short_rests_per_day": Range(0, 10),
    "healing.field_surgery_failure_kit_uses": Range(0, 20),
    "healing.natural_healing_min": Range(0, 1000),
    "healing.hit_die_min_per_die": Range(0, 20),
    "healing.short_rest_hit_dice_min": Range(0, 20),
    "healing.short_rest_slots": Range(0, 10),
    "healing.severe_exhaustion_from": Range(1, 10),
    "healing.resurrection_exhaustion_per_long_rest": Range(0, 10),
    "healing.resurrection_essence": Range(0, 10_000),
    "healing.resurrection_attribute_loss": Range(0, 10),
    "healing.true_resurrection_max_years_dead": Range(0, 10_000),
    "healing.true_resurrection_penalty": Range(-20, 0),
    "healing.ritual_minutes_per_level": Range(0, 10_000),
    # Psionics, conditions, morale, magic.
    "psionics.strained_focus": Range(0, 20),
    "psionics.strained_dc_bonus": Range(0, 10),
    "psionics.backlash_base": Range(0, 30),
    "psionics.focus_per_psionic_action": Range(0, 10),
    "conditions.exhaustion_max": Range(1, 10),
    "conditions.passive_base": Range(0, 20),
    "conditions.blinded_passive": Range(-20, 0),
    "conditions.deafened_passive": Range(-20, 0),
    "conditions.exhaustion_penalty_per_level": Range(-10, 10),
    "morale.base_dc": Range(0, 30),
    "morale.leader_down_dc": GENERIC,
    "morale.outnumbered_dc": GENERIC,
    "morale.first_blood_dc": GENERIC,
    "morale.half_strength_dc": GENERIC,
    "morale.fear_dc": GENERIC,
    "morale.fall_back_band": Range(0, 20),
    "morale.rallies_per_encounter": Range(0, 10),
    "magic.max_concentration": Range(0, 5),
    "magic.max_sustained": Range(0, 5),
    # Hazards and underwater: water depths in feet stay within a deep room.
    "hazards.water_stops_fire": Range(0, 20),
    "hazards.flood_rise_ft": Range(0, 20),
    "hazards.shallow_water_ft": Range(0, 20),
    "hazards.deep_water_ft": Range(1, 50),
    "hazards.drain_ft": Range(0, 20),
    "hazards.gas_growth_ft": Range(0, 50),
    "underwater.strenuous_max_per_turn": Range(0, 10),
    "underwater.strenuous_extra_rounds": Range(0, 10),
    "underwater.rounds_per_minute": Range(1, 100),
    "underwater.murky_passive_perception": Range(-20, 0),
    "underwater.heavy_armor_sink_ft": Range(0, 100),
    # Objects.
    "objects.object_dv": Range(0, 40),
    "objects.light_cover_max_hp": Range(0, 1000),
    "objects.chain_die": Range(2, 1000),
}
"""Ranges named one by one (``section.option``); they win over :data:`BY_SUFFIX`."""

CHOICES: dict[str, tuple[str, ...]] = {
    "turn.diagonals": ("five", "alternating"),
    "turn.initiative_proficiency": ("always", "combat-trained"),
    "healing.second_wind_adds": ("level", "END"),
}
"""Text options that take one of a few words (the rules compare them by name)."""

DAMAGE_TYPE_OPTIONS = frozenset({"psionics.psi_strike_type"})
"""Text options that name a damage type."""

OPTION_MAX_DICE = 100
"""The most dice a dice option may roll (a crit doubles it; the odds stay exact)."""

OPTION_MAX_SIDES = 1000
"""The largest die a dice option may name."""


def range_of(option: str) -> Range:
    """The range of a whole-number option, ``section.option``."""
    if option in EXPLICIT:
        return EXPLICIT[option]
    name = option.rsplit(".", 1)[-1]
    return next((r for suffix, r in BY_SUFFIX if name.endswith(suffix)), GENERIC)


def is_dice_default(value: object) -> bool:
    """Whether an option's default is dice notation (so the option must stay dice notation)."""
    if not isinstance(value, str):
        return False
    if not any(ch.isdigit() or ch == "%" for ch in value):
        # dice notation needs a number or ``d%``: a word such as ``force`` is not dice, and asking the parser would
        # build d20's grammar (~0.4 s) on every start that applies an edition's overrides
        return False
    try:
        return parse(value).dice_count > 0
    except DiceError:
        return False


def check_number(option: str, value: Any) -> int:
    """``value`` as a whole number within the option's range.

    Raises:
        ValueError: For a non-integer (booleans included) or a number outside the range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number from {range_of(option)}, not {spelled(value)}")
    allowed = range_of(option)
    if value not in allowed:
        raise ValueError(f"{value} is out of range: allowed {allowed}")
    return value


def check_word(option: str, value: Any) -> Any:
    """``value`` as one of the option's words (:data:`CHOICES`) or a damage type; other options pass.

    Raises:
        ValueError: For a word the rules do not know.
    """
    if option in CHOICES and value not in CHOICES[option]:
        raise ValueError(f"expected one of {', '.join(CHOICES[option])}, not {spelled(value)}")
    if option in DAMAGE_TYPE_OPTIONS:
        try:
            DamageType.parse(value if isinstance(value, str) else "")
        except ValueError:
            raise ValueError(f"expected a damage type, not {spelled(value)}") from None
    return value


def spelled(value: object) -> str:
    """A value as a YAML file spells it (``true``, ``'3'``, ``[1, 2]``), for error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return str(value)


def check_dice(value: Any, tagged: bool) -> str:
    """``value`` as dice notation fit for an option: bounded dice, a damage type exactly when ``tagged``.

    Raises:
        ValueError: For anything else.
    """
    if not isinstance(value, str):
        raise ValueError(f"expected dice notation such as 2d6, not {spelled(value)}")
    try:
        expr = parse(value)
    except DiceError as err:
        raise ValueError(str(err)) from None
    for die in _dice_terms(expr.root):
        if die.sides > OPTION_MAX_SIDES:
            raise ValueError(f"{value!r}: a die here has at most {OPTION_MAX_SIDES} faces")
    if expr.dice_count > OPTION_MAX_DICE:
        raise ValueError(f"{value!r} rolls {expr.dice_count} dice; an option may roll at most {OPTION_MAX_DICE}")
    if tagged:
        try:
            DamageType.parse(expr.tag or "")
        except ValueError:
            raise ValueError(f"{value!r}: give the dice and a damage type, e.g. '3d6 fire'") from None
    elif expr.tag:
        raise ValueError(f"{value!r}: give dice only, without a damage type")
    return value


def _dice_terms(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, BinOp):
        return _dice_terms(node.left) + _dice_terms(node.right)
    if isinstance(node, Neg):
        return _dice_terms(node.value)
    return []


__all__ = [
    "CHOICES",
    "DAMAGE_TYPE_OPTIONS",
    "EXPLICIT",
    "GENERIC",
    "OPTION_MAX_DICE",
    "OPTION_MAX_SIDES",
    "Range",
    "check_dice",
    "check_number",
    "check_word",
    "is_dice_default",
    "range_of",
    "spelled",
]
