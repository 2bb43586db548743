"""`tablelight devices` and find_boards() against the simulated board."""

from __future__ import annotations

import json
import os
import pty
import tty
from types import SimpleNamespace

import pytest

from tablelight.board import discover
from tablelight.cli.main import main
from tablelight.sim.board import SimBoard


def test_devices_lists_a_given_port_with_its_hello(sim: SimBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "--port", sim.port, "--json"]) == 0
    boards = [b for b in json.loads(capsys.readouterr().out) if b["port"] == sim.port]
    assert boards and boards[0]["hello"]["layout"] == "farlander" and boards[0]["hello"]["leds"] == 55
    assert main(["devices", "--port", sim.port]) == 0
    assert "layout farlander" in capsys.readouterr().out


def test_devices_explains_a_port_without_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    assert main(["devices", "--port", os.ttyname(slave), "--timeout", "0.3"]) == 1
    assert "no tablelight hello" in capsys.readouterr().out
    os.close(master)
    os.close(slave)


def test_find_boards_picks_the_data_interface_by_usb_id(sim: SimBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        SimpleNamespace(device="/dev/ttyACM0", vid=0x239A, pid=0x8029, serial_number="ABC", description="console",
                        interface="CircuitPython CDC control"),
        SimpleNamespace(device=sim.port, vid=0x239A, pid=0x8029, serial_number="ABC", description="data",
                        interface="CircuitPython CDC2 data"),
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x1A86, pid=0x7523, serial_number=None, description="other",
                        interface=None),
    ]
    monkeypatch.setattr(discover.list_ports, "comports", lambda: ports)
    found = discover.find_boards()
    assert [b.port for b in found] == [sim.port]
    assert found[0].hello is not None and found[0].hello["board"] == "sim" and found[0].serial_number == "ABC"
