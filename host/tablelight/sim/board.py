"""SimBoard: the real firmware (firmware/code.py + lib/) in a CPython subprocess with fake hardware.

The LEDs go through Adafruit's real ``neopixel`` library into a fake ``neopixel_write`` that
reports the exact bytes; the keys come from a fake ``keypad``; ``usb_cdc.data`` is the master side
of a pseudo-terminal whose slave path (:attr:`SimBoard.port`) the host opens with pyserial, exactly
as it opens a real board.

    with SimBoard.start() as sim:
        session = BoardSession.open(sim.port)
        sim.press(3)
"""

from __future__ import annotations

import json
import os
import pty
import socket
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from tablelight.core.errors import TablelightError
from tablelight.paths import FIRMWARE
_ROW_PINS = ["A0", "A1", "A2", "A3", "A4", "A5", "SCK", "MOSI", "MISO", "D2"]
_COLUMN_PINS = ["D6", "D9", "D10", "D11", "D12", "RX", "TX", "D13", "SDA", "SCL"]


class SimBoardError(TablelightError):
    """The simulated board could not start or stopped unexpectedly."""


def layout_settings(layout: str) -> dict[str, str]:
    """settings.toml overrides for a layout from its file (if it exists; see ``layout_path``)."""
    from tablelight.table.layout import layout_path

    path = layout_path(layout)
    settings = {"TL_LAYOUT": layout, "TL_BOARD": "sim"}
    if not path.exists():
        return settings
    data = json.loads(path.read_text())
    if "leds" in data:
        settings["TL_LEDS"] = str(int(data["leds"]))
    if "keys" in data:
        settings["TL_KEYS"] = str(int(data["keys"]))
    # A big board has its own supply; simulate the budget its guide tells makers to set.
    if "budget_ma" in data:
        settings["TL_BUDGET_MA"] = str(int(data["budget_ma"]))
    matrix = data.get("key_matrix") or {}
    rows, columns = int(matrix.get("rows", 0)), int(matrix.get("columns", 0))
    if 0 < rows <= len(_ROW_PINS) and 0 < columns <= len(_COLUMN_PINS):
        settings["TL_ROW_PINS"] = ",".join(_ROW_PINS[:rows])
        settings["TL_COLUMN_PINS"] = ",".join(_COLUMN_PINS[:columns])
    return settings


