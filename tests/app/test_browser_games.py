"""The app's games in headless Chromium: a game kept in the browser resumes after a reload, its
record downloads (and `tablelight replay` reads it) and opens again, a file that is not a record
is refused in one sentence, two people on one screen see only their own cards (pass and play),
and a browser without Web Bluetooth or Web Serial is told which browsers work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import ROOT, Served, choose_first
from .test_browser import LOAD_MS, READY, SETTLED, Visit, browser  # noqa: F401 (the browser fixture)


def log_lines(visit: Visit) -> list[str]:
    return [str(line) for line in visit.page.locator("#log li").all_inner_texts()]


def play_moves(visit: Visit, moves: int) -> None:
    for _ in range(moves):
        visit.page.wait_for_selector("#choices button", timeout=20_000)
        before = len(log_lines(visit))
        choose_first(visit.page)
        visit.page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before,
                                     timeout=10_000)
    visit.page.wait_for_selector("#choices button", timeout=20_000)  # the person's turn again: settled


def test_a_kept_game_resumes_after_a_reload_and_its_record_replays(browser: Any, served_app: Served,  # noqa: F811
                                                                   tmp_path: Path) -> None:
    visit = Visit(browser, served_app.url)
    try:
        visit.start("farlander", "human,random", seed=1)
        play_moves(visit, 2)
        record = visit.call("record")
        actions = visit.call("snapshot")["actions"]
        visit.page.wait_for_selector(f"body[data-saved='{actions}']", timeout=10_000)
        lines = log_lines(visit)
        visit.page.reload()
        visit.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        kept = visit.page.locator("#saved li").first
        assert "farlander" in kept.inner_text() and f"{actions} actions" in kept.inner_text()
        kept.locator("button").click()
        visit.page.wait_for_selector("#choices button", timeout=20_000)
        assert visit.call("record") == record
        assert log_lines(visit) == lines

        # the record downloads, and the command line replays it
        with visit.page.expect_download() as download:
            visit.page.click("#export")
        exported = tmp_path / "farlander.json"
        download.value.save_as(exported)
        assert json.loads(exported.read_text(encoding="utf-8")) == record
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
        replayed = subprocess.run([sys.executable, "-m", "tablelight", "replay", str(exported)], capture_output=True,
                                  text=True, env=env, timeout=60)
        assert replayed.returncode == 0, replayed.stderr

        # a file that is not a record is refused in one sentence; the exported one opens as a new game
        visit.page.set_input_files("#import", files=[{"name": "notes.json", "mimeType": "application/json",
                                                      "buffer": b'{"shopping": ["milk"]}'}])
        visit.page.locator("#status", has_text="not a tablelight game record").wait_for(timeout=10_000)
        refused = visit.page.inner_text("#status")
        assert "\n" not in refused and "Traceback" not in refused
        games = visit.page.locator("#saved li").count()
        visit.page.set_input_files("#import", str(exported))
        visit.page.wait_for_function("n => document.querySelectorAll('#saved li').length > n", arg=games,
                                     timeout=10_000)
        assert visit.call("record") == record
        assert len(log_lines(visit)) == len(lines)  # every seat of an opened record is a person's
    finally:
        visit.context.close()


def hand(snapshot: dict[str, Any], seat: int) -> list[str]:
    secrets = snapshot["seats"][str(seat)]["secrets"]
    return [str(item) for secret in secrets if secret["title"] == "hand" for item in secret["items"]]


def test_two_people_on_one_screen_see_only_their_own_cards(browser: Any, served_app: Served) -> None:  # noqa: F811
    visit = Visit(browser, served_app.url)
    try:
        visit.start("mainland", "human,human", seed=1)
        visit.page.wait_for_selector("#cover:not([hidden])", timeout=20_000)
        snapshot = visit.call("snapshot")
        acting = next(int(seat) for seat, view in snapshot["seats"].items() if view["your_turn"])
        waiting = 1 - acting
        own, others = hand(snapshot, acting), hand(snapshot, waiting)
        only_others = [card for card in others if card not in own]
        assert own and only_others
        covered = visit.page.content()
        assert not [card for card in own + others if card in covered], "a hand shows while the screen is covered"
        assert not visit.page.locator("#choices button").count()
        visit.page.click("#reveal")
        assert visit.page.inner_text("#reveal") == f"I am {snapshot['seats'][str(acting)]['label']}"
        visit.page.wait_for_selector("#choices button", timeout=10_000)
        shown = visit.page.content()
        assert all(card in shown for card in own)
        assert not [card for card in only_others if card in shown]

        # the move made, the screen covers again for the other seat: neither hand shows
        choose_first(visit.page)
        visit.page.wait_for_selector("#cover:not([hidden])", timeout=10_000)
        assert visit.page.inner_text("#reveal") == f"I am {snapshot['seats'][str(waiting)]['label']}"
        snapshot = visit.call("snapshot")
        covered = visit.page.content()
        assert not [card for card in hand(snapshot, 0) + hand(snapshot, 1) if card in covered]
    finally:
        visit.context.close()


NO_LINKS = "Object.defineProperty(Navigator.prototype, 'bluetooth', {get: () => undefined});" \
           "delete Navigator.prototype.serial;"


def test_a_browser_without_bluetooth_or_serial_is_told_which_browsers_work(browser: Any,  # noqa: F811
                                                                          served_app: Served) -> None:
    context = browser.new_context()
    try:
        context.add_init_script(NO_LINKS)
        page = context.new_page()
        page.goto(served_app.url)
        page.wait_for_selector(READY, timeout=LOAD_MS)
        said = page.inner_text("#board")
        assert "no Web Bluetooth" in said and "Chrome on Android" in said and "iOS" in said, said
        assert "no Web Serial" in said and "Chrome or Edge" in said, said
        assert not page.is_visible("#connect-ble") and not page.is_visible("#connect-usb")
    finally:
        context.close()
