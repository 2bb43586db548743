"""Chromium's emulated Web Bluetooth relayed to the simulated board's BLE file transfer service over
bumble (tests and ``tablelight bench setup``). The emulated peripheral offers CircuitPython's service
0xFEBB (its version and transfer characteristics); :class:`FileTransferRelay` answers the page's GATT
operations with a link of the host's virtual adapter to the board on the radio, where the board's
workflow (sim/ble_workflow.py) serves its drive folder:

- the page's connection opens the link (an ATT MTU of 517, as Chrome asks), subscribes to the
  transfer characteristic and pairs "just works" when the board wants an encrypted link (Chromium's
  emulation has no pairing; the host's stack does it, as Chrome's does on a phone);
- the page's reads of the version characteristic are the board's; its writes to the transfer
  characteristic go to the board; the board's notifications answer the page's reads of it (the
  emulation cannot push a notification: the page reads while it waits,
  ``window.tablelightReadNotifications``);
- the page unsubscribing lets the board go (drive_ble.js ``close``): the board, its drive changed,
  restarts into the new firmware.
"""

from __future__ import annotations

import base64
import threading
from collections import deque
from typing import TYPE_CHECKING, Any

from tablelight.bench.bluetooth_relay import CCCD

if TYPE_CHECKING:
    from tablelight.sim.radio import VirtualAdapter, VirtualRadio

EMULATED = "0A:0A:0A:0A:0A:0A"
SERVICE = "0000febb-0000-1000-8000-00805f9b34fb"
VERSION_UUID = "adaf0100-4669-6c65-5472-616e73666572"  # "FileTransfer" under Adafruit's base, 0x0100
TRANSFER_UUID = "adaf0200-4669-6c65-5472-616e73666572"
CHROME_MTU = 517
ATT_INSUFFICIENT = (0x05, 0x0F)  # authentication, encryption: the host pairs and asks again
CONNECTION_FAILED = 0x3E


class BoardLink:
    """The host's link to the board's file transfer service (on the radio's loop)."""

    def __init__(self, radio: VirtualRadio, host: VirtualAdapter, address: str) -> None:
        self.radio = radio
        self.notified: deque[bytes] = deque()
        self.gone = threading.Event()
        self.connection, self.peer, self.version, self.transfer = radio.call(self._open(host, address), 30.0)

    async def _open(self, host: VirtualAdapter, address: str) -> tuple[Any, Any, Any, Any]:
        from bumble.att import ATT_Error
        from bumble.core import UUID
        from bumble.device import Peer
        from bumble.hci import Address

        connection = await host.device.connect(Address(address), timeout=15)
        connection.on("disconnection", lambda reason: self.gone.set())
        peer = Peer(connection)
        await peer.request_mtu(CHROME_MTU)
        await peer.discover_services()
        for service in peer.services:
            await peer.discover_characteristics(service=service)
        version = peer.get_characteristics_by_uuid(UUID(VERSION_UUID))[0]
        transfer = peer.get_characteristics_by_uuid(UUID(TRANSFER_UUID))[0]
        try:
            await peer.subscribe(transfer, self.notified.append)
        except ATT_Error as error:
            if error.error_code not in ATT_INSUFFICIENT:
                raise
            await connection.pair()
            await peer.subscribe(transfer, self.notified.append)
        return connection, peer, version, transfer

    def read_version(self) -> bytes:
        return bytes(self.radio.call(self.peer.read_value(self.version)))

    def write(self, data: bytes) -> None:
        self.radio.call(self.peer.write_value(self.transfer, data, with_response=False))

    def close(self) -> None:
        if not self.gone.is_set():
            self.radio.call(self.connection.disconnect())


