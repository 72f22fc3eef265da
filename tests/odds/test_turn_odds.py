"""turn_odds and the standard turns: three Strikes, Power Strike then Strike, All-Out Attack."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from ashfall.odds import AttackSpec, all_out_attack, attack_odds, power_strike_then_strike, strikes, turn_odds
from ashfall.ruleset import preset

BASE = AttackSpec(bonus=7, dv=16, damage="1d10+3")
E_HIT = Fraction(17, 2)  # mean of 1d10+3
E_CRIT = Fraction(14)  # mean of 2d10+3


def _mean(p_hit_faces: int, ps: int = 0) -> Fraction:
    """Expected damage with ``p_hit_faces`` of 20 hitting (one of them the natural 20) and a flat ``ps`` bonus."""
    return Fraction(p_hit_faces - 1, 20) * (E_HIT + ps) + Fraction(1, 20) * (E_CRIT + ps)


@pytest.mark.rule("MAP-1")
def test_map_1__three_strikes_at_0_minus_3_minus_6() -> None:
    specs = strikes(BASE, 3)
    odds = turn_odds(specs)
    assert [o.total_bonus for o in odds.attacks] == [7, 4, 1]
    assert [o.p_hit for o in odds.attacks] == [Fraction(12, 20), Fraction(9, 20), Fraction(6, 20)]
    assert odds.expected_damage == _mean(12) + _mean(9) + _mean(6)
    assert sum(odds.distribution.values()) == 1


@pytest.mark.rule("AE-1")
def test_ae_1__strikes_default_to_one_per_action_and_cannot_exceed_them() -> None:
    assert len(strikes(BASE)) == 3
    with pytest.raises(ValueError, match="AE-1"):
        strikes(BASE, 4)


@pytest.mark.rule("MAA-5", "G-41", "MAP-1")
def test_g_41__power_strike_takes_map_0_and_the_next_strike_is_at_minus_3() -> None:
    odds = turn_odds(power_strike_then_strike(BASE))
    power, strike = odds.attacks
    assert power.total_bonus == 7 - 2 and strike.total_bonus == 7 - 3
    assert power.expected_damage == _mean(10, ps=4) == Fraction(261, 40)
    assert strike.expected_damage == _mean(9) == Fraction(41, 10)
    assert odds.expected_damage == Fraction(85, 8)
    assert "G-41" in odds.rules


@pytest.mark.rule("MAA-7", "MAP-5")
def test_maa_7__all_out_attack_is_three_attacks_at_0_minus_3_minus_6() -> None:
    odds = turn_odds(all_out_attack(BASE))
    assert [o.total_bonus for o in odds.attacks] == [7, 4, 1]
    assert [m.rule for o in odds.attacks for m in o.attack_modifiers.applied] == ["MAP-5", "MAP-5"]
    assert odds.expected_damage == turn_odds(strikes(BASE, 3)).expected_damage
    assert {"MAA-7", "MAP-5"} <= set(odds.rules)


@pytest.mark.rule("MAA-7", "MAP-5")
def test_maa_7__edition_1_all_out_attack_keeps_the_same_schedule() -> None:
    odds = turn_odds(all_out_attack(BASE, ruleset=preset("ashfall-1")), ruleset=preset("ashfall-1"))
    assert [o.total_bonus for o in odds.attacks] == [7, 4, 1]


@pytest.mark.rule("DEATH-1")
def test_death_1__p_drop_is_the_chance_the_total_reaches_the_target_hp() -> None:
    # Two flat-10 attacks vs 20 HP: both must hit (a crit of "10" is still 10).
    specs = (AttackSpec(7, 16, "10"), AttackSpec(7, 16, "10", attack_number=2))
    odds = turn_odds(specs, target_hp=20)
    assert odds.p_drop == Fraction(12, 20) * Fraction(9, 20)
    assert odds.distribution == {0: Fraction(8, 20) * Fraction(11, 20),
                                 10: Fraction(12, 20) * Fraction(11, 20) + Fraction(8, 20) * Fraction(9, 20),
                                 20: Fraction(12, 20) * Fraction(9, 20)}
    assert turn_odds(specs).p_drop is None


def test_turn_odds__total_distribution_is_the_convolution_of_the_attacks() -> None:
    specs = strikes(BASE, 2)
    one, two = (attack_odds(7, 16, "1d10+3", attack_number=n).distribution for n in (1, 2))
    odds = turn_odds(specs)
    for total, p in odds.distribution.items():
        assert p == sum((one[a] * two[total - a] for a in one if total - a in two), Fraction(0))


def test_turn_odds__answers_well_under_a_second() -> None:
    start = time.perf_counter()
    turn_odds(all_out_attack(AttackSpec(9, 17, "2d8+5", dr=2)), target_hp=40)
    assert time.perf_counter() - start < 0.5
