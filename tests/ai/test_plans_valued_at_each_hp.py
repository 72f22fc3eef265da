"""A plan walked once and valued at each HP is the plan ``plans_for`` finds at that HP, to the last bit.

The fight kernel's plan tables hold the AI's best plan for every HP a target can have left; the lowering walks
each plan's blocks once (``drafts_for``) and values them per HP (``Draft.valued``, ``best_valued``). These
tests hold that path equal to the AI's own (``plans_for`` ranked by ``plan_key``), openers included.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai.odds_cache import ruleset_token
from ashfall.ai.plans import Block, Plan, Setting, best_valued, drafts_for, plan_key, plans_for
from ashfall.ai.profile import base_for
from ashfall.ai.sight import situation_code, situation_of
from ashfall.ai.turn import TurnView
from tests.ai.kit import fight, unit


def _setting(*, openers: bool) -> tuple[Setting, TurnView]:
    """A Warrior's greataxe against a Warrior beside it, with Feint, Trip and Aim odds when ``openers``."""
    a, t = unit("a", "party", (0, 0)), unit("t", "raiders", (1, 0))
    engine, _ = fight([a, t])
    view = TurnView(engine, engine.state.combatants["a"], ())
    option = view.options[0]
    sit = situation_of(situation_code(replace(situation_of(0), hostile_within_5ft=True, within_5ft=True)))
    state = engine.state
    base = base_for(state, state.combatants["a"], state.combatants["t"], option, sit, ruleset_token(state.ruleset))
    assert base is not None
    available = view.available(option) - {Block.SWEEP, Block.FULL_AUTO}
    odds: dict[tuple[Block, str], float] = {}
    prone = {}
    if openers:
        available |= {Block.FEINT, Block.TRIP, Block.AIM}
        odds = {(Block.FEINT, "t"): 0.45, (Block.TRIP, "t"): 0.55, (Block.AIM, "t"): 1.0}
        prone = {"t": replace(base, first_advantage="advantage")}
    return Setting(option, {"t": base}, prone, {}, {}, 0, None, available, odds), view


@pytest.mark.rule("MAP-1", "MAA-5", "DEATH-1")
@pytest.mark.parametrize("openers", [False, True])
def test_drafts_for__valued_at_each_hp_are_the_plans_of_plans_for_at_that_hp(openers: bool) -> None:
    setting, view = _setting(openers=openers)
    costs = view.costs(setting.option)
    for steps in range(3):
        for left in range(1, 4):
            s = replace(setting, map_steps=steps)
            drafts = tuple(drafts_for("t", s, costs, left))
            for hp in range(1, 61):
                at_hp = replace(s, hp={"t": hp})
                found = list(plans_for("t", at_hp, costs, left))
                assert [d.valued({"t": hp}) for d in drafts] == found
                best: Plan | None = None
                for p in found:  # the AI's own ranking (``TurnView.best_plan``): the first of equals
                    if best is None or plan_key(p, 0.25) > plan_key(best, 0.25):
                        best = p
                assert best_valued(drafts, {"t": hp}, 0.25) == best


def test_drafts_for__openers_yield_opened_drafts_whose_value_mixes_success_and_failure() -> None:
    setting, view = _setting(openers=True)
    drafts = tuple(drafts_for("t", setting, view.costs(setting.option), 3))
    openers = {d.blocks[0] for d in drafts if d.opened is not None}
    assert openers == {Block.FEINT, Block.TRIP, Block.AIM}
    plain = [d for d in drafts if d.opened is None]
    assert plain and all(d.blocks[0] not in openers for d in plain)
