"""UF2 files and UF2 bootloader drives, from their bytes: which chip families a .uf2 is for, which
board a bootloader's INFO_UF2.TXT names. A .uf2 file is 512-byte blocks (magic numbers, a target
address, 256 bytes of data and, with flag 0x2000, the chip family id; https://github.com/microsoft/uf2).

Pure (no serial port, no files): ``tablelight flash --circuitpython`` and the app's page both use it.
"""

from __future__ import annotations

import re
import struct
from typing import Any

from tablelight.flash import FlashError

UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000
_BOARD_ID = re.compile(r"^Board-ID:\s*(\S+)", re.MULTILINE)


def families(data: bytes, name: str) -> set[int]:
    """The chip family ids the .uf2 ``data`` (called ``name`` in messages) is for (empty when its blocks name none)."""
    if not data or len(data) % 512:
        raise FlashError(f"{name} is not a UF2 file (its size, {len(data)} bytes, is not a multiple of 512): "
                         "download the .uf2 of CircuitPython for your board")
    found = set()
    for start in range(0, len(data), 512):
        magic0, magic1, flags, _, _, _, _, family = struct.unpack_from("<8I", data, start)
        (end,) = struct.unpack_from("<I", data, start + 508)
        if (magic0, magic1) != UF2_MAGIC or end != UF2_END:
            raise FlashError(f"{name} is not a UF2 file (block {start // 512} has no UF2 magic numbers)")
        if flags & FLAG_FAMILY:
            found.add(family)
    return found


def check_for_board(data: bytes, name: str, board: dict[str, Any]) -> None:
    """FlashError unless the .uf2 is for ``board``'s chip family (a file naming no family passes)."""
    family = int(board["uf2"]["family_id"], 16)
    named = families(data, name)
    if named and family not in named:
        names = ", ".join(f"0x{f:08X}" for f in sorted(named))
        short = name.replace("\\", "/").rsplit("/", 1)[-1]
        raise FlashError(f"{short} is for chip family {names}, not the {board['name']}'s 0x{family:08X}: "
                         f"download the .uf2 from https://circuitpython.org/board/{board['circuitpython_board_id']}/")


def board_from_info(info: str, where: str, boards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The supported board whose bootloader wrote ``info`` (INFO_UF2.TXT, at ``where``), by its Board-ID."""
    found = _BOARD_ID.search(info)
    if found is None:
        raise FlashError(f"{where}/INFO_UF2.TXT names no Board-ID: is {where} a UF2 bootloader drive?")
    for board in boards.values():
        if found.group(1) in board["uf2"]["board_ids"]:
            return board
    known = ", ".join(f"{b['name']} ({', '.join(b['uf2']['board_ids'])})" for b in boards.values())
    raise FlashError(f"the bootloader drive {where} is a board with Board-ID {found.group(1)}, which tablelight does "
                     f"not support (supported: {known}); nothing was copied")
