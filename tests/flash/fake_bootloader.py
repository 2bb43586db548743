"""A board for the CircuitPython install: a pty as its console port and folders as its drives.

Like a real board: opening the console at 1200 baud restarts it into the UF2 bootloader (a drive
with INFO_UF2.TXT appears); a whole .uf2 copied onto that drive makes it restart into
CircuitPython (the bootloader drive goes, CIRCUITPY with boot_out.txt comes).
"""

from __future__ import annotations

import os
import pty
import shutil
import struct
import termios
import threading
import time
import tty
from pathlib import Path

from .conftest import FEATHER_BOOT_OUT

FEATHER_INFO_UF2 = ("UF2 Bootloader 0.9.2 lib/nrfx (v2.0.0) lib/tinyusb (0.12.0-145-g9775e7691) lib/uf2 (remotes/"
                    "origin/configupdate-9-gadbb8c7)\nModel: Adafruit Feather nRF52840 Express\n"
                    "Board-ID: nRF52840-Feather-revD\nSoftDevice: S140 version 6.1.1\nDate: Nov  1 2024\n")


def uf2_file(path: Path, family: int = 0xADA52840, blocks: int = 8) -> Path:
    """A small but well-formed UF2 file (the real CircuitPython one is ~700 blocks)."""
    out = bytearray()
    for number in range(blocks):
        header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, 0x26000 + 256 * number, 256, number, blocks, family)
        out += header + bytes([number]) * 256 + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(bytes(out))
    return path


class FakeBoard:
    def __init__(self, mounts: Path, info_uf2: str = FEATHER_INFO_UF2, boot_out: str = FEATHER_BOOT_OUT) -> None:
        self.mounts = mounts
        self.info_uf2 = info_uf2
        self.boot_out = boot_out
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.console = os.ttyname(self.slave)
        self.touched = threading.Event()
        self.flashed: bytes | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> FakeBoard:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        os.close(self.master)
        os.close(self.slave)

    def enter_bootloader(self) -> None:
        """A double-tap of reset (or the 1200-baud touch): the bootloader drive appears."""
        staging = self.mounts / ".staging-boot"
        staging.mkdir()
        (staging / "INFO_UF2.TXT").write_text(self.info_uf2)
        (staging / "INDEX.HTM").write_text("<html></html>")
        staging.rename(self.mounts / "FTHR840BOOT")

    def run(self) -> None:
        while not self.stop.is_set():
            if not self.touched.is_set() and termios.tcgetattr(self.slave)[4] == termios.B1200:
                self.touched.set()
                self.enter_bootloader()
            boot = self.mounts / "FTHR840BOOT"
            for uf2 in boot.glob("*.uf2") if boot.exists() else ():
                data = uf2.read_bytes()
                if data and len(data) % 512 == 0 and struct.unpack_from("<I", data, len(data) - 512 + 24)[0] == \
                        len(data) // 512:  # the last block arrived: restart into the new CircuitPython
                    self.flashed = data
                    shutil.rmtree(boot)
                    staging = self.mounts / ".staging-cp"
                    staging.mkdir()
                    (staging / "boot_out.txt").write_text(self.boot_out)
                    staging.rename(self.mounts / "CIRCUITPY")
            time.sleep(0.01)
