"""The float odds path (ashfall.odds.fast) equals the exact Fractions path within 1e-9, attack by attack and per turn.

Both paths count outcomes with the same rule functions (judge, the damage ledger's steps, map_modifier); only the
division and the turn's convolution differ. Random attacks cover bonus, DV, dice, MAP step, advantage, DR,
resistance, Power Strike and the crit switches, under both editions.
"""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.core.modifiers import Advantage
from ashfall.odds import AttackSpec, all_out_attack, attack_odds, power_strike_then_strike, strikes, turn_odds
from ashfall.odds.fast import attack_odds_float, turn_odds_float
from ashfall.ruleset import Ruleset, preset

TOLERANCE = 1e-9
BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_odds.py"


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    """Either edition, with MAP step and the natural 20 / natural 1 rules switched at random."""
    base = preset(draw(st.sampled_from(["ashfall-2", "ashfall-1"])))
    return base.with_options(attack={
        "map_step": draw(st.integers(-6, 0)),
        "natural_20_hits": draw(st.booleans()),
        "natural_1_misses": draw(st.booleans()),
    })


damages = st.builds(
    lambda n, sides, flat: f"{n}d{sides}{flat:+d}" if flat else f"{n}d{sides}",
    st.integers(1, 3), st.sampled_from([4, 6, 8, 10, 12]), st.integers(-2, 6),
)

specs = st.builds(
    AttackSpec, bonus=st.integers(-3, 20), dv=st.integers(5, 30), damage=damages,
    advantage=st.sampled_from(list(Advantage)), dr=st.integers(0, 6), resist=st.booleans(),
    vulnerable=st.booleans(), immune=st.booleans(),
)


def _assert_close(exact: Fraction, value: float) -> None:
    assert abs(float(exact) - value) <= TOLERANCE, (exact, value)


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-2", "CRIT-3", "MAP-1", "G-21", "DR-1", "RVI-1")
@settings(max_examples=150, deadline=None)
@given(spec=specs, rs=rulesets(), attack_number=st.integers(1, 3), power=st.booleans())
def test_float_attack_odds__equal_the_exact_ones(spec: AttackSpec, rs: Ruleset, attack_number: int,
                                                 power: bool) -> None:
    kwargs: dict[str, Any] = dict(ruleset=rs, advantage=spec.advantage, attack_number=attack_number, power_strike=power,
                  dr=spec.dr, resist=spec.resist, vulnerable=spec.vulnerable, immune=spec.immune)
    exact = attack_odds(spec.bonus, spec.dv, spec.damage, **kwargs)
    fast = attack_odds_float(spec.bonus, spec.dv, spec.damage, **kwargs)
    _assert_close(exact.p_hit, fast.p_hit)
    _assert_close(exact.p_crit, fast.p_crit)
    _assert_close(exact.expected_damage, fast.expected_damage)
    assert len(fast.distribution) == max(exact.distribution) + 1
    for dealt, p in enumerate(fast.distribution):
        _assert_close(exact.distribution.get(dealt, Fraction(0)), float(p))


@pytest.mark.rule("MAP-1", "MAA-5", "MAA-7", "G-41", "DEATH-1")
@settings(max_examples=60, deadline=None)
@given(base=specs, rs=rulesets(), shape=st.sampled_from(["strikes", "power", "all-out"]),
       hp=st.none() | st.integers(-2, 60))
def test_float_turn_odds__equal_the_exact_ones(base: AttackSpec, rs: Ruleset, shape: str, hp: int | None) -> None:
    if shape == "strikes":
        turn = strikes(base, ruleset=rs)
    elif shape == "power":
        turn = power_strike_then_strike(base)
    else:
        turn = all_out_attack(base, ruleset=rs)
    exact, fast = turn_odds(turn, hp, ruleset=rs), turn_odds_float(turn, hp, ruleset=rs)
    _assert_close(exact.expected_damage, fast.expected_damage)
    assert len(fast.distribution) == max(exact.distribution) + 1
    for dealt, p in enumerate(fast.distribution):
        _assert_close(exact.distribution.get(dealt, Fraction(0)), float(p))
    if hp is None:
        assert fast.p_drop is None
    else:
        assert exact.p_drop is not None and fast.p_drop is not None
        _assert_close(exact.p_drop, fast.p_drop)
    assert fast.rules == exact.rules


@pytest.mark.rule("MAP-1")
def test_float_turn_odds__three_strikes_hand_checked() -> None:
    # +7 against DV 16: 12, 9 and 6 faces of 20 hit at 0/-3/-6; 1d10+3 averages 8.5, a crit's 2d10+3 averages 14.
    fast = turn_odds_float(strikes(AttackSpec(bonus=7, dv=16, damage="1d10+3"), 3), 1)
    expected = sum(((faces - 1) / 20 * 8.5 + 14 / 20) for faces in (12, 9, 6))
    assert fast.expected_damage == pytest.approx(expected, abs=TOLERANCE)
    assert fast.p_drop == pytest.approx(1 - (8 / 20) * (11 / 20) * (14 / 20), abs=TOLERANCE)
    assert float(fast.distribution.sum()) == pytest.approx(1.0, abs=TOLERANCE)


def test_bench_odds__measures_both_paths_in_one_run() -> None:
    spec = importlib.util.spec_from_file_location("bench_odds", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    exact_ms, float_ms = bench.measure(repeat=3)
    assert exact_ms > 0 and float_ms > 0
