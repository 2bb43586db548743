"""Bluetooth LE transport: the Nordic UART Service of Adafruit's adafruit_ble library, encrypted.

Bytes in and out are the same COBS frames as on USB (the link is a byte stream; UARTService sends
in 20-byte notifications). Advertises whenever no central is connected.

Security (docs/protocol.md, "Bluetooth LE"): both UART characteristics need an encrypted link
(Attribute.ENCRYPT_NO_MITM; on CircuitPython the CCCD's write permission is the characteristic's
read permission, so an unencrypted central can neither write frames nor subscribe). CircuitPython
pairs "just works" with anyone and does not say whether a link was encrypted with a stored bond,
so which hosts may drive the board is decided one layer up, by tl_pairing (host keys in NVM).
"""

from adafruit_ble import BLERadio
from adafruit_ble.advertising.standard import ProvideServicesAdvertisement
from adafruit_ble.attributes import Attribute
from adafruit_ble.characteristics.stream import StreamIn, StreamOut
from adafruit_ble.services.nordic import UARTService
from adafruit_ble.uuid import VendorUUID

# A characteristic holds at most 512 bytes on CircuitPython's nordic port (ValueError above), and
# StreamIn's buffer_size is both the characteristic's max_length and the CharacteristicBuffer's
# size. A full scene (up to 1031 bytes on the wire) therefore arrives in more than one buffer's
# worth: the main loop drains the buffer every pass, and the host paces its writes.
RX_BUFFER = 512


class SecureUART(UARTService):
    """Adafruit's UARTService with both characteristics closed to unencrypted links."""

    _server_tx = StreamOut(uuid=VendorUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E"), timeout=1.0,
                           buffer_size=512, read_perm=Attribute.ENCRYPT_NO_MITM,
                           write_perm=Attribute.ENCRYPT_NO_MITM)
    _server_rx = StreamIn(uuid=VendorUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"), timeout=1.0,
                          buffer_size=RX_BUFFER, write_perm=Attribute.ENCRYPT_NO_MITM)


class BleTransport:
    def __init__(self, name: str) -> None:
        self.radio = BLERadio()
        self.radio.name = name
        self.uart = SecureUART()
        self.advertisement = ProvideServicesAdvertisement(self.uart)
        self.central = None  # the connected central (a BLEConnection), or None
        self.central_changed = False

    def read(self):
        """Bytes received since the last call, or None. Advertises again once the central left.
        Sets ``central_changed`` when the central left or another one came: a session (and its
        pairing) belongs to one connection, never to whoever connects next."""
        connections = self.radio.connections
        central = connections[0] if connections else None
        if central is not self.central:
            self.central = central
            self.central_changed = True  # (bytes the last central left are answered as the new one's: refusals)
        if central is None:
            if not self.radio.advertising:
                self.radio.start_advertising(self.advertisement)
            return None
        waiting = self.uart.in_waiting
        return self.uart.read(waiting) if waiting else None

    def connected(self) -> bool:
        """Whether a central is connected now (read from the radio, not from the last :meth:`read`)."""
        return self.radio.connected

    def write(self, data) -> None:
        if self.radio.connected:
            self.uart.write(data)

    def drop(self) -> None:
        """Disconnect the current central (it did not authenticate in time: tl_pairing.overdue)."""
        central = self.central
        if central is not None and central.connected:
            central.disconnect()
