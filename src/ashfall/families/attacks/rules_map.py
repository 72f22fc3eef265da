"""The Multiple Attack Penalty: the modifier for the n-th attack, All-Out Attack, and two-weapon fighting.

The turn engine counts attacks (using :data:`~ashfall.families.attacks.rules_activities.COUNTS_FOR_MAP`) and asks here
for
the modifier. Edition 2 counts attack rolls (MAP-1, MAP-2); edition 1 counts Strike actions and exempts
Extra Attack's bonus attack (E-01). Two-weapon fighting follows its own schedule by default (X-11, TWF-8).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ashfall.content.schema import Weapon, WeaponProperty
from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.attacks.rules_activities import COUNTS_FOR_MAP, TAKES_MAP, counts_for_map, takes_map
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import MapCounting, TwfSchedule

MAP_1 = rule("MAP-1")
MAP_5 = rule("MAP-5")
E_01 = rule("E-01")
E_40 = rule("E-40")
TWF_4 = rule("TWF-4")
TWF_5 = rule("TWF-5")
TWF_8 = rule("TWF-8")

__all__ = [
    "COUNTS_FOR_MAP",
    "TAKES_MAP",
    "TwoWeapon",
    "all_out_schedule",
    "counts_for_map",
    "map_modifier",
    "takes_map",
    "two_weapon_modifiers",
]


def _step(steps: int, ruleset: Ruleset, rule_id: RuleId) -> Modifier | None:
    return _map_step(steps, ruleset.attack.map_step, rule_id) if steps > 0 else None


@lru_cache(maxsize=256)
def _map_step(steps: int, step_value: int, rule_id: RuleId) -> Modifier:
    """The MAP modifier for ``steps`` earlier attacks.

    Modifiers are frozen, so one instance per step is shared: no label is formatted per attack on the
    simulator's hot path.
    """
    return Modifier(steps * step_value, ModifierKind.MAP, rule_id, f"MAP ({steps} earlier)")


def map_modifier(
    prior_attack_rolls: int,
    ruleset: Ruleset,
    *,
    strike_actions_before: int | None = None,
    extra_attack_second: bool = False,
) -> Modifier | None:
    """The MAP modifier for an attack, or None for the first.

    Args:
        prior_attack_rolls: Attacks made earlier this turn that count for MAP (G-41): 0 for the first.
        ruleset: ``attack.map_step`` and ``attack.map_counting``.
        strike_actions_before: Edition 1 (E-01): Strike actions already taken this turn; the attacks of one
            Strike share its penalty. Defaults to ``prior_attack_rolls``.
        extra_attack_second: This is the bonus attack of Extra Attack (edition 1 only; exempt from MAP).

    Returns:
        ``-3`` per earlier attack roll (MAP-1, MAP-2), or per earlier Strike action in edition 1 (E-01).

    Raises:
        RuleViolation: Extra Attack in a ruleset without it (E-01).
    """
    if extra_attack_second and not ruleset.attack.extra_attack:
        raise RuleViolation(E_01, "Extra Attack does not exist in this edition")
    if ruleset.attack.map_counting is MapCounting.PER_ATTACK_ROLL:
        return _step(prior_attack_rolls, ruleset, MAP_1)
    strikes = prior_attack_rolls if strike_actions_before is None else strike_actions_before
    return _step(strikes, ruleset, E_01)


def all_out_schedule(ruleset: Ruleset) -> tuple[Modifier | None, ...]:
    """The MAP of each All-Out Attack attack: 0 / -3 / -6 in both editions (MAA-7, MAP-5)."""
    return tuple(_step(i, ruleset, MAP_5) for i in range(ruleset.attack.all_out_attacks))


@dataclass(frozen=True, slots=True)
class TwoWeapon:
    """A two-weapon attack (TWF-1..8).

    Attributes:
        attack_number: 1-based number of this attack in the turn's two-weapon sequence (TWF-8).
        off_hand: This attack is made with the off-hand weapon.
        main_hand: The main-hand weapon (edition 1 requires both to be Light, E-40).
        ability: The attacker has the Two-Weapon Fighting ability (TWF-6: attribute to off-hand damage).
    """

    attack_number: int
    off_hand: bool
    main_hand: Weapon | None = None
    ability: bool = False


def two_weapon_modifiers(
    twf: TwoWeapon, weapon: Weapon, map_mod: Modifier | None, ruleset: Ruleset
) -> tuple[Modifier, ...]:
    """The MAP and off-hand modifiers of one two-weapon attack.

    Under the own schedule (X-11, default) the caller's MAP is replaced: main hand 0, off-hand 0 (Light,
    TWF-4) or -2 (non-Light, TWF-5), a third attack an additional -3 (TWF-8). Under strict MAP the caller's
    MAP stays and the off-hand penalty is added.

    Raises:
        RuleViolation: A non-Light weapon where edition 1 requires Light weapons (E-40).
    """
    if ruleset.attack.twf_requires_light:
        for held in (weapon, twf.main_hand):
            if held is not None and not held.has(WeaponProperty.LIGHT):
                raise RuleViolation(E_40, f"{held.name} is not Light; this edition needs two Light weapons")
    mods: list[Modifier] = []
    if ruleset.attack.twf_schedule is TwfSchedule.OWN_SCHEDULE:
        extra = _step(twf.attack_number - 2, ruleset, TWF_8)
        if extra is not None:
            mods.append(extra)
    elif map_mod is not None:
        mods.append(map_mod)
    if twf.off_hand:
        light = weapon.has(WeaponProperty.LIGHT)
        value = 0 if light else ruleset.attack.twf_non_light_offhand
        mods.append(
            Modifier(value, ModifierKind.CIRCUMSTANCE, TWF_4 if light else TWF_5, "off-hand (Light)" if light
                     else "off-hand (not Light)")
        )
    return tuple(mods)
