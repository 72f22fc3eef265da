"""attack_odds: exact hit/crit chances and damage distributions, checked against hand computation.

The reference below enumerates every d20 face (two for advantage/disadvantage) and every damage die face,
applying the rules text directly: natural 20 hits and crits, natural 1 misses, otherwise meet-or-exceed;
crits roll the dice twice and add flat modifiers once; DR (min 0) before resistance/vulnerability/immunity.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.core.modifiers import Advantage
from ashfall.odds import DamageStepKind, applies_to, attack_odds
from ashfall.odds.attack import apply_steps, damage_steps
from ashfall.ruleset import preset

ED2 = preset("ashfall-2")
ADV, DIS, NORMAL = Advantage.ADVANTAGE, Advantage.DISADVANTAGE, Advantage.NORMAL


def _naturals(advantage: Advantage) -> dict[int, Fraction]:
    if advantage is NORMAL:
        return {f: Fraction(1, 20) for f in range(1, 21)}
    pick = max if advantage is ADV else min
    out: dict[int, Fraction] = {}
    for a, b in itertools.product(range(1, 21), repeat=2):
        out[pick(a, b)] = out.get(pick(a, b), Fraction(0)) + Fraction(1, 400)
    return out


def _reference(bonus: int, dv: int, count: int, sides: int, flat: int, *, advantage: Advantage = NORMAL, dr: int = 0,
               resist: bool = False, vulnerable: bool = False, immune: bool = False) -> dict[int, Fraction]:
    """Damage dealt -> probability, straight from the rules text (with literal numbers)."""
    def dealt(raw: int) -> int:
        dmg = max(max(raw, 0) - dr, 0)
        if immune:
            return 0
        if resist and vulnerable:
            return dmg
        return dmg // 2 if resist else dmg * 2 if vulnerable else dmg

    def damage(n: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for faces in itertools.product(range(1, sides + 1), repeat=n):
            d = dealt(sum(faces) + flat)
            out[d] = out.get(d, Fraction(0)) + Fraction(1, sides**n)
        return out

    dist: dict[int, Fraction] = {}
    for nat, p in _naturals(advantage).items():
        if nat == 20:
            outcome = damage(2 * count)
        elif nat == 1 or nat + bonus < dv:
            outcome = {0: Fraction(1)}
        else:
            outcome = damage(count)
        for d, q in outcome.items():
            dist[d] = dist.get(d, Fraction(0)) + p * q
    return {k: v for k, v in sorted(dist.items()) if v}


def _expected(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * v for k, v in dist.items()), Fraction(0))


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-2")
def test_atk_4__plus_7_vs_dv_16_with_1d10_plus_3_is_exactly_5_375() -> None:
    odds = attack_odds(7, 16, "1d10+3")
    assert odds.p_hit == Fraction(12, 20)
    assert odds.p_crit == Fraction(1, 20)
    assert odds.expected_damage == Fraction(43, 8) == Fraction("5.375")
    assert str(odds.crit_damage) == "2d10+3"
    assert sum(odds.distribution.values()) == 1
    assert odds.distribution[0] == Fraction(8, 20)


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-3")
@pytest.mark.parametrize(
    ("bonus", "dv", "p_hit", "why"),
    [
        (5, 15, Fraction(11, 20), "natural 10 + 5 meets DV 15 exactly (ATK-4)"),
        (5, 16, Fraction(10, 20), "one short misses (ATK-4)"),
        (0, 30, Fraction(1, 20), "only a natural 20 hits (CRIT-1)"),
        (30, 5, Fraction(19, 20), "a natural 1 still misses (CRIT-3)"),
        (-5, 15, Fraction(1, 20), "needs 20, which is a natural 20 anyway"),
    ],
)
def test_atk_4__hit_chance_is_meet_or_exceed_with_natural_20_and_1(bonus: int, dv: int, p_hit: Fraction,
                                                                      why: str) -> None:
    odds = attack_odds(bonus, dv, "1d6")
    assert odds.p_hit == p_hit, why
    assert odds.p_crit == Fraction(1, 20)


@pytest.mark.rule("CRIT-1", "CRIT-3")
def test_crit_1_crit_3__switched_off_naturals_are_ordinary_rolls() -> None:
    rs = ED2.with_options(attack={"natural_20_hits": False, "natural_1_misses": False})
    assert attack_odds(0, 30, "1d6", ruleset=rs).p_hit == 0
    assert attack_odds(30, 5, "1d6", ruleset=rs).p_hit == 1
    assert attack_odds(30, 5, "1d6", ruleset=rs).p_crit == 0


@pytest.mark.rule("G-21")
@pytest.mark.parametrize(
    ("advantage", "p_hit", "p_crit"),
    [
        (ADV, 1 - Fraction(8, 20) ** 2, 1 - Fraction(19, 20) ** 2),
        (DIS, Fraction(12, 20) ** 2, Fraction(1, 20) ** 2),
        (NORMAL, Fraction(12, 20), Fraction(1, 20)),
    ],
)
def test_g_21__advantage_keeps_the_higher_of_two_d20s(advantage: Advantage, p_hit: Fraction, p_crit: Fraction) -> None:
    odds = attack_odds(7, 16, "1d10+3", advantage=advantage)
    assert (odds.p_hit, odds.p_crit) == (p_hit, p_crit)


@pytest.mark.rule("MAP-1")
@pytest.mark.parametrize(("attack_number", "p_hit"), [(1, Fraction(12, 20)), (2, Fraction(9, 20)),
                                                      (3, Fraction(6, 20))])
def test_map_1__second_attack_takes_minus_3_and_third_minus_6(attack_number: int, p_hit: Fraction) -> None:
    odds = attack_odds(7, 16, "1d10+3", attack_number=attack_number)
    assert odds.p_hit == p_hit
    assert odds.total_bonus == 7 - 3 * (attack_number - 1)
    assert [m.rule for m in odds.attack_modifiers.applied] == ["MAP-1"] * (attack_number > 1)


@pytest.mark.rule("MAP-1")
def test_map_1__step_comes_from_the_ruleset() -> None:
    rs = ED2.with_options(attack={"map_step": -5})
    assert attack_odds(7, 16, "1d6", attack_number=3, ruleset=rs).total_bonus == -3


@pytest.mark.rule("MAA-5", "CRIT-2", "G-40")
def test_maa_5__power_strike_is_minus_2_to_hit_and_plus_4_added_once_on_a_crit() -> None:
    odds = attack_odds(7, 16, "1d10+3", power_strike=True)
    assert odds.total_bonus == 5
    assert odds.p_hit == Fraction(10, 20)
    assert str(odds.damage) == "1d10+3+4"
    assert str(odds.crit_damage) == "2d10+3+4"
    # 9/20 normal hits averaging 12.5, 1/20 crits averaging 18
    assert odds.expected_damage == Fraction(9, 20) * Fraction(25, 2) + Fraction(1, 20) * 18 == Fraction(261, 40)
    assert [m.rule for m in odds.attack_modifiers.applied + odds.damage_modifiers] == ["MAA-5", "MAA-5"]


@pytest.mark.rule("DR-1", "DR-3", "RVI-1", "RVI-2", "RVI-3", "G-43")
@pytest.mark.parametrize(
    ("kw", "dealt", "why"),
    [
        ({"dr": 3}, 7, "DR 3 from 10 (DR-1)"),
        ({"dr": 12}, 0, "DR never takes damage below 0 (DR-1)"),
        ({"resist": True}, 5, "half (RVI-1)"),
        ({"dr": 3, "resist": True}, 3, "DR first: (10-3)//2 = 3, not 10//2-3 = 2 (DR-3, RVI-1)"),
        ({"dr": 3, "vulnerable": True}, 14, "DR first: (10-3)*2 = 14, not 17 (DR-3, RVI-2)"),
        ({"immune": True, "vulnerable": True}, 0, "immunity wins (RVI-3)"),
        ({"resist": True, "vulnerable": True}, 10, "they cancel (G-43)"),
    ],
)
def test_dr_3__dr_before_resistance_vulnerability_immunity(kw: dict[str, object], dealt: int, why: str) -> None:
    odds = attack_odds(100, 0, "10", **kw)  # type: ignore[arg-type]
    expected = {0: Fraction(1, 20), dealt: Fraction(19, 20)} if dealt else {0: Fraction(1)}
    assert odds.distribution == expected, why


@pytest.mark.rule("RVI-1")
def test_rvi_1__resistance_rounds_down() -> None:
    odds = attack_odds(100, 0, "7", resist=True)
    assert odds.distribution == {0: Fraction(1, 20), 3: Fraction(19, 20)}


@pytest.mark.rule("G-43")
def test_g_43__halve_then_double_alternative() -> None:
    rs = ED2.with_options(damage={"resist_vuln": "halve-then-double"})
    odds = attack_odds(100, 0, "7", resist=True, vulnerable=True, ruleset=rs)
    assert odds.distribution == {0: Fraction(1, 20), 6: Fraction(19, 20)}


@pytest.mark.rule("G-42")
def test_g_42__damage_is_never_negative() -> None:
    odds = attack_odds(7, 16, "1d4-3")
    assert min(odds.distribution) == 0
    assert odds.distribution == _reference(7, 16, 1, 4, -3)


@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-2", "CRIT-3", "DR-3", "RVI-1", "RVI-2", "RVI-3", "G-21", "G-43")
@pytest.mark.parametrize(
    ("bonus", "dv", "count", "sides", "flat", "kw"),
    [
        (7, 16, 1, 10, 3, {}),
        (4, 14, 2, 6, 1, {"advantage": ADV}),
        (4, 14, 2, 6, 1, {"advantage": DIS}),
        (2, 12, 1, 8, 2, {"dr": 3}),
        (2, 12, 1, 8, 2, {"dr": 3, "resist": True}),
        (2, 12, 1, 8, 2, {"dr": 2, "vulnerable": True}),
        (2, 12, 1, 8, 2, {"immune": True}),
        (9, 18, 3, 4, 0, {"resist": True, "vulnerable": True}),
    ],
)
def test_atk_4__distribution_matches_enumerating_every_die(bonus: int, dv: int, count: int, sides: int, flat: int,
                                                           kw: dict[str, object]) -> None:
    expr = f"{count}d{sides}+{flat}"
    odds = attack_odds(bonus, dv, expr, **kw)  # type: ignore[arg-type]
    ref = _reference(bonus, dv, count, sides, flat, **kw)  # type: ignore[arg-type]
    assert odds.distribution == ref
    assert odds.expected_damage == _expected(ref)


@pytest.mark.rule("DR-3")
def test_dr_3__steps_are_listed_in_order_with_their_rules() -> None:
    steps = damage_steps(5, resist=True, vulnerable=False, immune=False, ruleset=ED2)
    assert [(s.kind, s.rule) for s in steps] == [
        (DamageStepKind.MINIMUM, "G-42"), (DamageStepKind.DR, "DR-1"), (DamageStepKind.RESISTANCE, "RVI-1")]
    assert apply_steps(12, steps) == 3
    assert "DR-3" in attack_odds(7, 16, "1d10+3", dr=5, resist=True).rules


def test_damage_steps__negative_dr_is_refused() -> None:
    with pytest.raises(ValueError, match="DR"):
        attack_odds(7, 16, "1d6", dr=-1)


@pytest.mark.parametrize(
    ("tag", "names", "applies"),
    [(None, ["fire"], True), ("fire", ["fire"], True), ("slashing", ["fire"], False), ("sonic", ["thunder"], True),
     ("fire", [], False), ("slashing", ["fire", "slashing"], True)],
)
def test_applies_to__typed_damage_matches_by_type_and_untyped_matches_any(tag: str | None, names: list[str],
                                                                          applies: bool) -> None:
    assert applies_to(tag, names) is applies


def test_applies_to__unknown_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown damage type"):
        applies_to("fire", ["flame"])


@settings(max_examples=40, deadline=None)
@given(bonus=st.integers(-5, 20), dv=st.integers(5, 30), dr=st.integers(0, 6),
       advantage=st.sampled_from(list(Advantage)))
def test_attack_odds__invariants(bonus: int, dv: int, dr: int, advantage: Advantage) -> None:
    odds = attack_odds(bonus, dv, "1d8+2", advantage=advantage, dr=dr)
    assert sum(odds.distribution.values()) == 1
    assert 0 < odds.p_crit <= odds.p_hit < 1
    assert odds.expected_damage == _expected(dict(odds.distribution))
    assert attack_odds(bonus + 1, dv, "1d8+2", advantage=advantage, dr=dr).p_hit >= odds.p_hit
    assert attack_odds(bonus, dv, "1d8+2", advantage=advantage, dr=dr + 1).expected_damage <= odds.expected_damage


def test_attack_odds__answers_well_under_a_second() -> None:
    start = time.perf_counter()
    attack_odds(9, 17, "3d8+7 fire", advantage=ADV, attack_number=2, power_strike=True, dr=3, resist=True)
    assert time.perf_counter() - start < 0.5
