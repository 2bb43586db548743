"""The browser table starts as ``tablelight play`` does: two fresh starts from the page's form, with
the seed left empty ("random"), deal two different games (a secret seed each); a typed seed deals
that game, and a seed that is no whole number is refused with one sentence. Real Chromium, the
built app, its Pyodide worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Served, open_setup

sync_api = pytest.importorskip("playwright.sync_api")

SETTLED = "body:not([data-state=loading])"
LOAD_MS = 60_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        yield launched
        launched.close()


def start(page: Any, seed: str) -> dict[str, Any]:
    """Start a two-person Mainland game from the form; the kept record of what it dealt."""
    open_setup(page)
    page.select_option("#game", "mainland")
    page.fill("#seats", "human,human")
    page.fill("#seed", seed)
    before = page.evaluate("window.tablelight.snapshot() && window.tablelight.snapshot().id")
    page.click("#start")
    page.wait_for_function("(before) => window.tablelight.snapshot() && window.tablelight.snapshot().id !== before",
                           arg=before, timeout=30_000)
    return dict(page.evaluate("window.tablelight.call('record')"))


def test_an_empty_seed_deals_a_secret_game_each_start_and_a_typed_one_that_game(browser: Any, served_app: Served) -> None:
    page = browser.new_page(viewport={"width": 412, "height": 915})
    try:
        page.goto(served_app.url)
        page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        assert page.input_value("#seed") == "" and page.get_attribute("#seed", "placeholder") == "random"
        first, second = start(page, ""), start(page, "")
        assert first["seed"] != second["seed"]  # not the same deal every evening
        assert start(page, "42")["seed"] == 42  # a replay's or a tournament's seed, typed
        open_setup(page)
        page.fill("#seed", "forty")
        page.click("#start")
        page.wait_for_function("() => document.getElementById('status').textContent.includes('\"seed\" is a whole number')",
                               timeout=10_000)
    finally:
        page.close()
