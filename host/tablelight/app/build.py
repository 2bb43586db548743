"""``tablelight app build DIR``: the whole table as a static folder any web server can serve.

The folder holds the page (``index.html``, ``app.js``, ``app.css``, and the seat screen the
host-served pages use: :data:`SEAT_FILES`; ``phones.js`` links phones to it), a phone's seat page
(``seat.html``, ``seat_phone.js``: the same seat screen, no Pyodide, a WebRTC data channel to the
table's page), the pinned QR code libraries from npm (``vendor/``), the Web Worker that runs the
table (``worker.js``), the pinned Pyodide files from npm (the
version package-lock.json pins: the checkout's ``node_modules``, or fetched from the npm registry
and kept, :mod:`tablelight.app.npm`; the pages fetch nothing from a CDN), the slim tablelight wheel
(:mod:`tablelight.app.wheel`, its modules compiled to bytecode by that Pyodide's Python under
node, so a visit never compiles them), a service worker caching every file on the first visit (``sw.js``:
offline afterwards) and a web app manifest. The page's Content-Security-Policy allows scripts
from its own origin only, plus ``wasm-unsafe-eval`` for Pyodide's WebAssembly.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tablelight.app import npm
from tablelight.app.manifest import MANIFEST, check_ours, compress, remove_stale
from tablelight.app.wheel import build_wheel
from tablelight.core.errors import SetupError

STATIC = Path(__file__).resolve().parent / "static"
#: What the worker needs of the npm package (no package wheels: the app uses none).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
#: The page's policy (a meta tag; ``tablelight app serve`` also sends it as a header, which the
#: worker's script needs: a worker does not inherit the page's meta tag).
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
#: The browser libraries the pages use, from npm (package-lock.json pins them): the QR code
#: writer (the table's join codes, a phone's answer) and reader (where a browser has no BarcodeDetector).
VENDOR_FILES = {"qrcode.mjs": ("qrcode-generator", "dist/qrcode.mjs"), "jsQR.js": ("jsqr", "dist/jsQR.js")}
#: The page asks it which address phones open the app at (``{"url": null}`` here: this folder's own;
#: ``tablelight app serve --share`` answers it with the shared address).
PHONES_ADDRESS = "phones-address.json"
#: Pages that get the policy as a meta tag.
PAGES = ("index.html", "seat.html")
#: Page files whose text gets the build's values.
TEMPLATED = {*PAGES, "sw.js"}
#: The players' screens are the host-served pages' own: the seat screen's markup, scripts and styles
#: are copied from the web package, so a seat looks and works the same whichever runs the table.
WEB = Path(__file__).resolve().parents[1] / "web"
SEAT_SCREEN = WEB / "templates" / "seat_screen.html"
SEAT_FILES = ("common.js", "guide.js", "gameover.js", "drawing.js", "seat.js", "style.css", "drawing.css")


#: Compiles the wheel's modules with Pyodide's own Python (node runs it at build time).
COMPILER = Path(__file__).resolve().parent / "compile_wheel.mjs"
COMPILE_TIMEOUT_S = 120


@dataclass(frozen=True)
class Built:
    folder: Path
    version: str
    pyodide: str
    files: int
    size: int
    #: Why the wheel holds no bytecode ("" when it does): pages then compile its modules each visit.
    uncompiled: str = ""


def find_pyodide(given: Path | None = None) -> Path:
    """The npm package's folder: ``given``, or the pinned one (the checkout's node_modules, the
    cache, or fetched now: :func:`tablelight.app.npm.package`)."""
    folder = given or npm.package("pyodide")
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise SetupError(f"Pyodide is not installed at {folder} (missing {', '.join(missing)}): give --pyodide the "
                         "folder of the npm package pyodide, or leave it out (the pinned one is fetched)")
    return folder


def find_vendor() -> dict[str, Path]:
    """The npm files the pages use (see :data:`VENDOR_FILES`), or a :class:`SetupError` naming what is missing."""
    found = {name: npm.package(package) / path for name, (package, path) in VENDOR_FILES.items()}
    missing = [str(path) for path in found.values() if not path.is_file()]
    if missing:
        raise SetupError(f"the pages' QR code libraries are incomplete ({', '.join(missing)} missing)")
    return found


def build_app(folder: Path, pyodide: Path | None = None, force: bool = False) -> Built:
    """Write the app into ``folder`` (created; files of an earlier build replaced). A folder holding
    files no build wrote is refused unless ``force`` (:func:`tablelight.app.manifest.check_ours`)."""
    earlier = check_ours(folder, force)
    source = find_pyodide(pyodide)
    vendor = find_vendor()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyodide").mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, folder / "pyodide" / name)
    (folder / "vendor").mkdir(exist_ok=True)
    for name, path in vendor.items():
        shutil.copyfile(path, folder / "vendor" / name)
    pyodide_version = str(json.loads((source / "package.json").read_text(encoding="utf-8"))["version"])
    wheel = build_wheel(folder)
    bytecode, uncompiled = compile_in_pyodide(source, wheel)
    if bytecode:
        wheel = build_wheel(folder, bytecode)
    plain = [p for p in sorted(STATIC.iterdir()) if p.is_file() and p.name not in TEMPLATED]
    plain += [WEB / "static" / name for name in SEAT_FILES]
    for path in plain:
        shutil.copyfile(path, folder / path.name)
    files = sorted([f"pyodide/{name}" for name in PYODIDE_FILES] + [f"vendor/{name}" for name in VENDOR_FILES]
                   + [wheel.name] + [p.name for p in plain] + [MANIFEST, *PAGES])
    digest = hashlib.sha256()
    for name in files:
        if name not in (MANIFEST, *PAGES):
            digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    for path in sorted(STATIC / name for name in TEMPLATED) + [SEAT_SCREEN]:
        digest.update(path.read_bytes())
    version = digest.hexdigest()[:16]
    for name in PAGES:  # the table's page and a phone's seat page: the policy, the seat screen's markup
        page = (STATIC / name).read_text(encoding="utf-8")
        page = page.replace("__CSP__", CSP).replace("__SEAT_SCREEN__", SEAT_SCREEN.read_text(encoding="utf-8"))
        (folder / name).write_text(page, encoding="utf-8")
    cached = ["./", *files]
    sw = (STATIC / "sw.js").read_text(encoding="utf-8")
    (folder / "sw.js").write_text(sw.replace("__VERSION__", f"tablelight-{version}").replace("__FILES__", json.dumps(cached)),
                                  encoding="utf-8")
    # a static host answers the page's question with "no shared address" (`app serve --share` names one)
    (folder / PHONES_ADDRESS).write_text('{"url": null}\n', encoding="utf-8")
    written = sorted([*files, "sw.js", PHONES_ADDRESS, *compress(folder, [n for n in files if n != MANIFEST])])
    about = {"version": version, "wheel": wheel.name, "pyodide": pyodide_version, "files": written}
    (folder / MANIFEST).write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")
    remove_stale(folder, earlier, written)
    size = sum((folder / name).stat().st_size for name in written)
    return Built(folder, version, pyodide_version, len(written), size, uncompiled)


def compile_in_pyodide(pyodide: Path, wheel: Path) -> tuple[dict[str, bytes], str]:
    """The wheel's modules as bytecode of Pyodide's Python (name in the wheel -> bytes), compiled
    under node by :data:`COMPILER`; or ``({}, why not)``: the app still works, each visit compiles
    them (about 0.1 s more to ``ready``)."""
    node = shutil.which("node")
    if node is None:
        return {}, "node is not installed"
    with tempfile.TemporaryDirectory(prefix="tablelight-pyc-") as temp:
        try:
            done = subprocess.run([node, str(COMPILER), str(pyodide), str(wheel), temp], capture_output=True,
                                  text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return {}, f"compiling under node took over {COMPILE_TIMEOUT_S} s"
        if done.returncode != 0:
            return {}, f"compiling under node failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
        root = Path(temp)
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.pyc"))}, ""
