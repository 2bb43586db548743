"""Chromium's emulated Web Bluetooth answered by the simulated board's file transfer service (tests
and ``tablelight bench setup``). The emulated peripheral offers CircuitPython's service 0xFEBB (its
version and transfer characteristics); the page's writes to the transfer characteristic go to a
:class:`~tablelight.sim.file_transfer.FileTransferServer` over a folder standing in for the board's
drive, and its notifications answer the page's reads (the emulation cannot push a notification:
the page reads while it waits, ``window.tablelightReadNotifications``). In this process, not over
bumble's radio: the protocol is what is under test (Adafruit's own client agrees with the server:
tests/ble/test_file_transfer.py); pairing is not emulated by Chromium anyway.
"""

from __future__ import annotations

import base64
import struct
from pathlib import Path
from typing import Any

from tablelight.bench.bluetooth_relay import CCCD
from tablelight.sim.file_transfer import VERSION, FileTransferServer

EMULATED = "0A:0A:0A:0A:0A:0A"
SERVICE = "0000febb-0000-1000-8000-00805f9b34fb"
VERSION_UUID = "adaf0100-4669-6c65-5472-616e73666572"  # "FileTransfer" under Adafruit's base, 0x0100
TRANSFER_UUID = "adaf0200-4669-6c65-5472-616e73666572"


class FileTransferRelay:
    """CDP's emulated peripheral <-> the file transfer service over ``drive``."""

    def __init__(self, cdp: Any, drive: Path, drop_after: int | None = None) -> None:
        """``drop_after``: the link drops at that write (the board switched off or out of range)."""
        self.cdp = cdp
        self.drop_after = drop_after
        self.server = FileTransferServer(drive, notify_size=20)  # ATT MTU 23: the smallest a link has
        self.notified: list[bytes] = []
        self.failures: list[str] = []
        self.writes = 0
        cdp.send("BluetoothEmulation.enable", {"state": "powered-on", "leSupported": True})
        cdp.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
            "address": EMULATED, "name": "CIRCUITPY", "manufacturerData": [], "knownServiceUuids": [SERVICE]})
        service = cdp.send("BluetoothEmulation.addService", {"address": EMULATED, "serviceUuid": SERVICE})["serviceId"]
        self.version = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": VERSION_UUID, "properties": {"read": True}})["characteristicId"]
        self.transfer = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": TRANSFER_UUID,
            "properties": {"read": True, "writeWithoutResponse": True, "notify": True}})["characteristicId"]
        cdp.send("BluetoothEmulation.addDescriptor", {"characteristicId": self.transfer, "descriptorUuid": CCCD})
        cdp.on("BluetoothEmulation.gattOperationReceived", self.on_gatt)
        cdp.on("BluetoothEmulation.characteristicOperationReceived", self.on_characteristic)
        cdp.on("BluetoothEmulation.descriptorOperationReceived", self.on_descriptor)

    def on_gatt(self, event: dict[str, Any]) -> None:
        if event["type"] == "connection":
            self.server.disconnected()
            self.notified.clear()
        self.cdp.send("BluetoothEmulation.simulateGATTOperationResponse",
                      {"address": event["address"], "type": event["type"], "code": 0})

    def on_characteristic(self, event: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"characteristicId": event["characteristicId"], "type": event["type"], "code": 0}
        try:
            if event["type"] == "write":
                self.writes += 1
                self.notified += self.server.receive(base64.b64decode(event.get("data", "")))
                if self.writes == self.drop_after:
                    self.server.disconnected()
                    self.notified.clear()
                    self.cdp.send("BluetoothEmulation.simulateGATTDisconnection", {"address": EMULATED})
            elif event["type"] == "read" and event["characteristicId"] == self.version:
                answer["data"] = base64.b64encode(struct.pack("<I", VERSION)).decode()
            elif event["type"] == "read":
                answer["data"] = base64.b64encode(self.notified.pop(0) if self.notified else b"").decode()
        except Exception as error:  # told to the test
            self.failures.append(f"{event['type']}: {error!r}")
            answer["code"] = 0x0E
        if event["type"] == "write" and event.get("writeType") == "write-without-response":
            return
        self.cdp.send("BluetoothEmulation.simulateCharacteristicOperationResponse", answer)

    def on_descriptor(self, event: dict[str, Any]) -> None:
        answer = {"descriptorId": event["descriptorId"], "type": event["type"], "code": 0}
        if event["type"] == "read":
            answer["data"] = base64.b64encode(b"\x00\x00").decode()
        self.cdp.send("BluetoothEmulation.simulateDescriptorOperationResponse", answer)
