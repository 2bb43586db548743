"""A phone whose page reloads, or whose connection drops, rejoins its seat by itself: both sides keep
their DTLS certificate and ICE credentials for the game, the table keeps the lost connection open as
a doorbell and lets the returning phone's connectivity checks in, and the phone proves the seat's
secret again. No answer code is carried. The table and the phone run in two Chromium processes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Served
from .test_browser import BROWSER_ARGS, CHROMIUM, Visit, browser, sync_api  # noqa: F401 (the browser fixture)
from .test_phones import Table, join, secret_of


@pytest.fixture(scope="module")
def phone_browser(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A second Chromium process (the same Playwright): the phones'."""
    launched = browser.browser_type.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
    yield launched
    launched.close()


@pytest.fixture(scope="module")
def table_page(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    visit.context.close()


def rejoined(table: Table, phone: Any, seat: int) -> None:
    """The phone is back on its seat with no answer code taken by the table."""
    try:
        phone.page.wait_for_selector("body[data-state=joined] .secret", timeout=30_000)
    except sync_api.TimeoutError:
        raise AssertionError(f"the phone did not rejoin by itself: {phone.page.get_attribute('body', 'data-state')}: "
                             f"{phone.page.inner_text('#join-status')}; the table says "
                             f"{table.page.inner_text('#phone-list')}") from None
    table.page.wait_for_selector(f"#phone-list li[data-seat='{seat}'][data-state=connected]", timeout=10_000)
    assert sorted(phone.hand()) == sorted(table.hand(seat)) and phone.hand()


def test_a_reloaded_and_a_dropped_phone_rejoin_by_themselves(phone_browser: Any, table_page: Visit) -> None:
    table = Table(table_page)
    try:
        phone = join(table, 0, phone_browser)
        said = table.said()  # what the table said when it took the one answer code
        phone.page.reload()  # the page reloads: a new connection, the phone's kept certificate and credentials
        rejoined(table, phone, 0)
        assert table.page.input_value("#answer-code") == "" and table.said() == said  # no code was taken
        # the connection drops (as when the network goes): the phone's link ends and it knocks again
        phone.page.evaluate("() => { const link = window.tablelightSeat.link; const pc = link.pc; pc.close(); link.ended(pc); }")
        phone.page.wait_for_selector("body:not([data-state=joined])", timeout=10_000)
        rejoined(table, phone, 0)
        assert table.said() == said
        phone.page.reload()  # and again: the table listens where it told the phone last
        rejoined(table, phone, 0)
    finally:
        table.close()


def test_a_knock_with_a_forged_secret_is_still_refused(phone_browser: Any, table_page: Visit) -> None:
    table = Table(table_page)
    try:
        url = table.join_url(0)
        phone = join(table, 0, phone_browser)
        # the same browser (its kept certificate and credentials knock the door open), but the join
        # link's secret forged: the seat's secret is proved first, and refused
        secret = secret_of(url)
        forged = url.replace(f".{secret}.", "." + ("A" if secret[0] != "A" else "B") + secret[1:] + ".")
        assert forged != url
        phone.page.goto(forged)
        phone.page.reload()  # (a new fragment alone does not load the page again)
        phone.page.wait_for_selector("body[data-state=refused]", timeout=30_000)
        assert "is not green's at this table" in phone.page.inner_text("#join-status")
        assert table.seat_state(0) != "connected"
    finally:
        table.close()
