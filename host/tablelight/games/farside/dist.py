"""Exact finite distributions with integer weights over a common denominator (the odds' arithmetic)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import lru_cache
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
J = TypeVar("J", bound=Hashable)


class Dist(Generic[K]):
    """A finite distribution: integer ``weights`` over a common ``denom`` (exact, cheap to combine)."""

    __slots__ = ("weights", "denom")

    def __init__(self, weights: dict[K, int], denom: int) -> None:
        self.weights = weights
        self.denom = denom

    @staticmethod
    def certain(key: J) -> "Dist[J]":
        return Dist({key: 1}, 1)

    def map(self, f: Callable[[K], J]) -> "Dist[J]":
        out: dict[J, int] = {}
        for k, w in self.weights.items():
            j = f(k)
            out[j] = out.get(j, 0) + w
        return Dist(out, self.denom)

    def bind(self, f: Callable[[K], "Dist[J]"]) -> "Dist[J]":
        """For each outcome k, continue with the distribution f(k) (the law of total probability)."""
        subs = [(w, f(k)) for k, w in self.weights.items()]
        common = 1
        for _, sub in subs:
            common = math.lcm(common, sub.denom)
        out: dict[J, int] = {}
        for w, sub in subs:
            scale = w * (common // sub.denom)
            for j, v in sub.weights.items():
                out[j] = out.get(j, 0) + scale * v
        return Dist(out, self.denom * common)

    def add(self, other: "Dist[K]", combine: Callable[[K, K], K]) -> "Dist[K]":
        """The distribution of ``combine(a, b)`` for independent a ~ self, b ~ other."""
        out: dict[K, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                c = combine(a, b)
                out[c] = out.get(c, 0) + wa * wb
        return Dist(out, self.denom * other.denom)

    def fractions(self) -> dict[K, Fraction]:
        return {k: Fraction(w, self.denom) for k, w in self.weights.items() if w}

    def mean(self, value: Callable[[K], int]) -> Fraction:
        return Fraction(sum(w * value(k) for k, w in self.weights.items()), self.denom)


def sum_ints(a: int, b: int) -> int:
    return a + b


def sum_tuples(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def repeat(dist: Dist[K], n: int, combine: Callable[[K, K], K], zero: K) -> Dist[K]:
    """The sum of ``n`` independent copies (square and multiply)."""
    result: Dist[K] = Dist.certain(zero)
    power = dist
    while n:
        if n & 1:
            result = result.add(power, combine)
        n >>= 1
        if n:
            power = power.add(power, combine)
    return result


@lru_cache(maxsize=4096)
def binomial(n: int, p_num: int, p_den: int) -> Dist[int]:
    """Successes of ``n`` trials of probability p_num/p_den."""
    q = p_den - p_num
    return Dist({k: math.comb(n, k) * p_num**k * q ** (n - k) for k in range(n + 1)}, p_den**n)


D6: Dist[int] = Dist({f: 1 for f in range(1, 7)}, 6)


@lru_cache(maxsize=256)
def d6_sum(n: int) -> Dist[int]:
    """The sum of ``n`` six-sided dice (one more die on the cached sum of ``n - 1``: the odds ask for
    every count up to ``n``)."""
    return d6_sum(n - 1).add(D6, sum_ints) if n > 0 else Dist.certain(0)


def _binomial_rows(top: int, p_num: int, p_den: int) -> list[list[int]]:
    """Row n: the integer weights C(n, j) p^j q^(n-j) over p_den^n, for n up to ``top``."""
    q = p_den - p_num
    p_powers = [p_num**k for k in range(top + 1)]
    q_powers = [q**k for k in range(top + 1)]
    return [[math.comb(n, j) * p_powers[j] * q_powers[n - j] for j in range(n + 1)] for n in range(top + 1)]


def thinned(dist: Dist[int], p_num: int, p_den: int) -> Dist[int]:
    """The successes when each of the ``k ~ dist`` trials succeeds with probability p_num/p_den.

    Exactly ``dist.bind(lambda k: binomial(k, p_num, p_den))`` (the same weights and denominator),
    computed without a distribution per outcome: the odds spend most of their time here.
    """
    top = max(dist.weights, default=0)
    rows = _binomial_rows(top, p_num, p_den)
    out = [0] * (top + 1)
    for n, w in dist.weights.items():
        scale = w * p_den ** (top - n)
        for j, v in enumerate(rows[n]):
            out[j] += scale * v
    return Dist(dict(enumerate(out)), dist.denom * p_den**top)


def thinned_pairs(dist: Dist[tuple[int, int]], p_num: int, p_den: int) -> Dist[tuple[int, int]]:
    """:func:`thinned` for pairs: each count of the pair thinned on its own (independent trials)."""
    top = max((a + b for a, b in dist.weights), default=0)
    rows = _binomial_rows(top, p_num, p_den)
    out: dict[tuple[int, int], int] = {}
    for (a, b), w in dist.weights.items():
        scale = w * p_den ** (top - a - b)
        for x, va in enumerate(rows[a]):
            scaled = scale * va
            for y, vb in enumerate(rows[b]):
                out[(x, y)] = out.get((x, y), 0) + scaled * vb
    return Dist(out, dist.denom * p_den**top)
