"""Randomness as an argument: the RNG protocol, the seeded RNG and the scripted RNG for tests.

No engine module may import :mod:`random` at module level or call its global functions; every
function that rolls takes an :class:`Rng`. Same seed + same decisions = the same fight.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import TracebackType
from typing import Protocol, runtime_checkable


@runtime_checkable
class Rng(Protocol):
    """Anything that can roll a die: returns an integer in ``[1, sides]``."""

    def roll(self, sides: int) -> int:
        """Roll one die with ``sides`` faces."""
        ...


class SeededRng:
    """A deterministic RNG built on a private :class:`random.Random` instance.

    Args:
        seed: The seed; the same seed gives the same sequence of faces.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        """Roll one die with ``sides`` faces."""
        return self._random.randint(1, sides)

    def getstate(self) -> object:
        """The generator's state, to rewind to (undo, rollback of an unanswered decision)."""
        return self._random.getstate()

    def setstate(self, state: object) -> None:
        """Rewind to a state from :meth:`getstate`."""
        self._random.setstate(state)  # type: ignore[arg-type]

    def spawn(self, index: int) -> SeededRng:
        """A child RNG whose sequence depends only on this seed and ``index`` (for trial i of a sweep)."""
        return SeededRng(hash_seed(self.seed, index))


def hash_seed(seed: int, index: int) -> int:
    """Derive a stable 63-bit seed from a parent seed and an index (independent of worker layout)."""
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & (2**64 - 1)
    x ^= x >> 31
    x = (x * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x ^= x >> 27
    return x & (2**63 - 1)


class ScriptError(AssertionError):
    """A scripted RNG ran out of faces, got a face that cannot come up, or had faces left over."""


class ScriptedRng:
    """An RNG that returns the faces it is given, in order, for tests.

    A face may be an ``int`` (any die) or a ``(sides, face)`` pair that also checks the die size.
    Use it as a context manager to fail when faces are left over.

    Args:
        faces: The faces to return, in order.
    """

    __slots__ = ("_faces", "_pos", "log")

    def __init__(self, faces: Iterable[int | tuple[int, int]]) -> None:
        self._faces = list(faces)
        self._pos = 0
        self.log: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        """Return the next scripted face, checking it fits a die of ``sides`` faces."""
        if self._pos >= len(self._faces):
            raise ScriptError(f"scripted dice ran out: a d{sides} was rolled after {self._pos} faces")
        item = self._faces[self._pos]
        self._pos += 1
        if isinstance(item, tuple):
            want_sides, face = item
            if want_sides != sides:
                raise ScriptError(f"face #{self._pos} was scripted for a d{want_sides} but a d{sides} was rolled")
        else:
            face = item
        if not 1 <= face <= sides:
            raise ScriptError(f"face #{self._pos} is {face}, impossible on a d{sides}")
        self.log.append((sides, face))
        return face

    def getstate(self) -> object:
        """The position in the script."""
        return (self._pos, len(self.log))

    def setstate(self, state: object) -> None:
        """Rewind to a position from :meth:`getstate`."""
        assert isinstance(state, tuple)
        pos, logged = int(state[0]), int(state[1])
        self._pos = pos
        del self.log[logged:]

    @property
    def remaining(self) -> int:
        """How many scripted faces have not been used yet."""
        return len(self._faces) - self._pos

    def assert_exhausted(self) -> None:
        """Fail if scripted faces were left over."""
        if self.remaining:
            raise ScriptError(f"{self.remaining} scripted face(s) left over: {self._faces[self._pos:]}")

    def __enter__(self) -> ScriptedRng:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None:
            self.assert_exhausted()
