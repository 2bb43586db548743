"""``tablelight app build`` without a checkout or Node: the pinned npm packages are fetched from the
registry (here a stand-in on 127.0.0.1 serving the very tarballs npm ci fetched, from npm's own
cache), checked against package-lock.json's integrity hashes, and kept for later builds offline."""

from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelight.app import npm
from tablelight.core.errors import SetupError

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_pins_are_package_lock_jsons() -> None:
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    for name, pin in npm.pins().items():
        assert (pin.version, pin.integrity) == (lock[f"node_modules/{name}"]["version"],
                                                lock[f"node_modules/{name}"]["integrity"]), name


def npm_cache_tarball(pin: npm.Pin) -> bytes:
    """The tarball npm ci fetched, from npm's content-addressed cache (found by its integrity hash)."""
    cache = subprocess.run(["npm", "config", "get", "cache"], capture_output=True, text=True, check=True).stdout.strip()
    digest = base64.b64decode(pin.integrity.split("-", 1)[1]).hex()
    path = Path(cache) / "_cacache" / "content-v2" / "sha512" / digest[:2] / digest[2:4] / digest[4:]
    assert path.is_file(), f"npm's cache has no {pin.name} {pin.version} (scripts/test.sh runs npm ci): {path}"
    return path.read_bytes()


class Registry:
    """A stand-in npm registry on 127.0.0.1: ``tarballs`` (URL path -> bytes); ``asked`` counts requests."""

    def __init__(self, tarballs: dict[str, bytes]) -> None:
        self.tarballs = tarballs
        self.asked: list[str] = []
        registry = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                registry.asked.append(self.path)
                body = registry.tarballs.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def registry() -> Iterator[Registry]:
    tarballs = {}
    for pin in npm.pins().values():
        tarballs[npm.tarball_path(pin)] = npm_cache_tarball(pin)
    served = Registry(tarballs)
    yield served
    served.close()


def test_a_package_is_fetched_checked_kept_and_then_used_offline(registry: Registry, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(npm, "NODE_MODULES", tmp_path / "no-checkout")
    monkeypatch.setenv("TABLELIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TABLELIGHT_NPM_REGISTRY", registry.url)
    folder = npm.package("qrcode-generator")
    assert folder.is_relative_to(tmp_path / "cache" / "npm") and (folder / "dist" / "qrcode.mjs").is_file()
    assert registry.asked == ["/qrcode-generator/-/qrcode-generator-2.0.4.tgz"]
    registry.close()  # offline from now: the kept copy serves
    assert npm.package("qrcode-generator") == folder


def test_a_tarball_that_does_not_match_its_hash_is_refused_and_not_kept(registry: Registry, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(npm, "NODE_MODULES", tmp_path / "no-checkout")
    monkeypatch.setenv("TABLELIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TABLELIGHT_NPM_REGISTRY", registry.url)
    for path in registry.tarballs:
        registry.tarballs[path] = registry.tarballs[path][:-1] + b"x"
    with pytest.raises(SetupError, match="does not match its pinned integrity hash"):
        npm.package("jsqr")
    assert not list((tmp_path / "cache").rglob("package.json"))


def test_no_registry_and_no_checkout_says_what_to_do_in_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from tablelight.cli.main import main

    monkeypatch.setattr(npm, "NODE_MODULES", tmp_path / "no-checkout")
    monkeypatch.setenv("TABLELIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TABLELIGHT_NPM_REGISTRY", "http://127.0.0.1:9")  # nothing listens there
    assert main(["app", "build", str(tmp_path / "site")]) == 1
    error = capsys.readouterr().err
    assert "could not fetch the npm package pyodide 314.0.7" in error and "connect this machine to the internet" in error
    assert error.count("\n") == 1 and "Traceback" not in error
    assert not (tmp_path / "site").exists()  # nothing written


def test_app_build_works_in_a_fresh_install_with_no_checkout_and_no_node(registry: Registry, tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (wheel,) = wheels.glob("tablelight-*.whl")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                                "--quiet", "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    # its dependencies from this environment's site-packages (after its own: this checkout's editable
    # tablelight is not among them), so the test needs no network
    site = next((venv / "lib").glob("python3*/site-packages"))
    ours = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (site / "test-dependencies.pth").write_text("\n".join(ours) + "\n")
    env = {"PATH": str(venv / "bin"), "HOME": str(tmp_path), "TABLELIGHT_CACHE": str(tmp_path / "cache"),
           "TABLELIGHT_NPM_REGISTRY": registry.url, "LANG": "C.UTF-8"}
    assert shutil.which("node", path=env["PATH"]) is None
    command = [str(venv / "bin" / "tablelight"), "app", "build", str(tmp_path / "site")]
    first = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert first.returncode == 0, first.stderr
    assert "built the app" in first.stdout and "node is not installed" in first.stdout
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import tablelight; print(tablelight.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert str(site) in where.stdout, where.stdout  # the installed wheel, not this checkout
    about = json.loads((tmp_path / "site" / "app.json").read_text())
    assert about["pyodide"] == npm.pins()["pyodide"].version
    assert len(registry.asked) == 3
    registry.close()  # later builds are offline
    again = subprocess.run(command[:-1] + [str(tmp_path / "site2")], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "site2" / "pyodide" / "pyodide.asm.wasm").is_file()
