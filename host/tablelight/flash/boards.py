"""The supported boards (hardware/boards/<id>.json) and what a CIRCUITPY drive says it is.

CircuitPython writes ``boot_out.txt`` at every start: its first line names the version
("Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Feather nRF52840 Express with nRF52840")
and, since CircuitPython 7, a line ``Board ID:feather_nrf52840_express``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablelight.flash import FlashError
from tablelight.flash.drive_view import DriveView, as_view
from tablelight.paths import HARDWARE

BOARDS = HARDWARE / "boards"
NOT_BOARDS = {"libraries.json"}

#: What to do when a drive has no boot_out.txt (the app's page says its own words for its own buttons).
NO_BOOT_OUT_HINT = ("A drive named like FTHR840BOOT is the bootloader: use --circuitpython FILE.uf2, or copy "
                    "CircuitPython's .uf2 onto it first)")
_VERSION = re.compile(r"CircuitPython (\d+)\.(\d+)\.(\d+)(\S*)")
_BOARD_ID = re.compile(r"^Board ID:\s*(\S+)", re.MULTILINE)


@dataclass(frozen=True)
class BootOut:
    """What boot_out.txt says."""

    version: tuple[int, int, int]
    version_text: str
    board_id: str
    board_name: str


def load_boards() -> dict[str, dict[str, Any]]:
    """Supported boards by CircuitPython board id."""
    boards = {}
    for path in sorted(BOARDS.glob("*.json")):
        if path.name in NOT_BOARDS:
            continue
        data = json.loads(path.read_text())
        boards[data["circuitpython_board_id"]] = data
    return boards


def read_boot_out(drive: Path | DriveView, bootloader_hint: str = NO_BOOT_OUT_HINT) -> BootOut:
    view = as_view(drive)
    data = view.read("boot_out.txt")
    if data is None:
        raise FlashError(f"{view.where()} has no boot_out.txt: it is not a CircuitPython drive (is the board running "
                         f"CircuitPython? {bootloader_hint})")
    return parse_boot_out(data.decode(errors="replace"), view.where("boot_out.txt"))


def parse_boot_out(text: str, where: Path | str = "boot_out.txt") -> BootOut:
    version = _VERSION.search(text)
    if version is None:
        raise FlashError(f"{where} does not name a CircuitPython version (first line: "
                         f"{text.splitlines()[0][:80] if text.strip() else 'empty'!r})")
    board = _BOARD_ID.search(text)
    if board is None:
        raise FlashError(f"{where} has no 'Board ID:' line: CircuitPython {version.group(0).split()[1]} is older "
                         "than tablelight supports; install CircuitPython 9 or 10 (https://circuitpython.org/downloads)")
    first = text.splitlines()[0]
    name = first.split(";", 1)[1].strip() if ";" in first else board.group(1)
    name = name.split(" with ")[0]
    numbers = (int(version.group(1)), int(version.group(2)), int(version.group(3)))
    return BootOut(numbers, version.group(0).split()[1], board.group(1), name)


def check_supported(boot: BootOut, boards: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The board's data, or a FlashError that says what to do."""
    boards = load_boards() if boards is None else boards
    board = boards.get(boot.board_id)
    if board is None:
        known = "; ".join(f"{b['name']} (board id {bid})" for bid, b in sorted(boards.items()))
        raise FlashError(f"this board is a {boot.board_name} (board id {boot.board_id}), which tablelight does not "
                         f"support: its pins, LED data line and radio are only known for {known}. Use one of those, "
                         "or describe yours in hardware/boards/<id>.json (docs/hardware.md)")
    majors = board["circuitpython_versions"]
    if str(boot.version[0]) not in majors:
        raise FlashError(f"the {board['name']} runs CircuitPython {boot.version_text}; tablelight needs CircuitPython "
                         f"{' or '.join(majors)}: install it with `tablelight flash --circuitpython FILE.uf2` (the "
                         f".uf2 for board id {boot.board_id} from https://circuitpython.org/board/{boot.board_id}/)")
    return board
