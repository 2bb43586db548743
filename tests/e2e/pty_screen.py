"""The real ``tablelight`` command on a real pty, read through a terminal emulator (pyte): what a
person at a terminal sees. Shared by the terminal tests (tests/e2e, tests/table, tests/web)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time

from .helpers import wait_for


def tablelight_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablelight", *args]


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyScreen:
    """A real pty of ``columns`` x ``rows`` running ``tablelight ARGS``, read through pyte; everything
    the program wrote is kept as text too (:meth:`said`: the screen scrolls, that does not)."""

    def __init__(self, args: list[str], columns: int = 80, rows: int = 24) -> None:
        import pyte

        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = ""
        self.controller, terminal = pty.openpty()
        set_size(terminal, columns, rows)
        self.process = subprocess.Popen(tablelight_command(*args), stdin=terminal, stdout=terminal, stderr=terminal,
                                        close_fds=True, env={**os.environ, "TERM": "xterm-256color"})
        os.close(terminal)
        os.set_blocking(self.controller, False)

    def resize(self, columns: int, rows: int) -> None:
        """As a terminal window does: the pty's size changes and the program gets SIGWINCH."""
        self.read()
        set_size(self.controller, columns, rows)
        self.screen.resize(rows, columns)
        self.process.send_signal(signal.SIGWINCH)

    def read(self) -> int:
        """Feed what the program wrote so far to the emulator; returns how many bytes that was."""
        total = 0
        while True:
            try:
                chunk = os.read(self.controller, 65536)
            except (BlockingIOError, OSError):
                return total
            if not chunk:
                return total
            total += len(chunk)
            self.raw += chunk.decode(errors="replace")
            self.stream.feed(chunk)

    def text(self) -> str:
        """The screen as it stands."""
        self.read()
        return "\n".join(self.screen.display)

    def said(self) -> str:
        """Everything the program wrote, without its terminal escapes."""
        self.read()
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.raw)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        return wait_for(lambda: time.sleep(0.05) or re.search(pattern, self.text()), timeout=timeout)

    def type(self, text: str) -> None:
        os.write(self.controller, text.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        os.close(self.controller)
