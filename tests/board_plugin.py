"""pytest options for a board under test (loaded by tests/conftest.py).

``--board=PORT``          the board's data port; runs the ``hardware``-marked tests (tests/hardware)
``--board-console=PORT``  its console (REPL) port: output captured into per-test logs, and the
                          board is reset (Ctrl-C, Ctrl-D: a soft reload) before each test module
``--board-logs=DIR``      where the per-test console logs go (default board-logs/)
``--flash``               run `tablelight flash --test-input` on the board's CIRCUITPY drive first
                          (``--board-drive=PATH`` if it is not found by itself)

The simulated board (`tablelight sim`) is a board like any other: its data and console ports
are printed at start, and tests/hardware/test_through_sim.py runs the suite against one.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest

CTRL_C, CTRL_D = b"\x03", b"\x04"
#: What CircuitPython (and the simulated board) prints once Ctrl-C stopped code.py.
STOPPED = b"Use CTRL-D to reload."


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("board", "a board under test (tests marked hardware)")
    group.addoption("--board-console", metavar="PORT", default=None,
                    help="the board's console port: log its output per test, reset the board between modules")
    group.addoption("--board-logs", metavar="DIR", default="board-logs", help="folder of per-test console logs")
    group.addoption("--flash", action="store_true", help="flash tablelight (with test input) before the session")
    group.addoption("--board-drive", metavar="PATH", default=None, help="the CIRCUITPY drive for --flash")


class Console:
    """Reads the console port in a thread; writes what comes to the current test's log file."""

    def __init__(self, port: str, logs: Path) -> None:
        import serial

        self.serial = serial.Serial(port, baudrate=115200, timeout=0.1)
        self.logs = logs
        self.logs.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.current: IO[bytes] | None = None
        self.captured = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True, name="board-console")
        self.thread.start()

    def read(self) -> None:
        while not self.stop.is_set():
            try:
                data = self.serial.read(4096)
            except Exception:  # the port went away (a hard reset): keep the logs we have
                return
            if data:
                with self.lock:
                    self.captured += data
                    if self.current is not None:
                        self.current.write(data)
                        self.current.flush()

    def start_test(self, nodeid: str) -> Path:
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid)[-150:] + ".log"
        path = self.logs / name
        with self.lock:
            if self.current is not None:
                self.current.close()
            self.current = path.open("wb")
            self.captured = bytearray()
        return path

    def end_test(self) -> str:
        with self.lock:
            if self.current is not None:
                self.current.close()
                self.current = None
            return self.captured.decode(errors="replace")

    def soft_reload(self, timeout: float = 60.0) -> None:
        """Ctrl-C stops code.py, Ctrl-D reloads it (CircuitPython's REPL keys). The reload key goes once
        the board says code.py stopped ("... Use CTRL-D to reload."): a key sent before is lost."""
        with self.lock:
            seen = len(self.captured)
        self.serial.write(CTRL_C)
        self.serial.flush()
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                stopped = STOPPED in self.captured[seen:]
            if stopped:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the board's console did not say code.py stopped within {timeout:g} s of Ctrl-C")
            time.sleep(0.02)
        self.serial.write(CTRL_C + CTRL_D)
        self.serial.flush()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        self.end_test()
        self.serial.close()


class BoardPlugin:
    def __init__(self, config: pytest.Config) -> None:
        self.port: str = config.getoption("--board")
        console = config.getoption("--board-console")
        self.console = Console(console, Path(config.getoption("--board-logs"))) if console else None
        self.module: Any = None
        self.resets = 0

    def wait_for_new_boot(self, old_boot: int | None, timeout: float = 60.0) -> None:
        from tablelight.board.errors import NoHello
        from tablelight.links.base import LinkClosed
        from tablelight.board.discover import probe

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                hello = probe(self.port, timeout=1.0)
            except (LinkClosed, NoHello):
                time.sleep(0.2)
                continue
            if hello.get("boot_id") != old_boot:
                return
            time.sleep(0.1)
        raise RuntimeError(f"the board on {self.port} did not restart within {timeout:g} s after Ctrl-C, Ctrl-D "
                           "on its console")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if not item.get_closest_marker("hardware"):
            return
        if self.console is not None and item.module is not self.module:
            if self.module is not None:  # a fresh board for each module: nothing carries over
                from tablelight.board.discover import probe

                old = probe(self.port, timeout=30.0).get("boot_id")
                self.console.soft_reload()
                self.wait_for_new_boot(old)
                self.resets += 1
            self.module = item.module
        if self.console is not None:
            self.console.start_test(item.nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        outcome = yield
        report = outcome.get_result()
        if self.console is not None and item.get_closest_marker("hardware") and report.when == "call":
            text = self.console.end_test()
            if text:
                report.sections.append(("board console", text))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.console is not None:
            terminalreporter.write_line(f"board console logs: {self.console.logs} ({self.resets} resets between "
                                        "modules)")

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.console is not None:
            self.console.close()


def flash_board(config: pytest.Config) -> None:
    from tablelight.cli.main import main

    args = ["flash", "--test-input", "--port", config.getoption("--board"), "--wait", "60"]
    if config.getoption("--board-drive"):
        args += ["--drive", config.getoption("--board-drive")]
    if main(args) != 0:
        pytest.exit("--flash: flashing the board failed (see above)", returncode=3)


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("--board"):
        return
    if config.getoption("--flash"):
        flash_board(config)
    config.pluginmanager.register(BoardPlugin(config), "tablelight-board")
