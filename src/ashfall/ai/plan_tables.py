"""The AI's best plan against one target at every HP it can have left, at once: the fight kernel's plan tables.

The kernel's lowering (``ashfall.sim.kernel_ai_lower``, ``kernel_weapons_lower``, ``kernel_maneuvers``) tabulates
the plan the AI would pick for every HP value of a target. Asking :func:`ashfall.ai.plans.best_valued` once per HP
costs hundreds of thousands of calls for a fight with guns among allies; :func:`best_at_each_hp` values each draft
at all HP values in one pass. It is a batch path of the kernel's, not of the reference AI (whose turns still go
through ``best_valued``): ``best_valued`` is its oracle, and the tests (``tests/ai/test_plans_best_at_each_hp.py``)
hold every chosen plan and every float equal to it, bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ashfall.ai.odds_cache import AttackKey, clears_with_odds, turn_values
from ashfall.ai.plans import Attacks, Draft, Plan

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class BestAtEachHp:
    """The best of some drafts against one target at every HP it can have left (:func:`best_at_each_hp`).

    Attributes:
        drafts: The drafts.
        chosen: At HP ``hp`` (index ``hp - 1``) the index of the draft :func:`best_valued` picks (-1: no drafts).
        frac: The chosen plan's ``frac`` at each HP (index ``hp - 1``; 0.0 where none).
        capped: Its ``capped``.
        p_drop: Its ``p_drop``.
        runs: Each draft index that is the best somewhere, with the HP values it is the best at, from the lowest
            HP up.
    """

    drafts: tuple[Draft, ...]
    chosen: I64
    frac: F64
    capped: F64
    p_drop: F64
    runs: tuple[tuple[int, I64], ...]

    def plan(self, hp: int) -> Plan | None:
        """The plan :func:`best_valued` gives at ``hp`` (equal to it, floats included)."""
        k = int(self.chosen[hp - 1])
        if k < 0:
            return None
        d = self.drafts[k]
        return Plan(d.blocks, d.option, d.target, d.others if d.opened is None else (), float(self.frac[hp - 1]),
                    float(self.capped[hp - 1]), float(self.p_drop[hp - 1]), d.actions)

    def groups(self) -> Iterator[tuple[Draft, I64]]:
        """Each draft that is the best somewhere, with the HP values it is the best at, from the lowest HP up."""
        for k, hps in self.runs:
            yield self.drafts[k], hps


def best_at_each_hp(drafts: Sequence[Draft], target: str, most: int, drop_step: float) -> BestAtEachHp:
    """:func:`best_valued` of the drafts at ``{target: hp}`` for every ``hp`` from 1 to ``most``, at once.

    The same plans with the same floats, bit for bit (the fight kernel's plan tables, one row per HP): each
    draft's attacks are valued at every HP at once (:func:`~ashfall.ai.odds_cache.turn_values`, then
    :meth:`Draft.valued`'s arithmetic in its order, element by element), ranked by :func:`plan_key` (its
    rounding: :func:`_round9`), the first of equals kept. Every draft must attack ``target`` alone.
    """
    return BestAtEachHp(tuple(drafts), *_best_at_each_hp(tuple(_valuing(d, target) for d in drafts), most,
                                                         drop_step))


Valuing = tuple[tuple[AttackKey, ...], float | None, tuple[AttackKey, ...], int]
"""All a draft's value at each HP of its one target depends on: its attacks (an opened draft's if the opener
fails), the opener's success chance (None: no opener) and its attacks if it succeeds, and the actions spent."""


def _valuing(draft: Draft, target: str) -> Valuing:
    if draft.opened is None:
        return _keys_on(draft.attacks, target), None, (), draft.actions
    p, win = draft.opened
    return _keys_on(draft.attacks, target), p, _keys_on(win, target), draft.actions


def _keys_on(attacks: Attacks, target: str) -> tuple[AttackKey, ...]:
    if any(keys for tid, keys in attacks.items() if tid != target):
        raise ValueError(f"a draft attacks a target other than {target}")
    return tuple(attacks.get(target, ()))


