# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake microcontroller: only what neopixel's annotations and the firmware need."""


class Pin:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return "board." + self.name
