"""The built app in headless Chromium (Debian's, driven by Playwright), served by `tablelight app
serve`: the engines load in a Web Worker under the app's Content-Security-Policy with nothing
fetched off the page's origin, a bots-only Farlander game plays to its end in the page, a
person's click on a choice is applied through the table's one door, and a second visit with the
server gone still reaches `ready` (the service worker's copy)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.app.build import Built

from tests.e2e.helpers import keep_screenshot

from .conftest import Served, open_setup

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)

READY = "body[data-state=ready]"
SETTLED = "body:not([data-state=loading])"
LOAD_MS = 60_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield launched
        launched.close()


class Visit:
    """One page of the app, with what it asked for and what the console said."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context()
        self.requests: list[str] = []
        self.console: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page = self.context.new_page()
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.goto(url)
        self.page.wait_for_selector(SETTLED, timeout=LOAD_MS)

    def state(self) -> str:
        return str(self.page.get_attribute("body", "data-state"))

    def call(self, op: str, arg: Any = None) -> Any:
        """The worker's answer to ``op`` (``window.tablelight.call``), as the page's own screens ask."""
        return self.page.evaluate("([op, arg]) => window.tablelight.call(op, arg)", [op, arg])

    def start(self, game: str, seats: str, seed: int = 1, delay: float = 0) -> None:
        open_setup(self.page)
        self.page.select_option("#game", game)
        self.page.fill("#seats", seats)
        self.page.fill("#seed", str(seed))
        self.page.fill("#delay", str(delay))
        self.page.click("#start")
        self.page.wait_for_selector("#setup:not([open])")  # the new game took the screen


    def start_refused(self, game: str, seats: str) -> None:
        """Start a game the worker refuses: its reason in the status line, the form still open."""
        open_setup(self.page)
        self.page.select_option("#game", game)
        self.page.fill("#seats", seats)
        self.page.click("#start")
        self.page.wait_for_function("() => document.getElementById('status').textContent.includes('bot ')",
                                    timeout=10_000)


@pytest.fixture(scope="module")
def visit(browser: Any, served_app: Served) -> Iterator[Visit]:
    opened = Visit(browser, served_app.url)
    yield opened
    opened.context.close()


def test_the_engines_load_with_nothing_from_another_origin(visit: Visit, served_app: Served) -> None:
    assert visit.state() == "ready", visit.page.inner_text("#status")
    assert "ready" in visit.page.inner_text("#status")
    assert visit.requests and all(url.startswith(served_app.url) for url in visit.requests), visit.requests
    assert any(url.endswith("pyodide.asm.wasm") for url in visit.requests)
    assert not [line for line in visit.console if "Content Security Policy" in line], visit.console
    games = [option.get_attribute("value") for option in visit.page.query_selector_all("#game option")]
    assert games == ["farlander", "farside", "landover", "mainland"]


def test_a_bots_only_farlander_game_plays_to_the_end_in_the_page(visit: Visit) -> None:
    visit.start("farlander", "random,random", seed=4)
    visit.page.wait_for_selector("body[data-over=true]", timeout=30_000)
    assert "game over" in visit.page.inner_text("#turn")
    log = visit.page.inner_text("#log")
    assert "red: " in log and "blue: " in log and "seat 0" not in log  # seats by colour, as players name them
    # a watcher's screen: the game's drawing, its guide and who won, as the host-served pages show them
    assert visit.page.locator("#drawing svg").count() == 1
    assert visit.page.locator("#guide summary", has_text="How to play").count() == 1
    assert "wins" in visit.page.inner_text("#gameover")


def test_the_form_sets_how_long_a_search_bot_thinks_a_move(visit: Visit, tmp_path: Path) -> None:
    open_setup(visit.page)
    visit.page.fill("#think", "0")
    visit.start_refused("farlander", "mcts,random")
    assert "bot 'mcts:0ms': after ':' give" in visit.page.inner_text("#status")  # one clear error, no game
    size = visit.page.viewport_size
    visit.page.set_viewport_size({"width": 412, "height": 915})
    visit.page.screenshot(path=str(tmp_path / "think-field.png"))
    assert size is not None
    visit.page.set_viewport_size(size)  # the page is shared with the next tests (a phone's tap zooms first)
    visit.page.fill("#think", "20")
    visit.start("farlander", "mcts,random", seed=2)
    visit.page.wait_for_selector("body[data-over=true]", timeout=120_000)  # its searches in slices, in the worker
    open_setup(visit.page)
    visit.page.locator("#saved li", has_text="mcts:20ms, random").first.wait_for(timeout=10_000)
    visit.page.fill("#think", "")


def test_the_page_is_the_host_served_seat_screen_a_tap_on_the_drawing_narrows(visit: Visit) -> None:
    visit.start("farlander", "human,random", seed=1)
    visit.page.wait_for_selector("#choices button.step", timeout=20_000)  # every territory, in steps
    territory = visit.page.locator('#drawing [data-pick*="a1"]').first
    territory.click()
    # the tap narrowed the list to the moves there (through the worker's narrow, as a board key would)
    visit.page.wait_for_function("() => [...document.querySelectorAll('#choices button')].every("
                                 "b => !b.classList.contains('step') && b.textContent.includes('a1'))", timeout=10_000)
    # the narrow was taken: "place a unit in a1: choose it below to confirm"
    visit.page.locator("#feedback", has_text="a1").wait_for(timeout=10_000)
    visit.page.locator("#choices button").first.click()
    visit.page.locator("#log li", has_text="places a unit in a1").wait_for(timeout=10_000)


