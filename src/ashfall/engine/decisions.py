"""Decisions the engine asks controllers for, and the controller protocol.

A resolver calls ``ctx.decide(decision)``. The answer comes from answers supplied with the intent
(a human answering through the tracker, or a replay), else from the creature's controller. When
nobody can answer now, :class:`NeedDecision` is raised and the intent is rolled back untouched, so an
asynchronous UI can ask a person and resubmit the intent with the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ashfall.engine.state import EncounterState


@dataclass(frozen=True, slots=True)
class Option:
    """One choice offered: a stable key and a human label, with the rule that allows it."""

    key: str
    label: str
    rule: str


@dataclass(frozen=True, slots=True)
class Decision:
    """A question for one creature's controller.

    Attributes:
        actor: The creature whose controller answers.
        kind: What is being decided ("reaction", "defense-skill", …).
        prompt: A short statement of the situation ("Kael leaves your reach").
        options: The choices, in a fixed order.
        optional: Whether declining (answer ``None``) is allowed.
        rule: The rule that asks for the decision.
        about: The creature whose act set the decision off (a reaction's trigger), if any: controllers read it
            as data, presenters name it (:meth:`describe`).
    """

    actor: str
    kind: str
    prompt: str
    options: tuple[Option, ...]
    optional: bool
    rule: str
    about: str | None = None

    def describe(self) -> str:
        """The situation in words, for people ("attack by raider-1")."""
        return self.prompt if self.about is None else f"{self.prompt} by {self.about}"


class NeedDecision(Exception):
    """Raised when a decision has no answer available yet; the intent is rolled back."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(f"{decision.actor} must decide: {decision.describe()}")
        self.decision = decision


class Controller(Protocol):
    """Anything that answers decisions for the creatures it controls (a person, an AI policy)."""

    def decide(self, state: EncounterState, decision: Decision) -> str | None:
        """Return an option key, or None to decline an optional decision."""
        ...


class FirstOption:
    """A controller that always takes the first option (tests and scripted fights)."""

    def decide(self, state: EncounterState, decision: Decision) -> str | None:
        """Take the first option."""
        return decision.options[0].key if decision.options else None


class Decline:
    """A controller that declines every optional decision and takes the first required option."""

    def decide(self, state: EncounterState, decision: Decision) -> str | None:
        """Decline when allowed."""
        if decision.optional or not decision.options:
            return None
        return decision.options[0].key
