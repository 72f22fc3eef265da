"""Statistics used by sim reports and compare, checked against published values."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.sim.stats import (
    cohens_h,
    hedges_g,
    holm,
    quantile,
    regularized_beta,
    student_t_two_sided_p,
    summarize,
    two_proportion_z,
    welch_t,
    wilson,
)


@pytest.mark.parametrize(
    ("successes", "n", "lo", "hi"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson__matches_newcombe_1998(successes: int, n: int, lo: float, hi: float) -> None:
    got = wilson(successes, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson__all_successes_reaches_exactly_one_and_empty_sample_is_uninformative() -> None:
    assert wilson(29, 29)[1] == 1.0
    assert wilson(0, 29)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson__impossible_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        wilson(5, 4)


@given(st.integers(1, 5000), st.data())
def test_wilson__interval_contains_the_estimate_and_stays_in_unit_range(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_quantiles__linear_interpolation_type_7() -> None:
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert quantile(values, 0.5) == 5.5
    assert quantile(values, 0.25) == pytest.approx(3.25)
    assert quantile(values, 0.95) == pytest.approx(9.55)
    assert quantile([7], 0.3) == 7
    s = summarize(values)
    assert (s.n, s.mean, s.minimum, s.maximum) == (10, 5.5, 1, 10)
    assert s.sd == pytest.approx(3.0276503540974917)
    assert s.quantile(0.75) == pytest.approx(7.75)


def test_summarize__empty_sample_is_all_zero() -> None:
    s = summarize([])
    assert (s.n, s.mean, s.sd) == (0, 0.0, 0.0)


def test_two_proportion_z__hand_computed_example() -> None:
    # 45/100 vs 30/100: pooled p = 0.375, se = sqrt(0.375 * 0.625 * 0.02) = 0.068465, z = 2.1909
    r = two_proportion_z(45, 100, 30, 100)
    assert r.statistic == pytest.approx(2.19089, abs=1e-5)
    assert r.p_value == pytest.approx(0.02846, abs=1e-5)
    assert r.significant


def test_two_proportion_z__equal_rates_are_not_significant() -> None:
    r = two_proportion_z(50, 100, 500, 1000)
    assert r.statistic == 0.0
    assert r.p_value == pytest.approx(1.0)
    assert not r.significant
    assert not two_proportion_z(0, 10, 0, 10).significant


def test_welch_t__wikipedia_example_1() -> None:
    # Wikipedia, "Welch's t-test", example 1: t = -2.46, df = 24.99, p = 0.021
    a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    r = welch_t(a, b)
    assert r.statistic == pytest.approx(-2.4554, abs=1e-4)
    assert r.df == pytest.approx(24.9885, abs=1e-3)
    assert r.p_value == pytest.approx(0.02138, abs=1e-4)
    assert r.significant


def test_welch_t__identical_constant_samples_are_not_significant() -> None:
    assert not welch_t([3, 3, 3], [3, 3, 3]).significant
    assert welch_t([3, 3, 3], [4, 4, 4]).significant


@pytest.mark.parametrize(
    ("t", "df", "p"),
    [
        (2.0, 10, 0.073388),  # t tables
        (2.228138852, 10, 0.05),  # the 97.5% quantile of t(10)
        (1.0, 1, 0.5),  # Cauchy: P(|T| >= 1) = 1/2
        (2.0, 2, 1 - 2 / math.sqrt(6)),  # t(2) has a closed form
        (0.0, 5, 1.0),
    ],
)
def test_student_t_two_sided_p__known_values(t: float, df: float, p: float) -> None:
    assert student_t_two_sided_p(t, df) == pytest.approx(p, abs=1e-6)


def test_student_t__tends_to_the_normal_for_large_df() -> None:
    assert student_t_two_sided_p(1.959963984540054, 1e8) == pytest.approx(0.05, abs=1e-6)


@pytest.mark.parametrize(("x", "a", "b", "want"), [(0.5, 1, 1, 0.5), (0.3, 2, 1, 0.09), (0.3, 1, 2, 0.51)])
def test_regularized_beta__closed_forms(x: float, a: float, b: float, want: float) -> None:
    assert regularized_beta(x, a, b) == pytest.approx(want, abs=1e-12)


def test_holm__step_down_multiplies_the_kth_smallest_by_m_minus_k_plus_1_and_stays_monotone() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # capped at 1
    assert holm([]) == []


def test_cohens_h__the_arcsine_difference_of_two_proportions() -> None:
    assert cohens_h(0.5, 0.5) == 0
    assert cohens_h(0.0, 1.0) == pytest.approx(math.pi)
    assert cohens_h(0.4, 0.6) == pytest.approx(2 * math.asin(math.sqrt(0.6)) - 2 * math.asin(math.sqrt(0.4)))


def test_hedges_g__cohens_d_on_the_pooled_sd_with_the_small_sample_correction() -> None:
    a, b = [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]  # sd 1 each, means differ by 1: d = 1
    assert hedges_g(a, b) == pytest.approx(1 * (1 - 3 / (4 * 6 - 9)))
    assert hedges_g(b, a) == pytest.approx(-hedges_g(a, b))
    assert hedges_g([3, 3], [3, 3]) == 0
    assert hedges_g([3, 3], [4, 4]) == math.inf
