"""Coup de Grace (CDG-1..5): who can be executed, the automatic critical hit, and what the blow leaves.

The target must be adjacent (the engine measures) and unconscious, paralyzed or helpless, i.e. restrained
and incapacitated at once (CDG-1); a creature that is only restrained, stunned or prone can still defend
itself. There is no attack roll: the blow hits and is a critical hit (CDG-2, damage dice doubled, G-40), so
it takes no MAP but counts as one attack afterwards (G-41). If the target is left at 0 HP it dies with no
death saves (CDG-3); otherwise it wakes up: conscious, prone and aware of the attacker (CDG-4). Immunity
is the GM's call (CDG-5) and arrives as a flag.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ashfall.content.schema import Creature, Weapon
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.families.attacks.rules import AttackContext, build_damage_parts, prepare_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode, counts_for_map
from ashfall.rules import conditions as cond
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.health import Health
from ashfall.ruleset import Ruleset

CDG_1 = rule("CDG-1")
CDG_2 = rule("CDG-2")
CDG_3 = rule("CDG-3")
CDG_4 = rule("CDG-4")
CDG_5 = rule("CDG-5")
G_41 = rule("G-41")

_HELPLESS_ENOUGH = frozenset({Condition.UNCONSCIOUS, Condition.PARALYZED})


def ineligible(conditions: Collection[Condition], *, immune: bool = False) -> RuleId | None:
    """None if a creature with these conditions can be executed, else the rule that forbids it (CDG-1, CDG-5)."""
    if immune:
        return CDG_5
    if _HELPLESS_ENOUGH.intersection(cond.expand(conditions)) or cond.is_helpless(conditions):
        return None
    return CDG_1


@dataclass(frozen=True, slots=True)
class CoupDeGrace:
    """The blow, before its damage is rolled.

    Attributes:
        weapon: The weapon used (a built-in one for an unarmed or natural blow without one).
        damage_parts: Its damage parts; roll them as a critical hit (CDG-2, G-40).
        reasons: The rules deciding the outcome: an automatic hit and an automatic crit.
        counts_for_map: It counts as one attack for later MAP (G-41); it never takes MAP itself.
    """

    weapon: Weapon | None
    damage_parts: tuple[DamagePart, ...]
    reasons: tuple[RuleId, ...]
    counts_for_map: bool


def coup_de_grace(attacker: Creature, weapon: Weapon | None, mode: AttackMode, ruleset: Ruleset) -> CoupDeGrace:
    """Prepare a Coup de Grace: no roll, an automatic critical hit with a melee weapon or unarmed (CDG-2).

    Raises:
        RuleViolation: A ranged weapon (a melee blow only) or an attack the ruleset forbids.
    """
    context = AttackContext(activity=Activity.COUP_DE_GRACE)
    prepared = prepare_attack(attacker, weapon, mode, ruleset, context)
    parts = build_damage_parts(attacker, prepared, context, ruleset)
    return CoupDeGrace(prepared.weapon, parts, (CDG_2, G_41), counts_for_map(Activity.COUP_DE_GRACE, ruleset))


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What the blow left.

    Attributes:
        dies: It was left at 0 HP and not yet dead: it dies now, with no death saves (CDG-3).
        wakes: It still has HP: it is no longer unconscious, and is prone and aware of the attacker (CDG-4).
        rule: CDG-3 or CDG-4.
    """

    dies: bool
    wakes: bool
    rule: RuleId


def aftermath(after: Health) -> Aftermath:
    """Dead already, killed because it is at 0 HP (CDG-3), or jolted awake (CDG-4)."""
    if after.is_dead or after.hp == 0:
        return Aftermath(not after.is_dead, False, CDG_3)
    return Aftermath(False, True, CDG_4)
