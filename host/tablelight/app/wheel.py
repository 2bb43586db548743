"""The slim tablelight wheel the app's worker installs in Pyodide: pure Python, no dependencies.

It holds what a table needs in a page and nothing that needs a server, a serial port or a
radio: the rules contract and the games (with their entry points, so the registry finds them as
it does in an installed tablelight), the table core, the board protocol and handshake, the wire
format (the firmware's own files: the links are followed, their content copied), the desk's
snapshots, this package's engine, the board layouts, and what setting a board up needs (the
plan of ``tablelight flash``, the firmware's files, the pinned Adafruit libraries' wheels). Written directly as a zip (a wheel is
one), so building the app needs no build backend and no network.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import tablelight
from tablelight.flash import libraries

#: Packages copied whole (every .py file, at any depth), under tablelight/.
WHOLE = ("core", "games", "table", "wire")
#: Single modules under tablelight/ (the rest of those packages needs a server, pyserial, bleak...).
MODULES = (
    "__init__.py", "paths.py", "py.typed",
    "app/__init__.py", "app/engine.py", "app/board_link.py", "app/setup_board.py",
    "board/__init__.py", "board/protocol.py", "board/handshake.py", "board/events.py", "board/errors.py",
    "board/scene.py",
    "links/__init__.py", "links/base.py",  # the handshake's Link protocol (typing only)
    "web/__init__.py", "web/desk.py", "web/places.py", "web/pulse.py",
    # setting a board up from the page: the plan `tablelight flash` makes (no serial port, no tqdm)
    "flash/__init__.py", "flash/boards.py", "flash/drive_view.py", "flash/install.py", "flash/libraries.py",
    "flash/plan.py", "flash/report.py", "flash/settings.py", "flash/uf2.py",
)
#: Data the faces read: the board layouts (through the package's data link, as paths.py finds them);
#: and what setting a board up reads: the supported boards and the library pins.
DATA = ("data/hardware/layouts", "data/hardware/boards")
#: The firmware a board gets, every file as `tablelight flash` reads it (paths.FIRMWARE).
FIRMWARE = ("data/firmware/boot.py", "data/firmware/code.py", "data/firmware/settings.toml")
FIRMWARE_LIB = "data/firmware/lib"
#: The kinds of file taken from WHOLE (code and the data it reads; no notes, no bytecode).
KEPT_SUFFIXES = (".py", ".json", ".toml")


def wheel_name() -> str:
    return f"tablelight-{tablelight.__version__}-py3-none-any.whl"


def wheel_files(root: Path | None = None) -> Iterator[tuple[str, Path]]:
    """(name in the wheel, file to read) for every file the slim wheel carries."""
    root = root or Path(tablelight.__file__).resolve().parent
    for package in WHOLE:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix in KEPT_SUFFIXES:
                yield f"tablelight/{path.relative_to(root).as_posix()}", path
    for name in MODULES:
        yield f"tablelight/{name}", root / name
    for folder in DATA:
        for path in sorted((root / folder).glob("*.json")):
            yield f"tablelight/{folder}/{path.name}", path
    for name in FIRMWARE:
        yield f"tablelight/{name}", root / name
    for path in sorted((root / FIRMWARE_LIB).glob("*.py")):
        yield f"tablelight/{FIRMWARE_LIB}/{path.name}", path


def library_wheels() -> Iterator[tuple[str, bytes]]:
    """(name in the wheel, bytes) of each pinned Adafruit library's wheel, sha256-checked (from the
    cache, or PyPI once: flash.libraries), where flash.libraries.BUILT_IN finds them in the page."""
    for lib in libraries.pinned():
        yield f"tablelight/data/wheels/{lib.wheel}", libraries.wheel_bytes(lib)


def _entry_points() -> str:
    from tablelight.core.registry import ENTRY_POINT_GROUP, game_entries

    built_in = sorted(name for name, entry in game_entries().items() if entry.engine.startswith("tablelight.games."))
    lines = [f"[{ENTRY_POINT_GROUP}]", *(f"{name} = tablelight.games.{name}:GAME" for name in built_in)]
    return "\n".join(lines) + "\n"


def build_wheel(folder: Path, bytecode: dict[str, bytes] | None = None) -> Path:
    """Write the slim wheel into ``folder``; returns its path. The same sources give the same bytes.

    ``bytecode``: compiled modules to add (name in the wheel -> .pyc bytes, see
    :func:`tablelight.app.build.compile_in_pyodide`), so the page imports without compiling."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / wheel_name()
    version = tablelight.__version__
    info = f"tablelight-{version}.dist-info"
    record: list[str] = []
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as wheel:

        def put(name: str, data: bytes) -> None:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")

        for name, path in wheel_files():
            put(name, path.read_bytes())  # read_bytes follows the wire format's links
        for name, data in library_wheels():
            put(name, data)
        for name, data in sorted((bytecode or {}).items()):
            if not name.startswith("tablelight/data/"):  # the board's firmware is not run in the page
                put(name, data)
        put(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: tablelight\nVersion: {version}\n"
            "Summary: tablelight for a web page (Pyodide): rules engines, table core, board protocol\n".encode())
        put(f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tablelight app build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        put(f"{info}/entry_points.txt", _entry_points().encode())
        put(f"{info}/top_level.txt", b"tablelight\n")
        record.append(f"{info}/RECORD,,")
        entry = zipfile.ZipInfo(f"{info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        entry.external_attr = 0o644 << 16
        wheel.writestr(entry, "\n".join(record) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    return target
