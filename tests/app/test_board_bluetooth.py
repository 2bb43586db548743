"""A board over Web Bluetooth, in headless Chromium: the page pairs with the simulated board (the
real firmware with Adafruit's adafruit_ble, on bumble's virtual radio) and plays on it. Chromium's
BluetoothEmulation (CDP, on the browser's target) stands in for the radio on the page's side; this
test relays its GATT operations to a BleLink over bumble (which does the link's encryption): the
page's writes to the UART's RX characteristic become the link's writes, and the board's
notifications answer the page's reads of TX (the emulation cannot push a notification, so the page
reads in tests: ``window.tablelightReadNotifications``). The worker pairs (a press on the board
while it shows the colour code), the page keeps the key in IndexedDB, the board shakes hands, and a
key press on the board makes a person's move through the table's one door. After a reload the
page proves the kept key by challenge-response (no pairing), and a browser holding a key the
board never paired is refused with the board's reason."""

from __future__ import annotations

import base64
import importlib.util
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Served, open_setup
from .test_browser import BROWSER_ARGS, CHROMIUM, LOAD_MS, SETTLED

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("bumble")
pytest.importorskip("bleak")
if importlib.util.find_spec("adafruit_ble") is None:
    pytest.skip("Adafruit's BLE library is missing (scripts/test.sh installs it)", allow_module_level=True)
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed", allow_module_level=True)
FIRMWARE_LIB = str(Path(__file__).resolve().parents[2] / "firmware" / "lib")
if FIRMWARE_LIB not in sys.path:
    sys.path.insert(0, FIRMWARE_LIB)

from tablelight.links.ble import NUS_RX, NUS_SERVICE, NUS_TX, BleLink  # noqa: E402
from tablelight.sim.radio import VirtualRadio  # noqa: E402
from tablelight.wire import wire  # noqa: E402
from tests.ble.ble_helpers import port, start_board  # noqa: E402

READY_STATE = "body[data-state=ready]"
EMULATED = "09:09:09:09:09:09"  # the board as the page's emulated central sees it
CCCD = "00002902-0000-1000-8000-00805f9b34fb"


class Relay:
    """CDP's emulated peripheral <-> a BleLink to the simulated board over bumble."""

    def __init__(self, cdp: Any, board_port: str, host: Any) -> None:
        self.cdp, self.board_port, self.host = cdp, board_port, host
        self.link: BleLink | None = None
        self.failures: list[str] = []
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
        if event["type"] == "connection" and self.link is None:
            try:
                self.link = BleLink(self.board_port, backend=self.host.client_backend, authenticate=False, timeout=15)
            except Exception as error:  # told to the test, and to the page as a failed connection
                self.failures.append(f"the relay's link: {error}")
                code = 0x3E  # connection failed to be established
        self.cdp.send("BluetoothEmulation.simulateGATTOperationResponse",
                      {"address": event["address"], "type": event["type"], "code": code})

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
        self.cdp.send("BluetoothEmulation.simulateCharacteristicOperationResponse", answer)

    def on_descriptor(self, event: dict[str, Any]) -> None:
        answer = {"descriptorId": event["descriptorId"], "type": event["type"], "code": 0}
        if event["type"] == "read":
            answer["data"] = base64.b64encode(b"\x00\x00").decode()
        self.cdp.send("BluetoothEmulation.simulateDescriptorOperationResponse", answer)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()


@pytest.fixture
def radio() -> Iterator[VirtualRadio]:
    air = VirtualRadio()
    yield air
    air.close()


def test_the_page_pairs_with_the_board_over_emulated_web_bluetooth_and_plays(served_app: Served, radio: VirtualRadio) -> None:
    host = radio.adapter("browser")
    with start_board(radio, window=True) as sim, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=BROWSER_ARGS + ["--enable-experimental-web-platform-features"])
        relay = None
        try:
            relay = Relay(browser.new_browser_cdp_session(), port(sim), host)
            context = browser.new_context()
            context.add_init_script("window.tablelightReadNotifications = true;")
            page = context.new_page()
            access = context.new_cdp_session(page)
            answered: set[str] = set()

            def choose(event: dict[str, Any]) -> None:
                if event["id"] not in answered and event.get("devices"):  # each prompt once: twice crashes
                    answered.add(event["id"])
                    access.send("DeviceAccess.selectPrompt", {"id": event["id"], "deviceId": event["devices"][0]["id"]})

            access.on("DeviceAccess.deviceRequestPrompted", choose)
            access.send("DeviceAccess.enable")
            page.goto(served_app.url)
            page.wait_for_selector(SETTLED, timeout=LOAD_MS)
            assert page.get_attribute("body", "data-state") == "ready", page.inner_text("#status")

            page.click("#connect-ble")
            page.wait_for_selector("body[data-board=confirm]", timeout=30_000)
            shown = page.inner_text("#board")
            names = shown.split("the board shows ", 1)[1].split(":", 1)[0].split()
            wanted = [tuple(c >> 2 for c in dict(wire.PAIR_COLOURS)[name]) for name in names]
            sim.wait_pixels(lambda pixels: [tuple(p) for p in pixels[:4]] == wanted, timeout=10)  # the same code
            sim.press(7)
            page.wait_for_selector("body[data-board=connected]", timeout=30_000)
            kept = page.evaluate("""() => new Promise((resolve) => {
                const open = indexedDB.open("tablelight", 1);
                open.onsuccess = () => {
                  const all = open.result.transaction("board-keys").objectStore("board-keys").getAll();
                  all.onsuccess = () => resolve(all.result);
                };
            })""")
            assert len(kept) == 1 and len(kept[0]) == 2 * wire.HOST_KEY_SIZE
            assert kept[0] not in page.inner_text("body")  # the key is never shown

            open_setup(page)
            page.select_option("#game", "farlander")
            page.fill("#seats", "human,human")
            page.fill("#delay", "0")
            page.click("#start")
            page.wait_for_selector("#choices button", timeout=20_000)
            sim.press(0)  # a territory: in Farlander's opening one press places a unit there
            page.locator("#log li", has_text=re.compile(r"(red|blue): places a unit in")).wait_for(timeout=20_000)

            # a reload: the page connects again and proves the kept key (no pairing this time)
            page.reload()
            page.wait_for_selector(READY_STATE, timeout=LOAD_MS)
            relay.reset()
            page.click("#connect-ble")
            page.wait_for_selector("body[data-board=authenticating]", timeout=30_000)
            page.wait_for_selector("body[data-board=connected]", timeout=30_000)

            assert not relay.failures, relay.failures

            # a browser holding a key the board never paired is refused, and told why (the board
            # then drops the link: the relay's reads find it gone)
            page.evaluate("""(hex) => new Promise((resolve) => {
                const open = indexedDB.open("tablelight", 1);
                open.onsuccess = () => {
                  const store = open.result.transaction("board-keys", "readwrite").objectStore("board-keys");
                  store.getAllKeys().onsuccess = (e) => { store.put(hex, e.target.result[0]).onsuccess = () => resolve(); };
                };
            })""", "5a" * wire.HOST_KEY_SIZE)
            page.reload()
            page.wait_for_selector(READY_STATE, timeout=LOAD_MS)
            relay.reset()
            page.click("#connect-ble")
            page.wait_for_selector("body[data-board=refused]", timeout=30_000)
            assert "not paired" in page.inner_text("#board")
            assert all(failure.endswith("disconnected") for failure in relay.failures), relay.failures
            context.close()
        finally:
            if relay is not None:
                relay.close()
            browser.close()
