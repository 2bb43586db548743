"""The simulated board's BLE file transfer service (0xFEBB) speaks CircuitPython's protocol: Adafruit's
own client (adafruit-circuitpython-ble-file-transfer, unchanged) on Adafruit's Blinka _bleio over
bleak finds the board on bumble's virtual radio, connects, pairs (the transfer characteristic wants
an encrypted link) and makes folders, writes, lists, reads, moves and deletes files on the board's
drive folder, and gets the refusals a board gives; then the board restarts into what was written."""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tablelight.sim import file_transfer
from tablelight.sim.file_transfer import FileTransferServer

ROOT = Path(__file__).resolve().parents[2]
BLINKA_BLEIO = ROOT / ".venv" / "blinka-bleio"  # Adafruit's _bleio for CPython, kept off site-packages
CLIENT = Path(__file__).with_name("file_transfer_client.py")


def test_adafruits_client_lists_reads_writes_moves_and_deletes_through_the_simulated_service(tmp_path: Path) -> None:
    if importlib.util.find_spec("adafruit_ble_file_transfer") is None or not BLINKA_BLEIO.is_dir():
        pytest.fail("Adafruit's file transfer client or Blinka's _bleio is not installed (scripts/test.sh installs them)")
    (tmp_path / "code.py").write_bytes(b'print("my own light show")\n')  # a bare board: CircuitPython's own files
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(BLINKA_BLEIO), str(ROOT / "host")]))
    done = subprocess.run([sys.executable, str(CLIENT), str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=240)
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert "error" not in answers, answers
    assert answers["paired"] is True  # the phone and the board bonded: the transfer wants an encrypted link
    assert answers["mkdir"] == 9_000_000_000 and answers["write_big"] == 6_000_000_000  # times in 3 s steps
    assert answers["listdir_root"] == [["code.py", 15, 0], ["empty.txt", 0, 0], ["lib", 0, 1]]
    assert answers["listdir_lib"] == [["big.bin", 3328, 0]]
    assert answers["read_big_matches"] is True
    assert answers["read_from_offset"] == "'hello')\n" and answers["read_empty"] == ""
    assert answers["read_missing"] == answers["move_onto_existing"] == answers["delete_missing"] == "Missing file"
    assert answers["listdir_missing"] == []
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert files == ["code.py", "lib/tablelight/moved.bin"]
    assert (tmp_path / "lib/tablelight/moved.bin").read_bytes() == bytes(range(256)) * 13
    assert (tmp_path / "code.py").read_bytes() == b"print('hello')\n"
    assert answers["restarted"] is True  # the drive changed: the board restarted into it


def test_a_path_out_of_the_drive_is_refused(tmp_path: Path) -> None:
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (tmp_path / "secret.txt").write_text("not the board's")
    server = FileTransferServer(drive)
    path = b"/../secret.txt"
    assert server.receive(struct.pack("<BxH", file_transfer.DELETE, len(path)) + path) == [
        struct.pack("<BB", file_transfer.DELETE_STATUS, file_transfer.ERROR)]
    answer = server.receive(struct.pack("<BxHII", file_transfer.READ, len(path), 0, 100) + path)
    assert answer == [struct.pack("<BBxxIII", file_transfer.READ_DATA, file_transfer.ERROR_NO_FILE, 0, 0, 0)]
    assert (tmp_path / "secret.txt").exists()


def test_a_write_cut_off_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "code.py").write_bytes(b"old")
    server = FileTransferServer(tmp_path)
    path = b"/code.py"
    pacing = server.receive(struct.pack("<BxHIQI", file_transfer.WRITE, len(path), 0, 0, 1000) + path)
    assert struct.unpack("<BBxxIQI", pacing[0])[4] == 512  # the board offers one chunk
    server.receive(struct.pack("<BBxxII", file_transfer.WRITE_DATA, file_transfer.OK, 0, 512) + b"x" * 100)
    server.disconnected()  # the link drops mid-chunk
    assert (tmp_path / "code.py").read_bytes() == b"old"
