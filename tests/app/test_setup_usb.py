"""Setting a board up from the app's page over its USB drive, in headless Chromium: the Origin
Private File System stands in for CIRCUITPY (the same FileSystemDirectoryHandle interface that
showDirectoryPicker hands out; the page's picker is pointed at it). The files written are
byte for byte what `tablelight flash` writes into a folder, the user's own files are kept, every
refusal is one sentence and leaves nothing half-written, and a UF2 bootloader drive gets
CircuitPython's .uf2 (one for another chip family refused)."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.cli.main import main

from tests.e2e.helpers import keep_screenshot
from tests.flash.conftest import FEATHER_BOOT_OUT, WHEELS, snapshot
from tests.flash.fake_bootloader import FEATHER_INFO_UF2, uf2_file

from .conftest import Served

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)

LOAD_MS = 60_000
STEP_MS = 30_000
USER_CODE = b'import board\nprint("my own light show")\n'
USER_SETTINGS = b'# my own Wi-Fi, for the web workflow\nCIRCUITPY_WIFI_SSID = "attic"\n'

#: The page's drive picker answers with a folder of the Origin Private File System (the test's CIRCUITPY);
#: every status sentence the page shows is kept, to see its progress.
PICKER = """
window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle("CIRCUITPY", { create: true });
window.__said = [];
new MutationObserver(() => {
  const words = document.getElementById("setup-status");
  if (words && words.textContent && window.__said[window.__said.length - 1] !== words.textContent) window.__said.push(words.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""

#: Files into the stand-in drive (paths with "/"), and all of it back as {path: base64}.
PUT = """async (files) => {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry("CIRCUITPY", { recursive: true }).catch(() => {});
  const drive = await root.getDirectoryHandle("CIRCUITPY", { create: true });
  for (const [path, data] of Object.entries(files)) {
    const parts = path.split("/");
    let dir = drive;
    for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
    const out = await (await dir.getFileHandle(parts[parts.length - 1], { create: true })).createWritable();
    await out.write(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
    await out.close();
  }
}"""
GET = """async () => {
  const found = {};
  async function walk(dir, prefix) {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind === "directory") await walk(handle, prefix + name + "/");
      else {
        const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
        let text = ""; for (const b of bytes) text += String.fromCharCode(b);
        found[prefix + name] = btoa(text);
      }
    }
  }
  const root = await navigator.storage.getDirectory();
  const drive = await root.getDirectoryHandle("CIRCUITPY").catch(() => null);
  if (drive) await walk(drive, "");
  return found;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, served_app: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 412, "height": 915})
    page = context.new_page()
    page.add_init_script(PICKER)
    page.goto(served_app.url)
    page.wait_for_selector("body[data-state=ready]", timeout=LOAD_MS)
    page.click("#board-setup summary")
    yield page
    context.close()


def put(page: Any, files: dict[str, bytes]) -> None:
    page.evaluate(PUT, {path: base64.b64encode(data).decode() for path, data in files.items()})


def drive_files(page: Any) -> dict[str, bytes]:
    return {path: base64.b64decode(data) for path, data in page.evaluate(GET).items()}


def wait_step(page: Any, *steps: str) -> str:
    page.wait_for_function("(steps) => steps.includes(document.getElementById('board-setup').dataset.step)",
                           arg=list(steps), timeout=STEP_MS)
    return str(page.get_attribute("#board-setup", "data-step"))


def status(page: Any) -> str:
    return str(page.text_content("#setup-status"))


def choose_drive(page: Any, layout: str = "") -> str:
    if layout:
        page.select_option("#setup-layout", layout)
    page.click("#setup-usb")
    return wait_step(page, "planned", "failed", "bootloader")


def flash_into_folder(folder: Path, files: dict[str, bytes], *options: str) -> dict[str, bytes]:
    """What `tablelight flash` writes into a folder holding ``files``: the whole folder afterwards."""
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    old = os.environ.get("TABLELIGHT_CACHE")
    os.environ["TABLELIGHT_CACHE"] = str(WHEELS)
    try:
        assert main(["flash", "--drive", str(folder), "--no-wait", "--offline", *options]) == 0
    finally:
        if old is None:
            os.environ.pop("TABLELIGHT_CACHE")
        else:
            os.environ["TABLELIGHT_CACHE"] = old
    return snapshot(folder)


def board_with_user_files() -> dict[str, bytes]:
    return {"boot_out.txt": FEATHER_BOOT_OUT.encode(), "code.py": USER_CODE, "settings.toml": USER_SETTINGS,
            "pictures/cat.bmp": b"BM not ours"}


@pytest.mark.parametrize("layout", ["", "landover"])  # a board new to tablelight (farlander), and a layout chosen
def test_the_page_writes_what_tablelight_flash_writes_and_keeps_the_users_files(page: Any, tmp_path: Path,
                                                                                  layout: str) -> None:
    before = board_with_user_files()
    expected = flash_into_folder(tmp_path, before, *(["--layout", layout] if layout else []))
    put(page, before)
    assert choose_drive(page, layout) == "planned", status(page)
    assert "Adafruit Feather nRF52840 Express, CircuitPython 9.2.1" in status(page)
    assert "Your own code.py will be kept as code-before-tablelight.py" in status(page)
    page.click("#setup-install")
    assert wait_step(page, "done", "failed") == "done", status(page)
    written = drive_files(page)
    assert written == expected  # byte for byte, every file, and nothing else
    assert written["code-before-tablelight.py"] == USER_CODE and written["pictures/cat.bmp"] == b"BM not ours"
    # the person's own line and its comment, kept
    assert written["settings.toml"].endswith(USER_SETTINGS)
    assert f'TL_LAYOUT = "{layout or "farlander"}"'.encode() in written["settings.toml"]
    said = page.evaluate("window.__said")
    assert any(s.startswith("writing lib/") and "file " in s and " KB" in s for s in said), said
    # the same verification `tablelight flash --verify` prints
    assert page.text_content("#setup-verify") == f"CIRCUITPY: all {len(expected) - 3} files match"
    assert "Your own code.py is kept as code-before-tablelight.py" in status(page)
    # a second run writes nothing
    assert choose_drive(page) == "planned" and "tablelight is already on it" in status(page)


def test_a_folder_that_is_not_circuitpy_is_refused_and_left_alone(page: Any) -> None:
    put(page, {"notes.txt": b"my notes"})
    assert choose_drive(page) == "failed"
    assert "has no boot_out.txt: it is not a CircuitPython drive" in status(page)
    assert "Pick the board's drive itself (named CIRCUITPY)" in status(page)
    assert drive_files(page) == {"notes.txt": b"my notes"}


def test_a_circuitpython_tablelight_does_not_support_is_refused(page: Any) -> None:
    put(page, {"boot_out.txt": FEATHER_BOOT_OUT.replace("9.2.1", "8.2.0").encode()})
    assert choose_drive(page) == "failed"
    assert "runs CircuitPython 8.2.0; tablelight needs CircuitPython" in status(page)
    assert list(drive_files(page)) == ["boot_out.txt"]


FULL_DRIVE = """(limit) => {
  // the drive is full after `limit` bytes: each write past it fails as a full disk does
  let written = 0;
  const write = FileSystemWritableFileStream.prototype.write;
  FileSystemWritableFileStream.prototype.write = function (chunk) {
    written += chunk.byteLength || chunk.length || 0;
    if (written > limit) return Promise.reject(new DOMException("the disk is full", "QuotaExceededError"));
    return write.call(this, chunk);
  };
}"""


def test_a_full_drive_says_what_was_written_and_leaves_no_partial_file(page: Any) -> None:
    put(page, board_with_user_files())
    assert choose_drive(page) == "planned"
    page.evaluate(FULL_DRIVE, 30_000)
    page.click("#setup-install")
    assert wait_step(page, "done", "failed") == "failed"
    said = status(page)
    assert said.startswith("The board's drive is full while writing lib/"), said
    assert "files before it are new" in said and "every later file are as they were" in said
    files = drive_files(page)
    assert not [p for p in files if ".tablelight-partial-" in p]
    assert files["code.py"] == USER_CODE and files["settings.toml"] == USER_SETTINGS  # written last: untouched


def test_a_read_back_that_differs_is_named(page: Any) -> None:
    put(page, board_with_user_files())
    assert choose_drive(page) == "planned"
    page.evaluate("""() => {
      // the drive corrupts tl_link.py: what is read back is not what was written
      const create = FileSystemFileHandle.prototype.createWritable;
      FileSystemFileHandle.prototype.createWritable = async function (...args) {
        const out = await create.apply(this, args);
        if (this.name.endsWith("tl_link.py")) {
          const write = out.write.bind(out);
          out.write = (chunk) => write(new Uint8Array(chunk).map((b, i) => (i === 0 ? b ^ 1 : b)));
        }
        return out;
      };
    }""")
    page.click("#setup-install")
    assert wait_step(page, "done", "failed") == "failed"
    assert status(page).startswith("Read back from CIRCUITPY, these files differ from what was written: lib/tl_link.py.")


def test_a_board_unplugged_before_writing_is_said(page: Any) -> None:
    put(page, board_with_user_files())
    assert choose_drive(page) == "planned"
    page.evaluate("async () => (await navigator.storage.getDirectory()).removeEntry('CIRCUITPY', { recursive: true })")
    page.click("#setup-install")
    assert wait_step(page, "done", "failed") == "failed"
    assert "The board's drive went away while writing" in status(page) and "nothing on the drive changed" in status(page)


def test_a_uf2_bootloader_drive_gets_circuitpython_and_refuses_another_chips(page: Any, tmp_path: Path) -> None:
    put(page, {"INFO_UF2.TXT": FEATHER_INFO_UF2.encode(), "CURRENT.UF2": b"\0" * 512})
    assert choose_drive(page) == "bootloader"
    assert "bootloader drive of an Adafruit Feather nRF52840 Express: CircuitPython is not on it yet" in status(page)
    assert "https://circuitpython.org/board/feather_nrf52840_express/" in status(page)
    other = uf2_file(tmp_path / "circuitpython-rp2040.uf2", family=0xE48BFF56)
    page.set_input_files("#setup-uf2-file", str(other))
    assert wait_step(page, "failed") == "failed"
    assert status(page).startswith("circuitpython-rp2040.uf2 is for chip family 0xE48BFF56, not the Adafruit "
                                   "Feather nRF52840 Express's 0xADA52840")
    assert "circuitpython-rp2040.uf2" not in drive_files(page)
    assert choose_drive(page) == "bootloader"
    right = uf2_file(tmp_path / "adafruit-circuitpython-feather_nrf52840_express-en_US-9.2.1.uf2")
    page.set_input_files("#setup-uf2-file", str(right))
    assert wait_step(page, "uf2-copied", "failed") == "uf2-copied", status(page)
    assert drive_files(page)[right.name] == right.read_bytes()
    assert "Choose that drive to install tablelight" in status(page)


def test_the_setup_section_at_phone_size(page: Any, tmp_path: Path) -> None:
    put(page, board_with_user_files())
    assert choose_drive(page) == "planned"
    page.click("#setup-install")
    assert wait_step(page, "done") == "done"
    page.locator("#board-setup").scroll_into_view_if_needed()
    shot = tmp_path / "app-setup-board.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 0
    keep_screenshot(shot, "app-setup-board.png")
