"""The decision view's shortcuts agree with the straightforward reading.

:class:`~ashfall.ai.turn.TurnView` reads situations as small codes (:mod:`ashfall.ai.sight`), caches odds inputs
by situation rather than by square, and shares best plans across decisions; each must give what the engine's own
situation, :func:`~ashfall.ai.profile.attack_base` and a plain walk over :func:`~ashfall.ai.plans.plans_for` give.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai import turn
from ashfall.ai.odds_cache import attack_value
from ashfall.ai.plans import plan_key, plans_for
from ashfall.ai.profile import attack_base, attack_options
from ashfall.ai.sight import COVERS, situation_code, situation_of
from ashfall.ai.targeting import standing_targets
from ashfall.ai.turn import TurnView
from ashfall.rules.damage_defenses import Defenses
from tests.ai.shipped_kit import NAMES, free_squares, shipped_engine


def test_situation_codes__stand_for_exactly_one_situation_each() -> None:
    seen = set()
    for code in range(4 << 7):
        sit = situation_of(code)
        assert situation_code(sit) == code
        assert situation_of(code) is sit
        seen.add(sit)
    assert len(seen) == 4 << 7 and {s.cover for s in seen} == set(COVERS)


@pytest.mark.rule("POS-1", "POS-4", "AMOD-7", "COV-1", "COV-2", "COV-3")
@pytest.mark.parametrize("name", NAMES)
def test_turn_view_base__matches_attack_base_from_every_square(name: str) -> None:
    engine = shipped_engine(name)
    state = engine.state
    checked = 0
    for c in state.combatants.values():
        view = TurnView(engine, c, standing_targets(state, c))
        for sq in [None, *free_squares(engine, 5)]:
            for t in view.targets:
                d = Defenses.of_creature(t.creature, t.armor, t.condition_set)
                for option in view.options:
                    expected = attack_base(state, c, sq, t, option, view.token, d)
                    assert view.base(sq, t, option) == expected, (c.id, t.id, sq, option.index)
                    checked += expected is not None
    assert checked > 50


@pytest.mark.rule("COV-1", "AMOD-7", "POS-4")
@pytest.mark.parametrize("name", NAMES)
def test_turn_view_enemy_fire__matches_attack_base_at_every_square(name: str) -> None:
    engine = shipped_engine(name)
    state = engine.state
    checked = 0
    for c in state.combatants.values():
        view = TurnView(engine, c, standing_targets(state, c))
        for sq in free_squares(engine, 5):
            me = c.standing_on(sq)
            there = replace(state, combatants={**state.combatants, c.id: me})  # the actor really stands there
            for e in state.enemies_of(c.id):
                for option in attack_options(e, state):
                    if not option.ranged or not e.space:
                        continue
                    b = attack_base(there, e, None, me, option, view.token)
                    if b is None:
                        continue
                    code = view.sights.code(e, e.space, c, me.space, True)
                    assert view._enemy_value(e, option, code) == attack_value(b.key(1)).expected
                    checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", NAMES)
def test_best_plan__shared_across_decisions_equals_a_fresh_search(name: str) -> None:
    engine = shipped_engine(name)
    state = engine.state
    turn._BEST.clear()
    checked = 0
    for c in state.combatants.values():
        first, second = (TurnView(engine, c, standing_targets(state, c)) for _ in range(2))
        for sq in free_squares(engine, 9):
            for option in first.options:
                setting = first.setting(sq, option, full=False)
                if setting is None:
                    continue
                for target in setting.bases:
                    for actions in (1, 2, 3):
                        plain = None
                        for p in plans_for(target, setting, first.costs(option), actions, openers=False):
                            if plain is None or plan_key(p, 0.1) > plan_key(plain, 0.1):
                                plain = p
                        fresh = first.best_plan(target, setting, actions, full=False, openers=False, drop_step=0.1)
                        again = second.best_plan(target, second.setting(sq, option, full=False) or setting, actions,
                                                 full=False, openers=False, drop_step=0.1)
                        assert fresh == plain and again == plain, (c.id, sq, target, actions)
                        checked += plain is not None
    assert checked > 20
