"""Phones keep their seats across ``resume``: the real ``tablelight play`` and ``resume`` in child
processes, a phone's requests made over HTTP as its page makes them."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tablelight.table.store import GameStore

from .helpers import wait_for


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _host_address(host_file: Path) -> str:
    wait_for(lambda: time.sleep(0.05) or host_file.exists(), timeout=60)
    return re.search(r'url=([^"]+)"', host_file.read_text()).group(1).replace("&amp;", "&")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(20)
    finally:
        if process.poll() is None:
            process.kill()


def _table_name(base: str) -> str:
    return re.search(r'data-table="(\w+)"', httpx.get(f"{base}/join").text).group(1)


def test_a_phone_that_joined_keeps_its_seat_after_resume(tmp_path):
    db = tmp_path / "g.sqlite"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    play = subprocess.Popen([sys.executable, "-m", "tablelight", "play", "mainland", "--seats", "human,bot", "--board", "sim",
                             "--web-port", str(port), "--db", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        host = _host_address(tmp_path / "host-page-1.html")
        host_token = host.split("token=")[1]
        seats = httpx.get(f"{base}/api/host", headers={"X-Host-Token": host_token}).json()["seats"]
        joined = httpx.post(f"{base}/api/join", json={"code": seats[0]["code"]}, headers={"Origin": base})
        device = joined.json()["device"]
        assert httpx.get(f"{base}/api/seat/0", headers={"X-Seat-Token": device}).status_code == 200
        name = _table_name(base)
    finally:
        _stop(play)
    with GameStore(db) as store:
        (info,) = store.games()
        kept = store.settings(info.id)["seat_devices"]
    assert device not in str(kept) and len(kept["seats"]["0"]) == 64  # a digest, never the token

    resume = subprocess.Popen([sys.executable, "-m", "tablelight", "resume", str(info.id), "--db", str(db)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        host = _host_address(tmp_path / f"host-page-{info.id}.html")
        assert _table_name(base) == name  # the page finds the device's token where it kept it
        answer = httpx.get(f"{base}/api/seat/0", headers={"X-Seat-Token": device})
        assert answer.status_code == 200, answer.text  # still placed: no new code needed
        seats = httpx.get(f"{base}/api/host", headers={"X-Host-Token": host.split("token=")[1]}).json()["seats"]
        assert seats[0]["joined"] and seats[0]["code"] is None
        assert httpx.get(f"{base}/api/seat/0", headers={"X-Seat-Token": device[:-1] + "x"}).status_code == 403
        # The host drops it: the kept digest goes too, and a new code is issued.
        dropped = httpx.post(f"{base}/api/host/drop", json={"seat": 0},
                             headers={"Origin": base, "X-Host-Token": host.split("token=")[1]})
        assert dropped.status_code == 200
        assert httpx.get(f"{base}/api/seat/0", headers={"X-Seat-Token": device}).status_code == 403
        with GameStore(db) as store:
            assert store.settings(info.id)["seat_devices"]["seats"] == {}
    finally:
        _stop(resume)
