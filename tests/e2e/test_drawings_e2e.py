"""The games' drawings on a phone, in a real browser (Debian chromium, 390x844 like test_phones.py).

A Farlander and a Mainland table are served by the real web server on the table's event loop; a
seat joins with its code on a phone-sized page. The seat page shows the game's drawing as its main
picture with no text under 12 CSS px (font size times the SVG's scale), and the LED view folded
under "what the board shows"; a tap on a territory (Farlander) or a card and a spot (Mainland)
narrows the choices listed. The screenshots of the user guide are taken here
(docs/img/farlander-seat.png, farlander-shared.png, mainland-seat.png, mainland-shared.png, and the same
for landover and farside; only with TABLELIGHT_UPDATE_SCREENSHOTS=1, see DEVELOPERS.md). Landover's and
Farside's pages are checked for readable text and a full-width drawing, and photographed.
"""

from __future__ import annotations

import asyncio
import io
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.game import Game
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland
from tablelight.games.mainland.data import turn_name
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.table.session import TableSession
from tablelight.web.table_web import TableWeb

from .helpers import keep_screenshot, wait_for

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)

#: The smallest text inside the drawing, in CSS px as the phone shows it.
SMALLEST_TEXT = """() => {
  const svg = document.querySelector('#drawing svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
}"""


#: The smallest tap target among the drawing's things matching a selector, in CSS px (width, height).
SMALLEST_TARGET = """selector => {
  const boxes = [...document.querySelectorAll(selector)].map(node => node.getBoundingClientRect());
  return [Math.min(...boxes.map(b => b.width)), Math.min(...boxes.map(b => b.height))];
}"""


def played(game: Game, actions: int, only: str | None = None) -> Game:
    rng = Rng(3)
    for _ in range(actions):
        legal = game.legal_actions()
        wanted = [a for a in legal if a["type"] == only] if only else legal
        game.apply((wanted or legal)[rng.below(len(wanted or legal))])
    return game


