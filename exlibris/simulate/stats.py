"""Intervals a designer can act on: Wilson score intervals for rates, Newcombe's
interval for the difference of two rates, and a normal interval for the difference
of two means. All at 95% unless told otherwise."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
    if n == 0:
        return Rate(wins, 0, 0.0, 1.0)
    p = wins / n
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
