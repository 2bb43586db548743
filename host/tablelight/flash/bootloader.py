"""Installing CircuitPython itself through the board's UF2 bootloader.

The 1200-baud touch (open the console port at 1200 baud and close it) makes CircuitPython
restart into its bootloader, which shows a small drive with INFO_UF2.TXT ("Board-ID: ...").
Copying a .uf2 file onto that drive flashes it; the bootloader then restarts into CircuitPython,
whose CIRCUITPY drive appears. Reading .uf2 files and INFO_UF2.TXT is :mod:`tablelight.flash.uf2`'s.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import serial

from tablelight.flash import FlashError, uf2


def uf2_families(path: Path) -> set[int]:
    """The chip family ids a .uf2 file is for (empty when its blocks name none)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FlashError(f"cannot read {path}: {error.strerror or error}") from None
    return uf2.families(data, str(path))


def check_uf2_for_board(path: Path, board: dict[str, Any]) -> None:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FlashError(f"cannot read {path}: {error.strerror or error}") from None
    uf2.check_for_board(data, path.name, board)


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
    return uf2.board_from_info(info, str(drive), boards)


def copy_uf2(uf2: Path, drive: Path) -> None:
    """Copy the .uf2 onto the bootloader drive. The bootloader restarts the board as soon as it has
    the last block, so the drive may vanish before the copy returns: that is success."""
    target = drive / uf2.name
    try:
        shutil.copyfile(uf2, target)
    except OSError as error:
        if drive.exists():
            raise FlashError(f"copying {uf2.name} to {drive} failed: {error.strerror or error}") from None
