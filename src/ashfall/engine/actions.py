"""The action registry: every intent type with its cost, legality check, resolver and candidates.

An intent is a frozen value naming its actor. A rulebook (:mod:`ashfall.engine.rulebook`) maps each intent type to an
:class:`ActionDef`; the engine runs the common checks (whose turn, actions left, bonus-action limit,
AE-1, AE-5), then the action's own ``check`` — all before any die is rolled — and then ``resolve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ashfall.core.rule_ids import RuleId, rule
from ashfall.engine.context import Context
from ashfall.engine.state import EncounterState
from ashfall.rules.errors import RuleViolation


class Refused(RuleViolation):
    """An illegal intent, refused before any die was rolled; the state is untouched."""


def refuse(rule_id: str, reason: str) -> Refused:
    """Build a refusal naming the rule that forbids the intent."""
    return Refused(rule(rule_id), reason)


Check = Callable[[EncounterState, Any], None]
Resolve = Callable[[Context, Any], None]
Cost = Callable[[EncounterState, Any], int]
Candidates = Callable[[EncounterState, str], Iterable[Any]]


def _no_check(state: EncounterState, intent: Any) -> None:
    """No action-specific requirement."""


def _no_candidates(state: EncounterState, actor: str) -> Iterable[Any]:
    return ()


@dataclass(frozen=True, slots=True)
class ActionDef:
    """How one kind of intent is costed, checked and resolved.

    Attributes:
        name: A short name ("strike", "stride").
        rule: The rule that defines the action.
        cost: Actions it costs, given the state and intent (ACT-1, MAA-1).
        resolve: Emits the events of the action.
        check: Raises :class:`Refused` when the intent is illegal now (beyond the common checks).
        candidates: Intents of this kind an actor could try now (for ``legal_intents`` and the AI).
        bonus: A bonus action (costs an action, at most one per turn: AE-4, AE-5).
        own_turn: Only on the actor's own turn (False for out-of-turn intents such as free actions).
        free: A free action (AE-3), limited by ``turn.free_actions_per_turn``.
        ends_turn: Resolving it ends the actor's turn; the next turn is the one that followed it before the
            action (Delay moves the actor later in the order, DEL-1).
        gm: An override the GM makes (rule GM): no creature acts, so the action economy and the actor checks do
            not apply; only its own ``check`` does. The engine knows no roles: a front end lets only the GM
            submit these.
    """

    name: str
    rule: RuleId
    cost: Cost
    resolve: Resolve
    check: Check = _no_check
    candidates: Candidates = _no_candidates
    bonus: bool = False
    own_turn: bool = True
    free: bool = False
    ends_turn: bool = False
    gm: bool = False


def fixed(n: int) -> Cost:
    """A cost that does not depend on the situation."""

    def cost(state: EncounterState, intent: Any) -> int:
        return n

    return cost