@lru_cache(maxsize=2048)
def _best_at_each_hp(drafts: tuple[Valuing, ...], most: int, drop_step: float) -> tuple[
        I64, F64, F64, F64, tuple[tuple[int, I64], ...]]:
    """:class:`BestAtEachHp`'s arrays (cached by what they depend on: many settings share drafts; read-only)."""
    hp = np.arange(1, most + 1, dtype=np.float64)
    chosen = np.full(most, -1, np.int64)
    frac, capped, p_drop = (np.zeros(most) for _ in range(3))
    tier, r_frac, r_drop, neg_actions = (np.zeros(most) for _ in range(4))
    for k, (fail, p, win, actions) in enumerate(drafts):
        d_frac, d_capped, d_drop = _scores(fail, hp)
        if p is not None:
            w_frac, w_capped, w_drop = _scores(win, hp)
            d_frac, d_capped, d_drop = (p * w_frac + (1 - p) * d_frac, p * w_capped + (1 - p) * d_capped,
                                        p * w_drop + (1 - p) * d_drop)
        d_tier = np.trunc(d_drop / drop_step + 1e-9) if drop_step > 0 else np.zeros(most)  # int(): p_drop >= 0
        d_r_frac, d_r_drop, d_neg = _round9(d_frac), _round9(d_drop), float(-actions)
        if k == 0:
            better = np.ones(most, np.bool_)
        else:  # the key compared as a tuple: strictly greater, so the first of equals stays
            better = (d_tier > tier) | (d_tier == tier) & (
                (d_r_frac > r_frac) | (d_r_frac == r_frac) & ((d_r_drop > r_drop) | (d_r_drop == r_drop) &
                                                              (d_neg > neg_actions)))
        chosen[better] = k
        for mine, theirs in ((frac, d_frac), (capped, d_capped), (p_drop, d_drop), (tier, d_tier),
                             (r_frac, d_r_frac), (r_drop, d_r_drop)):
            mine[better] = theirs[better]
        neg_actions[better] = d_neg
    ks, first = np.unique(chosen, return_index=True)
    runs = tuple((int(k), np.flatnonzero(chosen == k) + 1) for k in ks[np.argsort(first)] if k >= 0)
    for shared in (chosen, frac, capped, p_drop, *(hps for _, hps in runs)):
        shared.flags.writeable = False
    return chosen, frac, capped, p_drop, runs


clears_with_odds(_best_at_each_hp.cache_clear)


def _scores(keys: tuple[AttackKey, ...], hp: F64) -> tuple[F64, F64, F64]:
    """:func:`_score` of attacks on one target at each of its HP at once (each float equal to :func:`_score`'s)."""
    if not keys:
        return np.zeros(len(hp)), np.zeros(len(hp)), np.zeros(len(hp))
    capped, p_drop = turn_values(keys, len(hp))
    return 0.0 + capped / hp, 0.0 + capped, p_drop


_ROUND_SCALE = 1e9
"""``plan_key`` rounds to 9 decimals: 10 ** 9, a float exactly."""


def _round9(x: F64) -> F64:
    """``round(v, 9)`` of every element, bit for bit.

    Python rounds ``v * 10**9`` (exactly) to the nearest integer ``n``, half to even, and returns the float nearest
    ``n / 10**9``; ``n / 1e9`` is that float (IEEE division of two exact floats rounds correctly). ``rint(v * 1e9)``
    is ``n`` unless the product's rounding crossed a half (it is off by at most 2**-14 below 2**40): elements within
    1e-3 of a half, or that large, are rounded by Python itself.
    """
    scaled = x * _ROUND_SCALE
    whole = np.rint(scaled)
    out = whole / _ROUND_SCALE
    for i in np.flatnonzero((np.abs(np.abs(scaled - whole) - 0.5) < 1e-3) | ~(np.abs(scaled) < 2.0 ** 40)):
        out[i] = round(float(x[i]), 9)
    return out
