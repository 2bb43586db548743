"""After flashing, `tablelight flash` waits for the board's hello: here the board is the simulated
one running the firmware, libraries and settings.toml that were just flashed onto the drive."""

from __future__ import annotations

import os
import pty
import tty
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.sim.board import SimBoard


def test_the_flashed_drive_boots_and_says_hello(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--drive", str(drive), "--layout", "mainland", "--no-wait"]) == 0
    with SimBoard.start(None, firmware=drive) as sim:  # runs the drive's code.py with the drive's lib/ and settings
        capsys.readouterr()
        assert main(["flash", "--drive", str(drive), "--port", sim.port, "--wait", "20"]) == 0
        out = capsys.readouterr().out
        assert "wrote 0 files" in out
        assert f"board on {sim.port} says hello: firmware 1.2.0, layout mainland" in out and "284 LEDs, 47 keys" in out
        # settings.toml now says landover, but the board still runs mainland: flash says so
        assert main(["flash", "--drive", str(drive), "--layout", "landover", "--port", sim.port, "--wait", "20"]) == 1
        assert "reports layout 'mainland', but settings.toml says 'landover'" in capsys.readouterr().err


def test_a_board_that_never_answers_is_reported_after_the_wait(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    try:
        assert main(["flash", "--drive", str(drive), "--port", os.ttyname(slave), "--wait", "0.5"]) == 1
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert "did not say hello within 0.5 s" in err and "reset" in err and "Traceback" not in err
    assert (drive / "code.py").exists()  # the files are there: only the hello is missing


def test_a_new_boot_py_is_brought_in_by_a_reset_through_the_console(drive: Path) -> None:
    """With --console, a changed boot.py (it only runs at a hard reset) is followed by Ctrl-C and
    microcontroller.reset() on the REPL: what a person would type."""
    console_master, console_slave = pty.openpty()
    tty.setraw(console_slave)
    data_master, data_slave = pty.openpty()
    tty.setraw(data_slave)
    try:
        assert main(["flash", "--drive", str(drive), "--console", os.ttyname(console_slave),
                     "--port", os.ttyname(data_slave), "--wait", "0.5"]) == 1  # no board answers on the data pty
        typed = os.read(console_master, 4096)
    finally:
        for fd in (console_master, console_slave, data_master, data_slave):
            os.close(fd)
    assert typed.startswith(b"\x03") and b"import microcontroller; microcontroller.reset()\r\n" in typed
