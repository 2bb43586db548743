"""Setting a board up from the app's page over Bluetooth, in headless Chromium: the page's client of
CircuitPython's BLE file transfer service (drive_ble.js) through Chromium's emulated Web Bluetooth,
relayed over bumble's virtual radio to the simulated board, a bare CircuitPython board whose BLE
workflow serves its drive folder (sim/ble_workflow.py; Adafruit's own client agrees with that
service: tests/ble/test_file_transfer.py). The files written are byte for byte what `tablelight
flash` writes into a folder, and the user's own code.py and settings are kept; then the board
restarts into tablelight, and the page pairs with it and plays a move on it."""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.bench.bluetooth_relay import BLUETOOTH_ARGS, READ_NOTIFICATIONS, Relay, choose_first_device
from tablelight.bench.file_transfer_relay import FileTransferRelay
from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualRadio

from tests.e2e.helpers import keep_screenshot
from tests.flash.conftest import snapshot

from .conftest import Served, open_setup
from .test_setup_usb import BROWSER_ARGS, CHROMIUM, LOAD_MS, USER_CODE, USER_SETTINGS, board_with_user_files, \
    flash_into_folder, status, wait_step

sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)
FIRMWARE_LIB = str(Path(__file__).resolve().parents[2] / "firmware" / "lib")
if FIRMWARE_LIB not in sys.path:  # the wire format's pairing colours, as the host reads them
    sys.path.insert(0, FIRMWARE_LIB)

from tablelight.wire import wire  # noqa: E402
from tests.ble.ble_helpers import hold_pairing_key, port  # noqa: E402

SETUP_MS = 240_000  # every byte crosses CDP in 20-byte packets, each notification read by the page


@pytest.fixture
def drop_after() -> int | None:
    return None


class BluetoothSetup:
    """The page, the relay, the simulated bare board (BLE workflow on) and its drive folder."""

    def __init__(self, page: Any, cdp: Any, relay: FileTransferRelay, sim: SimBoard, board: Path,
                 radio: VirtualRadio) -> None:
        self.page, self.cdp, self.relay, self.sim, self.board, self.radio = page, cdp, relay, sim, board, radio


@pytest.fixture
def bluetooth_page(served_app: Served, tmp_path: Path, drop_after: int | None) -> Iterator[BluetoothSetup]:
    board = tmp_path / "board"
    board.mkdir()
    for path, data in board_with_user_files().items():
        (board / path).parent.mkdir(parents=True, exist_ok=True)
        (board / path).write_bytes(data)
    radio = VirtualRadio()
    host = radio.adapter("browser")
    try:
        with SimBoard.start(None, firmware=board, radio=radio, ble_workflow=True) as sim, \
                sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS + BLUETOOTH_ARGS)
            try:
                cdp = browser.new_browser_cdp_session()
                relay = FileTransferRelay(cdp, radio, host, sim.ble_address or "", drop_after)
                context = browser.new_context(viewport={"width": 412, "height": 915})
                context.add_init_script(READ_NOTIFICATIONS)
                page = context.new_page()
                choose_first_device(context, page)
                page.goto(served_app.url)
                page.wait_for_selector("body[data-state=ready]", timeout=LOAD_MS)
                page.click("#board-setup summary")
                yield BluetoothSetup(page, cdp, relay, sim, board, radio)
            finally:
                browser.close()
    finally:
        radio.close()


def shoot(page: Any, where: str, shot: Path) -> None:
    """The page at phone size with ``where`` in view (docs/img with TABLELIGHT_UPDATE_SCREENSHOTS=1)."""
    page.locator(where).scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 0
    keep_screenshot(shot, shot.name)


def wait_for_restart(sim: SimBoard, boots: int, timeout: float = 30.0) -> None:
    """Until the board has restarted after boot number ``boots`` (its drive changed)."""
    waited = threading.Event()
    for _ in range(int(timeout / 0.05)):
        if sim.boots > boots:
            return
        waited.wait(0.05)
    raise AssertionError(f"the board did not restart within {timeout} s of the page letting it go "
                         f"(boots {sim.boots}, reloads asked {sim.reloads})")


