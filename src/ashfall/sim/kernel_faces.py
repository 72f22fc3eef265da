"""Dice that show chosen faces: how the kernel's lowering asks the rules' own functions about every roll.

The lowering fills its tables by calling the reference rules (``resolve_attack``, ``death_save``, ``contest``,
``morale_check``, ``second_wind``, initiative) with an RNG that shows the faces it asks about, so that no number
is restated; :class:`Faces` is that RNG for every family.
"""

from __future__ import annotations


class Faces:
    """An RNG that shows ``faces`` in order, then ``after`` (by default the last face again), capped at the sides.

    It counts its draws (``draws``: how many d20s an attack or a contest rolls) and records the sides of every
    die it was asked for (``sides``: a Second Wind's dice). Its state is the draw count, so a rule that saves and
    restores the RNG (``getstate``/``setstate``, an RNG checkpoint) sees the same faces again.
    """

    __slots__ = ("after", "draws", "faces", "sides")

    def __init__(self, *faces: int, after: int | None = None) -> None:
        self.faces, self.after, self.draws, self.sides = faces, after, 0, list[int]()

    def roll(self, sides: int) -> int:
        """The next face, capped at ``sides``."""
        if self.draws < len(self.faces):
            face = self.faces[self.draws]
        else:
            face = self.after if self.after is not None else self.faces[-1]
        self.draws += 1
        self.sides.append(sides)
        return min(face, sides)

    def getstate(self) -> object:
        """The draw count."""
        return self.draws

    def setstate(self, state: object) -> None:
        """Go back to a draw count."""
        self.draws = int(state)  # type: ignore[call-overload]


__all__ = ["Faces"]
