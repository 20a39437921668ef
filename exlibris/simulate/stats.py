"""Intervals a designer can act on: Wilson score intervals for rates, Newcombe's
interval for the difference of two rates, and a normal interval for the difference
of two means. All at 95% unless told otherwise."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``n`` (``wins`` may be fractional: a shared win counts 1/k)."""

    wins: float
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def excludes(self, share: float) -> bool:
        """Whether the interval lies wholly above or below ``share``."""
        return self.n > 0 and (self.low > share or self.high < share)


def wilson(wins: float, n: int, z: float = Z95) -> Rate:
    """The Wilson score interval for ``wins`` successes in ``n`` trials."""
    if n <= 0:
        return Rate(wins, 0, 0.0, 1.0)
    p = min(1.0, max(0.0, wins / n))  # a rate, whatever the counts say
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # the interval always holds p; clamp rounding at p = 0 or 1
    return Rate(wins, n, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@dataclass(frozen=True)
class Difference:
    """``value`` = second minus first, with its interval."""

    value: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def rate_difference(first: Rate, second: Rate) -> Difference:
    """Newcombe's hybrid score interval (method 10) for ``second.rate - first.rate``,
    built from the two Wilson intervals; independent samples."""
    d = second.rate - first.rate
    low = d - math.sqrt((second.rate - second.low) ** 2 + (first.high - first.rate) ** 2)
    high = d + math.sqrt((second.high - second.rate) ** 2 + (first.rate - first.low) ** 2)
    return Difference(d, low, high)


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    sd: float

    @property
    def se(self) -> float:
        return self.sd / math.sqrt(self.n) if self.n else math.inf


def summary(values: Sequence[float]) -> Summary:
    n = len(values)
    if n == 0:
        return Summary(0, math.nan, math.nan)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return Summary(n, mean, math.sqrt(var))


def mean_difference(first: Summary, second: Summary, z: float = Z95) -> Difference:
    """``second.mean - first.mean`` with a normal (Welch) interval."""
    d = second.mean - first.mean
    half = z * math.sqrt(first.se ** 2 + second.se ** 2)
    return Difference(d, d - half, d + half)


def quantiles(values: Sequence[float], qs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)
              ) -> list[float]:
    """Quantiles by linear interpolation (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return [math.nan for _ in qs]
    result = []
    for q in qs:
        pos = q * (len(ordered) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(ordered) - 1)
        result.append(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))
    return result


def paired_difference(differences: Sequence[float], z: float = Z95) -> Difference:
    """The mean of per-deal differences (the same game under two rules) with a normal
    interval from their spread: the deal's own luck cancels out."""
    s = summary(differences)
    if s.n == 0:
        return Difference(math.nan, math.nan, math.nan)
    half = z * s.se if s.n > 1 else math.inf
    return Difference(s.mean, s.mean - half, s.mean + half)


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def share_p(wins: float, n: int, share: float) -> float:
    """Two-sided p-value of ``wins`` of ``n`` against the rate ``share`` (normal
    approximation to the binomial)."""
    if n == 0 or not 0 < share < 1:
        return 1.0
    return normal_p((wins - n * share) / math.sqrt(n * share * (1 - share)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (family-wise error across many comparisons)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-squared variable with ``df`` degrees of freedom (closed
    forms of the regularized gamma function for whole ``df``)."""
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        term = total = math.exp(-x / 2)
        for k in range(1, df // 2):
            term *= x / (2 * k)
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def chi2_uniform(counts: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's statistic of ``counts`` against equal shares: (chi2, df, p)."""
    n = sum(counts)
    k = len(counts)
    if k < 2 or n <= 0:
        return (0.0, max(0, k - 1), 1.0)
    expected = n / k
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    return (chi2, k - 1, chi2_sf(chi2, k - 1))


# ------------------------------------------------------------------ exact tests
# Small samples: the normal approximations above overstate what 12 games show. These
# are the textbook exact tests (Agresti, *Categorical Data Analysis*, 3rd ed., 2013:
# §1.4 the binomial test, §3.5 Fisher's exact test, §1.5 the exact multinomial
# goodness-of-fit test), two-sided by the method of small p-values that R's
# ``binom.test`` and ``fisher.test`` and scipy's ``binomtest`` use: the
# probability of every outcome no more likely than the one observed.

SMALL_SAMPLE = 30  # below this many games (or deals) a report says the sample is small
_RELATIVE = 1 + 1e-7  # outcomes this close in probability count as equally likely


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def binomial_p(successes: float, n: int, p: float = 0.5) -> float:
    """Exact two-sided p-value of ``successes`` in ``n`` trials of probability ``p``.
    A fractional count (a shared win counts 1/k) is tested at both neighbouring whole
    numbers and the larger p-value kept (conservative)."""
    if n <= 0 or not 0 < p < 1:
        return 1.0
    low, high = math.floor(successes), math.ceil(successes)
    return max(_binomial_whole(min(n, max(0, k)), n, p) for k in {low, high})


def _small_p(log_pmf: Callable[[int], float], observed: int, lo: int, hi: int,
             mode: int) -> float:
    """The sum of the probabilities no larger than the observed one, over the
    outcomes ``lo``..``hi`` of a unimodal distribution: walked out from the ``mode``
    until the terms are too small to count (below 1e-300 of the largest), so a
    large sample costs its spread, not its size."""
    limit = log_pmf(observed) + math.log(_RELATIVE)
    peak = log_pmf(mode)
    total = 0.0
    for step in (1, -1):
        x = mode if step == 1 else mode - 1
        while lo <= x <= hi:
            value = log_pmf(x)
            if value <= limit:
                total += math.exp(value)
            if value < peak - 700:
                break
            x += step
    return min(1.0, total)


def _binomial_whole(k: int, n: int, p: float) -> float:
    log_p, log_q = math.log(p), math.log1p(-p)

    def log_pmf(i: int) -> float:
        return _log_choose(n, i) + i * log_p + (n - i) * log_q

    return _small_p(log_pmf, k, 0, n, min(n, math.floor((n + 1) * p)))


def sign_test(differences: Sequence[float]) -> float:
    """Exact two-sided sign test of paired differences (zeros dropped): are rises
    and falls equally likely?"""
    up = sum(1 for d in differences if d > 0)
    down = sum(1 for d in differences if d < 0)
    return binomial_p(up, up + down, 0.5)


def fisher_p(a: float, n1: int, b: float, n2: int) -> float:
    """Fisher's exact two-sided test that ``a`` of ``n1`` and ``b`` of ``n2`` come from
    one rate (fractional counts rounded to the nearest whole number)."""
    a, b = round(a), round(b)
    if n1 <= 0 or n2 <= 0:
        return 1.0
    successes, total = a + b, n1 + n2
    if successes in (0, total):
        return 1.0

    def log_p(x: int) -> float:
        return (_log_choose(n1, x) + _log_choose(n2, successes - x)
                - _log_choose(total, successes))

    lo, hi = max(0, successes - n2), min(n1, successes)
    mode = min(hi, max(lo, math.floor((n1 + 1) * (successes + 1) / (total + 2))))
    return _small_p(log_p, min(hi, max(lo, a)), lo, hi, mode)


MAX_EXACT_TABLES = 30_000  # outcomes enumerated by the exact seat test, at most


def multinomial_uniform_p(counts: Sequence[float]) -> tuple[float, str]:
    """Two-sided p-value that ``counts`` (rounded) fall equally in their cells, and
    the test used: the exact multinomial test where the outcomes can be enumerated
    (small samples), Pearson's chi-squared above that (where it is accurate)."""
    whole = [round(c) for c in counts]
    n, k = sum(whole), len(whole)
    if k < 2 or n <= 0:
        return 1.0, "exact"
    if math.comb(n + k - 1, k - 1) > MAX_EXACT_TABLES:
        return chi2_uniform(counts)[2], "chi-squared"
    log_cell = -n * math.log(k) + math.lgamma(n + 1)
    observed = log_cell - sum(math.lgamma(c + 1) for c in whole)
    limit = observed + math.log(_RELATIVE)
    total = 0.0

    def walk(cells_left: int, remaining: int, logs: float) -> None:
        nonlocal total
        if cells_left == 1:
            value = logs - math.lgamma(remaining + 1)
            if value <= limit:
                total += math.exp(value)
            return
        for c in range(remaining + 1):
            walk(cells_left - 1, remaining - c, logs - math.lgamma(c + 1))

    walk(k, n, log_cell)
    return min(1.0, total), "exact"


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Lentz's method, as in
    Press et al., *Numerical Recipes*, 3rd ed., §6.4)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_p(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


@lru_cache(maxsize=256)
def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided critical value of Student's t (bisection on :func:`t_p`)."""
    if df <= 0:
        return math.inf
    low, high = 0.0, 1e4
    for _ in range(80):
        middle = (low + high) / 2
        if t_p(middle, df) > 1 - level:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@dataclass(frozen=True)
class PairedTest:
    """A paired difference with Student's t interval and the two exact-enough tests
    a small sample needs: the paired t-test and the sign test."""

    value: float
    low: float
    high: float
    t_p: float
    sign_p: float
    n: int

    @property
    def p(self) -> float:
        """The p-value that decides (the larger of the two: a flag needs both)."""
        return max(self.t_p, self.sign_p)


def paired_test(differences: Sequence[float]) -> PairedTest:
    """The mean of per-deal differences with Student's t interval (not the normal one:
    it is too narrow below a few dozen deals), its t-test and its sign test."""
    s = summary(differences)
    if s.n < 2:
        value = s.mean if s.n else math.nan
        return PairedTest(value, -math.inf, math.inf, 1.0, 1.0, s.n)
    if s.sd == 0:
        exact = 0.0 if s.mean != 0 else 1.0
        return PairedTest(s.mean, s.mean, s.mean, exact, sign_test(differences), s.n)
    half = t_quantile(s.n - 1) * s.se
    return PairedTest(s.mean, s.mean - half, s.mean + half, t_p(s.mean / s.se, s.n - 1),
                      sign_test(differences), s.n)
