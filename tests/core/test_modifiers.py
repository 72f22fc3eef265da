"""Modifiers stack without mutation; advantage and disadvantage fold per G-21."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.d20 import roll_d20
from ashfall.core.modifiers import Advantage, Modifier, ModifierKind, adv, dis, resolve_advantage, stack
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import describe, rule

R = rule("AMOD-1")


def test_stack__sums_untyped_modifiers_in_order() -> None:
    mods = [Modifier(3, ModifierKind.ABILITY, R, "MIG"), Modifier(-3, ModifierKind.MAP, rule("MAP-1"), "2nd")]
    result = stack(mods)
    assert result.total == 0 and result.applied == tuple(mods) and result.suppressed == ()


def test_stack__same_group_keeps_best_bonus_and_worst_penalty_without_mutating() -> None:
    a = Modifier(2, ModifierKind.COVER, rule("COV-1"), "partial", "cover")
    b = Modifier(5, ModifierKind.COVER, rule("COV-2"), "heavy", "cover")
    c = Modifier(-1, ModifierKind.CONDITION, R, "x", "cover")
    mods = (a, b, c)
    result = stack(mods)
    assert result.total == 4 and result.suppressed == (a,)
    assert mods == (a, b, c)


@pytest.mark.rule("AMOD-8", "G-21")
@pytest.mark.parametrize(
    ("advs", "diss", "state"),
    [
        (0, 0, Advantage.NORMAL),
        (1, 0, Advantage.ADVANTAGE),
        (3, 0, Advantage.ADVANTAGE),
        (0, 2, Advantage.DISADVANTAGE),
        (1, 1, Advantage.NORMAL),
        (3, 1, Advantage.NORMAL),
    ],
)
def test_amod_8__any_advantage_and_any_disadvantage_cancel(advs: int, diss: int, state: Advantage) -> None:
    sources = [adv(R, "a")] * advs + [dis(R, "d")] * diss
    assert resolve_advantage(sources) is state


@pytest.mark.rule("G-21")
def test_g_21__advantage_rolls_two_d20_and_keeps_the_higher() -> None:
    with ScriptedRng([4, 15]) as rng:
        r = roll_d20(rng, [Modifier(2, ModifierKind.ABILITY, R, "AGI")], [adv(R, "prone")])
    assert (r.faces, r.natural, r.total) == ((4, 15), 15, 17)


@pytest.mark.rule("G-21")
def test_g_21__disadvantage_keeps_the_lower_and_two_sources_do_not_roll_three_dice() -> None:
    with ScriptedRng([4, 15]) as rng:
        r = roll_d20(rng, (), [dis(R, "a"), dis(R, "b")])
    assert (r.faces, r.natural) == ((4, 15), 4)


@pytest.mark.rule("G-21")
def test_g_21__cancelled_roll_uses_one_d20_but_records_both_sources() -> None:
    with ScriptedRng([9]) as rng:
        r = roll_d20(rng, (), [adv(R, "a"), dis(R, "b")])
    assert r.faces == (9,) and r.advantage is Advantage.NORMAL and len(r.sources) == 2


@given(st.integers(1, 20), st.integers(1, 20), st.lists(st.integers(-10, 10), max_size=5))
def test_roll_d20__total_is_natural_plus_applied_modifiers(a: int, b: int, values: list[int]) -> None:
    mods = [Modifier(v, ModifierKind.UNTYPED, R, f"m{i}") for i, v in enumerate(values)]
    r = roll_d20(ScriptedRng([a, b]), mods, [adv(R, "x")])
    assert r.natural == max(a, b) and r.total == r.natural + sum(values)


def test_rule__unknown_ids_fail_and_known_ones_explain_themselves() -> None:
    with pytest.raises(KeyError):
        rule("NOPE-1")
    assert "−3" in describe("MAP-1")
