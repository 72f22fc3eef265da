"""Dice entered by people: whose roll a die belongs to, the dice request, and the faces an intent was given.

At a real table the players roll their own dice. The engine keeps one seeded RNG for the whole fight; a
creature whose dice are **entered** (``Engine.entered``) has its faces typed in by a person instead. Every
roll site asks the context for a roller naming whose roll it is and what it is (``ctx.roller(owner, kind,
rule, target=…, source=…, dice=…)``: a :class:`RollFor`, data, never text). Rolls made through the plain
``ctx.rng`` belong to the creature whose command is resolving (the acting creature), or to nobody (the
engine's dice) when no creature acts.

When an entered creature's die is needed and no face was supplied for it, :class:`NeedDice` is raised with a
:class:`DiceRequest` before anything is kept: the engine rewinds the command, exactly as for
:class:`~ashfall.engine.decisions.NeedDecision`. The caller submits the command again with the faces
(``faces={index: face}``), or ``None`` for a die the engine should roll ("roll it for me").

**The seeded stream stays aligned.** Every die draws the seeded RNG, entered or not; an entered face
replaces the drawn one. So the other creatures' dice never depend on which creatures are entered, "roll it
for me" is simply the drawn face, and a fight whose entered faces equal what the RNG would have drawn is the
engine-dice fight, event for event.

Faces are keyed by the die's **index** among the dice the command draws (0, 1, …), not by creature: the
record (:class:`~ashfall.engine.record.IntentRecord` ``faces``) stores ``(index, face)`` pairs, so a replay or
a redo substitutes them without knowing who was entered when the fight was played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ashfall.core.rng import Rng

Face = int | None
"""An entered face, or None: the engine rolls that die ("roll it for me")."""


@dataclass(frozen=True, slots=True)
class RollFor:
    """Whose roll a die belongs to and what it is: data a presenter turns into words.

    Attributes:
        owner: The creature whose roll it is (None: the engine's own dice, e.g. a tie-break).
        kind: What is rolled: ``attack``, ``damage``, ``save``, ``check``, ``initiative``, ``morale``,
            ``death-save``, ``roll`` (anything else).
        rule: The rule that calls for the roll.
        target: The creature the roll is against, if any.
        source: What it is rolled for: a weapon, an action, a save's kind (``reflex``), a spell …
        dice: The dice the roll expects, as (count, sides), when the rule knows them in advance.
    """

    owner: str | None
    kind: str
    rule: str
    target: str | None = None
    source: str | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """A die the engine needs from a person.

    Attributes:
        roll: Whose roll and what it is.
        index: The die's index among the dice the command draws (the key its face is given under).
        sides: The die's size; a face must be in ``1..sides``.
        count: How many dice of this size the roll still expects from here on (the face for ``index`` and
            the next ``count - 1`` indexes); 1 when the rule does not know in advance (a reroll, a second d20).
        nth: Which die of this roll it is (1 for the first).
    """

    roll: RollFor
    index: int
    sides: int
    count: int
    nth: int


class NeedDice(Exception):
    """Raised when an entered creature's die has no face yet; the command was rolled back untouched."""

    def __init__(self, request: DiceRequest) -> None:
        roll = request.roll
        super().__init__(f"{roll.owner} must roll a d{request.sides} ({roll.kind}, {roll.rule})")
        self.request = request


class FaceOutOfRange(ValueError):
    """An entered face that cannot come up on the die it was given for."""

    def __init__(self, index: int, sides: int, face: int) -> None:
        super().__init__(f"face {face} for die #{index} is impossible on a d{sides} (1..{sides})")
        self.index = index
        self.sides = sides
        self.face = face


class TableDice:
    """The dice of one command at a table with entered dice: seeded draws, entered faces substituted.

    Args:
        rng: The engine's seeded RNG (drawn for every die, entered or not).
        entered: The creatures whose dice people enter.
        faces: Faces supplied with the command, by die index (None: roll it for me).
    """

    __slots__ = ("_count", "_nth", "_roll", "entered", "faces", "given", "rng")

    def __init__(self, rng: Rng, entered: frozenset[str], faces: Mapping[int, Face]) -> None:
        self.rng = rng
        self.entered = entered
        self.faces = dict(faces)
        self._count = 0
        self._roll: RollFor | None = None
        self._nth = 0
        self.given: list[tuple[int, Face]] = []
        """Every supplied face used, ``(index, face)`` in order (the engine records them with the command)."""

    def draw(self, sides: int, roll: RollFor) -> int:
        """One die of ``roll``: the seeded face, or the face entered for it.

        Raises:
            NeedDice: The roll is an entered creature's and no face was supplied for this die.
            FaceOutOfRange: The supplied face is not in ``1..sides``.
        """
        index = self._count
        self._count += 1
        self._nth = self._nth + 1 if roll is self._roll else 1
        self._roll = roll
        drawn = self.rng.roll(sides)  # always: the seeded stream stays aligned with an engine-dice fight
        if index in self.faces:
            face = self.faces[index]
            self.given.append((index, face))
            if face is None:
                return drawn
            if not 1 <= face <= sides:
                raise FaceOutOfRange(index, sides, face)
            return face
        if roll.owner is not None and roll.owner in self.entered:
            count = 1
            if roll.dice is not None and roll.dice[1] == sides:
                count = max(1, roll.dice[0] - self._nth + 1)
            raise NeedDice(DiceRequest(roll, index, sides, count, self._nth))
        return drawn

    def roller(self, roll: RollFor) -> Rng:
        """An :class:`~ashfall.core.rng.Rng` whose dice belong to ``roll``."""
        return BoundRoller(self, roll)


class BoundRoller:
    """The :class:`~ashfall.core.rng.Rng` a roll site gets at a table with entered dice."""

    __slots__ = ("for_roll", "table")

    def __init__(self, table: TableDice, for_roll: RollFor) -> None:
        self.table = table
        self.for_roll = for_roll

    def roll(self, sides: int) -> int:
        """One die of this roll (see :meth:`TableDice.draw`)."""
        return self.table.draw(sides, self.for_roll)


__all__ = ["BoundRoller", "DiceRequest", "Face", "FaceOutOfRange", "NeedDice", "RollFor", "TableDice"]
