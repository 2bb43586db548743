"""Millisecond ticks that wrap like CircuitPython's supervisor.ticks_ms() (2**29)."""

TICKS_PERIOD = 1 << 29
TICKS_MASK = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD >> 1


def ticks_diff(a: int, b: int) -> int:
    """a - b in ms, correct across one wrap; negative when a is before b."""
    d = (a - b) & TICKS_MASK
    if d >= TICKS_HALF:
        d -= TICKS_PERIOD
    return d


def ticks_add(a: int, ms: int) -> int:
    return (a + ms) & TICKS_MASK
