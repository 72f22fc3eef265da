"""Exact odds of a saving throw (or any d20 check) against a DC.

A save succeeds when d20 + bonus meets or exceeds the DC (G-45). Natural 20 and 1 have no automatic
effect on saves (G-44) unless the ruleset's ``checks.natural_rules_on_saves`` switches them on.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ashfall.core.modifiers import Advantage
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.attacks.rules import NATURAL_MAX, NATURAL_MIN
from ashfall.odds.attack import natural_d20
from ashfall.ruleset import Ruleset, preset

G_21 = rule("G-21")
G_44 = rule("G-44")
G_45 = rule("G-45")


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """Exact odds of one save.

    Attributes:
        bonus: The save bonus.
        dc: The DC to meet or exceed.
        advantage: Net advantage state (G-21).
        natural_rules: Whether natural 20/1 auto-succeed/fail (off by default: G-44).
        p_success: Probability of success.
        rules: The rules applied.
    """

    bonus: int
    dc: int
    advantage: Advantage
    natural_rules: bool
    p_success: Fraction
    rules: tuple[RuleId, ...]

    @property
    def p_failure(self) -> Fraction:
        """Probability of failure."""
        return 1 - self.p_success


def _succeeds(natural: int, total: int, dc: int, natural_rules: bool) -> bool:
    if natural_rules and natural in (NATURAL_MIN, NATURAL_MAX):
        return natural == NATURAL_MAX
    return total >= dc


def save_odds(
    bonus: int, dc: int, advantage: Advantage = Advantage.NORMAL, *, ruleset: Ruleset | None = None
) -> SaveOdds:
    """Exact probability that d20 + ``bonus`` meets or exceeds ``dc``.

    Args:
        bonus: The save bonus.
        dc: The DC.
        advantage: Net advantage state (G-21).
        ruleset: The rules in force (default: the current edition).
    """
    natural_rules = (ruleset or preset()).checks.natural_rules_on_saves
    p = sum((p for nat, p in natural_d20(advantage).items() if _succeeds(nat, nat + bonus, dc, natural_rules)),
            Fraction(0))
    rules = (G_45, G_44) + ((G_21,) if advantage is not Advantage.NORMAL else ())
    return SaveOdds(bonus, dc, advantage, natural_rules, p, rules)


__all__ = ["SaveOdds", "save_odds"]
