# mypy: ignore-errors
# (a stand-in for Adafruit's adafruit_ble in the simulated board: the "radio" is a second
#  pseudo-terminal, fd in TL_SIM_BLE_FD, so a host can reach the firmware's BLE path through it)
"""Fake UARTService over a pty; like the real one it sends in 20-byte pieces (default ATT MTU)."""

import fcntl
import os
import struct
import termios

CHUNK = 20


class UARTService:
    def __init__(self) -> None:
        self._fd = int(os.environ.get("TL_SIM_BLE_FD", "-1"))
        if self._fd >= 0:
            os.set_blocking(self._fd, False)
        self.chunks_sent = 0

    @property
    def in_waiting(self) -> int:
        if self._fd < 0:
            return 0
        return struct.unpack("i", fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0"))[0]

    def read(self, nbytes=None):
        try:
            return os.read(self._fd, nbytes or 4096)
        except OSError:
            return None

    def write(self, buf) -> None:
        data = bytes(buf)
        for start in range(0, len(data), CHUNK):
            try:
                os.write(self._fd, data[start:start + CHUNK])
                self.chunks_sent += 1
            except OSError:
                return
