"""Bluetooth LE transport: the Nordic UART Service of Adafruit's adafruit_ble library.

Bytes in and out are the same COBS frames as on USB (the link is a byte stream; UARTService sends
in 20-byte notifications at the default MTU). Advertises whenever no central is connected.
One host at a time: the board answers on USB and BLE alike.
"""

from adafruit_ble import BLERadio
from adafruit_ble.advertising.standard import ProvideServicesAdvertisement
from adafruit_ble.services.nordic import UARTService


class BleTransport:
    def __init__(self, name: str) -> None:
        self.radio = BLERadio()
        self.radio.name = name
        self.uart = UARTService()
        self.advertisement = ProvideServicesAdvertisement(self.uart)

    def read(self):
        """Bytes received since the last call, or None."""
        if not self.radio.connected:
            if not self.radio.advertising:
                self.radio.start_advertising(self.advertisement)
            return None
        waiting = self.uart.in_waiting
        return self.uart.read(waiting) if waiting else None

    def write(self, data) -> None:
        if self.radio.connected:
            self.uart.write(data)
