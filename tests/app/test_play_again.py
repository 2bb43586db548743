"""Play again in the browser table (headless Chromium, the built app): a short game plays to its end,
the game-over panel offers "Play again" as the host page's does, and a tap starts the next game of
the same game and seats with a new secret seed, shown at once and kept as a new game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Served, open_setup
from .test_browser import Visit, browser  # noqa: F401 (the browser fixture)

PHONE_SIZE = {"width": 412, "height": 915}


@pytest.fixture(scope="module")
def table(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    visit.context.close()


def test_the_game_over_panel_plays_again_with_a_new_secret_seed(table: Visit, tmp_path: Path) -> None:
    page = table.page
    page.set_viewport_size(PHONE_SIZE)
    open_setup(page)
    page.select_option("#game", "mainland")
    page.fill("#seats", "random,random")
    page.fill("#seed", "")  # a secret seed, as a new player leaves it
    page.fill("#delay", "0")
    page.click("#start")
    page.wait_for_selector("body[data-over=true]", timeout=120_000)  # the bots play it to its end
    again = page.locator("#gameover #again")
    again.wait_for(timeout=20_000)
    first = table.call("snapshot")
    first_seed = table.call("record")["seed"]
    assert first["public"]["again"] and first["public"]["result"]["headline"]
    # the button sits in the panel, under who won, in view on a phone
    assert page.locator("#gameover .headline + #again").count() == 1
    page.screenshot(path=str(tmp_path / "app-play-again.png"))
    again.click()
    page.wait_for_function("id => { const s = window.tablelight.snapshot(); return s && s.id && s.id !== id; }",
                           arg=first["id"], timeout=30_000)
    fresh = table.call("snapshot")
    assert fresh["id"] == first["id"] + 1 and fresh["public"]["game"] == "mainland"
    assert [seat["kind"] for seat in fresh["public"]["seats"]] == ["random", "random"]
    assert table.call("record")["seed"] != first_seed  # a new deal, not the same game again
    assert page.get_attribute("body", "data-state") == "ready"
    assert f"game {fresh['id']}" in page.inner_text("#status")  # the new game is shown
    # the finished game stays kept beside the new one
    open_setup(page)
    kept = page.locator("#saved li")
    kept.filter(has_text=f"game {first['id']}:").first.wait_for(timeout=10_000)
    kept.filter(has_text=f"game {fresh['id']}:").first.wait_for(timeout=10_000)
    assert "over" in kept.filter(has_text=f"game {first['id']}:").first.inner_text()
