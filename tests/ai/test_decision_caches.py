"""The AI's per-decision and cross-decision caches agree with the computations they stand for.

Per decision: odds inputs against every target by square and option (:meth:`TurnView._bases_at`). Across
decisions: best plans of settings with openers and multi-target groups (:func:`~ashfall.ai.plans.full_plan_inputs`),
odds inputs built on a cached core while no timed effect is in play, and attack options by weapons tuple.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai import profile, turn
from ashfall.ai.plans import Block, Plan, Setting, plan_key, plans_for
from ashfall.ai.profile import _attack_options, attack_options, base_for
from ashfall.ai.sight import situation_of
from ashfall.ai.targeting import standing_targets
from ashfall.ai.turn import TurnView
from ashfall.engine.records import with_use
from ashfall.families.attacks.moves_gear import stowed_key
from tests.ai.shipped_kit import NAMES, free_squares, shipped_engine


def _walked(target: str, s: Setting, view: TurnView, actions: int, openers: bool) -> Plan | None:
    """The best plan by a plain walk over every plan (no cache)."""
    best = None
    for p in plans_for(target, s, view.costs(s.option), actions, openers=openers):
        if best is None or plan_key(p, 0.1) > plan_key(best, 0.1):
            best = p
    return best


@pytest.mark.parametrize("name", NAMES)
def test_bases_at__equals_base_against_each_target(name: str) -> None:
    engine = shipped_engine(name)
    state = engine.state
    checked = 0
    for c in state.combatants.values():
        view = TurnView(engine, c, standing_targets(state, c))
        for sq in [None, *free_squares(engine, 6)]:
            for option in view.options:
                expected = {t.id: b for t in view.targets if (b := view.base(sq, t, option)) is not None}
                assert view._bases_at(sq, option) == expected, (c.id, sq, option.index)
                assert view._bases_at(sq, option) is view._bases_at(sq, option)
                checked += len(expected)
    assert checked > 50


@pytest.mark.parametrize("name", NAMES)
def test_full_best_plan__shared_across_decisions_equals_a_fresh_search(name: str) -> None:
    """Settings with openers and groups (made up where the map has none) give what a plain walk gives, and a
    setting that differs in a group member's HP, an opener's odds or the prone odds inputs is not served the
    cached plan of another."""
    engine = shipped_engine(name)
    state = engine.state
    turn._BEST.clear()
    checked = 0
    for c in state.combatants.values():
        first, second = (TurnView(engine, c, standing_targets(state, c)) for _ in range(2))
        for sq in free_squares(engine, 11):
            for option in first.options:
                plain = first.setting(sq, option, full=False)
                if plain is None:
                    continue
                ids = list(plain.bases)
                for target in ids:
                    others = tuple(t for t in ids if t != target)[:1]
                    base = plain.bases[target]
                    variants = [replace(plain, group={Block.SWEEP: {target: others}} if others else {},
                                        available=plain.available | {Block.SWEEP, Block.FEINT, Block.TRIP},
                                        opener_odds={(Block.FEINT, target): p, (Block.TRIP, target): p},
                                        prone_bases={target: replace(base, bonus=base.bonus + bump)},
                                        hp={**plain.hp, **{o: plain.hp[o] + extra for o in others}})
                                for p, bump, extra in ((0.4, 2, 0), (0.7, 2, 0), (0.4, 5, 0), (0.4, 2, 3))]
                    for s in variants:
                        for actions in (2, 3):
                            walked = _walked(target, s, first, actions, True)
                            fresh = first.best_plan(target, s, actions, full=True, openers=True, drop_step=0.1)
                            again = second.best_plan(target, s, actions, full=True, openers=True, drop_step=0.1)
                            assert fresh == walked and again == walked, (c.id, sq, target, actions)
                            checked += walked is not None
    assert checked > 20


@pytest.mark.parametrize("name", NAMES)
def test_base_for__without_effects_equals_a_fresh_build(name: str) -> None:
    state = shipped_engine(name).state
    assert not state.effects
    checked = 0
    for c in state.combatants.values():
        for t in state.enemies_of(c.id):
            for option in attack_options(c, state):
                for code in (0, 1 << 7, 4 | 8, 1 | 2 | 8):
                    profile._CORES.clear()
                    fresh = base_for(state, c, t, option, situation_of(code), 7)
                    again = base_for(state, c, t, option, situation_of(code), 7)
                    other = base_for(state, c, t, option, situation_of(code), 8)
                    assert again == fresh
                    if fresh is not None:
                        assert other == replace(fresh, rules=8)
                        checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", NAMES)
def test_attack_options__cached_equal_fresh_and_follow_stowed_weapons(name: str) -> None:
    state = shipped_engine(name).state
    natural = state.ruleset.attack.natural_reach
    for c in state.combatants.values():
        fresh = _attack_options(c.weapons, (), c.creature.machine, natural)
        assert attack_options(c, state) == fresh and attack_options(c, state) is attack_options(c, state)
        if not c.weapons:
            continue
        away = replace(c, supplies=with_use(c.supplies, stowed_key(c.weapons[0].id), 1))
        hidden = tuple(i == 0 for i in range(len(c.weapons)))
        expected = _attack_options(c.weapons, hidden, c.creature.machine, natural)
        assert attack_options(away, state) == expected
        assert all(o.weapon is not c.weapons[0] for o in expected)
