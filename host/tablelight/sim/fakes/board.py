# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Stand-in for CircuitPython's ``board`` module (the file name is CircuitPython's, so that the firmware's
``import board`` finds it): the pin names of an Adafruit Feather nRF52840 Express (hardware/boards/)."""

from microcontroller import Pin

_PIN_NAMES = ("A0 A1 A2 A3 A4 A5 AREF VOLTAGE_MONITOR BATTERY D2 D5 D6 D9 D10 D11 D12 D13 SCK MOSI MISO "
              "RX TX SDA SCL NEOPIXEL LED RED_LED BLUE_LED SWITCH NFC1 NFC2")
for _pin_name in _PIN_NAMES.split():
    globals()[_pin_name] = Pin(_pin_name)
board_id = "feather_nrf52840_express"
