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

from .conftest import ROOT, Served
from .test_browser import LOAD_MS, READY, SETTLED, Visit, browser  # noqa: F401 (the browser fixture)


def log_lines(visit: Visit) -> list[str]:
    return [str(line) for line in visit.page.locator("#log li").all_inner_texts()]


def play_moves(visit: Visit, moves: int) -> None:
    for _ in range(moves):
        visit.page.wait_for_selector("#choices button", timeout=20_000)
        before = len(log_lines(visit))
        visit.page.locator("#choices button").first.click()
        visit.page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before,
                                     timeout=10_000)
    visit.page.wait_for_selector("#choices button", timeout=20_000)  # the person's turn again: settled


def call(visit: Visit, op: str, arg: Any = None) -> Any:
    return visit.page.evaluate("([op, arg]) => window.tablelight.call(op, arg)", [op, arg])


def test_a_kept_game_resumes_after_a_reload_and_its_record_replays(browser: Any, served_app: Served,  # noqa: F811
                                                                   tmp_path: Path) -> None:
    visit = Visit(browser, served_app.url)
    try:
        visit.start("farlander", "human,random", seed=1)
        play_moves(visit, 2)
        record = call(visit, "record")
        actions = call(visit, "snapshot")["actions"]
        visit.page.wait_for_selector(f"body[data-saved='{actions}']", timeout=10_000)
        lines = log_lines(visit)
        visit.page.reload()
        visit.page.wait_for_selector(SETTLED, timeout=LOAD_MS)
        kept = visit.page.locator("#saved li").first
        assert "farlander" in kept.inner_text() and f"{actions} actions" in kept.inner_text()
        kept.locator("button").click()
        visit.page.wait_for_selector("#choices button", timeout=20_000)
        assert call(visit, "record") == record
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
        assert call(visit, "record") == record
        assert len(log_lines(visit)) == len(lines)  # every seat of an opened record is a person's
    finally:
        visit.context.close()
