"""``tablelight app serve`` serves exactly the files ``tablelight app build`` wrote (no dotfile, nothing
else in the folder), checks the Host header, and sends a file's gzip form to a browser that takes it;
``tablelight app build`` refuses a folder holding files it did not write unless forced."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import httpx
import pytest

from tablelight.app.build import CSP, Built, build_app
from tablelight.cli.main import main

from .conftest import Served


def test_build_refuses_a_folder_holding_other_files_unless_forced_and_serve_never_serves_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / ".secret").write_text("KEY\n")
    assert main(["app", "build", str(folder)]) == 1
    error = capsys.readouterr().err
    assert "holds files the app build did not write (.secret)" in error and "--force" in error and "Traceback" not in error
    assert sorted(p.name for p in folder.iterdir()) == [".secret"]  # nothing written
    assert main(["app", "build", str(folder), "--force"]) == 0
    assert (folder / ".secret").read_text() == "KEY\n"  # left where it was
    served = Served(folder)
    try:
        port = served.url.rsplit(":", 1)[1].strip("/")
        with httpx.Client(base_url=served.url) as client:
            assert client.get("/.secret").status_code == 404
            assert client.get("/app.json").status_code == 200 and client.get("/").status_code == 200
            assert client.get("/%2Esecret").status_code == 404
            assert client.get("/pyodide/..%2F.secret").status_code == 404
            wrong_host = client.get("/", headers={"Host": f"evil.example:{port}"})
            assert wrong_host.status_code == 421 and "unknown Host" in wrong_host.text
            assert client.get("/", headers={"Host": f"localhost:{port}"}).status_code == 200
            assert client.post("/app.json", json={}).status_code in (403, 405)
        (folder / "later.txt").write_text("a note put there after the build")
        assert httpx.get(served.url + "later.txt").status_code == 404
    finally:
        served.stop()


def test_a_folder_of_an_earlier_build_is_built_again_without_force(built_app: Built, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    shutil.copytree(built_app.folder, folder)
    again = build_app(folder)
    assert again.version == built_app.version
    assert sorted(json.loads((folder / "app.json").read_text())["files"]) == sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_serve_sends_the_gzip_form_to_a_browser_that_takes_it(built_app: Built, served_app: Served) -> None:
    wasm = (built_app.folder / "pyodide" / "pyodide.asm.wasm").read_bytes()
    with httpx.Client(base_url=served_app.url) as client:
        packed = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
        assert packed.headers["content-encoding"] == "gzip" and "accept-encoding" in packed.headers["vary"].lower()
        assert packed.headers["content-type"] == "application/wasm"
        assert int(packed.headers["content-length"]) < len(wasm) / 2 and packed.content == wasm  # httpx decodes it
        plain = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == wasm
        refused = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip;q=0"})
        assert "content-encoding" not in refused.headers
        small = client.get("/icon.svg", headers={"Accept-Encoding": "gzip"})
        assert small.status_code == 200 and "content-encoding" not in small.headers
        assert gzip.decompress((built_app.folder / "pyodide/pyodide.asm.wasm.gz").read_bytes()) == wasm
        again = client.get("/app.js", headers={"If-None-Match": client.get("/app.js").headers["etag"]})
        # a 304's headers replace the browser's kept copy's: the app's policy must come with it (the
        # worker's WebAssembly needs its 'wasm-unsafe-eval')
        assert again.status_code == 304 and again.headers["content-security-policy"] == CSP


def test_every_visit_gets_an_answer_about_the_phones_address(served_app: Served) -> None:
    answer = httpx.get(served_app.url + "phones-address.json")
    assert answer.status_code == 200 and answer.json() == {"url": None}
