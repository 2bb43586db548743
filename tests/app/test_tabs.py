"""Two tabs of the app in one browser (one context: the same IndexedDB) must not both keep games:
each would write its own copy of the games' file over the other's. The second tab says the table
is open in another tab and offers to take it over; taking over stops the first tab (after its
last move is written) and the second carries on with every kept game."""

from __future__ import annotations

from typing import Any

from .conftest import Served, choose_first
from .test_browser import LOAD_MS, SETTLED, browser  # noqa: F401 (the fixture; the module skips without chromium)


def test_a_second_tab_does_not_run_a_second_table_and_can_take_it_over(browser: Any, served_app: Served) -> None:
    context = browser.new_context()
    try:
        first = context.new_page()
        first.goto(served_app.url)
        first.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert first.get_attribute("body", "data-state") == "ready", first.inner_text("#status")
        first.select_option("#game", "farlander")
        first.fill("#seats", "human,human")
        first.click("#start")
        first.wait_for_selector("#choices button", timeout=20_000)
        choose_first(first)
        first.wait_for_function("() => Number(document.body.dataset.saved) === 1", timeout=10_000)

        second = context.new_page()
        second.goto(served_app.url)
        second.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert second.get_attribute("body", "data-state") == "elsewhere"
        assert "open in another tab" in second.inner_text("#status")
        assert second.is_hidden("#new-game") and second.is_hidden("#kept")
        choose_first(first)  # the first tab plays on meanwhile
        first.wait_for_function("() => Number(document.body.dataset.saved) === 2", timeout=10_000)

        second.click("#take-over")
        second.wait_for_selector("body[data-state=ready]", timeout=LOAD_MS)
        first.wait_for_selector("body[data-state=elsewhere]", timeout=10_000)
        assert "moved to another tab" in first.inner_text("#status")
        assert first.is_hidden("#table") and first.is_hidden("#new-game") and first.is_hidden("#seat-screen")
        kept = second.locator("#saved li").first
        assert "farlander" in kept.inner_text() and "2 actions" in kept.inner_text()  # nothing lost
        kept.locator("button").click()
        second.wait_for_function("() => window.tablelight.snapshot() && window.tablelight.snapshot().actions === 2",
                                 timeout=10_000)
    finally:
        context.close()
