"""Play again keeps the phones in the browser table (headless Chromium: the built app's page and a
phone's seat.html, joined over WebRTC with no server), as the host keeps them across its play again.

A Mainland game for two people one move from its end is opened as a player would (a kept record);
a phone joins the seat to act and makes the last move. At game over the table's panel offers "Play
again"; after a tap the phone, never scanning again, is still joined to its seat, is sent the new
game's view of that seat (its new hand), and plays the new game's moves. Its join code is not
re-issued and the phones panel shows it joined. Pictures of both pages at phone size (412x915) are
taken in the test's folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Served, choose_first
from .test_browser import Visit, browser  # noqa: F401 (the browser fixture)
from .test_game_end import one_move_from_the_end
from .test_phones import Phone, close_phones, hand_in

PHONE_SIZE = {"width": 412, "height": 915}


@pytest.fixture(scope="module")
def table(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    close_phones()
    visit.context.close()


def phone_view(phone: Phone) -> dict[str, Any]:
    """The last state the phone was sent (seat_phone.js keeps it)."""
    return dict(phone.page.evaluate("window.tablelightSeat.view"))


def test_a_joined_phone_keeps_its_seat_when_the_table_plays_again(browser: Any, table: Visit,  # noqa: F811
                                                                   tmp_path: Path) -> None:
    page = table.page
    page.set_viewport_size(PHONE_SIZE)
    record, seat, last_move = one_move_from_the_end("mainland", seed=1)
    page.set_input_files("#import", files=[{"name": "mainland.json", "mimeType": "application/json",
                                            "buffer": json.dumps(record).encode()}])
    code_of = f"#phone-list li[data-seat='{seat}'] code.join-url"
    page.wait_for_selector(code_of, state="attached", timeout=60_000)
    join_url = str(page.locator(code_of).text_content())
    phone = Phone(browser, join_url)
    page.fill("#answer-code", phone.answer)
    page.click("#take-answer")
    phone.joined()
    page.wait_for_selector(f"#phone-list li[data-seat='{seat}'][data-state=connected]", timeout=20_000)
    code = page.evaluate("seat => window.tablelight.phones.seats.get(seat).code", seat)

    # the phone's player makes the last move: the game is over on both screens
    phone.page.wait_for_selector("#turn-badge:not([hidden])", timeout=10_000)
    before = table.call("snapshot")
    answer = table.call("act", {"seat": seat, "action": last_move, "at": before["seats"][str(seat)]["at"]})
    assert answer["done"], answer
    page.wait_for_selector("body[data-over=true]", timeout=20_000)
    phone.page.wait_for_selector("body[data-over=true]", timeout=20_000)
    first = table.call("snapshot")

    page.locator("#gameover #again").click()
    try:
        page.wait_for_function("id => { const s = window.tablelight.snapshot(); return s && s.id && s.id !== id; }",
                               arg=first["id"], timeout=30_000)
        phone.page.wait_for_selector("body[data-over=false]", timeout=20_000)
    except Exception as error:
        where = phone.page.get_attribute("body", "data-state")
        raise AssertionError(f"the phone did not get the next game: it is {where}: "
                             f"{phone.page.inner_text('body')[:300]}") from error
    fresh = table.call("snapshot")
    assert fresh["again_of"] == first["id"] and not fresh["public"]["over"]

    # still joined to its seat, never told to scan again, shown the new game's hand for its seat
    assert phone.page.get_attribute("body", "data-state") == "joined"
    assert "ended" not in phone.heard()
    view = phone_view(phone)
    assert view["seat"] == seat and view["at"] == fresh["seats"][str(seat)]["at"]
    assert sorted(phone.hand()) == sorted(hand_in(fresh, seat)) and phone.hand()
    # the table keeps the seat's code and shows the phone joined; the other seat has a code to scan
    assert page.evaluate("seat => window.tablelight.phones.seats.get(seat).code", seat) == code
    assert page.get_attribute(f"#phone-list li[data-seat='{seat}']", "data-state") == "connected"
    assert page.locator(f"#phone-list li[data-seat='{seat}'] img.qr").count() == 0
    assert page.get_attribute("body", "data-phones") == str(seat)
    other = 1 - seat
    assert page.locator(f"#phone-list li[data-seat='{other}'] img.qr").count() == 1
    assert page.is_visible("#phone-answer")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / "app-table-after-again.png"), full_page=True)
    phone.page.set_viewport_size(PHONE_SIZE)
    phone.page.screenshot(path=str(tmp_path / "app-phone-after-again.png"))

    # the phone plays the new game: the table's own screen plays the other seat until it is the phone's turn
    for _ in range(20):
        now = table.call("snapshot")
        if now["public"]["turn"] == seat:
            break
        version = page.get_attribute("body", "data-version")
        choose_first(page)
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=10_000)
    else:
        raise AssertionError("the phone's seat never came to act in the new game")
    phone.page.wait_for_selector("#turn-badge:not([hidden])", timeout=10_000)
    actions = table.call("snapshot")["actions"]
    choose_first(phone.page)
    try:  # a step of the choice (narrow) changes the phone's screen first: the move is counted at the table
        page.wait_for_function("n => window.tablelight.snapshot().actions > n", arg=actions, timeout=10_000)
    except Exception as error:
        raise AssertionError("the phone's move in the new game did not reach the table") from error
