"""Ranking on precomputed keys and the per-board sight bits agree with the computations they stand for.

:meth:`TacticalPolicy._best_candidates` ranks ``(route, plan, aoo, net)`` tuples by precomputed keys and builds a
:class:`Candidate` only for a winner; the reference below sorts whole candidates with
:func:`~ashfall.ai.targeting.rank`, as before.
:class:`~ashfall.ai.sight.Sights` reads cover and high ground from a per-board table of code bits
(:func:`~ashfall.ai.board_cache.sight_bits`): every entry equals the uncached geometry.
"""

from __future__ import annotations

import pytest

from ashfall.ai import sight
from ashfall.ai.board_cache import sight_bits
from ashfall.ai.tactical import TacticalPolicy
from ashfall.ai.targeting import Candidate, drop_tier, rank
from ashfall.ai.turn import TurnView, hp_left
from ashfall.encounters import build, load_encounter
from ashfall.engine import Engine
from ashfall.grid.geometry import cover_between, high_ground
from ashfall.sim.fight import run_fight
from tests.ai.shipped_kit import ENCOUNTERS, NAMES


def _reference(policy: TacticalPolicy, view: TurnView, advance: bool) -> dict[str, Candidate]:
    """The best candidate per target by sorting and comparing whole candidates (no precomputed keys)."""
    weight = policy.config.self_weight / hp_left(view.c)
    per_target: dict[str, list[Candidate]] = {}
    for route, plan, aoo, net in policy._candidates(view, advance, weight):
        per_target.setdefault(plan.target, []).append(Candidate(route, plan, aoo, 0.0, net))
    tw, step = policy.config.threat_weight * weight, policy.config.drop_step
    best: dict[str, Candidate] = {}
    for tid, cands in per_target.items():
        cands.sort(key=lambda x: rank(x, step), reverse=True)
        top: Candidate | None = None
        for cand in cands:
            if top is not None and (drop_tier(cand, step), round(cand.net, 9)) < (drop_tier(top, step),
                                                                                  round(top.net, 9)):
                break
            threat = view.ranged_threat(None if cand.route.actions == 0 else cand.route.to) if tw else 0.0
            scored = Candidate(cand.route, cand.plan, cand.aoo, threat, cand.net - tw * threat)
            if top is None or rank(scored, step) > rank(top, step):
                top = scored
        if top is not None:
            best[tid] = top
    return best


class _Checked(TacticalPolicy):
    """The tactical AI, checking every decision's best candidates against the reference."""

    __slots__ = ("checked",)

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def _best_candidates(self, view: TurnView, advance: bool) -> dict[str, Candidate]:
        found = super()._best_candidates(view, advance)
        fresh = TurnView(view.engine, view.c, view.targets, view.brutal)
        assert found == _reference(self, fresh, advance)
        self.checked += bool(found)
        return found


@pytest.mark.parametrize("name", NAMES)
def test_best_candidates__ranked_on_raw_tuples_equal_the_plain_ranking(name: str) -> None:
    spec = load_encounter(ENCOUNTERS / name)

    def fresh(seed: int) -> Engine:
        return build(spec, seed)[0]

    policy = _Checked()
    for seed in range(3):
        run_fight(fresh, seed, policy)
    assert policy.checked > 10


@pytest.mark.rule("COV-1", "COV-3", "POS-4")
@pytest.mark.parametrize("name", NAMES)
def test_sight_bits__every_entry_after_fights_equals_the_geometry(name: str) -> None:
    spec = load_encounter(ENCOUNTERS / name)
    engine = build(spec, 0)[0]
    board = engine.state.board
    assert board is not None
    table = sight_bits(board)
    run_fight(lambda seed: engine, 0, TacticalPolicy())
    assert sight_bits(board) is table and len(table) > 10
    for (a, t), bits in table.items():
        level = cover_between(board, a, t)[0]
        expected = sight._COVER_CODE[level] << sight._COVER_SHIFT | high_ground(board, a, t) * sight._HIGH_GROUND
        assert bits == expected, (a, t)
