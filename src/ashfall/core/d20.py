"""The d20 test: one d20, or two kept high/low, plus labelled modifiers, against a target number.

This is the single place a d20 is rolled for attacks, saves, checks and contests. It records both
faces when two are rolled, the natural die kept, every modifier with its rule and every
advantage/disadvantage source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ashfall.core.modifiers import Advantage, Modifier, RollSource, Stacked, resolve_advantage, stack
from ashfall.core.rng import Rng


@dataclass(frozen=True, slots=True)
class D20Roll:
    """A rolled d20 test.

    Attributes:
        faces: The d20 faces rolled (one, or two with advantage/disadvantage).
        natural: The face kept.
        advantage: The net advantage state after folding ``sources``.
        sources: Every advantage/disadvantage source considered (cancelled ones included).
        modifiers: The stacking result of the modifiers.
        total: ``natural`` plus the applied modifiers.
    """

    faces: tuple[int, ...]
    natural: int
    advantage: Advantage
    sources: tuple[RollSource, ...]
    modifiers: Stacked
    total: int


def roll_d20(
    rng: Rng, modifiers: Sequence[Modifier] = (), sources: Sequence[RollSource] = ()
) -> D20Roll:
    """Roll a d20 test with its modifiers and advantage/disadvantage sources.

    Args:
        rng: The injected RNG.
        modifiers: Labelled modifiers to add.
        sources: Advantage and disadvantage sources (G-21: any of each cancel; none stack).

    Returns:
        The roll with faces, the kept natural die and the total.
    """
    state = resolve_advantage(sources)
    first = rng.roll(20)
    if state is Advantage.NORMAL:
        faces: tuple[int, ...] = (first,)
        natural = first
    else:
        second = rng.roll(20)
        faces = (first, second)
        natural = max(faces) if state is Advantage.ADVANTAGE else min(faces)
    stacked = stack(modifiers)
    return D20Roll(faces, natural, state, tuple(sources), stacked, natural + stacked.total)
