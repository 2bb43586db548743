# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Control channel between the firmware subprocess and its SimBoard (a socket, fd in TL_SIM_CTRL_FD).

Lines from the board: ``px <monotonic_ns> <hex of the bytes sent to the LEDs>``; ``up`` once, when
the firmware first reads its keys (its boot is done, its hello sent): a SimBoard is started then;
``reload`` (its drive changed over the BLE workflow: restart it).
Lines to the board:   ``key <number> <1|0>`` (press / release).
"""

import os
import socket
import time

_fd = int(os.environ.get("TL_SIM_CTRL_FD", "-1"))
_sock = socket.socket(fileno=_fd) if _fd >= 0 else None
if _sock is not None:
    _sock.setblocking(False)
_pending = b""
_up_told = False


def _send(line: bytes) -> None:
    _sock.setblocking(True)
    try:
        _sock.sendall(line)
    finally:
        _sock.setblocking(False)


def _tell_up() -> None:
    """Once a boot: the firmware is up (the SimBoard's start and reboot wait for this)."""
    global _up_told
    if not _up_told:
        _up_told = True
        _send(b"up\n")


def send_pixels(data: bytes) -> None:
    if _sock is None:
        return
    _send(b"px %d %s\n" % (time.monotonic_ns(), data.hex().encode()))


def request_reload() -> None:
    """The drive changed (CircuitPython's autoreload): the SimBoard restarts the firmware."""
    if _sock is None:
        return
    _send(b"reload\n")


def wait_for_parent() -> None:
    """Block until the SimBoard closes the channel (stopped, or its process gone): a board whose
    code.py ended stays up for its workflows, and never outlives its SimBoard."""
    if _sock is None:
        return
    _tell_up()  # no main loop to say it: the board is up all the same
    _sock.setblocking(True)
    while _sock.recv(4096):
        pass


def read_keys() -> list[tuple[int, bool]]:
    """Key transitions the SimBoard asked for since the last call."""
    global _pending
    if _sock is None:
        return []
    _tell_up()
    try:
        while True:
            chunk = _sock.recv(4096)
            if not chunk:
                raise SystemExit("SimBoard went away")
            _pending += chunk
    except BlockingIOError:
        pass
    out = []
    while b"\n" in _pending:
        line, _pending = _pending.split(b"\n", 1)
        parts = line.split()
        if len(parts) == 3 and parts[0] == b"key":
            out.append((int(parts[1]), parts[2] == b"1"))
    return out
