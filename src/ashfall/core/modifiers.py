"""Every number knows why: modifiers, their stacking, and advantage/disadvantage sources.

A :class:`Modifier` is a frozen value (value, kind, rule, label). :func:`stack` never mutates its
inputs: it returns which modifiers count and which were suppressed, and why. Advantage and
disadvantage are :class:`RollSource` records folded by :func:`resolve_advantage` (G-21).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from ashfall.core.rule_ids import RuleId, rule


class ModifierKind(Enum):
    """What a modifier is; used by presenters and by stacking groups."""

    ABILITY = "ability"
    PROFICIENCY = "proficiency"
    ITEM = "item"
    CIRCUMSTANCE = "circumstance"
    CONDITION = "condition"
    MAP = "map"
    ACTIVITY = "activity"
    CALLED_SHOT = "called-shot"
    DC_BASE = "dc-base"
    DV_BASE = "dv-base"
    ARMOR = "armor"
    SHIELD = "shield"
    COVER = "cover"
    UNTYPED = "untyped"


@dataclass(frozen=True, slots=True)
class Modifier:
    """A signed number with its reason.

    Attributes:
        value: The amount added (negative for a penalty).
        kind: What sort of modifier it is.
        rule: The catalog rule or ruling that grants it.
        label: A short human name ("Power Strike", "MIG", "2nd attack").
        stack_group: Modifiers sharing a non-empty group do not stack: the best bonus and the
            worst penalty of the group apply (e.g. one cover source). Empty means always stacks.
    """

    value: int
    kind: ModifierKind
    rule: RuleId
    label: str
    stack_group: str = ""


@dataclass(frozen=True, slots=True)
class Stacked:
    """The outcome of stacking: the total, the modifiers that apply and those suppressed."""

    total: int
    applied: tuple[Modifier, ...]
    suppressed: tuple[Modifier, ...]


def stack(modifiers: Iterable[Modifier]) -> Stacked:
    """Add modifiers, keeping only the best bonus and worst penalty within each stack group.

    Args:
        modifiers: Candidates in the order they were gathered (order is kept in the result).

    Returns:
        The total with the applied and suppressed modifiers, inputs untouched.
    """
    mods = tuple(modifiers)
    best: dict[tuple[str, bool], Modifier] = {}
    for m in mods:
        if not m.stack_group or m.value == 0:
            continue
        key = (m.stack_group, m.value > 0)
        cur = best.get(key)
        if cur is None or abs(m.value) > abs(cur.value):
            best[key] = m
    applied: list[Modifier] = []
    suppressed: list[Modifier] = []
    for m in mods:
        if m.stack_group and m.value != 0 and best[(m.stack_group, m.value > 0)] is not m:
            suppressed.append(m)
        else:
            applied.append(m)
    return Stacked(sum(m.value for m in applied), tuple(applied), tuple(suppressed))


class Advantage(Enum):
    """The net state of a d20 roll after every source is folded (G-21)."""

    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


@dataclass(frozen=True, slots=True)
class RollSource:
    """One reason a d20 roll has advantage or disadvantage.

    Attributes:
        advantage: True for an advantage source, False for a disadvantage source.
        rule: The rule that grants it.
        label: A short human name ("target prone", "Blinded").
    """

    advantage: bool
    rule: RuleId
    label: str


def adv(rule_id: RuleId, label: str) -> RollSource:
    """An advantage source."""
    return RollSource(True, rule_id, label)


def dis(rule_id: RuleId, label: str) -> RollSource:
    """A disadvantage source."""
    return RollSource(False, rule_id, label)


CANCEL_RULE = rule("AMOD-8")


def resolve_advantage(sources: Iterable[RollSource]) -> Advantage:
    """Fold sources: any advantage plus any disadvantage cancel; extra sources never stack (G-21, AMOD-8)."""
    has_adv = has_dis = False
    for s in sources:
        if s.advantage:
            has_adv = True
        else:
            has_dis = True
    if has_adv and not has_dis:
        return Advantage.ADVANTAGE
    if has_dis and not has_adv:
        return Advantage.DISADVANTAGE
    return Advantage.NORMAL
