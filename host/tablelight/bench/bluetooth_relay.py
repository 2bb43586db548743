"""Chromium's emulated Web Bluetooth relayed to the simulated board over bumble (tests and ``tablelight
bench app``). Chromium's BluetoothEmulation (CDP, on the browser's target) stands in for the radio
on the page's side; :class:`Relay` answers its GATT operations with a :class:`BleLink` to the board
over bumble's virtual radio (which does the link's encryption): the page's writes to the UART's RX
characteristic become the link's writes, and the board's notifications answer the page's reads of
TX (the emulation cannot push a notification, so the page reads: ``window.tablelightReadNotifications``).
"""

from __future__ import annotations

import base64
from typing import Any

from tablelight.links.base import LinkClosed
from tablelight.links.ble import NUS_RX, NUS_SERVICE, NUS_TX, BleLink

EMULATED = "09:09:09:09:09:09"  # the board as the page's emulated central sees it
CCCD = "00002902-0000-1000-8000-00805f9b34fb"
#: Chromium's flags for Web Bluetooth on Linux (navigator.bluetooth, getDevices()).
BLUETOOTH_ARGS = ["--enable-experimental-web-platform-features"]
#: A page script that makes the page read the board's characteristic (see the module's docstring).
READ_NOTIFICATIONS = "window.tablelightReadNotifications = true;"


class Relay:
    """CDP's emulated peripheral <-> a BleLink to the simulated board over bumble."""

    def __init__(self, cdp: Any, board_port: str, host: Any) -> None:
        self.cdp, self.board_port, self.host = cdp, board_port, host
        self.link: BleLink | None = None
        self.failures: list[str] = []
        #: Answers the emulation could no longer take (see on_characteristic).
        self.lost = 0
        self.emulate()
        cdp.on("BluetoothEmulation.gattOperationReceived", self.on_gatt)
        cdp.on("BluetoothEmulation.characteristicOperationReceived", self.on_characteristic)
        cdp.on("BluetoothEmulation.descriptorOperationReceived", self.on_descriptor)

    def emulate(self) -> None:
        """The board as an emulated peripheral (again after a page reload: the emulation must be
        disabled and enabled, and the peripheral added again, or the next connection never answers)."""
        cdp = self.cdp
        cdp.send("BluetoothEmulation.enable", {"state": "powered-on", "leSupported": True})
        cdp.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
            "address": EMULATED, "name": "tablelight-test", "manufacturerData": [], "knownServiceUuids": [NUS_SERVICE]})
        self.add_services()

    def drop(self) -> None:
        """The link drops, as when the board is switched off and on (the emulation forgets the
        peripheral's services with the connection: they are added again, as the board would offer them)."""
        self.cdp.send("BluetoothEmulation.simulateGATTDisconnection", {"address": EMULATED})
        self.add_services()

    def add_services(self) -> None:
        cdp = self.cdp
        service = cdp.send("BluetoothEmulation.addService", {"address": EMULATED, "serviceUuid": NUS_SERVICE})["serviceId"]
        self.rx = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": NUS_RX,
            "properties": {"write": True, "writeWithoutResponse": True}})["characteristicId"]
        self.tx = cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": NUS_TX, "properties": {"notify": True, "read": True}})["characteristicId"]
        cdp.send("BluetoothEmulation.addDescriptor", {"characteristicId": self.tx, "descriptorUuid": CCCD})

    def reset(self) -> None:
        self.cdp.send("BluetoothEmulation.disable")
        self.emulate()

    def on_gatt(self, event: dict[str, Any]) -> None:
        code = 0
        if event["type"] == "connection" and self.link is not None and not self.alive(self.link):
            self.link = None  # the board dropped the last connection (no session within its 4 s): a new one
        if event["type"] == "connection" and self.link is None:
            try:
                self.link = BleLink(self.board_port, backend=self.host.client_backend, authenticate=False, timeout=15)
            except Exception as error:  # told to the test, and to the page as a failed connection
                self.failures.append(f"the relay's link: {error}")
                code = 0x3E  # connection failed to be established
        self.cdp.send("BluetoothEmulation.simulateGATTOperationResponse",
                      {"address": event["address"], "type": event["type"], "code": code})

    @staticmethod
    def alive(link: BleLink) -> bool:
        """False once the board closed the link (what the last connection left unread is dropped)."""
        try:
            link.read(0.0)
        except LinkClosed:
            return False
        return True

    def on_characteristic(self, event: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"characteristicId": event["characteristicId"], "type": event["type"], "code": 0}
        try:
            if event["type"] == "write" and self.link is not None:
                self.link.write(base64.b64decode(event.get("data", "")))
            elif event["type"] == "read":
                data = self.link.read(0.005) if self.link is not None else b""
                answer["data"] = base64.b64encode(data).decode()
        except Exception as error:
            self.failures.append(f"{event['type']}: {error}")
            answer["code"] = 0x0E  # unlikely error
        if event["type"] == "write" and event.get("writeType") == "write-without-response":
            return
        try:
            self.cdp.send("BluetoothEmulation.simulateCharacteristicOperationResponse", answer)
        except Exception:
            # an operation asked just before a drop, a reset or the page's reload is answered when
            # the emulation has forgotten its characteristic (or is off): the answer is lost, as a
            # real radio loses it; the page's next operation goes to the new link
            self.lost += 1

    def on_descriptor(self, event: dict[str, Any]) -> None:
        answer = {"descriptorId": event["descriptorId"], "type": event["type"], "code": 0}
        if event["type"] == "read":
            answer["data"] = base64.b64encode(b"\x00\x00").decode()
        self.cdp.send("BluetoothEmulation.simulateDescriptorOperationResponse", answer)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()


def choose_first_device(context: Any, page: Any) -> set[str]:
    """Answer the page's Bluetooth chooser with the first device, each prompt once (it fires twice
    per request; answering twice crashed the browser). Returns the prompts answered, as it grows."""
    access = context.new_cdp_session(page)
    answered: set[str] = set()

    def choose(event: dict[str, Any]) -> None:
        if event["id"] not in answered and event.get("devices"):
            answered.add(event["id"])
            access.send("DeviceAccess.selectPrompt", {"id": event["id"], "deviceId": event["devices"][0]["id"]})

    access.on("DeviceAccess.deviceRequestPrompted", choose)
    access.send("DeviceAccess.enable")
    return answered
