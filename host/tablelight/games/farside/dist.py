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


@lru_cache(maxsize=256)
def d6_sum(n: int) -> Dist[int]:
    return repeat(Dist({f: 1 for f in range(1, 7)}, 6), n, sum_ints, 0)
