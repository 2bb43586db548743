"""The app benches clean up however they end (their ``app serve`` child and temporary folder), and
every wait of theirs has a deadline that names what did not come."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tablelight.app.build import Built
from tablelight.bench.app_serving import bench_folder, wait_until

#: A bench's skeleton: its folder and server, then waiting to be stopped.
BENCH = """
import sys, time
from pathlib import Path
from tablelight.bench.app_serving import bench_folder, served
with bench_folder() as temp:
    with served(Path(sys.argv[1])) as url:
        print(temp, url, flush=True)
        time.sleep(600)
"""


def start_bench(folder: Path) -> tuple[subprocess.Popen[str], Path, str]:
    bench = subprocess.Popen([sys.executable, "-c", BENCH, str(folder)], stdout=subprocess.PIPE, text=True)
    assert bench.stdout is not None
    temp, url = bench.stdout.readline().split()
    assert Path(temp).is_dir() and httpx.get(url + "app.json").status_code == 200
    return bench, Path(temp), url


def gone(url: str) -> bool:
    try:
        httpx.get(url + "app.json", timeout=2)
    except httpx.TransportError:
        return True
    return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_stopped_bench_removes_its_folder_and_stops_its_server(built_app: Built, stop: int) -> None:
    bench, temp, url = start_bench(built_app.folder)
    bench.send_signal(stop)
    bench.wait(timeout=30)
    assert not temp.exists()
    wait_until(lambda: gone(url), "the bench's app serve stopping", 30, lambda: time.sleep(0.05))


def test_a_killed_bench_takes_its_server_along_and_the_next_removes_its_folder(built_app: Built) -> None:
    bench, temp, url = start_bench(built_app.folder)
    os.kill(bench.pid, signal.SIGKILL)
    bench.wait(timeout=30)
    wait_until(lambda: gone(url), "the killed bench's app serve stopping", 30, lambda: time.sleep(0.05))
    assert temp.exists()  # nothing could run in the killed bench
    with bench_folder() as mine:
        assert not temp.exists() and mine.is_dir()


def test_a_wait_that_never_comes_names_what_did_not_come() -> None:
    with pytest.raises(RuntimeError, match="the page's count of actions did not come within 0.05 s"):
        wait_until(lambda: False, "the page's count of actions", 0.05, lambda: time.sleep(0.01))
