"""The simulated board's console port: a second pseudo-terminal, like CircuitPython's REPL port.

What the firmware prints (and its tracebacks) comes out there; nobody listening drops it, as on a
board. As on CircuitPython: Ctrl-C stops code.py ("Press any key to enter the REPL. Use CTRL-D to
reload."), Ctrl-D then reloads it (a soft reboot: the data port stays, the board says a new hello).
"""

from __future__ import annotations

import asyncio
import collections
import errno
import os
import pty
import select
import threading
import tty
from collections.abc import Callable

CTRL_C = 0x03
CTRL_D = 0x04
STOPPED = (b"\r\nKeyboardInterrupt: \r\n\r\nCode done running.\r\n\r\n"
           b"Press any key to enter the REPL. Use CTRL-D to reload.\r\n")


class SimConsole:
    def __init__(self, stop_code: Callable[[], None], start_code: Callable[[], None],
                 loop: asyncio.AbstractEventLoop | None = None) -> None:
        """With ``loop``, the console is served by that event loop (no thread); else by a thread."""
        self._stop_code = stop_code
        self._start_code = start_code
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self._out_read, self.output_fd = os.pipe()  # the firmware's stdout and stderr
        self._wake_read, self._wake_write = os.pipe()
        self.running = True  # is code.py running (else: waiting at "press any key")
        self.recent: collections.deque[bytes] = collections.deque(maxlen=200)
        self._loop = loop
        self._thread: threading.Thread | None = None
        if loop is not None:
            loop.add_reader(self._out_read, self._output)
            loop.add_reader(self._master, self._input)
        else:
            self._thread = threading.Thread(target=self._serve, daemon=True, name="simboard-console")
            self._thread.start()
        self._open = True

    def _emit(self, data: bytes) -> None:
        self.recent.append(data)
        try:
            os.write(self._master, data)
        except OSError as error:  # nobody reads the console and its buffer is full: drop, as a board does
            if error.errno not in (errno.EAGAIN, errno.EIO):
                raise

    def _serve(self) -> None:
        while True:
            ready, _, _ = select.select([self._out_read, self._master, self._wake_read], [], [])
            if self._wake_read in ready:
                return
            if self._out_read in ready:
                self._output()
            if self._master in ready:
                self._input()

    def _output(self) -> None:
        data = os.read(self._out_read, 4096)
        if data:
            self._emit(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    def _input(self) -> None:
        try:
            typed = os.read(self._master, 256)
        except OSError:
            typed = b""
        self._typed(typed)

    def _typed(self, typed: bytes) -> None:
        for byte in typed:
            if byte == CTRL_C and self.running:
                self._stop_code()
                self.running = False
                self._emit(STOPPED)
            elif byte == CTRL_D and not self.running:
                self._emit(b"\r\nsoft reboot\r\n\r\nAuto-reload is on. Simply save files over USB to run them.\r\n"
                           b"code.py output:\r\n")
                self._start_code()
                self.running = True

    def text(self) -> str:
        return b"".join(self.recent).decode(errors="replace")

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        if self._loop is not None:
            self._loop.remove_reader(self._out_read)
            self._loop.remove_reader(self._master)
        elif self._thread is not None:
            os.write(self._wake_write, b"x")
            self._thread.join(timeout=2)
        for fd in (self._master, self._slave, self._out_read, self.output_fd, self._wake_read, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass
