# mypy: ignore-errors
# (a stand-in for Adafruit's adafruit_ble in the simulated board: the "radio" is a second
#  pseudo-terminal, fd in TL_SIM_BLE_FD, so a host can reach the firmware's BLE path through it)
"""Fake adafruit_ble.BLERadio: always 'connected' once the simulated board has a BLE pty."""

import os


class BLERadio:
    def __init__(self) -> None:
        self.name = ""
        self.advertising = False
        self.connected = int(os.environ.get("TL_SIM_BLE_FD", "-1")) >= 0

    def start_advertising(self, advertisement) -> None:
        self.advertising = True

    def stop_advertising(self) -> None:
        self.advertising = False
