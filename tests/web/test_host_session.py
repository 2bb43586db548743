"""The host's pages serve a :class:`TableSession` itself, with no object of the command line's: a
seat's request goes to the session's one entry, and play again is the session's (the host page's
button appears while the session offers it, and its tap starts the session's next game)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Served, serving


def until(check: Any, what: str, timeout: float = 30) -> Any:
    """``check()`` once it is true; a deadline that names ``what`` did not come."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"{what} did not come in {timeout} s")


def seat_state(served: Served, seat: int, device: str) -> dict[str, Any]:
    answer = httpx.get(f"{served.base}/api/seat/{seat}", headers={"X-Seat-Token": device}, timeout=15)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def play_to_the_end(served: Served, devices: dict[int, str]) -> None:
    """Both seats' pages choose at random, through ``POST /api/seat/N/act``, until the game is over."""
    pick = random.Random(3)
    for _ in range(500):
        public = served.call(served.web.desk.public)
        if public["over"]:
            return
        seat = public["turn"]
        state = seat_state(served, seat, devices[seat])
        choice = pick.choice(state["choices"])
        took = httpx.post(f"{served.base}/api/seat/{seat}/act", json={"action": choice["action"], "at": state["at"]},
                          headers={"X-Seat-Token": devices[seat], "Origin": served.base}, timeout=15)
        assert took.status_code == 200 and took.json()["applied"], took.text
    raise AssertionError("the game did not end in 500 moves")


def host_again(served: Served) -> httpx.Response:
    return httpx.post(f"{served.base}/api/host/again", json={}, timeout=15,
                      headers={"X-Host-Token": served.web.access.host_token, "Origin": served.base})


def test_the_host_pages_serve_the_session_and_play_again_through_it() -> None:
    with serving() as served:
        session = served.session
        devices = {seat: served.join(seat) for seat in (0, 1)}
        # the session plays its games through, offering play again at each end (as tablelight play runs it)
        playing = served.call(lambda: asyncio.ensure_future(session.play_through(offer_again_s=600)))
        try:
            assert host_again(served).status_code == 409  # not while the game runs
            first_seed = served.game.seed
            play_to_the_end(served, devices)
            # the host page's button comes with the session's offer, told to the pages
            until(lambda: served.call(served.web.desk.public)["again"], "the public snapshot offering play again")
            answer = host_again(served)
            assert answer.status_code == 200, answer.text
            assert session.number == 2 and session.table is served.web.table and not session.game.is_over()
            assert session.game.seed != first_seed
            fresh = until(lambda: (state := seat_state(served, 0, devices[0])) and not state["over"] and state,
                          "seat 0's page on the new game")
            assert "result" not in fresh and fresh["at"] < 5
            assert not served.call(served.web.desk.public)["again"]
            assert host_again(served).status_code == 409  # one new game per game over
            # the new game takes the seats' requests through the session's entry, with the same devices
            play_to_the_end(served, devices)
            until(lambda: served.call(served.web.desk.public)["again"], "the second game's offer")
        finally:
            served.call(playing.cancel)


JOIN_WORDS = "Join on a phone"
CHROMIUM = "/usr/bin/chromium"


def test_the_shared_page_of_a_bots_only_game_offers_no_seat_to_join(tmp_path: Path) -> None:
    with serving(seats=("random", "random")) as served:
        page = httpx.get(f"{served.base}/", timeout=15)
        assert page.status_code == 200 and "Seats" in page.text  # the seats are listed, as bots
        assert JOIN_WORDS not in page.text and 'id="join-url"' not in page.text
        # the host's own page (its token) at phone size: no seats' codes either, and no empty Host panel
        sync_api = pytest.importorskip("playwright.sync_api")
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            try:
                host = browser.new_context(viewport={"width": 412, "height": 915}).new_page()
                host.goto(f"{served.base}/?token={served.web.access.host_token}")
                host.wait_for_function("() => document.querySelectorAll('#seats li').length === 2")  # the first snapshot
                host.wait_for_load_state("networkidle")  # the host's seats (none) came
                host.screenshot(path=str(tmp_path / "bots-only-host-page.png"), full_page=True)
                assert host.locator("#host").is_hidden() and JOIN_WORDS not in host.inner_text("body")
            finally:
                browser.close()
    with serving(seats=("human", "random")) as served:  # one person: the page tells how to join
        assert JOIN_WORDS in httpx.get(f"{served.base}/", timeout=15).text