class FileTransferRelay:
    """CDP's emulated peripheral <-> the simulated board's file transfer service over bumble."""

    def __init__(self, cdp: Any, radio: VirtualRadio, host: VirtualAdapter, board_address: str,
                 drop_after: int | None = None) -> None:
        """``drop_after``: the link drops at that write (the board switched off or out of range)."""
        self.cdp, self.radio, self.host, self.board_address = cdp, radio, host, board_address
        self.drop_after = drop_after
        self.link: BoardLink | None = None
        self.failures: list[str] = []
        self.writes = 0
        self.written = 0  # bytes the page wrote
        cdp.send("BluetoothEmulation.enable", {"state": "powered-on", "leSupported": True})
        cdp.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
            "address": EMULATED, "name": "CIRCUITPY", "manufacturerData": [], "knownServiceUuids": [SERVICE]})
        service = cdp.send("BluetoothEmulation.addService", {"address": EMULATED, "serviceUuid": SERVICE})["serviceId"]
        self.version = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": VERSION_UUID, "properties": {"read": True}})["characteristicId"]
        self.transfer = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": TRANSFER_UUID,
            "properties": {"read": True, "writeWithoutResponse": True, "notify": True}})["characteristicId"]
        self.cccd = cdp.send("BluetoothEmulation.addDescriptor", {
            "characteristicId": self.transfer, "descriptorUuid": CCCD})["descriptorId"]
        cdp.on("BluetoothEmulation.gattOperationReceived", self.on_gatt)
        cdp.on("BluetoothEmulation.characteristicOperationReceived", self.on_characteristic)
        cdp.on("BluetoothEmulation.descriptorOperationReceived", self.on_descriptor)

    def on_gatt(self, event: dict[str, Any]) -> None:
        if event["address"] != EMULATED:
            return  # another emulated peripheral's (the board's own service, once it runs tablelight)
        code = 0
        if event["type"] == "connection":
            self.close()
            try:
                self.link = BoardLink(self.radio, self.host, self.board_address)
            except Exception as error:  # told to the test, and to the page as a failed connection
                self.failures.append(f"the relay's link: {error!r}")
                code = CONNECTION_FAILED
        self.cdp.send("BluetoothEmulation.simulateGATTOperationResponse",
                      {"address": event["address"], "type": event["type"], "code": code})

    def on_characteristic(self, event: dict[str, Any]) -> None:
        if event["characteristicId"] not in (self.version, self.transfer):
            return
        kind = event["type"]
        answer: dict[str, Any] = {"characteristicId": event["characteristicId"], "type": kind, "code": 0}
        link = self.link
        try:
            if link is None or link.gone.is_set():
                raise ConnectionError("no link to the board")
            if kind == "write":
                self.writes += 1
                data = base64.b64decode(event.get("data", ""))
                self.written += len(data)
                link.write(data)
                if self.writes == self.drop_after:
                    self.radio.drop_links(self.board_address)
                    self.cdp.send("BluetoothEmulation.simulateGATTDisconnection", {"address": EMULATED})
            elif kind == "read" and event["characteristicId"] == self.version:
                answer["data"] = base64.b64encode(link.read_version()).decode()
            elif kind == "read":
                answer["data"] = base64.b64encode(link.notified.popleft() if link.notified else b"").decode()
            elif kind == "unsubscribe-from-notifications":
                self.close()  # the page let the board go
        except Exception as error:  # told to the test
            self.failures.append(f"{kind}: {error!r}")
            answer["code"] = 0x0E  # unlikely error
        if kind == "write" and event.get("writeType") == "write-without-response":
            return
        try:
            self.cdp.send("BluetoothEmulation.simulateCharacteristicOperationResponse", answer)
        except Exception as error:  # an answer after a drop: the emulation forgot the characteristic
            if self.writes != self.drop_after:
                self.failures.append(f"answering {kind}: {error!r}")

    def on_descriptor(self, event: dict[str, Any]) -> None:
        if event["descriptorId"] != self.cccd:
            return
        answer = {"descriptorId": event["descriptorId"], "type": event["type"], "code": 0}
        if event["type"] == "read":
            answer["data"] = base64.b64encode(b"\x00\x00").decode()
        self.cdp.send("BluetoothEmulation.simulateDescriptorOperationResponse", answer)

    def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            link.close()
