"""Statistics for the lab: proportions with confidence intervals, comparisons, distributions.

Everything here is a pure function of numbers so that the same games give the
same figures in any process and any order of arrival (callers sort the games).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (good also near 0, 1 and for small samples)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    if successes in (0, trials):  # closed forms at the edges (no rounding error past 0 or 1)
        bound = trials / (trials + z * z)
        return (0.0, 1 - bound) if successes == 0 else (bound, 1.0)
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(successes: int, trials: int) -> dict[str, Any]:
    """``{"n", "k", "rate", "ci95"}`` for ``successes`` out of ``trials``."""
    low, high = wilson(successes, trials)
    rate = successes / trials if trials else None
    return {"k": successes, "n": trials, "rate": _round(rate), "ci95": [_round(low), _round(high)]}


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> dict[str, Any]:
    """Difference of two independent proportions (second minus first) and its two-sided z-test.

    The test pools the proportions under the null hypothesis of no difference;
    the interval of the difference is the unpooled Wald interval.
    """
    if n1 == 0 or n2 == 0:
        return {"diff": None, "ci95": None, "z": None, "p": None}
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se_null = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se_null == 0:
        z, p_value = 0.0, 1.0
    else:
        z = (p2 - p1) / se_null
        p_value = math.erfc(abs(z) / math.sqrt(2))
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    diff = p2 - p1
    return {
        "diff": _round(diff),
        "ci95": [_round(diff - Z95 * se), _round(diff + Z95 * se)],
        "z": _round(z),
        "p": _round(p_value, 6),
        "significant": p_value < 0.05,
    }


def distribution(values: Sequence[float], bins: int = 20) -> dict[str, Any]:
    """Mean, spread, quantiles and an equal-width histogram of ``values``."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    n = len(ordered)
    mean = sum(ordered) / n
    variance = sum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else 0.0
    low, high = ordered[0], ordered[-1]
    width = max(1, math.ceil((high - low + 1) / bins)) if isinstance(low, int) and isinstance(high, int) else (
        (high - low) / bins or 1
    )
    counts: list[int] = []
    edges: list[float] = []
    edge = low
    while edge <= high:
        edges.append(edge)
        counts.append(0)
        edge += width
    for value in ordered:
        counts[min(len(counts) - 1, int((value - low) // width))] += 1
    return {
        "n": n,
        "mean": _round(mean),
        "sd": _round(math.sqrt(variance)),
        "min": low,
        "p10": quantile(ordered, 0.1),
        "median": quantile(ordered, 0.5),
        "p90": quantile(ordered, 0.9),
        "max": high,
        "histogram": {"start": edges, "width": width, "count": counts},
    }


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values (linear interpolation, as numpy's default)."""
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    value = ordered[below] + (ordered[above] - ordered[below]) * (position - below)
    return _round(value)  # type: ignore[return-value]


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)
