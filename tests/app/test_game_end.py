"""The end of a pass-and-play game with hidden cards in the browser table (headless Chromium).

Two people share the screen of a Mainland (then a Landover) game that is one move from its end: a
record of it, built by playing random moves in CPython, is opened as a player would (every seat of
an opened record is a person's). The screen is covered between turns; the player to act reveals,
looks down at the log, and makes the last move. Then the cover goes: who won, the scores and the
final board show, and still no one's hand; the result is scrolled into view on a phone; the
phones panel no longer offers join codes for the finished game. Pictures at phone and desktop size
are taken in the test's folder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.registry import game_entry

from .conftest import Served
from .test_browser import Visit, browser  # noqa: F401 (the browser fixture)

PHONE_SIZE = {"width": 412, "height": 915}
DESKTOP_SIZE = {"width": 1280, "height": 800}
HEADLINE_IN_VIEW = ("() => { const h = document.querySelector('#gameover .headline');"
                    " if (!h || !h.offsetParent) return false; const r = h.getBoundingClientRect();"
                    " return r.top >= 0 && r.bottom <= innerHeight; }")


def one_move_from_the_end(name: str, seed: int) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """A two-seat game of ``name`` one move from its end: (its record, the seat to act, the move that ends it)."""
    game = game_entry(name).engine_class()(2, seed=seed)
    pick = random.Random(seed)
    while not game.is_over():
        game.apply(pick.choice(game.legal_actions()))
    last = game.undo()
    return game.to_record(), int(last["seat"]), dict(last["action"])


@pytest.fixture(scope="module")
def table(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    visit.context.close()


@pytest.mark.parametrize("name", ["mainland", "landover"])
def test_at_the_end_the_cover_goes_and_everyone_sees_the_result(table: Visit, name: str, tmp_path: Path) -> None:
    page = table.page
    record, seat, last_move = one_move_from_the_end(name, seed=1)
    page.set_viewport_size(PHONE_SIZE)
    page.set_input_files("#import", files=[{"name": f"{name}.json", "mimeType": "application/json",
                                            "buffer": json.dumps(record).encode()}])
    page.wait_for_function("n => window.tablelight.snapshot() && window.tablelight.snapshot().public"
                           " && window.tablelight.snapshot().public.game === n", arg=name, timeout=60_000)
    page.wait_for_selector("#cover:not([hidden])", timeout=20_000)
    page.wait_for_function("() => document.querySelectorAll('#phone-list img.qr').length === 2", timeout=20_000)
    page.click("#reveal")  # "I am ...": the player to act looks at their hand and choices
    page.wait_for_selector("#choices button", timeout=10_000)
    before = table.call("snapshot")
    hands = [str(item) for view in before["seats"].values() for part in view["secrets"]
             for item in part.get("items", [part.get("text")])]
    assert hands, "the seats hold hidden cards"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the log
    assert page.evaluate("scrollY") > 200

    answer = table.call("act", {"seat": seat, "action": last_move, "at": before["seats"][str(seat)]["at"]})
    assert answer["done"], answer
    page.wait_for_selector("body[data-over=true]", timeout=20_000)

    # the cover goes; the result, the scores and the final board show
    page.wait_for_selector("#cover", state="hidden", timeout=10_000)
    assert page.get_attribute("body", "data-covered") == "false"
    assert page.is_visible("#seat-screen")
    final = table.call("snapshot")["public"]
    panel = page.inner_text("#gameover")
    assert final["result"]["headline"] in panel and final["turn_line"] == page.inner_text("#turn")
    for row in final["result"]["seats"]:
        assert f"{row['name']}: {row['score']} point" in panel
    assert page.locator("#scores li").count() == 2
    assert page.locator("#drawing svg").count() == 1 and page.is_visible("#drawing")
    # a hand stays hidden: the screen is everyone's, not a seat's
    assert page.locator("#secrets > *").count() == 0 and page.inner_text("#label") == "the table"
    shown, public = page.inner_text("body"), json.dumps(final)
    assert not [card for card in hands if card in shown and card not in public]
    # on a phone, scrolled down at the log, the result comes into view
    page.wait_for_function(HEADLINE_IN_VIEW, timeout=10_000)
    page.screenshot(path=str(tmp_path / f"app-{name}-over-phone.png"))
    # the phones panel offers no join code for the finished game
    assert page.locator("#phone-list img.qr").count() == 0
    assert page.is_hidden("#phones") or "game is over" in page.inner_text("#phones")
    page.set_viewport_size(DESKTOP_SIZE)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / f"app-{name}-over-desktop.png"), full_page=True)
    assert page.is_visible("#gameover") and page.is_hidden("#cover")
