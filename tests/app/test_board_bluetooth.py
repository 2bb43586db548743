"""A board over Web Bluetooth, in headless Chromium: the page pairs with the simulated board (the
real firmware with Adafruit's adafruit_ble, on bumble's virtual radio) and plays on it. Chromium's
BluetoothEmulation (CDP, on the browser's target) stands in for the radio on the page's side;
``tablelight.bench.bluetooth_relay.Relay`` relays its GATT operations to a BleLink over bumble (which
does the link's encryption; ``tablelight bench app`` uses it too). The worker pairs (a press on the board
while it shows the colour code), the page keeps the key in IndexedDB, the board shakes hands, and a
key press on the board makes a person's move through the table's one door. After a reload the
page connects again by itself (the device it was granted) and proves the kept key by
challenge-response (no pairing, no chooser), and calls the board back when the link drops; "forget this board" has the board forget the key
(FORGET) and the browser its copy, and that key, put back, is refused with the board's reason."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

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

from tablelight.bench.bluetooth_relay import (  # noqa: E402
    BLUETOOTH_ARGS, READ_NOTIFICATIONS, Relay, choose_first_device)
from tablelight.links.ble import NUS_SERVICE  # noqa: E402
from tablelight.sim.radio import VirtualRadio  # noqa: E402
from tablelight.wire import wire  # noqa: E402
from tests.ble.ble_helpers import port, start_board  # noqa: E402

READY_STATE = "body[data-state=ready]"
#: The host keys the page keeps (IndexedDB), as a promise of a list.
KEPT_KEYS = """new Promise((resolve) => {
    const open = indexedDB.open("tablelight", 1);
    open.onsuccess = () => {
      const all = open.result.transaction("board-keys").objectStore("board-keys").getAll();
      all.onsuccess = () => resolve(all.result);
    };
})"""


@pytest.fixture
def radio() -> Iterator[VirtualRadio]:
    air = VirtualRadio()
    yield air
    air.close()


def test_the_page_pairs_with_the_board_over_emulated_web_bluetooth_and_plays(served_app: Served, radio: VirtualRadio) -> None:
    host = radio.adapter("browser")
    with start_board(radio, window=True) as sim, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=BROWSER_ARGS + BLUETOOTH_ARGS)
        relay = None
        try:
            relay = Relay(browser.new_browser_cdp_session(), port(sim), host)
            context = browser.new_context()
            context.add_init_script(READ_NOTIFICATIONS)
            page = context.new_page()
            answered = choose_first_device(context, page)
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
            kept = page.evaluate(KEPT_KEYS)
            assert len(kept) == 1 and len(kept[0]) == 2 * wire.HOST_KEY_SIZE
            assert kept[0] not in page.inner_text("body")  # the key is never shown

            open_setup(page)
            page.select_option("#game", "farlander")
            page.fill("#seats", "human,human")
            page.fill("#seed", "1")  # a map where key 0 is a free territory (an empty seed deals a secret one)
            page.fill("#delay", "0")
            page.click("#start")
            page.wait_for_selector("#choices button", timeout=20_000)
            sim.press(0)  # a territory: in Farlander's opening one press places a unit there
            page.locator("#log li", has_text=re.compile(r"(red|blue): places a unit in")).wait_for(timeout=20_000)

            # a reload: the page connects again by itself (the device it was granted:
            # navigator.bluetooth.getDevices()) and proves the kept key (no pairing, no chooser)
            prompts = len(answered)
            page.reload()
            relay.reset()
            page.wait_for_selector(READY_STATE, timeout=LOAD_MS)
            page.wait_for_selector("body[data-board=connected]", timeout=30_000)
            assert len(answered) == prompts  # nobody was asked to choose the board
            assert not relay.failures, relay.failures

            # the link drops (the board switched off, out of range): the page says so and calls
            # the board back by itself, the kept key proved again
            relay.drop()
            page.wait_for_selector("body[data-board=away]", timeout=10_000)
            page.wait_for_selector("body[data-board=connected]", timeout=30_000)
            assert len(answered) == prompts

            # forget: the board removes the key this browser proved (FORGET), the browser its copy
            page.click("#forget-board")
            page.wait_for_selector("body[data-board=forgotten]", timeout=30_000)
            page.wait_for_function("() => " + KEPT_KEYS + ".then((keys) => keys.length === 0)", timeout=10_000)

            # the forgotten key, put back in the browser, is refused by the board, and told why (the
            # board then drops the link: the relay's reads find it gone). The browser forgot the
            # device too: a button (a click is the gesture the chooser needs) grants it again and
            # keeps the old key under its id.
            page.reload()
            relay.reset()
            page.wait_for_selector(READY_STATE, timeout=LOAD_MS)
            assert page.get_attribute("body", "data-board") != "connected"
            page.evaluate("""(hex) => {
                const button = document.createElement("button");
                button.id = "test-grant";
                button.onclick = async () => {
                  const device = await navigator.bluetooth.requestDevice({ filters: [{ services: [button.dataset.nus] }] });
                  const open = indexedDB.open("tablelight", 1);
                  open.onsuccess = () => {
                    const store = open.result.transaction("board-keys", "readwrite").objectStore("board-keys");
                    store.put(hex, device.id).onsuccess = () => { button.dataset.done = "yes"; };
                  };
                };
                document.body.append(button);
            }""", kept[0])
            page.eval_on_selector("#test-grant", "(button, nus) => { button.dataset.nus = nus; }", NUS_SERVICE)
            page.click("#test-grant")
            page.wait_for_selector("#test-grant[data-done=yes]", timeout=10_000)
            page.click("#connect-ble")
            page.wait_for_selector("body[data-board=refused]", timeout=30_000)
            assert "not paired" in page.inner_text("#board")
            # the board dropped the link after the forget and after the refusal (the relay's reads find it gone)
            assert all(failure.endswith("disconnected") for failure in relay.failures), relay.failures
            context.close()
        finally:
            if relay is not None:
                relay.close()
            browser.close()