def test_the_page_sets_a_board_up_over_bluetooth_as_tablelight_flash_does_then_plays_on_it(
        bluetooth_page: BluetoothSetup, tmp_path: Path) -> None:
    setup = bluetooth_page
    page, relay, board, sim = setup.page, setup.relay, setup.board, setup.sim
    # a board set up over Bluetooth keeps Bluetooth on (the phone has no other way to it): flash --ble
    expected = flash_into_folder(tmp_path / "flashed", board_with_user_files(), "--ble")
    page.click("#setup-ble-board")
    assert wait_step(page, "planned", "failed") == "planned", f"{status(page)} {relay.failures}"
    assert "Adafruit Feather nRF52840 Express, CircuitPython 9.2.1" in status(page)
    page.click("#setup-install")
    page.wait_for_function("() => ['done', 'failed'].includes(document.getElementById('board-setup').dataset.step)",
                           timeout=SETUP_MS)
    assert page.get_attribute("#board-setup", "data-step") == "done", f"{status(page)} {relay.failures}"
    assert snapshot(board) == expected  # byte for byte, every file, and nothing else (no temporary file left)
    assert (board / "code-before-tablelight.py").read_bytes() == USER_CODE
    assert (board / "settings.toml").read_bytes().endswith(USER_SETTINGS)
    assert b"TL_BLE = 1" in (board / "settings.toml").read_bytes() and (board / "lib/adafruit_ble/__init__.py").exists()
    assert page.text_content("#setup-verify") == f"CIRCUITPY: all {len(expected) - 3} files match"
    assert "The board restarts into tablelight now: hold key 0 while it starts" in status(page)
    assert not relay.failures
    shoot(page, "#board-setup", tmp_path / "app-setup-board-bluetooth.png")
    assert setup.radio.call(relay.host.bonded(sim.ble_address or ""))  # the transfer wanted an encrypted link

    # the page let the board go: it restarts into tablelight (the files written), the person holds
    # key 0 as it starts, and the page pairs with it over the board's own service and plays
    wait_for_restart(sim, 1)
    hold_pairing_key(sim)
    setup.cdp.send("BluetoothEmulation.disable")  # the emulation now offers the board's own service
    play = Relay(setup.cdp, port(sim), relay.host)
    try:
        page.click("#connect-ble")
        try:
            page.wait_for_selector("body[data-board=confirm]", timeout=30_000)
        except sync_api.TimeoutError:
            raise AssertionError(f"the page did not show the pairing code: {page.inner_text('#board')} "
                                 f"{play.failures}") from None
        names = page.inner_text("#board").split("the board shows ", 1)[1].split(":", 1)[0].split()
        wanted = [tuple(c >> 2 for c in dict(wire.PAIR_COLOURS)[name]) for name in names]
        sim.wait_pixels(lambda pixels: [tuple(p) for p in pixels[:4]] == wanted, timeout=10)  # the same code
        shoot(page, "#board", tmp_path / "app-setup-board-pairing.png")
        sim.press(7)
        page.wait_for_selector("body[data-board=connected]", timeout=30_000)
        open_setup(page)
        page.select_option("#game", "farlander")
        page.fill("#seats", "human,human")
        page.fill("#seed", "1")  # a map where key 0 is a free territory
        page.fill("#delay", "0")
        page.click("#start")
        page.wait_for_selector("#choices button", timeout=20_000)
        sim.press(0)  # a territory: in Farlander's opening one press places a unit there
        page.locator("#log li", has_text=re.compile(r"(red|blue): places a unit in")).wait_for(timeout=20_000)
        assert not play.failures, play.failures
    finally:
        play.close()


@pytest.mark.parametrize("drop_after", [400])
def test_a_link_dropped_while_writing_is_said_and_the_users_code_stays(bluetooth_page: BluetoothSetup) -> None:
    page, board = bluetooth_page.page, bluetooth_page.board
    page.click("#setup-ble-board")
    assert wait_step(page, "planned", "failed") == "planned", status(page)
    page.click("#setup-install")
    page.wait_for_function("() => ['done', 'failed'].includes(document.getElementById('board-setup').dataset.step)",
                           timeout=SETUP_MS)
    said = status(page)
    assert page.get_attribute("#board-setup", "data-step") == "failed", said
    assert said.startswith("The board's Bluetooth link dropped while writing "), said
    assert "every later file are as they were" in said
    assert (board / "code.py").read_bytes() == USER_CODE  # written last: the board still runs the person's code
    assert (board / "settings.toml").read_bytes() == USER_SETTINGS
