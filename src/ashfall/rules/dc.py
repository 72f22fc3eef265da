"""Difficulty classes as explained numbers: fixed DCs and the ``8 + modifier + proficiency`` formula.

Used by psionics (PSI-4), Suppressive Fire (SUP-5), Brace (RX-14) and any DC a feature computes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ashfall.core.modifiers import Modifier, ModifierKind, Stacked, stack
from ashfall.core.rule_ids import RuleId
from ashfall.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class DC:
    """A difficulty class with its breakdown. ``total`` is what a roll must meet or exceed (G-45)."""

    total: int
    parts: Stacked
    rule: RuleId


def fixed_dc(value: int, rule: RuleId, label: str) -> DC:
    """A DC stated by a rule (Reflex DC 14, Medicine DC 15 ...)."""
    mod = Modifier(value, ModifierKind.DC_BASE, rule, label)
    return DC(value, stack((mod,)), rule)


def formula_dc(
    rule: RuleId,
    attribute_label: str,
    attribute_mod: int,
    proficiency: int,
    ruleset: Ruleset,
    extra: Sequence[Modifier] = (),
) -> DC:
    """``base (8) + attribute modifier + proficiency + extras``, each part labelled.

    Args:
        rule: The rule that defines this DC (PSI-4, SUP-5, RX-14 ...).
        attribute_label: e.g. ``"WIS"``.
        attribute_mod: The attribute modifier.
        proficiency: The proficiency bonus.
        ruleset: Supplies the base (``checks.dc_base``).
        extra: Further modifiers (Strained Focus +1 ...).
    """
    parts = stack(
        (
            Modifier(ruleset.checks.dc_base, ModifierKind.DC_BASE, rule, "base"),
            Modifier(attribute_mod, ModifierKind.ABILITY, rule, attribute_label),
            Modifier(proficiency, ModifierKind.PROFICIENCY, rule, "proficiency"),
            *extra,
        )
    )
    return DC(parts.total, parts, rule)
