"""What the table's page relays from a phone, in CPython: one seat's snapshot (its own view only)
and a seat's request through the one door (``AppTable.seat_view``, ``AppTable.seat_request``),
answered in the shape of the host's seat requests; ``tablelight bench phones`` refuses what it
cannot run, in one sentence (its figures come from running it: docs/benchmarks.md); a build
without the pinned QR code libraries (no checkout, no registry) says what to do."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tablelight.app import build, npm
from tablelight.app.engine import AppTable
from tablelight.cli.main import main
from tablelight.core.errors import SetupError


def request(table: AppTable, seat: int, what: str, **body: object) -> dict[str, object]:
    return dict(json.loads(table.seat_request(json.dumps({"seat": seat, "what": what, "body": body}))))


def test_a_phones_seat_gets_its_own_view_and_its_requests_go_through_the_one_door() -> None:
    async def play() -> None:
        table = AppTable()
        assert table.seat_view(0) == "null"  # no game yet
        table.start(json.dumps({"game": "mainland", "seats": ["human", "human"], "seed": 5, "bot_delay": 0}))
        await asyncio.sleep(0.05)
        whole = json.loads(table.snapshot())
        views = {seat: json.loads(table.seat_view(seat)) for seat in (0, 1)}
        assert views[0] == whole["seats"]["0"] and views[1] == whole["seats"]["1"]
        assert set(views[0]) == set(whole["seats"]["0"]) and "seats" in views[0]  # one seat's view, not the table's
        assert table.seat_view(2) == "null" and table.seat_view("0") == "null"  # type: ignore[arg-type]
        acting = next(seat for seat, view in views.items() if view["your_turn"])
        view, other = views[acting], views[1 - acting]
        action = view["choices"][0]["action"]

        not_theirs = request(table, 1 - acting, "act", action=action, at=view["at"])
        assert not_theirs["applied"] is False and "turn" in str(not_theirs["message"]), not_theirs
        stale = request(table, acting, "act", action=action, at=view["at"] - 1)
        assert stale["applied"] is False and "moved on" in str(stale["message"])
        malformed = request(table, acting, "act", action="camp", at=view["at"])
        assert "'action' must be a JSON object" in str(malformed["error"]), malformed
        assert "error" in request(table, acting, "jump", action=action, at=view["at"])
        assert "error" in json.loads(table.seat_request("not json"))
        assert "error" in request(table, 7, "act", action=action, at=view["at"])
        assert json.loads(table.snapshot())["actions"] == whole["actions"]  # nothing changed

        narrowed = request(table, acting, "narrow", chosen={}, at=view["at"])
        assert set(narrowed) == {"narrowed", "message"}
        done = request(table, acting, "act", action=action, at=view["at"])
        assert done["applied"] is True
        assert json.loads(table.snapshot())["actions"] == whole["actions"] + 1
        assert json.loads(table.seat_view(acting))["at"] > view["at"] and other["at"] == view["at"]
        table.stop()

    asyncio.run(play())


def test_bench_phones_refuses_a_missing_chromium_and_bad_numbers(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "phones", "--chromium", str(tmp_path / "none")]) == 1
    assert "no Chromium at" in capsys.readouterr().err
    assert main(["bench", "phones", "--chromium", sys.executable, "--games", "0"]) == 1
    assert "--games and --joins take a whole number from 1" in capsys.readouterr().err


def test_a_build_without_the_qr_code_libraries_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pyodide = build.find_pyodide()
    monkeypatch.setattr(npm, "NODE_MODULES", tmp_path / "node_modules")  # no checkout
    monkeypatch.setenv("TABLELIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TABLELIGHT_NPM_REGISTRY", "http://127.0.0.1:9")  # and no registry
    with pytest.raises(SetupError) as refused:
        build.build_app(tmp_path / "site", pyodide)
    assert "could not fetch the npm package qrcode-generator" in str(refused.value) and "npm ci" in str(refused.value)
    assert not (tmp_path / "site").exists()  # nothing written
