# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake neopixel_write: receives the exact bytes (GRB, after brightness) the LEDs would get,
and reports them to the SimBoard when they change."""

import _simctl

_last = None


def neopixel_write(digitalinout, buf) -> None:
    global _last
    data = bytes(buf)
    if data != _last:
        _last = data
        _simctl.send_pixels(data)
