"""A small deterministic random generator whose whole state is one integer.

The rules engines keep one of these in the game state instead of using the
:mod:`random` module: the sequence depends only on the seed (never on the
process, the Python version or PYTHONHASHSEED) and the state fits in JSON.

The algorithm is SplitMix64 (Steele, Lea and Flood, 2014), which passes
BigCrush and needs only additions, shifts and multiplications. Its ``n``-th output
depends only on the starting state plus ``n`` times a constant, so outputs are worked
out ahead in batches: each 64-bit lane of one long integer, 128 bits apart so that no
product spills into the next, goes through the same few operations at once. One
output alone takes about a dozen operations on 128-bit integers, each hundreds of
CPU instructions in CPython; in a batch of 64 they cost about a quarter of that
(callgrind: ``Rng.below`` from 6,300 to 3,300 instructions a call). The outputs,
and so every game, are the same.
"""

from __future__ import annotations

import secrets
import struct
from collections.abc import Iterator, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
_MASK64 = _TWO64 - 1
#: Bits of a seed made by :func:`secret_seed`: too many to search, and a signed 64-bit integer in any store.
SECRET_SEED_BITS = 63
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
#: below(n)'s rejection limit for small n, the largest multiple of n under 2**64 (index n).
_SMALL = 1024
_SMALL_LIMITS = [0] + [_TWO64 - _TWO64 % n for n in range(1, _SMALL)]


class _Batch:
    """The constants for working out ``size`` outputs at once: lanes 128 bits apart."""

    __slots__ = ("size", "lanes", "ones", "steps", "unpack")

    def __init__(self, size: int) -> None:
        self.size = size
        #: 64 set bits in every lane: the mask after each operation.
        self.lanes = sum(_MASK64 << (128 * k) for k in range(size))
        #: 1 in every lane: ``state * ones`` puts the state in each.
        self.ones = sum(1 << (128 * k) for k in range(size))
        #: Lane k holds (k + 1) steps of the generator.
        self.steps = sum((((k + 1) * _GOLDEN_GAMMA) & _MASK64) << (128 * k) for k in range(size))
        self.unpack = struct.Struct(f"<{2 * size}Q").unpack


#: A fresh generator works out 4 outputs, then 16 and 64 at a time: one used for a
#: couple of draws (a game's first player) does little work ahead, one used all game little per draw.
_BATCHES = tuple(_Batch(size) for size in (4, 16, 64))


class Rng:
    """Seeded generator; ``Rng(7).below(6)`` gives the same value everywhere."""

    #: ``_origin``: the state before the outputs in ``_ahead`` (an iterator over a tuple of
    #: ``_batch`` of them); ``_grow``: which of ``_BATCHES`` the next refill uses.
    __slots__ = ("_origin", "_ahead", "_batch", "_grow")

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        if state is not None:
            self._start(state & _MASK64)
        else:
            # Mix the seed once so that neighbouring seeds start far apart.
            self._start((int(seed) * 0xBF58476D1CE4E5B9 + _GOLDEN_GAMMA) & _MASK64)

    def _start(self, state: int) -> None:
        self._origin = state
        self._ahead: Iterator[int] = iter(())
        self._batch = 0
        self._grow = 0

    @property
    def state(self) -> int:
        """The generator's whole state (``Rng(state=r.state)`` goes on where ``r`` is)."""
        used = self._batch - self._ahead.__length_hint__()  # type: ignore[attr-defined]
        return (self._origin + used * _GOLDEN_GAMMA) & _MASK64

    def _refill(self) -> None:
        """Work out the next batch of outputs (the current one is used up)."""
        state = (self._origin + self._batch * _GOLDEN_GAMMA) & _MASK64
        batch = _BATCHES[self._grow]
        if self._grow < len(_BATCHES) - 1:
            self._grow += 1
        lanes = batch.lanes
        z = (state * batch.ones + batch.steps) & lanes
        z = ((z ^ (z >> 30)) & lanes) * _MIX1 & lanes
        z = ((z ^ (z >> 27)) & lanes) * _MIX2 & lanes
        z = (z ^ (z >> 31)) & lanes
        self._origin, self._batch = state, batch.size
        self._ahead = iter(batch.unpack(z.to_bytes(16 * batch.size, "little"))[::2])

    def next64(self) -> int:
        """Return the next 64-bit output."""
        while True:
            for x in self._ahead:
                return x
            self._refill()

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)``, without modulo bias (rejection sampling)."""
        # Largest multiple of n that fits in 64 bits: outputs above it are redrawn.
        if 0 < n < _SMALL:  # dice, decks, listings: worked out once
            limit = _SMALL_LIMITS[n]
        elif n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        else:
            limit = 0x10000000000000000 - 0x10000000000000000 % n
        while True:  # every engine's chance and every random bot comes through here
            for x in self._ahead:
                if x < limit:
                    return x % n
            self._refill()

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

    # Copies and pickles carry the state alone (the outputs ahead are worked out again).
    def __reduce__(self) -> tuple[object, ...]:
        return _rng_at, (self.state,)

    def __copy__(self) -> "Rng":
        return Rng(state=self.state)

    def __deepcopy__(self, memo: object) -> "Rng":
        return Rng(state=self.state)


def _rng_at(state: int) -> Rng:
    """A generator in ``state`` (how a pickled one is made again)."""
    return Rng(state=state)


def secret_seed() -> int:
    """A fresh seed from the operating system's secure source, for a game with secrets.

    The seed decides every hidden card, and so does the public map made from it: with 63
    random bits nobody at the table can search the seeds for the one that gives the board
    they see (a 31-bit seed can be found in minutes on a PC).
    """
    return secrets.randbits(SECRET_SEED_BITS)
