"""``tablelight bench setup`` stopped while it sets a simulated board up over Bluetooth leaves
nothing behind: its app server, its browsers, the Playwright driver, the simulated board and the
bench's folder all go (SIGTERM unwinds the bench: tablelight.bench.app_serving.bench_folder)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablelight.bench.app_serving import PREFIX, wait_until

ROOT = Path(__file__).resolve().parents[2]


def descendants(pid: int) -> dict[int, str]:
    """Every living process under ``pid``: its id and command line."""
    children: dict[int, list[int]] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[0] != "Z":
            children.setdefault(int(stat[1]), []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        found[child] = commands.get(child, "")
        todo += children.get(child, [])
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_setup_bench_stopped_over_bluetooth_leaves_no_server_browser_or_board(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"),
               TABLELIGHT_CACHE=os.environ.get("TABLELIGHT_CACHE", str(ROOT / ".venv" / "tablelight-cache")))
    bench = subprocess.Popen([sys.executable, "-m", "tablelight", "bench", "setup", "--rounds", "1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        # the Bluetooth round: a simulated board runs under the bench, beside its browser and server
        # (the board starts first, then the round's browser)
        def bluetooth_round(running: dict[int, str]) -> bool:
            return all(any(part in c for c in running.values())
                       for part in ("tablelight.sim.runner", "chromium", "app serve"))

        wait_until(lambda: bluetooth_round(descendants(bench.pid)) or bench.poll() is not None,
                   "the bench's simulated board, browser and server at once", 900, lambda: time.sleep(0.2))
        assert bench.poll() is None, bench.stderr.read() if bench.stderr else ""
        running = descendants(bench.pid)
        folders = list(Path(tempfile.gettempdir()).glob(f"{PREFIX}{bench.pid}-*"))
        assert folders
        bench.send_signal(signal.SIGTERM)
        bench.wait(timeout=120)
        wait_until(lambda: not [pid for pid in running if alive(pid)],
                   "the end of the bench's children", 60, lambda: time.sleep(0.1))
        assert not [p for p in folders if p.exists()]
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
