"""Conditions as data: what each condition does to attacks, saves, checks, DV, speed and actions.

INTERFACE STUB — being implemented. Signatures are fixed; other modules may import them.
"""

from __future__ import annotations

from collections.abc import Collection

from ashfall.core.modifiers import Modifier, RollSource
from ashfall.core.rule_ids import RuleId
from ashfall.core.types import Condition, Save, Skill
from ashfall.ruleset import Ruleset


def attack_sources(
    attacker: Collection[Condition],
    target: Collection[Condition],
    *,
    melee: bool,
    within_5ft: bool,
    ruleset: Ruleset,
) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources that conditions put on one attack roll."""
    raise NotImplementedError


def auto_crit(target: Collection[Condition], *, melee: bool, within_5ft: bool) -> RuleId | None:
    """The rule making a hit an automatic crit (Paralyzed/Unconscious within 5 ft, CRIT-5), or None."""
    raise NotImplementedError


def save_auto_fail(conditions: Collection[Condition], save: Save) -> RuleId | None:
    """The rule that makes the creature fail this save automatically (C-PAR, C-STU, C-UNC), or None."""
    raise NotImplementedError


def save_sources(conditions: Collection[Condition], save: Save) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources on a save (Restrained: AGI saves; Dodging; Shaken: Will)."""
    raise NotImplementedError


def check_sources(conditions: Collection[Condition], skill: Skill | None) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources on an ability check (Poisoned, Frightened ...)."""
    raise NotImplementedError


def dv_modifiers(
    conditions: Collection[Condition], ruleset: Ruleset, *, fear_source_visible: bool = True
) -> tuple[Modifier, ...]:
    """DV modifiers from conditions (Frightened -2, DV-8)."""
    raise NotImplementedError


def loses_positive_agi(conditions: Collection[Condition]) -> RuleId | None:
    """The rule by which the creature loses its positive AGI to DV (flat-footed, FF-2), or None."""
    raise NotImplementedError
