"""Statistics for simulation reports: Wilson intervals, summaries, and the two tests ``compare`` uses.

Everything here is pure and works on plain numbers (no numpy, no scipy): the Wilson score interval
for a proportion, the mean / standard deviation / quantiles of a sample, the pooled two-proportion
z-test for win rates and Welch's unequal-variance t-test for means (rounds, damage). P-values are
two-sided; the Student t distribution is evaluated through the regularized incomplete beta function.
``compare`` runs many tests at once, so it adjusts their p-values with Holm's step-down method
(:func:`holm`, which controls the family-wise error rate) and reports effect sizes: Cohen's h for two
proportions (:func:`cohens_h`) and Hedges' g for two means (:func:`hedges_g`, Cohen's d with the
small-sample correction).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% standard normal quantile."""
ALPHA = 0.05
"""The significance level ``compare`` reports against."""
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The quantiles a :class:`Summary` lists."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A sample in numbers: size, mean, standard deviation (n-1), extremes and quantiles.

    Attributes:
        n: Sample size.
        mean: Arithmetic mean (0 for an empty sample).
        sd: Sample standard deviation with n-1 in the denominator (0 below two values).
        minimum: The smallest value.
        maximum: The largest value.
        quantiles: ``(q, value)`` pairs for :data:`QUANTILES` (linear interpolation, "type 7").
    """

    n: int
    mean: float
    sd: float
    minimum: float
    maximum: float
    quantiles: tuple[tuple[float, float], ...]

    def quantile(self, q: float) -> float:
        """One of the stored quantiles."""
        for key, value in self.quantiles:
            if math.isclose(key, q):
                return value
        raise KeyError(f"quantile {q} was not computed")


@dataclass(frozen=True, slots=True)
class TestResult:
    """A two-sided significance test.

    Attributes:
        statistic: z or t.
        p_value: Two-sided p-value.
        significant: ``p_value < alpha``.
        df: Degrees of freedom (Welch); None for the z-test.
    """

    statistic: float
    p_value: float
    significant: bool
    df: float | None = None


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Args:
        successes: Number of successes.
        n: Number of trials (an empty sample gives the uninformative ``(0, 1)``).
        z: The normal quantile of the confidence level.
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean (0 for an empty sample)."""
    return math.fsum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """Sample variance with n-1 in the denominator (0 below two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.fsum((v - m) ** 2 for v in values) / (n - 1)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics (Hyndman–Fan type 7)."""
    if not values:
        return 0.0
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} is outside [0, 1]")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summarize(values: Sequence[float]) -> Summary:
    """Size, mean, standard deviation, extremes and the :data:`QUANTILES` of a sample."""
    if not values:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, tuple((q, 0.0) for q in QUANTILES))
    ordered = sorted(values)
    return Summary(
        len(ordered), mean(ordered), math.sqrt(variance(ordered)), float(ordered[0]), float(ordered[-1]),
        tuple((q, quantile(ordered, q)) for q in QUANTILES),
    )


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z(x1: int, n1: int, x2: int, n2: int, alpha: float = ALPHA) -> TestResult:
    """The pooled two-proportion z-test of ``x1/n1`` against ``x2/n2`` (two-sided)."""
    if n1 <= 0 or n2 <= 0:
        return TestResult(0.0, 1.0, False)
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = x1 / n1 - x2 / n2
    if se == 0:
        return TestResult(0.0, 1.0, False) if diff == 0 else TestResult(math.copysign(math.inf, diff), 0.0, True)
    z = diff / se
    p = normal_two_sided_p(z)
    return TestResult(z, p, p < alpha)


def welch_t(a: Sequence[float], b: Sequence[float], alpha: float = ALPHA) -> TestResult:
    """Welch's unequal-variance t-test of mean(a) against mean(b) (two-sided)."""
    return welch_t_from_stats(mean(a), variance(a), len(a), mean(b), variance(b), len(b), alpha)


def welch_t_from_stats(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int,
                       alpha: float = ALPHA) -> TestResult:
    """Welch's t-test from means, sample variances and sizes."""
    if n1 < 2 or n2 < 2:
        return TestResult(0.0, 1.0, False)
    s1, s2 = v1 / n1, v2 / n2
    se2 = s1 + s2
    diff = m1 - m2
    if se2 == 0:
        return TestResult(0.0, 1.0, False) if diff == 0 else TestResult(math.copysign(math.inf, diff), 0.0, True)
    t = diff / math.sqrt(se2)
    df = se2 * se2 / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1))
    p = student_t_two_sided_p(t, df)
    return TestResult(t, p, p < alpha, df)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as given): reject ``i`` at level α iff ``adjusted[i] < α``.

    The k-th smallest p-value (1-based) is multiplied by ``m - k + 1``, the running maximum is kept so the
    adjusted values are monotone in the raw ones, and everything is capped at 1.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def cohens_h(p1: float, p2: float) -> float:
    """Cohen's h of two proportions: ``2·asin(√p2) − 2·asin(√p1)`` (0.2 small, 0.5 medium, 0.8 large)."""
    return 2 * math.asin(math.sqrt(p2)) - 2 * math.asin(math.sqrt(p1))


def hedges_g(a: Sequence[float], b: Sequence[float]) -> float:
    """Hedges' g of mean(b) − mean(a): Cohen's d on the pooled sd, times ``1 − 3 / (4(n1 + n2) − 9)``.

    0 when the pooled sd is 0 and the means are equal; ±inf when it is 0 and they differ.
    """
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return 0.0
    diff = mean(b) - mean(a)
    pooled = math.sqrt(((n1 - 1) * variance(a) + (n2 - 1) * variance(b)) / (n1 + n2 - 2))
    if pooled == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / pooled * (1 - 3 / (4 * (n1 + n2) - 9))


def student_t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2)."""
    if math.isinf(t):
        return 0.0
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    # the continued fraction converges fast for x < (a+1)/(a+b+2); use the symmetry otherwise
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float, eps: float = 1e-15, max_terms: int = 500) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz evaluation)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, max_terms + 1):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return result
