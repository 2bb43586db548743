"""What belongs on a board's CIRCUITPY drive: the firmware, its settings, the pinned libraries."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablelight.flash import FlashError, libraries
from tablelight.flash.drive_view import DriveView, as_view
from tablelight.flash.settings import ble_enabled, settings_text, test_input_enabled
from tablelight.paths import FIRMWARE


@dataclass(frozen=True)
class Options:
    layout: str | None = None  # None: keep the board's settings.toml (farlander on a new board, or one naming no layout)
    ble: bool | None = None  # None: as the board's settings.toml says
    test_input: bool | None = None  # None: as the board's settings.toml says (off on a new board)
    offline: bool = False


def firmware_files() -> dict[str, bytes]:
    if not (FIRMWARE / "code.py").exists():
        raise FlashError(f"the firmware is missing from {FIRMWARE}: reinstall tablelight")
    files = {name: (FIRMWARE / name).read_bytes() for name in ("boot.py", "code.py")}
    for source in sorted((FIRMWARE / "lib").glob("*.py")):
        files[f"lib/{source.name}"] = source.read_bytes()  # read_bytes follows links: the board gets content
    return files


def read_settings(drive: Path | DriveView) -> str | None:
    view = as_view(drive)
    data = view.read("settings.toml")
    if data is None:
        return None
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        raise FlashError(f"cannot read {view.where('settings.toml')}: {error}") from None


#: The files CircuitPython runs by itself that tablelight writes; a user's own one is kept beside it.
RUN_FILES = ("code.py", "boot.py")
#: tablelight's code.py and boot.py (this version's or an older one's) say so at the top.
OUR_MARK = b"tablelight"


def backup_name(name: str, taken: set[str]) -> str:
    """``code-before-tablelight.py`` (CircuitPython never runs it), numbered if that is taken."""
    stem = name.removesuffix(".py")
    candidate = f"{stem}-before-tablelight.py"
    number = 2
    while candidate in taken:
        candidate = f"{stem}-before-tablelight-{number}.py"
        number += 1
    return candidate


def backup_names(names: list[str]) -> set[str]:
    """The copies of a user's code.py/boot.py among a drive's top-level file names."""
    return {n for n in names if fnmatch.fnmatch(n, "*-before-tablelight*.py")}


def keep_user_code(drive: Path | DriveView, files: dict[str, bytes]) -> dict[str, str]:
    """A code.py or boot.py on the drive that is not tablelight's is copied beside it first (the
    copy goes in ``files``, written and read back like the rest). Returns {name: backup name}."""
    view = as_view(drive)
    kept: dict[str, str] = {}
    for name in RUN_FILES:
        try:
            old = view.read(name)
        except FlashError:
            if name in view.names():
                raise
            continue  # a folder named code.py: CircuitPython does not run it either
        if old is None:
            continue
        if old == files.get(name) or OUR_MARK in old[:400]:
            continue
        taken = backup_names(view.names())
        same = next((n for n in sorted(taken) if view.read(n) == old), None)
        backup = same or backup_name(name, taken)
        files[backup] = old
        kept[name] = backup
    return kept


def drive_files(drive: Path | DriveView, board: dict[str, Any], options: Options) -> dict[str, bytes]:
    """Every file tablelight puts on ``drive``; settings.toml as the board has it unless it must change."""
    view = as_view(drive)
    old = read_settings(view)
    if options.ble and not board.get("ble"):
        raise FlashError(f"the {board['name']} has no Bluetooth LE radio: flash without --ble")
    text = settings_text(board, old, options.layout, options.ble, options.test_input)
    files = firmware_files()
    if text is not None:
        files["settings.toml"] = text.encode()
    elif old is not None:
        # Kept as it is, but still part of the firmware: --verify counts and checks it like every other file.
        files["settings.toml"] = view.read("settings.toml") or b""
    effective = text if text is not None else old or ""
    if ble_enabled(effective) and test_input_enabled(effective):
        raise FlashError("test input and Bluetooth LE together would let anyone in radio range press this board's "
                         "keys: flash a test bench with --test-input --no-ble, a table's board with --no-test-input")
    files.update(libraries.library_files(ble_enabled(effective), options.offline))
    return files
