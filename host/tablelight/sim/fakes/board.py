# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake board module with the pins of an Adafruit Feather nRF52840 Express (see hardware/boards/)."""

from microcontroller import Pin

_NAMES = ("A0 A1 A2 A3 A4 A5 AREF VOLTAGE_MONITOR BATTERY D2 D5 D6 D9 D10 D11 D12 D13 SCK MOSI MISO "
          "RX TX SDA SCL NEOPIXEL LED RED_LED BLUE_LED SWITCH NFC1 NFC2")
for _name in _NAMES.split():
    globals()[_name] = Pin(_name)
board_id = "feather_nrf52840_express"