@contextmanager
def serving(game: Game) -> Iterator[tuple[TableWeb, Table]]:
    """``game`` at a table of human seats, served on its own event loop (as ``tablelight play`` does)."""
    session = TableSession(game, ["human"] * game.players)
    table = session.table
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> TableWeb:
        web = TableWeb(session, load_layout_data(type(table.face).default_layout), lambda: [p[:3] for p in table.pixels()], lambda key: table.press(key),
                       out=io.StringIO())
        return await web.start()

    web = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=15)
    try:
        yield web, table
    finally:
        asyncio.run_coroutine_threadsafe(web.stop(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def seat_page(browser: Any, web: TableWeb, seat: int) -> Any:
    """A phone that joined ``seat`` with its code, its drawing shown."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(web.view.join_url)
    page.fill("#code", web.access.pass_of(seat).code)
    page.click("#join")
    page.locator("#drawing svg").wait_for()
    page.locator("#choices .choice").first.wait_for()
    return page


def check_phone_page(page: Any) -> None:
    assert page.evaluate(SMALLEST_TEXT) >= 12
    check_phone_layout(page)


def check_phone_layout(page: Any) -> None:
    """The drawing is the page's main picture and the LEDs are folded under it."""
    assert page.locator("#leds summary").inner_text() == "what the board shows"
    assert page.evaluate("document.getElementById('leds').open") is False  # folded on a phone
    assert page.evaluate("document.querySelector('#drawing svg').getBoundingClientRect().width") >= 340


def tap(page: Any, thing: Any, **click: Any) -> None:
    """A tap on a thing of the drawing: where the drawing's things are too small for a finger, the
    first tap zooms in around it (drawing.js) and the second, in the zoomed view, chooses it."""
    zoomed = page.evaluate("TLDrawing.zoom") > 1
    thing.click(**click)
    if not zoomed and page.evaluate("TLDrawing.zoom") > 1:
        thing.click(**click)


def whole_drawing(page: Any) -> None:
    """Back to the whole drawing (the button above a zoomed drawing), for the pictures of the guide."""
    if page.evaluate("TLDrawing.zoom") > 1:
        page.locator(".drawing-whole").click()


def listed(page: Any) -> list[str]:
    return page.locator("#choices .choice").all_inner_texts()


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes().startswith(b"\x89PNG")
    keep_screenshot(shot, name)


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def test_farlander_seat_page_draws_the_map_and_a_tap_picks_a_target(browser: Any, tmp_path: Path) -> None:
    game = played(Farlander(3, seed=7), 80)
    assert game.phase == "action"
    seat = game.current_seat()
    with serving(game) as (web, table):
        page = seat_page(browser, web, seat)
        check_phone_page(page)
        assert page.locator("#drawing [data-name]").count() >= len(game.ids)
        assert min(page.evaluate(SMALLEST_TARGET, "#drawing [data-pick]")) >= 40  # a finger's tap
        before = listed(page)
        tapped = None
        for t in game.targets(seat):  # a target whose middle is its own (a band's middle is its tile's)
            tid = game.ids[t]
            try:
                tap(page, page.locator(f'#drawing [data-name^="{tid} ("]'), timeout=2000)
            except sync_api.TimeoutError:
                continue
            tapped = tid
            break
        assert tapped is not None
        wait_for(lambda: listed(page) != before and all(f"conquers {tapped} " in c for c in listed(page)))
        assert page.locator(f'#drawing .picked[data-name^="{tapped} ("]').count() == 1
        whole_drawing(page)
        assert page.evaluate(SMALLEST_TEXT) >= 12
        ways = [a for a in game.legal_actions() if a["target"] == tapped]
        assert len(listed(page)) == len(ways) or page.locator("#choices .step").count() > 0
        shoot(page, tmp_path, "farlander-seat.png")
        # the territories are buttons for a keyboard too: Enter on another target narrows to it
        other = next(game.ids[t] for t in game.targets(seat) if game.ids[t] != tapped)
        page.locator(f'#drawing [data-name^="{other} ("]').focus()
        page.keyboard.press("Enter")
        wait_for(lambda: listed(page) and all(f"conquers {other} " in c for c in listed(page)))
        shared = browser.new_context(**PHONE).new_page()
        shared.goto(web.view.public_url)
        shared.locator("#drawing svg").wait_for()
        assert shared.locator("#drawing [data-pick]").count() == 0  # the shared page is looked at, not tapped
        assert shared.locator("#drawing [data-name]").count() >= len(game.ids)
        assert shared.evaluate(SMALLEST_TEXT) >= 12
        shoot(shared, tmp_path, "farlander-shared.png")


def test_mainland_seat_page_draws_the_hand_and_taps_choose_card_and_spot(browser: Any, tmp_path: Path) -> None:
    game = played(Mainland(2, seed=5), 6, only="place")
    seat = game.current_seat()
    card = next(a["card"] for a in game.legal_actions() if a["type"] == "place")
    with serving(game) as (web, table):
        page = seat_page(browser, web, seat)
        check_phone_page(page)
        assert sorted(n.removeprefix("hand ") for n in page.locator("#drawing [data-name^='hand ']").evaluate_all(
            "nodes => nodes.map(n => n.dataset.name)")) == sorted(game.hands[seat])
        assert min(page.evaluate(SMALLEST_TARGET, "#drawing .hand[data-pick]")) >= 40
        page.locator(f'#drawing [data-name="hand {card}"]').click()
        page.locator("#drawing .spot").first.wait_for()  # the card's spots, on this seat's page only
        wait_for(lambda: page.locator("#crumbs").inner_text().find(card) >= 0)
        spot = page.locator("#drawing .spot").first
        name = spot.get_attribute("data-name")
        tap(page, spot)
        x, y = (int(v) for v in name.removeprefix("spot (").rstrip(")").split(", "))
        wanted = [a for a in game.legal_actions() if a["type"] == "place" and a["card"] == card and (a["x"], a["y"]) == (x, y)]
        wait_for(lambda: len(listed(page)) == len(wanted) and all(f"at x{x} y{y}" in c for c in listed(page)))
        page.locator("#drawing .spot.picked").wait_for()
        # then one of the turns that fit there: one choice is left, the move to make
        turn = wanted[-1]["rotation"]
        tap(page, page.locator(f'#drawing [data-name="{card} turned {90 * turn} degrees"]'))
        wait_for(lambda: listed(page) and len(listed(page)) == 1 and turn_name(turn) in listed(page)[0])
        whole_drawing(page)
        assert page.evaluate(SMALLEST_TEXT) >= 12  # the drawing grew (the card's turns): still readable
        shoot(page, tmp_path, "mainland-seat.png")
        shared = browser.new_context(**PHONE).new_page()
        shared.goto(web.view.public_url)
        shared.locator("#drawing svg").wait_for()
        assert shared.locator("#drawing .spot, #drawing [data-name^='hand ']").count() == 0
        assert shared.evaluate(SMALLEST_TEXT) >= 12
        shoot(shared, tmp_path, "mainland-shared.png")


def shared_page(browser: Any, web: TableWeb) -> Any:
    """The shared board page on a phone, its drawing shown."""
    shared = browser.new_context(**PHONE).new_page()
    shared.goto(web.view.public_url)
    shared.locator("#drawing svg").wait_for()
    assert shared.locator("#drawing [data-pick]").count() == 0  # looked at, not tapped
    return shared


def landover_game() -> Landover:
    """Past the setup, a turn with roads to build: roads, villages and cities on the map, and sides
    and hexes to choose on it (builds preferred in the seeded play)."""
    game = Landover(2, seed=1)
    rng = Rng(1)
    for _ in range(23):
        legal = game.legal_actions()
        builds = [a for a in legal if a["type"] == "build"]
        game.apply((builds or legal)[rng.below(len(builds or legal))])
    assert game.current_seat() is not None and not game.is_over()
    return game


def farside_game() -> FarsideEncounter:
    game = FarsideEncounter(2, seed=3)
    rng = Rng(2)
    while game.phase != "action" or game.pending is not None or game.failed is not None:  # the armies on the field
        game.apply(game.random_action(rng))
    return game


@pytest.mark.parametrize("name, make", [("landover", landover_game), ("farside", farside_game)])
def test_seat_and_shared_pages_on_a_phone(browser: Any, tmp_path: Path, name: str, make: Any) -> None:
    game = make()
    with serving(game) as (web, table):
        page = seat_page(browser, web, game.current_seat())
        check_phone_layout(page)
        shoot(page, tmp_path, f"{name}-seat.png")
        shared = shared_page(browser, web)
        shoot(shared, tmp_path, f"{name}-shared.png")
        # the drawing alone as blue sees it (docs/rules/<game>.md): its own cards or mission
        blue = browser.new_context(**PHONE).new_page()
        blue.goto(web.view.join_url)
        blue.fill("#code", web.access.pass_of(1).code)
        blue.click("#join")
        blue.locator("#drawing svg").wait_for()
        wait_for(lambda: "(blue" in blue.locator("#drawing svg").inner_html() or "blue (yours)" in blue.locator("#drawing svg").inner_html())
        drawn = tmp_path / f"{name}-drawing.png"
        blue.locator("#drawing svg").screenshot(path=str(drawn))
        keep_screenshot(drawn, f"{name}-drawing.png")


@pytest.mark.parametrize("make", [landover_game, farside_game])
def test_drawing_text_is_12_px_or_more_on_a_phone(browser: Any, make: Any) -> None:
    game = make()
    with serving(game) as (web, table):
        assert seat_page(browser, web, game.current_seat()).evaluate(SMALLEST_TEXT) >= 12
