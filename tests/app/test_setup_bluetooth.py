"""Setting a board up from the app's page over Bluetooth, in headless Chromium: the page's client of
CircuitPython's BLE file transfer service (drive_ble.js) through Chromium's emulated Web Bluetooth,
answered by the simulated board's service over a folder standing in for its drive
(tablelight.bench.file_transfer_relay; Adafruit's own client agrees with that service:
tests/ble/test_file_transfer.py). The files written are byte for byte what `tablelight flash`
writes into a folder, and the user's own code.py and settings are kept."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.bench.bluetooth_relay import BLUETOOTH_ARGS, READ_NOTIFICATIONS, choose_first_device
from tablelight.bench.file_transfer_relay import FileTransferRelay

from tests.flash.conftest import snapshot

from .conftest import Served
from .test_setup_usb import BROWSER_ARGS, CHROMIUM, LOAD_MS, USER_CODE, USER_SETTINGS, board_with_user_files, \
    flash_into_folder, status, wait_step

sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)

SETUP_MS = 240_000  # every byte crosses CDP in 20-byte packets, each notification read by the page


@pytest.fixture
def drop_after() -> int | None:
    return None


@pytest.fixture
def bluetooth_page(served_app: Served, tmp_path: Path, drop_after: int | None) -> Iterator[tuple[Any, FileTransferRelay, Path]]:
    board = tmp_path / "board"
    board.mkdir()
    for path, data in board_with_user_files().items():
        (board / path).parent.mkdir(parents=True, exist_ok=True)
        (board / path).write_bytes(data)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS + BLUETOOTH_ARGS)
        try:
            relay = FileTransferRelay(browser.new_browser_cdp_session(), board, drop_after)
            context = browser.new_context(viewport={"width": 412, "height": 915})
            context.add_init_script(READ_NOTIFICATIONS)
            page = context.new_page()
            choose_first_device(context, page)
            page.goto(served_app.url)
            page.wait_for_selector("body[data-state=ready]", timeout=LOAD_MS)
            page.click("#board-setup summary")
            yield page, relay, board
        finally:
            browser.close()


def test_the_page_sets_a_board_up_over_bluetooth_as_tablelight_flash_does(
        bluetooth_page: tuple[Any, FileTransferRelay, Path], tmp_path: Path) -> None:
    page, relay, board = bluetooth_page
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
    assert not relay.failures


@pytest.mark.parametrize("drop_after", [400])
def test_a_link_dropped_while_writing_is_said_and_the_users_code_stays(
        bluetooth_page: tuple[Any, FileTransferRelay, Path]) -> None:
    page, relay, board = bluetooth_page
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
