"""`tablelight app build` and `serve` (no browser), and the worker's engine on CPython's asyncio."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tablelight.app.build import CSP, Built, build_app
from tablelight.app.engine import AppTable
from tablelight.cli.main import main
from tablelight.core.errors import SetupError

from .conftest import Served

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_holds_the_page_the_worker_pinned_pyodide_and_the_offline_list(built_app: Built) -> None:
    folder = built_app.folder
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/pyodide"]["version"]
    assert json.loads((ROOT / "package.json").read_text())["devDependencies"]["pyodide"] == pinned  # exact pin
    about = json.loads((folder / "app.json").read_text())
    assert about["pyodide"] == built_app.pyodide == pinned
    for name in ("index.html", "app.js", "worker.js", "sw.js", "manifest.webmanifest", about["wheel"],
                 "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        assert (folder / name).is_file(), name
    page = (folder / "index.html").read_text()
    assert f'content="{CSP}"' in page and "'unsafe-eval'" not in CSP and "'unsafe-inline'" not in CSP
    assert 'data-state="loading"' in page
    sw = (folder / "sw.js").read_text()
    cached = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert set(about["files"]) == on_disk  # the build lists what it wrote (app serve serves that)
    compressed = {name for name in on_disk if name.endswith(".gz")}
    assert "pyodide/pyodide.asm.wasm.gz" in compressed
    # every file is cached for offline use (the gzip forms are the same files, the phones' address is asked each time)
    assert set(cached) - {"./"} == on_disk - compressed - {"sw.js", "phones-address.json"}
    assert f"tablelight-{built_app.version}" in sw
    for script in ("app.js", "worker.js", "sw.js"):  # nothing from anywhere else
        assert "http://" not in (folder / script).read_text() and "https://" not in (folder / script).read_text()


def test_build_refuses_a_file_and_a_missing_pyodide(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken"
    taken.write_text("x")
    assert main(["app", "build", str(taken)]) == 1
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["app", "build", str(tmp_path / "out"), "--pyodide", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "Pyodide is not installed" in error and "--pyodide" in error and "Traceback" not in error
    with pytest.raises(SetupError):
        build_app(tmp_path / "out", tmp_path)


def test_serve_refuses_a_folder_without_an_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "serve", str(tmp_path)]) == 1
    assert "holds no built app" in capsys.readouterr().err


def test_serve_sends_the_types_and_the_policy(served_app: Served) -> None:
    with httpx.Client(base_url=served_app.url) as client:
        page = client.get("/")
        assert page.status_code == 200 and "tablelight" in page.text
        assert page.headers["content-security-policy"] == CSP
        assert client.get("/pyodide/pyodide.asm.wasm").headers["content-type"] == "application/wasm"
        assert client.get("/worker.js").headers["content-type"].startswith("text/javascript")
        assert client.get("/pyodide/pyodide.mjs").headers["content-type"].startswith("text/javascript")
        assert client.get("/nothing-here").status_code == 404


def test_the_engine_plays_bots_and_takes_a_seats_choice_through_the_one_door() -> None:
    async def play() -> None:
        updates: list[str] = []
        table = AppTable(updates.append)
        first = json.loads(table.start(json.dumps({"game": "farlander", "seats": ["random", "random"], "seed": 3,
                                                    "bot_delay": 0})))
        assert first["public"]["game"] == "farlander"
        for _ in range(500):
            if json.loads(table.snapshot())["public"]["over"]:
                break
            await asyncio.sleep(0.01)
        assert json.loads(table.snapshot())["public"]["over"]
        await asyncio.sleep(0.1)
        assert json.loads(updates[-1])["public"]["over"]  # the page was told

        table.start(json.dumps({"game": "farlander", "seats": ["human", "random"], "seed": 3, "bot_delay": 0}))
        await asyncio.sleep(0.05)
        seat = json.loads(table.snapshot())["seats"]["0"]
        assert seat["your_turn"] and seat["choices"]
        stale = json.loads(table.act(json.dumps({"seat": 0, "action": seat["choices"][0]["action"], "at": seat["at"] - 1})))
        assert not stale["done"] and "moved on" in stale["words"]
        bot_seat = json.loads(table.act(json.dumps({"seat": 1, "action": seat["choices"][0]["action"], "at": seat["at"]})))
        assert not bot_seat["done"] and "not played by a person" in bot_seat["words"]
        done = json.loads(table.act(json.dumps({"seat": 0, "action": seat["choices"][0]["action"], "at": seat["at"]})))
        assert done["done"]
        record = json.loads(table.record())
        assert {"seat": 0, "action": seat["choices"][0]["action"]}.items() <= [
            e for e in record["log"] if e.get("seat") == 0][0].items()
        table.stop()

    asyncio.run(play())


@pytest.mark.parametrize("request_text, words", [
    ('{"game": "nope"}', "unknown game 'nope'"),
    ('{"game": 5}', '"game" names one of farlander'),
    ('{"game": "farlander", "seats": ["human", "wizard"]}', "unknown seat kind 'wizard'"),
    ('{"game": "farlander", "seats": ["human", "mcts-deep:0ms"]}', "bot 'mcts-deep:0ms': after ':' give"),
    ('{"game": "farlander", "seats": ["human"]}', "2-4 players, not 1"),
    ('{"game": "farlander", "seed": "x"}', '"seed" is a whole number'),
    ("[1]", "not a JSON object"),
    ("{", "Expecting"),
])
def test_a_bad_start_gets_one_clear_error_and_changes_nothing(request_text: str, words: str) -> None:
    table = AppTable()
    answer = json.loads(table.start(request_text))
    assert words in answer["error"]
    assert json.loads(table.snapshot())["public"] is None
    assert "no game" in json.loads(table.act("{}"))["words"]


def test_the_serve_command_answers(built_app: Built) -> None:
    served = Served(built_app.folder)
    try:
        assert httpx.get(served.url + "app.json").json()["version"] == built_app.version
    finally:
        served.stop()


def test_bench_app_refuses_a_missing_chromium_and_bad_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "app", "--chromium", str(tmp_path / "none")]) == 1
    assert "no Chromium at" in capsys.readouterr().err
    assert main(["bench", "app", "--chromium", sys.executable, "--visits", "0"]) == 1
    assert "--visits and --presses take a whole number from 1" in capsys.readouterr().err
