"""Helpers for the reaction, turn-structure and Suppressive Fire tests: a controller that takes named reactions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ashfall.engine import Decision, EncounterState
from ashfall.engine import events as ev


class Takes:
    """A controller that takes the first of the named reactions offered, and declines anything else."""

    def __init__(self, *keys: str) -> None:
        self.keys = keys
        self.offered: list[tuple[str, ...]] = []

    def decide(self, state: EncounterState, decision: Decision) -> str | None:
        """Take a named option when offered."""
        self.offered.append(tuple(o.key for o in decision.options))
        for key in self.keys:
            if any(o.key == key for o in decision.options):
                return key
        return None if decision.optional else decision.options[0].key


def offered(events: Iterable[Any], actor: str) -> list[str]:
    """The reactions an actor chose (DecisionMade events of kind "reaction")."""
    return [e.choice for e in events if isinstance(e, ev.DecisionMade) and e.actor == actor
            and e.decision == "reaction"]


def kinds(events: Iterable[Any]) -> list[str]:
    """The event type names, in order."""
    return [type(e).__name__ for e in events]
