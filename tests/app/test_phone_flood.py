"""A phone that floods the table's page with requests cannot stall the other seats: its messages
are limited as the host-served pages' sockets are (at most 16 at once, then 4 a second), its
requests reach the worker one at a time, and it is told why its link was closed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Served
from .test_browser import Visit, browser  # noqa: F401 (the browser fixture)
from .test_phones import Table, join

#: Run in the flooding phone's page: 2,000 small requests straight onto its data channel, and a
#: count of the answers to them as they come.
FLOOD = """
() => {
  const channel = window.tablelightSeat.link.channel;
  window.__flood_answers = 0;
  channel.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.id >= 100000) window.__flood_answers += 1;
  });
  for (let i = 0; i < 2000; i += 1) {
    channel.send(JSON.stringify({ id: 100000 + i, what: "narrow", body: { chosen: {}, at: 0 } }));
  }
}
"""
ASK = "() => window.tablelightSeat.link.send('narrow', { chosen: {}, at: 0 })"


@pytest.fixture(scope="module")
def table_page(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    visit.context.close()


def test_a_flooding_phone_does_not_stall_the_other_seat_and_is_told(browser: Any, table_page: Visit) -> None:  # noqa: F811
    table = Table(table_page)
    try:
        flooder, other = join(table, 0, browser), join(table, 1, browser)
        assert "narrowed" in other.page.evaluate(ASK)  # an answer at rest
        flooder.page.evaluate(FLOOD)
        answer = other.page.evaluate(ASK)
        assert "narrowed" in answer, answer
        # the other seat was answered while the flood was mostly unanswered: it did not wait behind it
        answered = flooder.page.evaluate("window.__flood_answers")
        assert answered < 100, f"the other seat waited for {answered} of the flood's 2,000 requests"
        flooder.page.wait_for_selector("body[data-state=refused]", timeout=20_000)
        told = flooder.page.inner_text("body")
        assert "more than 16 messages at once" in told and "Rejoin with the seat's code" in told, told
        relayed = table.page.evaluate("window.tablelight.phones.seats.get(0).relayed")
        assert relayed <= 16, relayed  # the rest never reached the worker
        table.page.wait_for_function("() => document.getElementById('phones-status').textContent"
                                     ".includes('too many messages')", timeout=10_000)
        assert "narrowed" in other.page.evaluate(ASK)  # and the other seat plays on
    finally:
        table.close()
