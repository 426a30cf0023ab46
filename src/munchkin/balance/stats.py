"""Intervals for the balance report: Wilson for a proportion, Newcombe for a difference of two.

Both stay inside [0, 1] (or [-1, 1]) and behave on small counts, where the textbook
"p ± 1.96·√(p(1−p)/n)" gives intervals below zero or of zero width at 0 or n successes.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials; (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends, where rounding would stray
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference p1 − p2 and its Newcombe hybrid score interval (built from both Wilson intervals)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, max(-1.0, lo), min(1.0, hi))


def mean_diff(s1: int, q1: int, n1: int, s2: int, q2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two means from their sums and sums of squares, with a normal 95% interval."""
    if n1 < 2 or n2 < 2:
        m1 = s1 / n1 if n1 else 0.0
        m2 = s2 / n2 if n2 else 0.0
        return (m1 - m2, -math.inf, math.inf)
    m1, m2 = s1 / n1, s2 / n2
    v1 = max(0.0, (q1 - n1 * m1 * m1) / (n1 - 1))
    v2 = max(0.0, (q2 - n2 * m2 * m2) / (n2 - 1))
    half = z * math.sqrt(v1 / n1 + v2 / n2)
    return (m1 - m2, m1 - m2 - half, m1 - m2 + half)


def quantile(hist: dict[int, int], q: float) -> float:
    """The q-quantile (nearest rank) of values counted in a histogram {value: count}."""
    total = sum(hist.values())
    if total == 0:
        return 0.0
    rank = max(1, math.ceil(q * total))
    seen = 0
    for v in sorted(hist):
        seen += hist[v]
        if seen >= rank:
            return float(v)
    return float(max(hist))


Z80 = 0.8416212335729143  # the normal quantile of 80% power


def mover(d1: tuple[float, float, float], d2: tuple[float, float, float]) -> tuple[float, float, float]:
    """The difference e1 − e2 of two independent estimates, each (value, low, high) with its own 95%
    interval, and the MOVER interval built from theirs (Zou and Donner's method of variance
    estimates recovery: Newcombe's method applied to any two intervals)."""
    (e1, l1, u1), (e2, l2, u2) = d1, d2
    d = e1 - e2
    return (d, d - math.sqrt((e1 - l1) ** 2 + (u2 - e2) ** 2), d + math.sqrt((u1 - e1) ** 2 + (e2 - l2) ** 2))


def games_needed(d: float, low: float, high: float, games: int, z: float = Z95) -> int | None:
    """How many more games (of each version) would likely settle a difference not yet clear, at its
    observed size: the sample size of a two-sided 5% test with 80% power, n = games · ((z₉₅ + z₈₀)·se / d)²,
    with the standard error se read from the interval ((high − low) / 2z) and shrinking as 1/√games.
    None when the interval already leaves out zero, when nothing differs, or with no interval."""
    if low > 0 or high < 0 or d == 0 or games <= 0 or not math.isfinite(high - low):
        return None
    se = (high - low) / (2 * z)
    need = games * ((z + Z80) * se / abs(d)) ** 2
    return max(1, math.ceil(need - games))
