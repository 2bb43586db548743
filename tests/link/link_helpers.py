"""Helpers shared by the link tests (imported by name: the tests folders are not packages)."""

from __future__ import annotations

import os
import select
import pty
import random
import threading
import time
import tty
from collections.abc import Callable

from tablelight.board.session import BoardSession, KeyEvent
from tablelight.links.serial_link import SerialLink
from tablelight.wire import wire


class FaultyLink:
    """A SerialLink that corrupts, drops and duplicates bytes in both directions (seeded)."""

    def __init__(self, port: str, seed: int, corrupt: float, drop: float, dup: float) -> None:
        self.inner = SerialLink(port)
        self.name = port
        self.rng = random.Random(seed)
        self.corrupt, self.drop, self.dup = corrupt, drop, dup
        self.faults = 0

    def _mangle(self, data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            r = self.rng.random()
            if r < self.drop:
                self.faults += 1
                continue
            if r < self.drop + self.corrupt:
                self.faults += 1
                b ^= 1 << self.rng.randrange(8)
            out.append(b)
            if self.rng.random() < self.dup:
                self.faults += 1
                out.append(b)
        return bytes(out)

    def read(self, timeout: float) -> bytes:
        return self._mangle(self.inner.read(timeout))

    def write(self, data: bytes) -> None:
        self.inner.write(self._mangle(data))

    def reset_input(self) -> None:
        self.inner.reset_input()

    def close(self) -> None:
        self.inner.close()


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0, step: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def collect(session: BoardSession, count: int, timeout: float = 3.0) -> list[KeyEvent]:
    """Poll until ``count`` events arrived (or timeout), then a little longer to catch repeats."""
    events: list[KeyEvent] = []
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        events += session.poll(0.05)
    events += session.poll(0.3)
    return events


def scripted_board(answers: dict[int, Callable[[bytes], bytes]], seconds: float = 3.0) -> tuple[str, threading.Thread, list[bytes], int]:
    """A pty playing a board that answers each request type with ``answers[type](payload)`` (a frame).

    Returns the port, the board's thread, every payload it received and the pty master. It stops
    after a REFUSE from the host or after ``seconds``.
    """
    master, slave = pty.openpty()
    tty.setraw(slave)
    received: list[bytes] = []

    # The board reads its own copy of the master: a test closing ``master`` frees that number, and
    # the next test's pty may get it while this thread still answers (it once refused a silent test).
    own = os.dup(master)

    def board() -> None:
        reader = wire.FrameReader()
        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                if not select.select([own], [], [], 0.05)[0]:
                    continue
                try:
                    data = os.read(own, 256)
                except OSError:
                    return
                for payload in reader.feed(data):
                    received.append(payload)
                    if payload[0] in answers:
                        os.write(own, answers[payload[0]](payload))
                    if payload[0] == wire.MSG_REFUSE:
                        return
        finally:
            os.close(own)

    thread = threading.Thread(target=board, daemon=True)
    thread.start()
    return os.ttyname(slave), thread, received, master
