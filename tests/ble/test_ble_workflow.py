"""The simulated board's BLE workflow (sim/ble_workflow.py): a bare board whose code.py has ended
stays up serving its drive, as CircuitPython does, and yet never outlives its SimBoard; with
autoreload on, a change to its drive restarts it once the transfer is quiet, dropping the link."""

from __future__ import annotations

import asyncio
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from bleak import BleakClient

from tablelight.bench.app_serving import wait_until
from tablelight.bench.file_transfer_relay import TRANSFER_UUID
from tablelight.sim import file_transfer
from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualRadio
from tablelight.sim.radio_bleak import make_client_backend

ROOT = Path(__file__).resolve().parents[2]
#: A host that starts a bare board with the workflow on, says so, and waits to be killed.
HOST = """
import sys, time
from pathlib import Path
from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualRadio
radio = VirtualRadio()
sim = SimBoard.start(None, firmware=Path(sys.argv[1]), radio=radio, ble_workflow=True)
deadline = time.monotonic() + 60
while "Code done running." not in sim.console.text():
    if time.monotonic() > deadline:
        raise SystemExit("the bare board's code.py did not end within 60 s: " + sim.console.text())
    time.sleep(0.05)
print("up", sim.running, flush=True)
time.sleep(600)
"""


def boards_serving(drive: Path) -> list[int]:
    """Process ids of simulated boards running from ``drive``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"tablelight.sim.runner" in command and str(drive).encode() in command and state != "Z":
            found.append(int(entry.name))
    return found


def test_a_bare_board_stays_up_after_its_code_ends_but_not_after_its_simboard_is_killed(tmp_path: Path) -> None:
    (tmp_path / "code.py").write_text('print("Hello World!")\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    host = subprocess.Popen([sys.executable, "-c", HOST, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "up True"  # its code ended, it runs
        assert len(boards_serving(tmp_path)) == 1
        os.kill(host.pid, signal.SIGKILL)  # the SimBoard goes without a word
        host.wait(timeout=30)
        wait_until(lambda: not boards_serving(tmp_path), "the orphaned board's end", 30, lambda: time.sleep(0.05))
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


def test_with_autoreload_the_board_restarts_and_drops_the_link_once_the_transfer_is_quiet(
        tmp_path: Path, radio: VirtualRadio) -> None:
    """As real nRF52840 boards do (circuitpython/web-editor#509): a file written, and the link
    drops with the reload, though the central never let go."""
    (tmp_path / "code.py").write_text('print("Hello World!")\n')
    backend = make_client_backend(radio.adapter("phone"), pair_on_demand=True)
    with SimBoard.start(None, firmware=tmp_path, radio=radio, ble_workflow=True, autoreload_s=0.5) as sim:
        dropped = threading.Event()

        async def write_a_file() -> list[bytes]:
            notified: list[bytes] = []
            client = BleakClient(sim.ble_address or "", backend=backend, timeout=15,
                                 disconnected_callback=lambda _client: dropped.set())
            await client.connect()
            await client.start_notify(TRANSFER_UUID, lambda _c, data: notified.append(bytes(data)))
            path = b"/notes.txt"
            await client.write_gatt_char(TRANSFER_UUID, struct.pack("<BxHIQI", file_transfer.WRITE, len(path), 0, 0, 0)
                                         + path, response=False)
            async def answered() -> None:
                while not notified:
                    await asyncio.sleep(0.01)

            try:
                await asyncio.wait_for(answered(), 30)
            except asyncio.TimeoutError:
                raise AssertionError("the board did not answer the write within 30 s") from None
            return notified

        answers = asyncio.run(write_a_file())
        assert struct.unpack("<BBxxIQI", answers[0])[:2] == (file_transfer.WRITE_PACING, file_transfer.OK)
        assert dropped.wait(30), "the link did not drop with the board's reload"
        wait_until(lambda: sim.boots > 1, "the board's restart", 30, lambda: time.sleep(0.05))
        assert (tmp_path / "notes.txt").read_bytes() == b"" and sim.reloads == 1
