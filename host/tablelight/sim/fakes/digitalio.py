# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake digitalio: enough for neopixel.NeoPixel."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin) -> None:
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False

    def switch_to_output(self, value: bool = False, drive_mode=None) -> None:
        self.direction = Direction.OUTPUT
        self.value = value

    def deinit(self) -> None:
        pass
