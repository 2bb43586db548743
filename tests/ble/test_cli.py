"""`tablelight pair`, `tablelight forget` and `tablelight devices --ble` on a machine without a
Bluetooth adapter (the CI machines): one clear error, exit 1, nothing changed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tablelight.board import discover
from tablelight.cli.main import main
from tablelight.links.ble_keys import HostKeys

NO_BLUETOOTH = not os.path.exists("/run/dbus/system_bus_socket")


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HostKeys:
    monkeypatch.setenv("TABLELIGHT_BLE_KEYS", str(tmp_path / "keys.json"))
    return HostKeys()


def test_forget_local_only(keys: HostKeys, capsys: pytest.CaptureFixture[str]) -> None:
    keys.put("AA:BB:CC:DD:EE:FF", bytes(16))
    assert main(["forget", "ble://aa:bb:cc:dd:ee:ff", "--local-only"]) == 0
    assert keys.addresses() == [] and "forgot ble://" in capsys.readouterr().out
    assert main(["forget", "ble://AA:BB:CC:DD:EE:FF", "--local-only"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no key for that board" in err


def test_a_damaged_key_file_is_named(keys: HostKeys, capsys: pytest.CaptureFixture[str]) -> None:
    keys.path.write_text("{not json")
    assert main(["forget", "ble://AA:BB:CC:DD:EE:FF", "--local-only"]) == 1
    err = capsys.readouterr().err
    assert str(keys.path) in err and "Traceback" not in err
    assert keys.path.read_text() == "{not json"


def test_pair_needs_a_ble_port(keys: HostKeys, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", "/dev/ttyACM0"]) == 1
    assert "pairing is for Bluetooth LE boards" in capsys.readouterr().err


@pytest.mark.skipif(not NO_BLUETOOTH, reason="this machine has a Bluetooth stack: the test would scan the air")
def test_no_adapter_reads_clearly(keys: HostKeys, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair"]) == 1
    err = capsys.readouterr().err
    assert "no usable Bluetooth adapter" in err and "Traceback" not in err
    assert main(["devices", "--ble", "--json", "--timeout", "0.5"]) in (0, 1)
    captured = capsys.readouterr()
    assert "no usable Bluetooth adapter" in captured.err and json.loads(captured.out) is not None
    assert keys.addresses() == []


def test_devices_ble_without_bleak_says_one_thing(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """No board on USB and bleak not installed: one line naming what to install, not two messages."""
    monkeypatch.setitem(sys.modules, "bleak", None)  # what `import bleak` does when it is not installed
    monkeypatch.setattr(discover.list_ports, "comports", lambda: [])
    assert main(["devices", "--ble", "--timeout", "0.1"]) == 1
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert len(lines) == 1, lines
    assert "pip install 'tablelight[ble]'" in lines[0] and "no board" in lines[0]


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"AA:BB:CC:DD:EE:FF": ' + "[" * 5000 + "]" * 5000 + "}"])
def test_a_deeply_nested_key_file_is_named_not_a_recursion_error(keys: HostKeys, text: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    keys.path.write_text(text)
    assert main(["forget", "ble://AA:BB:CC:DD:EE:FF", "--local-only"]) == 1
    err = capsys.readouterr().err
    assert str(keys.path) in err and "nested deeper than" in err and "Traceback" not in err
    assert keys.path.read_text() == text
