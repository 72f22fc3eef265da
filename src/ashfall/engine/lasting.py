"""Things that last on the battlefield between turns, as data: suppression zones and readied actions.

A :class:`Zone` is an area keyed to movement (Suppressive Fire, SUP-3..9): it is not a reaction,
so it costs nobody a reaction and a Step does not avoid it (ACT-3). A :class:`Readied` action
waits for its trigger and spends its creature's reaction when it fires (RDY-2..4). Both live in
:class:`~ashfall.engine.state.EncounterState` (``zones``, ``readied``) and change only through
events; the rules that use them are in :mod:`ashfall.families.suppression.moves` and
:mod:`ashfall.families.turns.moves`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ashfall.grid.board import Square
from ashfall.rules.condition_durations import Duration


@dataclass(frozen=True, slots=True)
class Zone:
    """An area that punishes movement through it (SUP-3..9).

    Attributes:
        key: Unique within the encounter.
        owner: Who created it.
        squares: The squares it covers, sorted.
        dc: The Reflex save DC (SUP-5).
        damage: The dice a failed save deals (the weapon's base dice only, SUP-5).
        damage_type: Their damage type (a :class:`~ashfall.core.types.DamageType` value).
        weapon: The weapon id that made it.
        rule: The rule that created it.
        duration: When it ends (the start of the owner's next turn, SUP-4).
        triggered: ``(creature, round, whose turn)`` of every save made, for the once-per-turn limit (SUP-6).
    """

    key: str
    owner: str
    squares: tuple[Square, ...]
    dc: int
    damage: str
    damage_type: str
    weapon: str
    rule: str
    duration: Duration
    triggered: tuple[tuple[str, int, str], ...] = ()


ReadiedKind = Literal["strike", "step", "stride"]
TriggerName = Literal["enters", "leaves", "into-view", "attacks", "moves", "gm"]


@dataclass(frozen=True, slots=True)
class ReadiedAction:
    """What a readied creature will do (RDY-2).

    Attributes:
        kind: A Strike, a Step or a Stride.
        target: The Strike's target; None means the creature that set off the trigger.
        weapon: The Strike's weapon id (None: the first weapon).
        path: The Step's square (one) or the Stride's path.
    """

    kind: ReadiedKind
    target: str | None = None
    weapon: str | None = None
    path: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class ReadyTrigger:
    """When a readied action fires (RDY-2, RDY-5).

    Attributes:
        kind: ``enters``/``leaves`` a set of squares, comes ``into-view`` (out of total cover), ``attacks``,
            ``moves``, or ``gm``: the GM says so (an intent).
        squares: The squares of ``enters``/``leaves``.
        creature: The only creature that sets it off; None means any enemy of the readied creature.
    """

    kind: TriggerName
    squares: tuple[Square, ...] = ()
    creature: str | None = None


@dataclass(frozen=True, slots=True)
class Readied:
    """A readied action waiting for its trigger until the start of its creature's next turn (RDY-4)."""

    actor: str
    action: ReadiedAction
    trigger: ReadyTrigger
    rule: str
    duration: Duration
