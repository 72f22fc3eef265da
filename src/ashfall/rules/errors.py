"""Refusals: the exception a rule raises when an action is not allowed, naming the rule that forbids it.

Rules raise :class:`RuleViolation` (never return a half-applied state) when asked to do something the
rules do not allow: a death save by a creature that is not dying, a third stim in 24 hours, a short
rest too soon. The exception carries the rule ID and a short reason; presenters format it.
"""

from __future__ import annotations

from ashfall.core.rule_ids import RuleId


class RuleViolation(Exception):
    """An action the rules forbid.

    Attributes:
        rule: The rule or ruling that forbids it.
        reason: A short, plain statement of why.
    """

    def __init__(self, rule: RuleId, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
