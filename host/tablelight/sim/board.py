"""SimBoard: the real firmware (firmware/code.py + lib/) in a CPython subprocess with fake hardware.

The LEDs go through Adafruit's real ``neopixel`` library into a fake ``neopixel_write`` that
reports the exact bytes; the keys come from a fake ``keypad``; ``usb_cdc.data`` is the master side
of a pseudo-terminal whose slave path (:attr:`SimBoard.port`) the host opens with pyserial, exactly
as it opens a real board.

    with SimBoard.start() as sim:
        session = BoardSession.open(sim.port)
        sim.press(3)

On an event loop, with no thread (what ``tablelight play`` runs): ``sim = await
SimBoard.start_async()``; its control socket and console are served by the loop, and
``sim.on_pixels(callback)`` calls back on the loop whenever the LEDs change.
"""

from __future__ import annotations

import asyncio
import os
import pty
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from tablelight.core.errors import TablelightError
from tablelight.core.inputs import read_json_file
from tablelight.paths import FIRMWARE
from tablelight.sim.console import SimConsole

if TYPE_CHECKING:
    from tablelight.sim.radio import VirtualRadio

_ROW_PINS = ["A0", "A1", "A2", "A3", "A4", "A5", "SCK", "MOSI", "MISO", "D2"]
_COLUMN_PINS = ["D6", "D9", "D10", "D11", "D12", "RX", "TX", "D13", "SDA", "SCL"]


#: How long a simulated board may take to boot (a new CPython process importing the firmware) before
#: :meth:`SimBoard.start` gives up: seconds on an idle machine, many more on a loaded one.
BOOT_S = 60.0


class SimBoardError(TablelightError):
    """The simulated board could not start or stopped unexpectedly."""


