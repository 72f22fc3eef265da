"""Surprise in the fight kernel (SUR-1..4): the table :mod:`ashfall.kernel.surprise` reads, and what is still named.

An ambushing side (``ambush: true``, SUR-1) rolls Stealth before round 1, right after initiative: each of its
creatures in roster order, one d20 (two with advantage or disadvantage), every roll a ``check-rolled`` step. A
creature of another side is surprised when the lowest of those totals meets or beats its passive Perception (G-45);
a surprised creature's turn in round 1 is skipped and it cannot react in round 1 (SUR-2), from round 2 the fight
runs normally (SUR-3).

Lowered here, by the reference's own functions (``ashfall.engine.turns``): each ambusher's Stealth total for every
face (``ambush_stealth`` with chosen faces: its skill, its conditions' and the battlefield's roll sources, CONC-5)
and how many d20s it draws; for each other creature the lowest Stealth total that surprises it (``is_surprised``
against ``surprise_perception``: passive Perception with conditions and the battlefield's modifiers, G-24).

Named (:func:`surprise_problem`): a creature that may be surprised and falls dying with death saves (a natural 20 in
round 1 brings it back prone, DEATH-7, and its skipped turn leaves it lying prone into round 2, where others attack
it and the AI's Intercept weighs it so: tables the kernel holds only beside edition 2's Trip); a surprised creature
that would be flat-footed to any effect (SUR-4, FF-1: its DV loses a positive AGI in round 1 against some attacker;
the attack tables hold one DV per target); and ambushers whose Stealth draws other than one or two d20s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ashfall.engine import Combatant
from ashfall.engine.turns import AMBUSH_STEALTH_LABEL, ambush_stealth, is_surprised, surprise_perception
from ashfall.families.attacks.engine import situation, target_defense
from ashfall.families.attacks.engine_common import mode_for
from ashfall.rules.health import falls_dying
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
SUR_DRAWS, SUR_FROM, SUR_TOTALS = 0, 1, 2
"""Columns of the table (``ashfall.kernel.surprise.SUR_*``): d20s its Stealth draws (0: not an ambusher), the lowest
Stealth total that surprises it, then its Stealth total for faces ``(first - 1) * 20 + second - 1``."""
SUR_COLS = SUR_TOTALS + 400
NEVER = 1 << 40
"""``SUR_FROM`` of a creature nothing surprises (an ambusher, or any creature in a fight without an ambush)."""
STEALTH_STEP = f"check-rolled:{AMBUSH_STEALTH_LABEL}"
"""How the reference log's ambush Stealth check reads as a step (``resolve_surprise``'s ``CheckRolled``)."""


def no_surprise(n: int) -> I64:
    """The table of a fight without an ambush: nobody rolls, nobody is surprised."""
    table = np.zeros((n, SUR_COLS), np.int64)
    table[:, SUR_FROM] = NEVER
    return table


def lower_surprise(fight: Fight, roster: Sequence[Combatant]) -> I64:
    """``[combatant, SUR_*]``: the ambushers' Stealth by faces and each other creature's threshold (SUR-1, G-45).

    Raises:
        ValueError: For a Stealth roll of other than one or two d20s.
    """
    table = no_surprise(len(roster))
    ambushers = fight.ambushers
    state = fight.engine.state
    hiders = [i for i, c in enumerate(roster) if c.side == ambushers]
    if ambushers is None or not hiders:
        return table
    low, high = NEVER, -NEVER
    for i in hiders:
        probe = Faces(10)
        ambush_stealth(state, roster[i], probe)
        if probe.draws not in (1, 2):
            raise ValueError(f"an ambush Stealth roll of {probe.draws} d20s (combatant {roster[i].id})")
        table[i, SUR_DRAWS] = probe.draws
        for first in range(1, 21):
            for second in range(1, 21):
                total = ambush_stealth(state, roster[i], Faces(first, second)).total
                table[i, SUR_TOTALS + (first - 1) * 20 + second - 1] = total
                low, high = min(low, total), max(high, total)
    for i, c in enumerate(roster):
        if c.side == ambushers:
            continue
        passive = surprise_perception(state, c)
        table[i, SUR_FROM] = next((x for x in range(low, high + 1) if is_surprised(x, passive)), NEVER)
        if any(is_surprised(x, passive) != (x >= table[i, SUR_FROM]) for x in range(low, high + 1)):
            raise ValueError(f"surprise that is not a threshold of Stealth (combatant {c.id})")
    return table


def surprise_problem(fight: Fight) -> str | None:
    """What of an ambush the kernel does not play: a surprised creature flat-footed to any effect (SUR-4, FF-1).

    Every creature not of the ambushing side may be surprised; in round 1 it is flat-footed (``situation``'s
    ``flat_footed``), which the engine's own ``target_defense`` is asked about against every other side's creature
    and weapon. Where its DV is the same either way (no positive AGI in its DV: AGI 0 or less, G-11), the attack
    tables hold.
    """
    if fight.ambushers is None:
        return None
    state = fight.engine.state
    roster = list(state.combatants.values())
    for t in roster:
        if t.side == fight.ambushers:
            continue
        if falls_dying(t.health, state.ruleset) and t.health.uses_death_saves:
            return (f"surprise: a surprised creature that may rise prone from a natural 20 in round 1 and lie prone "
                    f"into round 2 (SUR-2, DEATH-7, C-PRO: combatant {t.id})")
        for a in roster:
            if a.side == t.side:
                continue
            sit = situation(state, a, t, False)
            for weapon in a.weapons or (None,):
                for mode in {mode_for(weapon), mode_for(weapon, thrown=True)}:
                    plain, flat = (target_defense(state, a, t, weapon, mode, dataclasses.replace(sit, flat_footed=ff))
                                   for ff in (False, True))
                    if plain.total != flat.total:
                        return (f"surprise: a surprised creature flat-footed in round 1 (SUR-4, FF-1: combatant "
                                f"{t.id} loses DV against {a.id})")
    return None


__all__ = ["NEVER", "STEALTH_STEP", "SUR_COLS", "SUR_DRAWS", "SUR_FROM", "SUR_TOTALS", "lower_surprise",
           "no_surprise", "surprise_problem"]
