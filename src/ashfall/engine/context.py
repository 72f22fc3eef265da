"""The resolution context a resolver works in: read the state, roll, emit events, ask decisions."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ashfall.core.rng import Rng
from ashfall.engine import events as ev
from ashfall.engine.apply import apply
from ashfall.engine.decisions import Controller, Decision, NeedDecision
from ashfall.engine.dice_entry import RollFor, TableDice
from ashfall.engine.events import Event
from ashfall.engine.state import EncounterState
from ashfall.ruleset import Ruleset

if TYPE_CHECKING:
    from ashfall.engine.rulebook import Rulebook


class Context:
    """What a resolver may touch: the state (read), the RNG, the ruleset, ``emit`` and ``decide``.

    Args:
        state: The encounter (changed only through :meth:`emit`).
        rng: The injected RNG.
        log: The event log to append to.
        controllers: Controller by combatant id.
        answers: Answers supplied with the intent, consumed in order before asking controllers.
        table: The command's dice at a table with entered dice (:mod:`ashfall.engine.dice_entry`); None (the
            simulator's path) when nobody enters dice and no face was supplied: every roll is the seeded RNG's.
        default_roll: Whose rolls the plain :attr:`rng` makes when a table is set (the acting creature's).
    """

    __slots__ = ("answers", "controllers", "given", "log", "rng", "state", "table")

    def __init__(
        self,
        state: EncounterState,
        rng: Rng,
        log: list[Event],
        controllers: Mapping[str, Controller],
        answers: tuple[str | None, ...] = (),
        table: TableDice | None = None,
        default_roll: RollFor | None = None,
    ) -> None:
        self.state = state
        self.table = table
        self.rng = rng if table is None else table.roller(default_roll or RollFor(None, "roll", "GM"))
        self.log = log
        self.controllers = controllers
        self.answers: deque[str | None] = deque(answers)
        self.given: list[str | None] = []
        """Every answer :meth:`decide` returned, in order (the engine records them with the intent)."""

    @property
    def rulebook(self) -> Rulebook:
        """The actions, reactions and hooks the fight plays by (the state's rulebook)."""
        return self.state.rulebook

    @property
    def ruleset(self) -> Ruleset:
        """The encounter's ruleset."""
        return self.state.ruleset

    def roller(self, owner: str | None, kind: str, rule: str, *, target: str | None = None,
               source: str | None = None, dice: tuple[int, int] | None = None) -> Rng:
        """The dice for one creature's roll: the seeded RNG, or (entered dice) a roller that may ask a person.

        Args:
            owner: The creature whose roll it is (whose player rolls it at the table).
            kind: What is rolled (``attack``, ``damage``, ``save``, ``morale`` …).
            rule: The rule calling for the roll.
            target: The creature it is against, if any.
            source: What it is rolled for (a weapon, an action, a save's kind).
            dice: (count, sides) the roll expects, when known.
        """
        if self.table is None:
            return self.rng  # the simulator's path: no label is even built
        return self.table.roller(RollFor(owner, kind, rule, target, source, dice))

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the state (the only way resolvers change state)."""
        apply(self.state, event)
        self.log.append(event)

    def decide(self, decision: Decision) -> str | None:
        """Get an answer: supplied answers first, then the actor's controller; record it.

        Raises:
            NeedDecision: When no answer is available now.
        """
        if self.answers:
            choice = self.answers.popleft()
        else:
            controller = self.controllers.get(decision.actor)
            if controller is None:
                raise NeedDecision(decision)
            choice = controller.decide(self.state, decision)
        keys = {o.key for o in decision.options}
        if choice is None and not decision.optional:
            choice = decision.options[0].key
        if choice is not None and choice not in keys:
            raise ValueError(f"answer {choice!r} is not one of {sorted(keys)} for {decision.kind}")
        self.emit(ev.DecisionMade(decision.actor, decision.kind, choice or "", decision.rule))
        self.given.append(choice)
        return choice
