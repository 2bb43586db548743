"""A board on USB through Web Serial, in headless Chromium: the page owns the port and the worker's
BoardProtocol speaks to the simulated board (the real firmware over a pty). Chromium's own
``navigator.serial.requestPort()`` never settles headless (no chooser, no CDP emulation), so the
test puts a stand-in ``navigator.serial`` in the page (``tablelight.bench.app.SERIAL_STAND_IN``,
which ``tablelight bench app`` uses too) whose port reads and writes the pty through two
functions Playwright exposes. The board shakes hands, a bots-only game plays on it (a bot
moves only once the board confirmed the last scene), and a key pressed on the board
makes a person's move through the table's one door."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tablelight.bench.app import expose_pty

from .conftest import Served, open_setup
from .test_browser import LOAD_MS, SETTLED, browser  # noqa: F401 (the fixture; the module skips without chromium)

sync_api = pytest.importorskip("playwright.sync_api")
SimBoard = pytest.importorskip("tablelight.sim.board").SimBoard


@pytest.fixture
def sim() -> Iterator[Any]:
    board = SimBoard.start("farlander")
    yield board
    board.stop()


def test_the_page_drives_the_simulated_board_over_a_web_serial_stand_in(browser: Any, served_app: Served, sim: Any) -> None:
    fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    context = browser.new_context()
    try:
        expose_pty(context, fd)  # the stand-in navigator.serial, wired to the board's pty
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert page.get_attribute("body", "data-state") == "ready", page.inner_text("#status")
        page.click("#connect-usb")
        page.wait_for_selector("body[data-board=connected]", timeout=20_000)
        assert "LEDs connected" in page.inner_text("#board")

        idle = sim.pixels()
        open_setup(page)
        page.select_option("#game", "farlander")
        page.fill("#seats", "random,random")
        page.fill("#delay", "0")
        page.click("#start")  # each bot move waits until the board confirmed the last scene
        page.locator("#log li").nth(12).wait_for(timeout=30_000)  # a dozen moves: confirmations flow
        assert sim.pixels() != idle  # the board shows the game, not the look of a board waiting for a host

        open_setup(page)
        page.fill("#seats", "human,human")
        page.fill("#seed", "1")  # a map where key 0 is a free territory (an empty seed deals a secret one)
        page.click("#start")
        page.wait_for_selector("#choices button", timeout=20_000)
        assert "places" not in page.inner_text("#log")  # the new game's log starts empty
        sim.press(0)  # a territory: in Farlander's opening one press places a unit there
        page.locator("#log li", has_text=re.compile(r"(red|blue): places a unit in")).wait_for(timeout=10_000)
    finally:
        context.close()
        os.close(fd)


def _press_first_choice(page: Any, sim: Any, machine: Any) -> int:
    """Press the board's key for the acting seat's first choice (a territory); returns the actions before."""
    snapshot = page.evaluate("window.tablelight.snapshot()")
    seat = next(s for s in snapshot["seats"].values() if s and s["your_turn"])
    sim.press(machine.keys_for(machine.game.index[seat["choices"][0]["action"]["territory"]])[0])
    return int(snapshot["actions"])


def test_the_usb_board_pulled_out_comes_back_a_reload_reconnects_and_forget_forgets(
        browser: Any, served_app: Served, sim: Any) -> None:
    from tablelight.games.farlander.engine import Farlander
    from tablelight.games.farlander.face import InputMachine, load_layout

    machine = InputMachine(Farlander(2, None, 1), load_layout())
    fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    context = browser.new_context()
    try:
        expose_pty(context, fd)
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        page.click("#connect-usb")
        page.wait_for_selector("body[data-board=connected]", timeout=20_000)
        page.select_option("#game", "farlander")
        page.fill("#seats", "human,human")
        page.fill("#seed", "1")  # the map of `machine` (an empty seed deals a secret one)
        page.fill("#delay", "0")
        page.click("#start")
        page.wait_for_selector("#choices button", timeout=20_000)
        before = _press_first_choice(page, sim, machine)
        page.wait_for_function(f"() => window.tablelight.snapshot().actions > {before}", timeout=10_000)

        # the cable pulled out: the page says what to do and the game waits; plugged back in, the
        # page opens the port again by itself and the board plays on
        page.evaluate("window.__unplug_port()")
        page.wait_for_selector("body[data-board=away]", timeout=10_000)
        assert "plug it back in" in page.inner_text("#board")
        page.evaluate("window.__plug_port()")
        page.wait_for_selector("body[data-board=connected]", timeout=20_000)
        before = _press_first_choice(page, sim, machine)
        page.wait_for_function(f"() => window.tablelight.snapshot().actions > {before}", timeout=10_000)
        page.wait_for_function(f"() => Number(document.body.dataset.saved) === {before + 1}", timeout=10_000)

        # a reload: the port granted before is opened again without asking, the game is kept
        page.reload()
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        page.wait_for_selector("body[data-board=connected]", timeout=20_000)
        page.click("#saved li button")
        page.wait_for_function("() => window.tablelight.snapshot() && window.tablelight.snapshot().actions === 2",
                               timeout=10_000)

        # forget: the port's grant is gone, so the next reload does not open it
        page.click("#forget-board")
        page.wait_for_selector("body[data-board=none]", timeout=10_000)
        assert "forgotten in this browser" in page.inner_text("#board")
        page.reload()
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        page.wait_for_timeout(1500)
        assert page.get_attribute("body", "data-board") != "connected"
    finally:
        context.close()
        os.close(fd)
