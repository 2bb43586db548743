"""A board chooser closed with no board says so in the page's words, not the browser's."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Served
from .test_browser import LOAD_MS, SETTLED, browser  # noqa: F401 (the browser fixture)

#: Web Serial and Web Bluetooth whose choosers are closed with nothing chosen, with Chromium's own words.
CLOSED_CHOOSERS = """
Object.defineProperty(navigator, "serial", { value: { getPorts: async () => [], addEventListener() {},
  requestPort: async () => { throw new DOMException(
    "Failed to execute 'requestPort' on 'Serial': No port selected by the user.", "NotFoundError"); } } });
Object.defineProperty(navigator, "bluetooth", { value: { requestDevice: async () => { throw new DOMException(
  "User cancelled the requestDevice() chooser.", "NotFoundError"); } } });
"""


@pytest.mark.parametrize("button, words", [
    ("#connect-usb", "no board chosen: tap connect a board (USB) again and choose the board's port"),
    ("#connect-ble", "no board chosen: switch the board on nearby, tap connect a board (Bluetooth) again and choose it"),
])
def test_a_closed_chooser_says_so_in_one_sentence(browser: Any, served_app: Served, button: str,  # noqa: F811
                                                  words: str) -> None:
    context = browser.new_context()
    context.add_init_script(CLOSED_CHOOSERS)
    try:
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        page.click(button)
        page.locator("#board", has_text="no board chosen").wait_for(timeout=10_000)
        said = page.inner_text("#board")
        assert said == f"board: {words}" and "Failed to execute" not in said and "cancelled" not in said
    finally:
        context.close()
