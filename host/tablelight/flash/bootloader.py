"""Installing CircuitPython itself through the board's UF2 bootloader.

The 1200-baud touch (open the console port at 1200 baud and close it) makes CircuitPython
restart into its bootloader, which shows a small drive with INFO_UF2.TXT ("Board-ID: ...").
Copying a .uf2 file onto that drive flashes it; the bootloader then restarts into CircuitPython,
whose CIRCUITPY drive appears. A .uf2 file is 512-byte blocks (magic numbers, a target address,
256 bytes of data and, with flag 0x2000, the chip family id; https://github.com/microsoft/uf2).
"""

from __future__ import annotations

import re
import shutil
import struct
import time
from pathlib import Path
from typing import Any

import serial

from tablelight.flash import FlashError

UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000
_BOARD_ID = re.compile(r"^Board-ID:\s*(\S+)", re.MULTILINE)


def uf2_families(path: Path) -> set[int]:
    """The chip family ids a .uf2 file is for (empty when its blocks name none)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FlashError(f"cannot read {path}: {error.strerror or error}") from None
    if not data or len(data) % 512:
        raise FlashError(f"{path} is not a UF2 file (its size, {len(data)} bytes, is not a multiple of 512): "
                         "download the .uf2 of CircuitPython for your board")
    families = set()
    for start in range(0, len(data), 512):
        magic0, magic1, flags, _, _, number, total, family = struct.unpack_from("<8I", data, start)
        (end,) = struct.unpack_from("<I", data, start + 508)
        if (magic0, magic1) != UF2_MAGIC or end != UF2_END:
            raise FlashError(f"{path} is not a UF2 file (block {start // 512} has no UF2 magic numbers)")
        if flags & FLAG_FAMILY:
            families.add(family)
    return families


def check_uf2_for_board(path: Path, board: dict[str, Any]) -> None:
    family = int(board["uf2"]["family_id"], 16)
    families = uf2_families(path)
    if families and family not in families:
        names = ", ".join(f"0x{f:08X}" for f in sorted(families))
        raise FlashError(f"{path.name} is for chip family {names}, not the {board['name']}'s 0x{family:08X}: "
                         f"download the .uf2 from https://circuitpython.org/board/{board['circuitpython_board_id']}/")


def touch_1200(console: str) -> None:
    """Ask CircuitPython on ``console`` to restart into its bootloader."""
    try:
        port = serial.Serial(console, baudrate=1200)
    except (serial.SerialException, OSError, ValueError) as error:
        raise FlashError(f"cannot open the console port {console} at 1200 baud ({error}): double-tap the "
                         "board's reset button instead, then run the same command again") from None
    try:
        port.dtr = False  # the board acts on DTR dropping at 1200 baud; closing drops it too (HUPCL)
    except (serial.SerialException, OSError):
        pass  # a port without modem lines (a pty): closing is the touch
    try:
        port.close()
    except (serial.SerialException, OSError):
        pass  # the board may already be gone: it is restarting


def hard_reset(console: str) -> None:
    """Restart the board through its REPL console: Ctrl-C stops code.py, a key enters the REPL,
    microcontroller.reset() restarts it as the reset button does (so a new boot.py takes effect)."""
    try:
        with serial.Serial(console, baudrate=115200, timeout=0.5, write_timeout=2) as port:
            port.write(b"\x03")
            port.flush()
            time.sleep(0.3)  # let code.py stop before the REPL line arrives
            port.write(b"\x03\r\nimport microcontroller; microcontroller.reset()\r\n")
            port.flush()
    except (serial.SerialException, OSError, ValueError) as error:
        raise FlashError(f"the files are on the board, but resetting it through {console} failed ({error}): "
                         "press its reset button once") from None


def uf2_board(drive: Path, boards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The supported board whose bootloader shows ``drive`` (by INFO_UF2.TXT's Board-ID)."""
    try:
        info = (drive / "INFO_UF2.TXT").read_text(errors="replace")
    except OSError as error:
        raise FlashError(f"cannot read {drive / 'INFO_UF2.TXT'}: {error.strerror or error}") from None
    found = _BOARD_ID.search(info)
    if found is None:
        raise FlashError(f"{drive / 'INFO_UF2.TXT'} names no Board-ID: is {drive} a UF2 bootloader drive?")
    for board in boards.values():
        if found.group(1) in board["uf2"]["board_ids"]:
            return board
    known = ", ".join(f"{b['name']} ({', '.join(b['uf2']['board_ids'])})" for b in boards.values())
    raise FlashError(f"the bootloader drive {drive} is a board with Board-ID {found.group(1)}, which tablelight does "
                     f"not support (supported: {known}); nothing was copied")


def copy_uf2(uf2: Path, drive: Path) -> None:
    """Copy the .uf2 onto the bootloader drive. The bootloader restarts the board as soon as it has
    the last block, so the drive may vanish before the copy returns: that is success."""
    target = drive / uf2.name
    try:
        shutil.copyfile(uf2, target)
    except OSError as error:
        if drive.exists():
            raise FlashError(f"copying {uf2.name} to {drive} failed: {error.strerror or error}") from None
