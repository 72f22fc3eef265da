"""The AI's cached expected values are the exact odds (:mod:`ashfall.odds`) as floats."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.ai.odds_cache import AttackKey, attack_value, contest_win, expr_token, ruleset_token, turn_value
from ashfall.core.dice import parse
from ashfall.core.modifiers import Advantage
from ashfall.odds import AttackSpec, attack_odds, turn_odds
from ashfall.ruleset import preset


def _key(bonus: int, dv: int, damage: str, number: int = 1, *, power: bool = False, dr: int = 0,
         advantage: Advantage = Advantage.NORMAL, ruleset: str = "ashfall-2") -> AttackKey:
    return AttackKey(bonus, dv, expr_token(parse(damage)), advantage.value, number, power, dr, False, False, False,
                     False, ruleset_token(preset(ruleset)))


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-3", "MAP-1", "MAA-5", "DR-1", "G-21")
@settings(max_examples=40, deadline=None)
@given(bonus=st.integers(-2, 12), dv=st.integers(8, 26), number=st.integers(1, 3), power=st.booleans(),
       dr=st.integers(0, 6), advantage=st.sampled_from(list(Advantage)),
       ruleset=st.sampled_from(["ashfall-2", "ashfall-1"]))
def test_attack_value__is_attack_odds_as_floats(bonus: int, dv: int, number: int, power: bool, dr: int,
                                                 advantage: Advantage, ruleset: str) -> None:
    rs = preset(ruleset)
    exact = attack_odds(bonus, dv, "1d10+3", ruleset=rs, advantage=advantage, attack_number=number,
                        power_strike=power, dr=dr)
    value = attack_value(_key(bonus, dv, "1d10+3", number, power=power, dr=dr, advantage=advantage, ruleset=ruleset))
    assert value.expected == pytest.approx(float(exact.expected_damage))
    assert value.p_hit == pytest.approx(float(exact.p_hit))
    assert sum(value.dist) == pytest.approx(1.0)
    assert {d: p for d, p in enumerate(value.dist) if p} == pytest.approx(
        {d: float(p) for d, p in exact.distribution.items()})


@pytest.mark.rule("DEATH-1", "MAP-1")
@pytest.mark.parametrize("hp", [1, 9, 20, 45])
def test_turn_value__drop_chance_and_mean_match_turn_odds(hp: int) -> None:
    specs = [AttackSpec(7, 15, "1d12+4", attack_number=n) for n in (1, 2, 3)]
    exact = turn_odds(specs, hp)
    keys = tuple(_key(7, 15, "1d12+4", n) for n in (1, 2, 3))
    value = turn_value(keys, hp)
    assert exact.p_drop is not None
    assert value.p_drop == pytest.approx(float(exact.p_drop))
    assert value.expected == pytest.approx(float(exact.expected_damage))
    capped = sum((min(d, hp) * p for d, p in exact.distribution.items()), Fraction(0))
    assert value.capped == pytest.approx(float(capped))


@pytest.mark.rule("CON-1", "CON-2")
@pytest.mark.parametrize(("mine", "theirs", "reroll", "expected"), [
    (0, 0, False, 190 / 400), (0, 0, True, 0.5), (5, 0, False, 280 / 400), (0, 25, False, 0.0)])
def test_contest_win__exact_d20_against_d20(mine: int, theirs: int, reroll: bool, expected: float) -> None:
    assert contest_win(mine, theirs, reroll) == pytest.approx(expected)


def test_ruleset_token__equal_rulesets_share_one() -> None:
    assert ruleset_token(preset()) == ruleset_token(preset())
    assert ruleset_token(preset("ashfall-1")) != ruleset_token(preset("ashfall-2"))
