# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake usb_cdc: the data channel is the master side of a pseudo-terminal (fd in TL_SIM_DATA_FD);
the host opens the slave side with pyserial exactly as it opens a real board's port."""

import fcntl
import os
import struct
import termios


class Serial:
    def __init__(self, fd: int) -> None:
        self._fd = fd
        os.set_blocking(fd, False)
        self.timeout = None
        self.write_timeout = None
        self.connected = True

    @property
    def in_waiting(self) -> int:
        return struct.unpack("i", fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0"))[0]

    def read(self, size: int = -1) -> bytes:
        try:
            return os.read(self._fd, size if size > 0 else 4096)
        except (BlockingIOError, OSError):
            return b""

    def write(self, buf) -> int:
        try:
            return os.write(self._fd, bytes(buf))
        except (BlockingIOError, OSError):
            return 0  # nobody reading: like a real board, drop rather than stall

    def reset_input_buffer(self) -> None:
        while self.read(4096):
            pass


def enable(*, console: bool = True, data: bool = False) -> None:
    pass


console = None
_fd = int(os.environ.get("TL_SIM_DATA_FD", "-1"))
data = Serial(_fd) if _fd >= 0 else None
