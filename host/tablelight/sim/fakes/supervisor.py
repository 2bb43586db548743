# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake supervisor: ticks_ms wraps at 2**29 like CircuitPython's."""

import time

_start = time.monotonic_ns()


def ticks_ms() -> int:
    return ((time.monotonic_ns() - _start) // 1_000_000 + (1 << 29) - 60_000) & ((1 << 29) - 1)  # wraps 60 s in
