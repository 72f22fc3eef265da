"""The best plan at every HP at once (``best_at_each_hp``) is ``best_valued``'s at each HP, to the last bit.

The fight kernel's plan tables hold the AI's best plan for every HP a target can have left; the lowering values
each draft at all HP values in one pass (``turn_values``, ``best_at_each_hp``). ``best_valued`` (the AI's own
ranking, held equal to ``plans_for`` and ``plan_key`` in test_plans_valued_at_each_hp.py) is the oracle: the
same draft chosen, ties included (the first of equals), and the same floats, compared exactly.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ashfall.ai.odds_cache import AttackKey, clear_caches, expr_token, ruleset_token, turn_value, turn_values
from ashfall.ai.plan_tables import _best_at_each_hp, _round9, best_at_each_hp
from ashfall.ai.plans import Block, Draft, Setting, best_valued, drafts_for, plan_key
from ashfall.core.dice import parse
from ashfall.core.modifiers import Advantage
from ashfall.ruleset import preset
from tests.ai.test_plans_valued_at_each_hp import _setting

MOST = 80
"""HP values checked: 1 to MOST, past every plan's most damage here (where no plan can drop the target)."""


def _same_at_each_hp(drafts: tuple[Draft, ...], drop_step: float, most: int = MOST) -> int:
    """Check ``best_at_each_hp`` against ``best_valued`` at every HP; the HP values decided by a tie."""
    best = best_at_each_hp(drafts, "t", most, drop_step)
    ties = 0
    for hp in range(1, most + 1):
        expected = best_valued(drafts, {"t": hp}, drop_step)
        found = best.plan(hp)
        assert found == expected, (hp, found, expected)
        if found is not None and expected is not None:
            assert [x.hex() for x in (found.frac, found.capped, found.p_drop)] == \
                [x.hex() for x in (expected.frac, expected.capped, expected.p_drop)]  # the same bits, zeros' signs too
            keys = [plan_key(d.valued({"t": hp}), drop_step) for d in drafts]
            ties += keys.count(plan_key(expected, drop_step)) > 1
    return ties


@pytest.mark.rule("MAP-1", "MAA-5", "DEATH-1", "FNT-3", "E-05")
@pytest.mark.parametrize("openers", [False, True])
@pytest.mark.parametrize("drop_step", [0.25, 0.1, 0.0])
def test_best_at_each_hp__is_best_valued_at_every_hp_ties_included(openers: bool, drop_step: float) -> None:
    setting, view = _setting(openers=openers)
    costs = view.costs(setting.option)
    ties = 0
    for steps in range(3):
        for left in range(1, 4):
            drafts = tuple(drafts_for("t", replace(setting, map_steps=steps), costs, left))
            ties += _same_at_each_hp(drafts, drop_step)
    assert ties > 0  # some HP values are decided by the first of equal plans


def test_best_at_each_hp__of_equal_plans_keeps_the_first() -> None:
    setting, view = _setting(openers=False)
    drafts = tuple(drafts_for("t", setting, view.costs(setting.option), 2))
    for draft in drafts:
        twin = replace(draft, others=("twin",))  # the same value: only the plan's others tell them apart
        for pair in ((draft, twin), (twin, draft)):
            best = best_at_each_hp(pair, "t", MOST, 0.25)
            assert all(best.plan(hp) == pair[0].valued({"t": hp}) for hp in range(1, MOST + 1))
            assert [d for d, _ in best.groups()] == [pair[0]]


def test_best_at_each_hp__groups_name_each_hp_once_from_the_lowest_up() -> None:
    setting, view = _setting(openers=True)
    drafts = tuple(drafts_for("t", setting, view.costs(setting.option), 3))
    best = best_at_each_hp(drafts, "t", MOST, 0.25)
    groups = list(best.groups())
    assert len(groups) > 1
    assert sorted(int(hp) for _, hps in groups for hp in hps) == list(range(1, MOST + 1))
    assert [int(hps[0]) for _, hps in groups] == sorted(int(hps[0]) for _, hps in groups)
    for draft, hps in groups:
        assert all(best.plan(int(hp)) == best_valued(drafts, {"t": int(hp)}, 0.25) for hp in hps)
        assert all(best.drafts[int(best.chosen[hp - 1])] is draft for hp in hps)


