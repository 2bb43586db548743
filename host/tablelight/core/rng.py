"""A small deterministic random generator whose whole state is one integer.

The rules engines keep one of these in the game state instead of using the
:mod:`random` module: the sequence depends only on the seed (never on the
process, the Python version or PYTHONHASHSEED) and the state fits in JSON.

The algorithm is SplitMix64 (Steele, Lea and Flood, 2014), which passes
BigCrush and needs only additions, shifts and multiplications.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
_MASK64 = _TWO64 - 1
#: Bits of a seed made by :func:`secret_seed`: too many to search, and a signed 64-bit integer in any store.
SECRET_SEED_BITS = 63
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
#: below(n)'s rejection limit for small n, the largest multiple of n under 2**64 (index n).
_SMALL = 1024
_SMALL_LIMITS = [0] + [_TWO64 - _TWO64 % n for n in range(1, _SMALL)]


class Rng:
    """Seeded generator; ``Rng(7).below(6)`` gives the same value everywhere."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        if state is not None:
            self.state = state & _MASK64
        else:
            # Mix the seed once so that neighbouring seeds start far apart.
            self.state = (int(seed) * 0xBF58476D1CE4E5B9 + _GOLDEN_GAMMA) & _MASK64

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = z = (self.state + _GOLDEN_GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)``, without modulo bias (rejection sampling)."""
        # Largest multiple of n that fits in 64 bits: outputs above it are redrawn.
        if 0 < n < _SMALL:  # dice, decks, listings: worked out once
            limit = _SMALL_LIMITS[n]
        elif n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        else:
            limit = 0x10000000000000000 - 0x10000000000000000 % n
        while True:
            # next64() written out, its constants as literals (_GOLDEN_GAMMA, _MASK64): every
            # engine's chance and every random bot comes through here.
            self.state = z = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]`` (both ends included), like a die."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 bits of precision."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def fork(self) -> "Rng":
        """An independent generator derived from this one (advances this one)."""
        return Rng(state=self.next64())


def secret_seed() -> int:
    """A fresh seed from the operating system's secure source, for a game with secrets.

    The seed decides every hidden card, and so does the public map made from it: with 63
    random bits nobody at the table can search the seeds for the one that gives the board
    they see (a 31-bit seed can be found in minutes on a PC).
    """
    return secrets.randbits(SECRET_SEED_BITS)
