"""Bluetooth LE transport: the Nordic UART Service of Adafruit's adafruit_ble library.

Bytes in and out are the same COBS frames as on USB (the link is a byte stream; UARTService sends
in 20-byte notifications at the default MTU). Advertises whenever no central is connected.
One host at a time: the board answers on USB and BLE alike.
"""

from adafruit_ble import BLERadio
from adafruit_ble.advertising.standard import ProvideServicesAdvertisement
from adafruit_ble.services.nordic import UARTService

import tablelight_wire as wire

# adafruit_ble's UARTService buffers 64 received bytes; a write without response that does not
# fit is dropped. A full scene of a big board is up to 1031 bytes on the wire, and the board may
# be busy rendering while it arrives, so the RX characteristic here holds one whole frame and
# more (the same class attribute as the library's, with a bigger buffer_size).
RX_BUFFER = wire.MAX_PAYLOAD + 128


def make_uart():
    try:
        from adafruit_ble.characteristics.stream import StreamIn
        from adafruit_ble.uuid import VendorUUID
    except ImportError:  # the simulated board's stand-in has no characteristics module
        return UARTService()

    class BigUART(UARTService):
        _server_rx = StreamIn(uuid=VendorUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"), timeout=1.0,
                              buffer_size=RX_BUFFER)

    return BigUART()


class BleTransport:
    def __init__(self, name: str) -> None:
        self.radio = BLERadio()
        self.radio.name = name
        self.uart = make_uart()
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
