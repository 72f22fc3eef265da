"""Dice that show chosen faces: how the kernel's lowering asks the rules' own functions about every roll.

The lowering fills its tables by calling the reference rules (``resolve_attack``, ``death_save``, ``contest``,
``morale_check``, ``second_wind``, initiative) with an RNG that shows the faces it asks about, so that no number
is restated; :class:`Faces` is that RNG for every family.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.families.attacks.rules import Outcome


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


def attack_faces(resolve: Callable[[Faces], Any], who: str, unsupported: type[ValueError] = ValueError,
                 same: Callable[[tuple[int, ...], Any], bool] | None = None,
                 ) -> tuple[int, npt.NDArray[np.int64], Any]:
    """One attack asked of the rules for every face: ``(d20s drawn, outcome by faces, damage parts of a hit)``.

    ``resolve(rng)`` resolves the attack (``resolve_attack``) with the given dice; the outcome table is
    ``[first face - 1, second face - 1]`` (0 miss, 1 hit, 2 critical; one column for a single d20). ``same(faces,
    result)``, when given, must hold for every face (the attack must not change in another situation).

    Raises:
        ``unsupported``: For attacks of other than one or two d20s, riders and fumbles, or ``same`` failing.
    """
    probe = Faces(10)
    resolve(probe)
    count = probe.draws
    if count not in (1, 2):
        raise unsupported(f"attack rolls of {count} d20s (combatant {who})")
    table = np.zeros((20, 20), np.int64)
    parts = None
    for first in range(1, 21):
        for second in range(1, 21) if count == 2 else (1,):
            faces = (first, second) if count == 2 else (first,)
            result = resolve(Faces(*faces))
            if same is not None and not same(faces, result):
                raise unsupported(f"attacks that change as enemies fall (AMOD-7, combatant {who})")
            if result.riders or result.fumble is not None:
                raise unsupported(f"attack riders and fumbles (combatant {who})")
            table[first - 1, second - 1] = (0 if result.outcome is Outcome.MISS else
                                            2 if result.outcome is Outcome.CRIT else 1)
            if result.hit and parts is None:
                parts = result.damage_parts
    return count, table, parts


__all__ = ["Faces", "attack_faces"]
