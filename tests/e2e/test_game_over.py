"""The end of a game on phones, in a real browser (Debian chromium, phone viewport 390x844).

A Farlander game one conquest from its end is stored (built by playing it: random choices, seed 0)
with two human seats and resumed with ``tablelight resume ID --board none --view web``, as a user
would. Seat 1 makes the last conquest from its phone: both seat pages and the shared page show the
game-over panel (winner by colour, scores), the terminal prints the result, the host keeps serving;
when the host stops, the pages keep the final state and say the game is over instead of
"reconnecting". The screenshot of a game-over seat page in the user guide is taken here
(``docs/img/game-over.png`` only with TABLELIGHT_UPDATE_SCREENSHOTS=1).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore

from .helpers import CHROMIUM, PHONE, Hosted, keep_screenshot, wait_for

sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)


def one_move_from_the_end(db: Path) -> tuple[int, Farlander]:
    """Store a Farlander game whose next action (seat 1's only choice) ends it; return (id, the finished game)."""
    game, pick, actions = Farlander(2, seed=0), random.Random(0), []
    while not game.is_over():
        actions.append(pick.choice(game.legal_actions()))
        game.apply(actions[-1])
    almost = Farlander(2, seed=0)
    for action in actions[:-1]:
        almost.apply(action)
    assert almost.current_seat() == 1 and len(almost.legal_actions()) == 1
    with GameStore(db) as store:
        return store.create(almost, ["human", "human"]), game


class LastMove(NamedTuple):
    host: Hosted
    finished: Farlander  # the game as it ends
    winner: str  # its winner's colour
    phones: list[Any]  # the two seats' pages, joined
    shared: Any  # the shared board page


@contextmanager
def last_move_on_phones(tmp_path: Path, browser: Any, phone: dict[str, Any]) -> Iterator[LastMove]:
    """``tablelight resume ID --board none --view web`` of a game one move from its end, as a user
    would, with both seats' pages and the shared page open (phone-sized) and their log drawn."""
    db = tmp_path / "games.sqlite"
    game_id, finished = one_move_from_the_end(db)
    host = Hosted("resume", str(game_id), "--board", "none", "--view", "web", "--web-port", "0", "--db", str(db))
    contexts = []
    try:
        links = host.links(2)
        pages = []
        for url in (*links, host.shared_page()):
            contexts.append(browser.new_context(**phone))
            pages.append(contexts[-1].new_page())
            pages[-1].goto(url)
        for page in pages:
            page.locator("#log li").first.wait_for()
        yield LastMove(host, finished, ("red", "blue")[finished.winners()[0]], pages[:2], pages[2])
    finally:
        for context in contexts:
            context.close()
        host.stop()


def test_the_end_reaches_every_page_and_stays_after_the_host_stops(tmp_path, browser):
    with last_move_on_phones(tmp_path, browser, PHONE) as game:
        phones, shared, winner, finished = game.phones, game.shared, game.winner, game.finished
        for page in phones:
            page.locator("#prompt", has_text=re.compile(r"choose|tap|turn")).first.wait_for()  # a page names no key
        # every page has the rules guide, folded
        for page in (*phones, shared):
            page.locator("#guide summary", has_text="How to play").wait_for()
        shared.locator("#guide summary").click()
        assert "Conquer" in shared.locator("#guide").inner_text()
        # seat 1 makes the last conquest from its phone
        phones[1].locator("#choices .choice").first.click()
        for page in (*phones, shared):
            panel = page.locator("#gameover")
            panel.wait_for(timeout=10000)
            shown = panel.inner_text()
            assert "game over" in shown.lower() and f"{winner} wins" in shown
            for seat, colour in enumerate(("red", "blue")):
                assert f"{colour}: {finished.scores()[seat]} points" in shown
        assert phones[1].locator("#choices .choice").count() == 0 and phones[1].locator("#now").is_hidden()
        wait_for(lambda: f"game over: {winner} wins" in game.host.text() and "keeps serving them" in game.host.text(),
                 timeout=10)
        assert game.host.process.poll() is None  # the host still serves the pages after the end
        shot = tmp_path / "game-over.png"
        phones[0].screenshot(path=str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
        keep_screenshot(shot, "game-over.png")
        # the host stops: the pages keep the end and say so
        game.host.stop()
        for page in (*phones, shared):
            page.locator("#away", has_text="The game is over; the host has stopped").wait_for(timeout=15000)
            assert "reconnecting" not in page.locator("#away").inner_text()
            assert f"{winner} wins" in page.locator("#gameover").inner_text()


#: The size the issue was seen at (a common Android phone).
TALL_PHONE = {**PHONE, "viewport": {"width": 412, "height": 915}}
#: True once the game-over panel's headline is wholly inside the viewport.
HEADLINE_IN_VIEW = ("() => { const h = document.querySelector('#gameover .headline');"
                    " if (!h) return false; const r = h.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")


def headline_comes_into_view(page, name: str) -> None:
    try:
        page.wait_for_function(HEADLINE_IN_VIEW, timeout=10000)
    except sync_api.TimeoutError:
        where = page.evaluate("() => { const h = document.querySelector('#gameover .headline');"
                              " return h ? [scrollY, innerHeight, h.getBoundingClientRect().top] : 'no panel'; }")
        raise AssertionError(f"{name}: the result is not in view (scrollY, viewport height, headline top): {where}") from None


def test_a_phone_scrolled_down_is_brought_to_the_result(tmp_path, browser):
    """Phones scrolled down to the log (a seat that watches, the shared page) or to the choices (the
    seat that makes the last move) show who won once the game ends, without a scroll of their own."""
    with last_move_on_phones(tmp_path, browser, TALL_PHONE) as game:
        for page in (*game.phones, game.shared):
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            assert page.evaluate("scrollY") > 200  # the page is longer than the phone's screen
            assert not page.evaluate(HEADLINE_IN_VIEW)
        game.phones[1].locator("#choices .choice").first.click()  # the last move, tapped where it is
        for name, page in (("seat 0's phone", game.phones[0]), ("seat 1's phone", game.phones[1]),
                           ("the shared page", game.shared)):
            headline_comes_into_view(page, name)
            assert f"{game.winner} wins" in page.locator("#gameover .headline").inner_text()
        game.phones[0].screenshot(path=str(tmp_path / "game-over-scrolled.png"))
