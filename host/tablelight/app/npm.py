"""The npm packages the app is built from (Pyodide, the QR code writer and reader), pinned as
package-lock.json pins them, without a checkout or Node.

:data:`PINS` (``npm_pins.json``, shipped in the package; a test keeps it equal to package-lock.json)
holds each package's version and integrity hash. In a checkout where ``npm ci`` ran,
``node_modules`` holds them; otherwise each is fetched from the npm registry as npm would (the
tarball at ``{registry}/{name}/-/{name}-{version}.tgz``), checked against its sha512 integrity
hash, unpacked and kept in the cache folder (``$TABLELIGHT_CACHE/npm`` if set, else the user cache
folder's ``npm``), so later builds are offline. ``$TABLELIGHT_NPM_REGISTRY`` names another registry
(a mirror).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tablelight.core.errors import SetupError

PINS = Path(__file__).resolve().parent / "npm_pins.json"
#: The checkout's node_modules (scripts/test.sh runs `npm ci` there); none in an installed package.
NODE_MODULES = Path(__file__).resolve().parents[3] / "node_modules"
REGISTRY = "https://registry.npmjs.org"
FETCH_TIMEOUT_S = 60
#: Pyodide's tarball is about 10 MB; nothing the app uses is near this.
MAX_TARBALL = 200 * 1024 * 1024


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    integrity: str  # "sha512-<base64>", as package-lock.json has it


def pins() -> dict[str, Pin]:
    data = json.loads(PINS.read_text(encoding="utf-8"))
    return {name: Pin(name, entry["version"], entry["integrity"]) for name, entry in data["packages"].items()}


def cache_dir() -> Path:
    override = os.environ.get("TABLELIGHT_CACHE")
    if override:
        return Path(override) / "npm"
    import platformdirs

    return Path(platformdirs.user_cache_dir("tablelight")) / "npm"


def tarball_path(pin: Pin) -> str:
    """Where a registry keeps the package's tarball (npm's layout)."""
    return f"/{pin.name}/-/{pin.name.rsplit('/', 1)[-1]}-{pin.version}.tgz"


def tarball_url(pin: Pin) -> str:
    return os.environ.get("TABLELIGHT_NPM_REGISTRY", REGISTRY).rstrip("/") + tarball_path(pin)


def integrity_holds(data: bytes, integrity: str) -> bool:
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        return False
    return base64.b64encode(hashlib.sha512(data).digest()).decode() == expected


def installed(name: str) -> Path | None:
    """The checkout's ``node_modules/<name>`` when it holds the pinned version."""
    pin = pins()[name]
    folder = NODE_MODULES / name
    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None
    return folder if version == pin.version else None


def package(name: str) -> Path:
    """The folder of the pinned npm package ``name``: the checkout's, the cache's, or fetched now."""
    found = installed(name)
    if found is not None:
        return found
    pin = pins()[name]
    kept = cache_dir() / f"{name.replace('/', '+')}-{pin.version}"
    if (kept / "package.json").is_file():
        return kept
    data = fetch(pin)
    unpack(data, kept)
    return kept


def fetch(pin: Pin) -> bytes:
    url = tarball_url(pin)
    what = f"the npm package {pin.name} {pin.version}"
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as answer:
            data = answer.read(MAX_TARBALL + 1)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", None) or error
        raise SetupError(f"could not fetch {what} from {url} ({reason}): connect this machine to the internet once "
                         f"(it is then kept in {cache_dir()}), or run `npm ci` in a tablelight checkout") from None
    if len(data) > MAX_TARBALL or not integrity_holds(data, pin.integrity):
        raise SetupError(f"{what} from {url} does not match its pinned integrity hash: nothing was kept; try again, "
                         "or set TABLELIGHT_NPM_REGISTRY to another registry")
    return data


def unpack(data: bytes, folder: Path) -> None:
    """The tarball's ``package/`` into ``folder``, whole or not at all (a temporary folder renamed)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(temp, filter="data")  # no links out, no absolute paths, no devices
            else:  # Python before 3.11.4: plain files and folders inside the archive only
                members = archive.getmembers()
                if any(not (m.isfile() or m.isdir()) or m.name.startswith("/") or ".." in m.name.split("/")
                       for m in members):
                    raise SetupError(f"the npm tarball for {folder.name} holds links or paths outside it")
                archive.extractall(temp, members)
        unpacked = temp / "package"
        if not (unpacked / "package.json").is_file():
            raise SetupError(f"the npm tarball for {folder.name} holds no package/package.json")
        try:
            unpacked.rename(folder)
        except OSError:
            if not (folder / "package.json").is_file():  # another build kept it meanwhile: that one stands
                raise
    finally:
        shutil.rmtree(temp, ignore_errors=True)
