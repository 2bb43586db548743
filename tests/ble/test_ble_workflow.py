"""The simulated board's BLE workflow (sim/ble_workflow.py): a bare board whose code.py has ended
stays up serving its drive, as CircuitPython does, and yet never outlives its SimBoard."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tablelight.bench.app_serving import wait_until

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
