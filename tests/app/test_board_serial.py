"""A board on USB through Web Serial, in headless Chromium: the page owns the port and the worker's
BoardProtocol speaks to the simulated board (the real firmware over a pty). Chromium's own
``navigator.serial.requestPort()`` never settles headless (no chooser, no CDP emulation), so the
test puts a stand-in ``navigator.serial`` in the page whose port reads and writes the pty through
two functions Playwright exposes. The board shakes hands, a bots-only game plays on it (a bot
moves only once the board confirmed the last scene), and a key pressed on the board
makes a person's move through the table's one door."""

from __future__ import annotations

import os
import select
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Served
from .test_browser import LOAD_MS, SETTLED, browser  # noqa: F401 (the fixture; the module skips without chromium)

sync_api = pytest.importorskip("playwright.sync_api")
SimBoard = pytest.importorskip("tablelight.sim.board").SimBoard

#: navigator.serial with one port whose bytes go through window.__pty_read / __pty_write (hex text).
STAND_IN = """
(() => {
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const bytes = (text) => new Uint8Array((text.match(/../g) || []).map((h) => parseInt(h, 16)));
  const port = {
    async open() {
      this.readable = new ReadableStream({
        async pull(controller) {
          for (;;) {
            const text = await window.__pty_read();
            if (text) { controller.enqueue(bytes(text)); return; }
          }
        },
      });
      this.writable = new WritableStream({ async write(chunk) { await window.__pty_write(hex(chunk)); } });
    },
    async close() {},
  };
  Object.defineProperty(navigator, "serial", { value: { requestPort: async () => port, getPorts: async () => [port] } });
})();
"""


@pytest.fixture
def sim() -> Iterator[Any]:
    board = SimBoard.start("farlander")
    yield board
    board.stop()


def test_the_page_drives_the_simulated_board_over_a_web_serial_stand_in(browser: Any, served_app: Served, sim: Any) -> None:
    fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    context = browser.new_context()
    try:
        def pty_read() -> str:
            ready, _, _ = select.select([fd], [], [], 0.05)
            return os.read(fd, 4096).hex() if ready else ""

        def pty_write(text: str) -> None:
            data = bytes.fromhex(text)
            while data:
                select.select([], [fd], [], 1.0)
                data = data[os.write(fd, data):]

        context.expose_function("__pty_read", pty_read)
        context.expose_function("__pty_write", pty_write)
        context.add_init_script(STAND_IN)
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert page.get_attribute("body", "data-state") == "ready", page.inner_text("#status")
        page.click("#connect-usb")
        page.wait_for_selector("body[data-board=connected]", timeout=20_000)
        assert "LEDs connected" in page.inner_text("#board")

        idle = sim.pixels()
        page.select_option("#game", "farlander")
        page.fill("#seats", "random,random")
        page.fill("#delay", "0")
        page.click("#start")  # each bot move waits until the board confirmed the last scene
        page.locator("#log li").nth(12).wait_for(timeout=30_000)  # a dozen moves: confirmations flow
        assert sim.pixels() != idle  # the board shows the game, not the look of a board waiting for a host

        page.fill("#seats", "human,human")
        page.click("#start")
        page.wait_for_selector("#choices button", timeout=20_000)
        assert "human): places" not in page.inner_text("#log")
        sim.press(0)  # a territory: in Farlander's opening one press places a unit there
        page.locator("#log li", has_text="human): places a unit in").wait_for(timeout=10_000)
    finally:
        context.close()
        os.close(fd)
