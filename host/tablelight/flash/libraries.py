"""The Adafruit libraries the firmware needs on the board, pinned (hardware/boards/libraries.json).

Each comes from its PyPI wheel (which holds the .py sources), checked against a pinned sha256, and
is kept in a cache folder so flashing works offline once a library has been fetched:
``$TABLELIGHT_CACHE`` if set, else the wheels the app's slim wheel carries (:data:`BUILT_IN`), else
the user cache folder (platformdirs: ~/.cache/tablelight on Linux, ~/Library/Caches/tablelight on
macOS, %LOCALAPPDATA%\\tablelight\\Cache on Windows).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path


from tablelight.flash import FlashError
from tablelight.paths import DATA, HARDWARE

PINS = HARDWARE / "boards" / "libraries.json"
PYPI_SIMPLE = "https://pypi.org/simple/{name}/"  # the index pip reads (PEP 691 JSON form)
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
#: The app's slim wheel carries the pinned wheels here (tablelight.app.wheel), so its page sets a
#: board up offline; a checkout and a full install have no such folder and use the cache.
BUILT_IN = DATA / "wheels"


@dataclass(frozen=True)
class Library:
    name: str
    version: str
    wheel: str
    sha256: str
    files: tuple[str, ...]
    when: str  # "always" or "ble"


def pinned() -> list[Library]:
    data = json.loads(PINS.read_text())
    return [Library(d["name"], d["version"], d["wheel"], d["sha256"], tuple(d["files"]), d["when"])
            for d in data["libraries"]]


def needed(ble: bool) -> list[Library]:
    return [lib for lib in pinned() if lib.when == "always" or (ble and lib.when == "ble")]


def cache_dir() -> Path:
    override = os.environ.get("TABLELIGHT_CACHE")
    if override:
        return Path(override)
    if BUILT_IN.is_dir():
        return BUILT_IN
    import platformdirs  # only a host has a user cache folder (the app's page gets the wheels built in)

    return Path(platformdirs.user_cache_dir("tablelight")) / "wheels"


def _download(lib: Library, timeout: float) -> bytes:
    try:
        request = urllib.request.Request(PYPI_SIMPLE.format(name=lib.name), headers={"Accept": SIMPLE_JSON})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            index = json.load(answer)
        urls = [urllib.parse.urljoin(answer.url, f["url"]) for f in index["files"] if f["filename"] == lib.wheel]
        if not urls:
            raise FlashError(f"PyPI has no file {lib.wheel} for {lib.name} {lib.version}")
        with urllib.request.urlopen(urls[0], timeout=timeout) as answer:
            data: bytes = answer.read()
            return data
    except (urllib.error.URLError, OSError, ValueError, KeyError) as error:
        raise FlashError(f"{lib.name} {lib.version} is not in the cache ({cache_dir()}) and cannot be downloaded "
                         f"from PyPI ({getattr(error, 'reason', error)}): connect once, or put {lib.wheel} into "
                         "that folder (pip download --no-deps " f"{lib.name}=={lib.version})") from None


def wheel_bytes(lib: Library, offline: bool = False, timeout: float = 30.0) -> bytes:
    """The library's wheel, from the cache or PyPI, checked against its pinned hash."""
    cached = cache_dir() / lib.wheel
    if cached.exists():
        data = cached.read_bytes()
        if hashlib.sha256(data).hexdigest() == lib.sha256:
            return data
        cached.unlink()  # damaged or replaced: never install it
    if offline:
        raise FlashError(f"{lib.wheel} is not in the cache ({cache_dir()}) and --offline forbids downloading it")
    data = _download(lib, timeout)
    digest = hashlib.sha256(data).hexdigest()
    if digest != lib.sha256:
        raise FlashError(f"the {lib.wheel} downloaded from PyPI has sha256 {digest}, not the pinned {lib.sha256}: "
                         "refusing to install it")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(cached.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, cached)
    return data


def board_files(lib: Library, wheel: bytes) -> dict[str, bytes]:
    """The files of ``lib`` that go into CIRCUITPY/lib, as {"lib/<path>": content}."""
    out: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        names = [n for n in archive.namelist() if not n.endswith("/") and "__pycache__" not in n]
        for wanted in lib.files:
            members = [n for n in names if n == wanted or n.startswith(wanted.rstrip("/") + "/")]
            if not members:
                raise FlashError(f"{lib.wheel} has no {wanted}: the pin in {PINS} is wrong")
            for name in members:
                out[f"lib/{name}"] = archive.read(name)
    return out


def library_files(ble: bool, offline: bool = False) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for lib in needed(ble):
        files.update(board_files(lib, wheel_bytes(lib, offline)))
    return files


def fetch_all(offline: bool = False) -> list[Path]:
    """Fill the cache with every pinned wheel (for flashing offline later)."""
    for lib in pinned():
        wheel_bytes(lib, offline)
    return [cache_dir() / lib.wheel for lib in pinned()]