def test_best_at_each_hp__of_no_drafts_is_none_everywhere() -> None:
    best = best_at_each_hp((), "t", 5, 0.25)
    assert [best.plan(hp) for hp in range(1, 6)] == [None] * 5 and list(best.groups()) == []


def test_best_at_each_hp__refuses_a_draft_that_attacks_another_target() -> None:
    setting, view = _setting(openers=False)
    draft = next(drafts_for("t", setting, view.costs(setting.option), 1))
    other = replace(draft, attacks={**draft.attacks, "u": list(draft.attacks["t"])})
    with pytest.raises(ValueError, match="other than t"):
        best_at_each_hp((other,), "t", 5, 0.25)


@pytest.mark.rule("MAP-1", "MAA-5", "DEATH-1", "FNT-3", "DR-1", "CRIT-5", "G-21")
@settings(max_examples=30, deadline=None)
@given(bonus=st.integers(-2, 14), dv=st.integers(8, 24), damage=st.sampled_from(["1d6", "1d12+3", "2d6+2", "1d4"]),
       dr=st.integers(0, 4), advantage=st.sampled_from(list(Advantage)), auto_crit=st.booleans(),
       steps=st.integers(0, 2), left=st.integers(1, 3), feint=st.floats(0.0, 1.0), trip=st.floats(0.0, 1.0),
       drop_step=st.sampled_from([0.25, 0.5, 0.1, 0.0]), edition=st.sampled_from(["ashfall-1", "ashfall-2"]))
def test_best_at_each_hp__is_best_valued_at_every_hp_for_any_odds(
        bonus: int, dv: int, damage: str, dr: int, advantage: Advantage, auto_crit: bool, steps: int, left: int,
        feint: float, trip: float, drop_step: float, edition: str) -> None:
    setting, view = _setting(openers=True)
    base = replace(setting.bases["t"], bonus=bonus, dv=dv, full=expr_token(parse(damage)), dr=dr,
                   advantage=advantage.value, first_advantage=advantage.value, auto_crit=auto_crit,
                   rules=ruleset_token(preset(edition)))
    odds = {(Block.FEINT, "t"): feint, (Block.TRIP, "t"): trip, (Block.AIM, "t"): 1.0}
    s: Setting = replace(setting, bases={"t": base}, prone_bases={"t": replace(base, advantage="advantage")},
                         map_steps=steps, opener_odds=odds)
    _same_at_each_hp(tuple(drafts_for("t", s, view.costs(s.option), left)), drop_step, most=60)


@pytest.mark.rule("DEATH-1", "MAP-1")
@pytest.mark.parametrize("damage", ["1d6", "2d8+3", "1d12+4"])
@pytest.mark.parametrize("attacks", [1, 2, 3])
def test_turn_values__are_turn_value_at_every_hp_bit_for_bit(damage: str, attacks: int) -> None:
    rules = ruleset_token(preset("ashfall-2"))
    keys = tuple(AttackKey(5, 14, expr_token(parse(damage)), "normal", n + 1, False, 0, False, False, False, False,
                           rules) for n in range(attacks))
    capped, p_drop = turn_values(keys, 90)
    for hp in range(1, 91):
        value = turn_value(keys, hp)
        assert capped[hp - 1].tobytes() == np.float64(value.capped).tobytes()
        assert p_drop[hp - 1].tobytes() == np.float64(value.p_drop).tobytes()
    assert not capped.flags.writeable  # shared by every caller through the cache


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.floats(0.0, 8.0), st.integers(0, 1 << 16).map(lambda n: n / 1024),
                 st.integers(0, 10 ** 10).map(lambda n: (n + 0.5) / 1e9)))
@example(1 / 1024)  # exactly halfway between two 9-decimal values: half to even
@example(0.0)
def test_round9__is_python_round_to_9_decimals_bit_for_bit(x: float) -> None:
    assert _round9(np.array([x]))[0].hex() == round(x, 9).hex()


def test_clear_caches__empties_the_plan_tables_cache_too() -> None:
    setting, view = _setting(openers=False)
    drafts = tuple(drafts_for("t", setting, view.costs(setting.option), 3))
    best_at_each_hp(drafts, "t", 10, 0.25)
    assert _best_at_each_hp.cache_info().currsize > 0
    clear_caches()
    assert _best_at_each_hp.cache_info().currsize == 0
    assert turn_values.cache_info().currsize == 0
