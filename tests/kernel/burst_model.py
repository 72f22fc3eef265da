"""A Python model of the AI's burst choice from per-target parts: the test oracle between the AI and ``decide``.

``group_of`` mirrors ``openers.multi_targets`` on arrays, ``best_of_parts`` ``Draft.valued`` and ``best_valued`` on
rows of parts (``burst_parts``). The compiled ``decide`` is the kernel's one implementation; this model lives with the
tests that hold both to the AI (``test_kernel_ai_burst_choice.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ashfall.ai.odds_cache import turn_values
from ashfall.ai.plans import Block, Draft

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


def group_of(primary: int, order: I64, worth: F64, gap: I64, limit: int, spread: int) -> I64:
    """The further targets a burst takes with ``primary`` (``multi_targets``, MAA-2, X-12), best single value first.

    Args:
        primary: The primary target's index in ``order``.
        order: The targets it can shoot from where it stands, in roster order (``TurnView._bases_at``).
        worth: Each one's worth at its HP now (:func:`worth_row`), by position in ``order``.
        gap: ``[p, q]`` feet between the ``p``-th and ``q``-th target (``TurnView.gap``).
        limit: ``full_auto_targets``.
        spread: ``full_auto_spread_ft``.

    Returns:
        Positions in ``order`` of the further targets (empty where fewer than two can be shot).
    """
    n = len(order)
    if n < 2:
        return np.zeros(0, np.int64)
    ranked = sorted(range(n), key=lambda p: -worth[p])  # a stable sort: roster order among equals, as the AI's
    chosen = [primary]
    for other in ranked:
        if other in chosen or len(chosen) >= limit:
            continue
        if all(gap[other, x] <= spread for x in chosen):
            chosen.append(other)
    return np.array(chosen[1:], np.int64)


@dataclass(frozen=True, slots=True)
class BurstParts:
    """Every draft of one setting, as parts the kernel adds up (one row per draft, in ``drafts_for``'s order).

    Attributes:
        actions: ``[d]`` actions the draft spends.
        first: ``[d]`` its first block (``Block`` by position in ``list(Block)``).
        opened: ``[d]`` an opener's success chance (-1.0: none; an opened draft attacks its primary target only).
        mine: ``[d, 2, hp - 1]`` the primary target's capped mean (``[d, 0]``; an opened draft's if the opener
            fails) and its drop chance (``[d, 1]``) at each HP.
        won: ``[d, 2, hp - 1]`` the same if the opener succeeds.
        further: ``[d, k, hp - 1]`` the capped mean on its ``k``-th further target at each HP (0.0 where the draft
            has no burst).
        bursts: ``[d]`` 1 where the draft holds a burst (its further targets are attacked).
    """

    actions: I64
    first: I64
    opened: F64
    mine: F64
    won: F64
    further: F64
    bursts: I64


def burst_parts(drafts: Sequence[Draft], target: str, others: Sequence[str], most: int) -> BurstParts:
    """:class:`BurstParts` of ``drafts`` against ``target`` with further targets ``others``, at HP 1..``most``."""
    n = len(drafts)
    blocks = list(Block)
    actions = np.array([d.actions for d in drafts], np.int64)
    first = np.array([blocks.index(d.blocks[0]) for d in drafts], np.int64)
    opened = np.full(n, -1.0)
    mine = np.zeros((n, 2, most))
    won = np.zeros((n, 2, most))
    further = np.zeros((n, max(1, len(others)), most))
    bursts = np.zeros(n, np.int64)
    for k, d in enumerate(drafts):
        if tuple(d.attacks) != (target, *d.others) or (d.others and tuple(d.others) != tuple(others)):
            raise ValueError(f"a draft attacks {tuple(d.attacks)}, not {target} then {tuple(others)}")
        mine[k] = turn_values(tuple(d.attacks[target]), most)
        if d.opened is not None:
            opened[k] = d.opened[0]
            won[k] = turn_values(tuple(d.opened[1][target]), most)
        for q, other in enumerate(d.others):
            bursts[k] = 1
            further[k, q] = turn_values(tuple(d.attacks[other]), most)[0]
    return BurstParts(actions, first, opened, mine, won, further, bursts)


def _round9(x: float) -> float:
    return round(x, 9)


def best_of_parts(parts: BurstParts, hp: int, further_hp: Sequence[int], drop_step: float) -> tuple[
        int, float, float, float]:
    """``best_valued`` of the drafts at the targets' HP, from their parts: ``(draft, frac, capped, p_drop)``.

    ``Draft.valued``'s arithmetic in its order (``_score``: each target's capped share added to 0.0 in turn, the
    primary first; an opened draft ``p * win + (1 - p) * fail``), ranked by ``plan_key`` (drop tier, rounded share,
    rounded drop chance, fewer actions), the first of equals kept. Returns draft -1 where there is none.
    """
    best, b_key = -1, (0, 0.0, 0.0, 0)
    b_frac = b_capped = b_drop = 0.0
    for k in range(len(parts.actions)):
        fcap, fdrop = float(parts.mine[k, 0, hp - 1]), float(parts.mine[k, 1, hp - 1])
        frac, capped, drop = 0.0 + fcap / hp, 0.0 + fcap, fdrop
        if parts.bursts[k]:
            for q, other_hp in enumerate(further_hp):
                ocap = float(parts.further[k, q, other_hp - 1])
                frac += ocap / other_hp
                capped += ocap
        p = float(parts.opened[k])
        if p >= 0.0:
            wcap, wdrop = float(parts.won[k, 0, hp - 1]), float(parts.won[k, 1, hp - 1])
            w_frac, w_capped = 0.0 + wcap / hp, 0.0 + wcap
            frac, capped, drop = p * w_frac + (1 - p) * frac, p * w_capped + (1 - p) * capped, \
                p * wdrop + (1 - p) * drop
        tier = int(drop / drop_step + 1e-9) if drop_step > 0 else 0
        key = (tier, _round9(frac), _round9(drop), -int(parts.actions[k]))
        if best < 0 or key > b_key:
            best, b_key, b_frac, b_capped, b_drop = k, key, frac, capped, drop
    return best, b_frac, b_capped, b_drop


def hp_of(hp: Mapping[str, int], ids: Sequence[str]) -> list[int]:
    """The HP left of each of ``ids`` (temporary HP included, as ``TurnView.hp`` holds it)."""
    return [hp[i] for i in ids]