def test_a_persons_click_on_a_choice_is_applied(visit: Visit, tmp_path: Path) -> None:
    visit.start("farlander", "human,random", seed=1)
    visit.page.wait_for_selector("#choices button", timeout=20_000)
    shot = tmp_path / "app-page.png"
    size = visit.page.viewport_size
    visit.page.set_viewport_size({"width": 390, "height": 1100})  # a phone, the page's top
    visit.page.evaluate("window.scrollTo(0, 0)")
    visit.page.screenshot(path=str(shot))
    visit.page.set_viewport_size(size)
    keep_screenshot(shot, "app-page.png")  # docs/img only with TABLELIGHT_UPDATE_SCREENSHOTS=1
    assert "red" in visit.page.inner_text("#turn") and "seat 0" not in visit.page.inner_text("#turn")
    # the seat screen of the host-served pages: a step first (which territory), then the move
    visit.page.locator("#choices button.step", has_text="territory a1").click()
    visit.page.locator("#choices button.choice:not(.step)").first.click()
    visit.page.locator("#log li", has_text="red: places a unit in a1").wait_for(timeout=10_000)


def test_a_second_visit_without_the_server_still_gets_ready(browser: Any, built_app: Built) -> None:
    served = Served(built_app.folder)
    try:
        first = Visit(browser, served.url)
        assert first.state() == "ready"
        first.page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # every file cached
    finally:
        served.stop()
    try:
        first.page.reload()
        first.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert first.state() == "ready", first.page.inner_text("#status")
    finally:
        first.context.close()


SNAPSHOT_KEPT = """async () => {
  const name = (await caches.keys()).find((key) => key.endsWith("-pyodide"));
  return Boolean(name && await (await caches.open(name)).match("python-after-start"));
}"""


def wait_for_snapshot(page: Any) -> None:
    """Until the worker has kept Pyodide's snapshot (written after the visit got ready)."""
    for _ in range(100):
        if page.evaluate(SNAPSHOT_KEPT):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the first visit kept no snapshot of Pyodide's start")


def test_a_later_visit_starts_python_from_the_snapshot_the_first_one_kept(browser: Any, served_app: Served) -> None:
    opened = Visit(browser, served_app.url)
    try:
        assert opened.state() == "ready"
        assert "pyodide" in opened.page.evaluate("window.tablelight.timings")  # the first visit starts Pyodide afresh
        opened.page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # the service worker keeps it
        wait_for_snapshot(opened.page)
        opened.page.reload()
        opened.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert opened.state() == "ready", opened.page.inner_text("#status")
        timings = opened.page.evaluate("window.tablelight.timings")
        assert "pyodide_from_snapshot" in timings and "pyodide" not in timings
        opened.start("farlander", "random,random", seed=4)  # the engines play as after a fresh start
        opened.page.wait_for_selector("body[data-over=true]", timeout=30_000)
    finally:
        opened.context.close()


def test_a_snapshot_that_does_not_load_is_replaced_and_the_visit_gets_ready(browser: Any, served_app: Served) -> None:
    opened = Visit(browser, served_app.url)
    try:
        wait_for_snapshot(opened.page)
        opened.page.evaluate("""async () => {
          const name = (await caches.keys()).find((key) => key.endsWith("-pyodide"));
          await (await caches.open(name)).put("python-after-start", new Response(new Uint8Array(4096).fill(7)));
        }""")
        opened.page.reload()
        opened.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert opened.state() == "ready", opened.page.inner_text("#status")
        assert "pyodide" in opened.page.evaluate("window.tablelight.timings")  # started afresh
        wait_for_snapshot(opened.page)  # and kept a good one again
        opened.page.reload()
        opened.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert "pyodide_from_snapshot" in opened.page.evaluate("window.tablelight.timings")
    finally:
        opened.context.close()


def test_a_broken_build_says_so_in_the_page(browser: Any, built_app: Built, tmp_path: Path) -> None:
    broken = tmp_path / "site"
    shutil.copytree(built_app.folder, broken)
    next(broken.glob("tablelight-*.whl")).unlink()
    served = Served(broken)
    try:
        visit = Visit(browser, served.url)
        assert visit.state() == "error"
        assert "could not start" in visit.page.inner_text("#status") and "wheel" in visit.page.inner_text("#status")
        visit.context.close()
    finally:
        served.stop()


def test_a_browser_that_cannot_reconnect_a_bluetooth_board_says_so_once(browser: Any, served_app: Served) -> None:
    # a Web Bluetooth without getDevices() (Chrome without the experimental flag), and a key kept
    # from an earlier visit: the page cannot reconnect by itself and says what to do
    context = browser.new_context()
    context.add_init_script("""Object.defineProperty(navigator, "bluetooth", { value: { requestDevice: async () => {
        throw new DOMException("no chooser here", "NotFoundError"); } } });""")
    try:
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert "cannot reconnect" not in page.inner_text("#board")  # no key kept: nothing to say
        page.evaluate("""() => new Promise((resolve) => {
            const open = indexedDB.open("tablelight", 1);
            open.onsuccess = () => {
              const store = open.result.transaction("board-keys", "readwrite").objectStore("board-keys");
              store.put("00".repeat(16), "a-board").onsuccess = () => resolve();
            };
        })""")
        page.reload()
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        page.locator("#board", has_text="cannot reconnect a Bluetooth board by itself").wait_for(timeout=10_000)
        assert "its key is kept, no pairing" in page.inner_text("#board")
    finally:
        context.close()