def layout_settings(layout: str) -> dict[str, str]:
    """settings.toml overrides for a layout from its file (if it exists; see ``layout_path``)."""
    from tablelight.table.layout import layout_path

    path = layout_path(layout)
    settings = {"TL_LAYOUT": layout, "TL_BOARD": "sim"}
    if not path.exists():
        return settings
    data = read_json_file(path)
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

    _count = 0

    def __init__(self, layout: str | None, firmware: Path = FIRMWARE, settings: dict[str, str] | None = None,
                 radio: VirtualRadio | None = None, loop: asyncio.AbstractEventLoop | None = None,
                 ble_workflow: bool = False, autoreload_s: float | None = None) -> None:
        """layout None: the firmware folder's own settings.toml decides (a flashed CIRCUITPY drive).
        ``loop``: serve the control socket and the console on that event loop, not on threads.
        ``ble_workflow``: CircuitPython's BLE workflow is on: the board serves its folder over the
        file transfer service on ``radio``, and restarts into what was written once the central let
        go, or with ``autoreload_s`` once the transfer was quiet that long (sim/ble_workflow.py)."""
        if not (firmware / "code.py").exists():
            raise SimBoardError(f"firmware not found at {firmware} (the simulated board runs firmware/code.py "
                                "from a source checkout)")
        self.layout = layout or "settings.toml"
        self.firmware = firmware
        self.settings = (layout_settings(layout) if layout else {}) | (settings or {})
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # binary-safe: no echo, no line discipline
        self.port = os.ttyname(self._slave)
        # with settings TL_BLE=1 the firmware's BLE code runs Adafruit's adafruit_ble over the _bleio
        # stand-in, on the VirtualRadio ``radio``; bonds and NVM (flash) live in ``state_dir``
        self.radio = radio
        self.ble_address: str | None = None
        self.state_dir = Path(tempfile.mkdtemp(prefix="tl-simboard-"))
        self.ble_workflow = ble_workflow
        self.autoreload_s = autoreload_s
        #: Restarts the board asked for itself (its drive changed over the BLE workflow).
        self.reloads = 0
        if ble_workflow or self.settings.get("TL_BLE", "0") not in ("0", ""):
            if radio is None:
                raise SimBoardError("Bluetooth (TL_BLE=1 or the BLE workflow) needs a radio: "
                                    "SimBoard.start(..., radio=VirtualRadio())")
            SimBoard._count += 1
            self.ble_address = self.settings.get("TL_SIM_BLE_ADDRESS") or f"F1:7A:B1:E0:00:{SimBoard._count % 256:02X}"
        self._lock = threading.Condition()
        self._pixel_bytes = b""
        self._pixel_ns = 0
        self._pixel_updates = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._ctrl: socket.socket | None = None
        self._reader: threading.Thread | None = None
        self._loop = loop
        self._ctrl_pending = b""
        self._pixel_listeners: list[Callable[[list[tuple[int, int, int]]], None]] = []
        self.boots = 0
        self._up = threading.Event()  # the firmware of the current boot reached its main loop
        self._stopped = False
        self._life = threading.RLock()  # one start or stop at a time (the console can reboot the board)
        self.console = SimConsole(self._kill, self._spawn, loop=loop)
        self.console_port = self.console.port  # the REPL console: prints, Ctrl-C, Ctrl-D (sim/console.py)

    @classmethod
    def start(cls, layout: str | None = "farlander", *, settings: dict[str, str] | None = None,
              firmware: Path = FIRMWARE, radio: VirtualRadio | None = None, ble_workflow: bool = False,
              autoreload_s: float | None = None) -> SimBoard:
        board = cls(layout, firmware, settings, radio=radio, ble_workflow=ble_workflow, autoreload_s=autoreload_s)
        board._spawn(wait=True)
        return board

    @classmethod
    async def start_async(cls, layout: str | None = "farlander", *, settings: dict[str, str] | None = None,
                          firmware: Path = FIRMWARE, radio: VirtualRadio | None = None) -> SimBoard:
        """:meth:`start` on the running event loop: no thread reads the board's control socket or
        console; :meth:`on_pixels` listeners are called on the loop."""
        board = cls(layout, firmware, settings, radio=radio, loop=asyncio.get_running_loop())
        board._spawn()
        deadline = time.monotonic() + BOOT_S
        while not board._up.is_set() and board.running:  # the loop reads its control socket meanwhile
            if time.monotonic() > deadline:
                board.stop()
                raise SimBoardError(f"the simulated board did not boot within {BOOT_S:g} s")
            await asyncio.sleep(0.01)
        return board

    # --- process ------------------------------------------------------------------------------
    def _spawn(self, wait: bool = False) -> None:
        """Start the firmware; with ``wait``, return once it is up (its boot done, its hello sent), as a
        real board is when a host opens it: a boot slowed by a loaded machine then counts against no
        deadline of the host's (a handshake's, a silence's)."""
        with self._life:
            self._spawn_locked(wait)

    def _spawn_locked(self, wait: bool = False) -> None:
        if self._stopped:
            return
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        env.update(self.settings)
        env["TL_SIM_DATA_FD"] = str(self._master)
        env["TL_SIM_CTRL_FD"] = str(theirs.fileno())
        env["PYTHONUNBUFFERED"] = "1"
        fds = [self._master, theirs.fileno(), self.console.output_fd]
        env["TL_SIM_NVM"] = str(self.state_dir / "nvm.bin")
        if self.radio is not None and self.ble_address is not None:
            env["TL_SIM_BLE_HCI"] = self.radio.board_hci(self.ble_address)
            env["TL_SIM_BLE_ADDRESS"] = self.ble_address
            env["TL_SIM_BLE_BONDS"] = str(self.state_dir / "bonds.json")
            env["TL_SIM_BLE_WORKFLOW"] = "1" if self.ble_workflow else "0"
            env["TL_SIM_BLE_AUTORELOAD_S"] = "" if self.autoreload_s is None else str(self.autoreload_s)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tablelight.sim.runner", str(self.firmware)],
            env=env, pass_fds=tuple(fds), stdin=subprocess.DEVNULL,
            stdout=self.console.output_fd, stderr=self.console.output_fd,
        )
        theirs.close()
        self._ctrl = ours
        self.boots += 1
        self._ctrl_pending = b""
        self._up.clear()
        if self._loop is not None:
            if wait:  # called on the loop, which cannot read the socket meanwhile: read it here
                self._read_until_up(ours)
            ours.setblocking(False)
            self._loop.add_reader(ours.fileno(), self._ctrl_readable, ours)
        else:
            self._reader = threading.Thread(target=self._read_ctrl, args=(ours,), daemon=True, name="simboard-ctrl")
            self._reader.start()
            deadline = time.monotonic() + BOOT_S
            while wait and not self._up.wait(0.05) and self.running:
                if time.monotonic() > deadline:
                    raise SimBoardError(f"the simulated board did not boot within {BOOT_S:g} s")

    def _read_until_up(self, sock: socket.socket) -> None:
        """Take the firmware's control lines until it says it is up (or exits: a board that crashed at boot)."""
        deadline = time.monotonic() + BOOT_S
        while not self._up.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimBoardError(f"the simulated board did not boot within {BOOT_S:g} s")
            sock.settimeout(min(left, 0.5))
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            self._take_ctrl(chunk)

    def _read_ctrl(self, sock: socket.socket) -> None:
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            self._take_ctrl(chunk)

    def _ctrl_readable(self, sock: socket.socket) -> None:
        try:
            chunk = sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the firmware process is gone
            assert self._loop is not None
            self._loop.remove_reader(sock.fileno())
            return
        self._take_ctrl(chunk)

    def _take_ctrl(self, chunk: bytes) -> None:
        """Lines from the firmware's fake hardware: ``px <ns> <hex GRB>`` for each LED write."""
        self._ctrl_pending += chunk
        changed = False
        while b"\n" in self._ctrl_pending:
            line, self._ctrl_pending = self._ctrl_pending.split(b"\n", 1)
            if line == b"up":
                self._up.set()
                continue
            if line == b"reload":  # not on this reader, which the restart stops
                self.reloads += 1
                threading.Thread(target=self.reboot, daemon=True, name="simboard-reload").start()
                continue
            parts = line.split()
            if len(parts) == 3 and parts[0] == b"px":
                with self._lock:
                    data = bytes.fromhex(parts[2].decode())
                    changed = changed or data != self._pixel_bytes
                    self._pixel_ns = int(parts[1])
                    self._pixel_bytes = data
                    self._pixel_updates += 1
                    self._lock.notify_all()
        if changed and self._pixel_listeners:
            pixels = self.pixels()
            for listener in list(self._pixel_listeners):
                listener(pixels)

    def on_pixels(self, callback: Callable[[list[tuple[int, int, int]]], None]) -> None:
        """Call ``callback(pixels)`` whenever the LEDs change (what :meth:`pixels` returns): on the
        loop for a board from :meth:`start_async`, on its reader thread for one from :meth:`start`."""
        self._pixel_listeners.append(callback)

    def _kill(self) -> None:
        with self._life:
            self._kill_locked()

    def _kill_locked(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=5)
            self._process = None
            if self.radio is not None and self.ble_address is not None:
                self.radio.power_off(self.ble_address)
        if self._ctrl is not None:
            if self._loop is not None and self._ctrl.fileno() >= 0:
                self._loop.remove_reader(self._ctrl.fileno())
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
        """Restart the firmware (a new boot id, an empty scene); the port stays the same. Returns once
        the new boot is up, as a real board's soft reload is in a moment."""
        self._kill()
        with self._lock:
            self._pixel_bytes = b""
        self._spawn(wait=True)

    def crash(self) -> None:
        """The firmware dies and stays dead (a hung or browned-out board): the port stays open
        but nothing answers, as when a real board's code crashes. :meth:`revive` starts it again."""
        self._kill()

    def revive(self) -> None:
        """Start the firmware again after :meth:`crash` (a new boot, an empty scene)."""
        if self.running:
            raise SimBoardError("the simulated board is already running")
        with self._lock:
            self._pixel_bytes = b""
        self._spawn(wait=True)

    def stop(self) -> None:
        with self._life:
            self._stopped = True
            self._kill_locked()
        self.console.close()
        for fd in (self._master, self._slave):
            if fd < 0:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = -1
        shutil.rmtree(self.state_dir, ignore_errors=True)

    def __enter__(self) -> SimBoard:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    async def __aenter__(self) -> SimBoard:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
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