class SimBoard:
    """A simulated board running the real firmware. Use :meth:`start`; stop with :meth:`stop`."""

    def __init__(self, layout: str, firmware: Path = FIRMWARE, settings: dict[str, str] | None = None) -> None:
        if not (firmware / "code.py").exists():
            raise SimBoardError(f"firmware not found at {firmware} (the simulated board runs firmware/code.py "
                                "from a source checkout)")
        self.layout = layout
        self.firmware = firmware
        self.settings = layout_settings(layout) | (settings or {})
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # binary-safe: no echo, no line discipline
        self.port = os.ttyname(self._slave)
        self.ble_port: str | None = None  # with settings TL_BLE=1: the fake BLE UART's pty
        self._ble_master = self._ble_slave = -1
        if self.settings.get("TL_BLE", "0") not in ("0", ""):
            self._ble_master, self._ble_slave = pty.openpty()
            tty.setraw(self._ble_slave)
            self.ble_port = os.ttyname(self._ble_slave)
        self._lock = threading.Condition()
        self._pixel_bytes = b""
        self._pixel_ns = 0
        self._pixel_updates = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._ctrl: socket.socket | None = None
        self._reader: threading.Thread | None = None
        self.boots = 0

    @classmethod
    def start(cls, layout: str = "farlander", *, settings: dict[str, str] | None = None) -> SimBoard:
        board = cls(layout, settings=settings)
        board._spawn()
        return board

    # --- process ------------------------------------------------------------------------------
    def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        env.update(self.settings)
        env["TL_SIM_DATA_FD"] = str(self._master)
        env["TL_SIM_CTRL_FD"] = str(theirs.fileno())
        env["PYTHONUNBUFFERED"] = "1"
        fds = [self._master, theirs.fileno()]
        if self._ble_master >= 0:
            env["TL_SIM_BLE_FD"] = str(self._ble_master)
            fds.append(self._ble_master)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tablelight.sim.runner", str(self.firmware)],
            env=env, pass_fds=tuple(fds), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=None,
        )
        theirs.close()
        self._ctrl = ours
        self.boots += 1
        self._reader = threading.Thread(target=self._read_ctrl, args=(ours,), daemon=True, name="simboard-ctrl")
        self._reader.start()

    def _read_ctrl(self, sock: socket.socket) -> None:
        pending = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                parts = line.split()
                if len(parts) == 3 and parts[0] == b"px":
                    with self._lock:
                        self._pixel_ns = int(parts[1])
                        self._pixel_bytes = bytes.fromhex(parts[2].decode())
                        self._pixel_updates += 1
                        self._lock.notify_all()

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=5)
            self._process = None
        if self._ctrl is not None:
            self._ctrl.close()
            self._ctrl = None
        if self._reader is not None:
            self._reader.join(timeout=2)
            self._reader = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    # --- the contract -------------------------------------------------------------------------
    def pixels(self) -> list[tuple[int, int, int]]:
        """What the LEDs show now (after brightness and the current limiter), as (r, g, b)."""
        with self._lock:
            data = self._pixel_bytes
        return [(data[i + 1], data[i], data[i + 2]) for i in range(0, len(data) - 2, 3)]  # GRB on the wire

    def press(self, key: int) -> None:
        """Press and release a key."""
        self.key(key, True)
        self.key(key, False)

    def key(self, key: int, pressed: bool) -> None:
        if self._ctrl is None or not self.running:
            raise SimBoardError("the simulated board is not running")
        keys = int(self.settings.get("TL_KEYS", "0") or 0)
        if keys and not 0 <= key < keys:
            raise SimBoardError(f"key {key} does not exist: the {self.layout} board has keys 0..{keys - 1}")
        self._ctrl.sendall(b"key %d %d\n" % (key, 1 if pressed else 0))

    def reboot(self) -> None:
        """Restart the firmware (a new boot id, an empty scene); the port stays the same."""
        self._kill()
        with self._lock:
            self._pixel_bytes = b""
        self._spawn()

    def stop(self) -> None:
        self._kill()
        for fd in (self._master, self._slave, self._ble_master, self._ble_slave):
            if fd < 0:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = self._ble_master = self._ble_slave = -1

    def __enter__(self) -> SimBoard:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    # --- for tests and benchmarks -----------------------------------------------------------
    def pixel_update(self) -> tuple[int, int, bytes]:
        """(update count, monotonic ns of the last LED write, its raw GRB bytes)."""
        with self._lock:
            return self._pixel_updates, self._pixel_ns, self._pixel_bytes

    def wait_update(self, after: int, accept: Callable[[bytes], bool], timeout: float = 5.0) -> tuple[int, int, bytes]:
        """Block (no polling) until an LED write after update number ``after`` whose raw GRB bytes
        ``accept`` takes; return it as :meth:`pixel_update` does. SimBoardError on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not (self._pixel_updates > after and accept(self._pixel_bytes)):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SimBoardError(f"no matching LED write within {timeout} s")
                self._lock.wait(left)
            return self._pixel_updates, self._pixel_ns, self._pixel_bytes

    def wait_pixels(self, predicate: object, timeout: float = 5.0) -> list[tuple[int, int, int]]:
        """Wait until ``predicate(pixels)`` is true; return the pixels. SimBoardError on timeout."""
        check = predicate if callable(predicate) else None
        assert check is not None
        deadline = time.monotonic() + timeout
        while True:
            pixels = self.pixels()
            if check(pixels):
                return pixels
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimBoardError(f"the LEDs did not reach the expected state within {timeout} s: {pixels[:8]}...")
            with self._lock:
                self._lock.wait(min(left, 0.05))
