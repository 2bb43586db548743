"""A tiny deterministic PRNG that gives the same numbers on CPython and MicroPython."""


class Rand:
    def __init__(self, seed: int) -> None:
        self.x = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def below(self, n: int) -> int:
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n

    def bytes(self, n: int) -> bytes:
        out = bytearray(n)
        for i in range(n):
            out[i] = self.below(256)
        return bytes(out)
