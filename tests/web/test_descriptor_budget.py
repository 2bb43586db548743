"""The table's web server keeps below the process's limit on open files (:mod:`tablelight.web.budget`).

`tablelight play --view web` runs in a child process whose limit is 128 open files, and more
silent connections than that are opened to it from 50 loopback addresses (Linux routes all of
127/8 to this machine). Before the budget, asyncio accepted until the files ran out: the pages
stopped answering while the strangers held on, and thousands of "Too many open files"
tracebacks landed on the players' terminal. Now the pages answer all along (the host's page
first of all), again once the strangers leave, and nothing is printed about it.
"""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tablelight.web.budget import Budget, listening_socket

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 128
SILENT = 300
ADDRESSES = 50


def low_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


class Table:
    """``tablelight play mainland --view web --board sim`` under a low limit; its printed lines kept."""

    def __init__(self, tmp_path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tablelight", "play", "mainland", "--seats", "human,human", "--board", "sim",
             "--view", "web", "--web-port", "0", "--host-link", "terminal", "--db", str(tmp_path / "games.sqlite")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=low_limit,
            cwd=ROOT, env={"PYTHONPATH": str(ROOT / "host"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"},
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                        for stream, into in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self.readers:
            reader.start()
        deadline = time.monotonic() + 60
        while not any("web view: http://" in line for line in self.out + self.err):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"the table did not print its host page's address: {''.join(self.out)}{''.join(self.err)}")
            time.sleep(0.05)
        link = next(line for line in self.out + self.err if "web view: http://" in line).split("web view: ", 1)[1].split()[0]
        self.base, token = link.split("/?token=")
        self.token = token.strip()
        self.host, port = self.base.removeprefix("http://").split(":")
        self.port = int(port)

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:  # a server that stopped answering may not stop either
                self.process.kill()
                self.process.wait(timeout=20)
        for reader in self.readers:
            reader.join(timeout=5)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path)
    yield table
    table.stop()


def silent_connections(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` connections that never send a byte, from ``ADDRESSES`` loopback addresses (a
    connection the server closed at once, over its budget, is kept all the same: the client holds it)."""
    held = []
    for n in range(count):
        sock = socket.socket()
        sock.settimeout(5)
        sock.bind((f"127.0.0.{2 + n % ADDRESSES}", 0))
        sock.connect((host, port))
        held.append(sock)
    return held


def test_more_silent_connections_than_open_files_do_not_stop_the_table_nor_reach_its_terminal(table: Table) -> None:
    host = {"X-Host-Token": table.token}
    assert httpx.get(f"{table.base}/api/host", headers=host, timeout=10).status_code == 200
    held = silent_connections(table.host, table.port, SILENT)
    try:
        # while the strangers hold on: the host's page and the board page still answer
        assert httpx.get(f"{table.base}/api/host", headers=host, timeout=10).status_code == 200
        assert httpx.get(f"{table.base}/", timeout=10).status_code == 200
    finally:
        for sock in held:
            sock.close()
    assert httpx.get(f"{table.base}/api/host", headers=host, timeout=10).status_code == 200
    assert httpx.get(f"{table.base}/", timeout=10).status_code == 200
    assert table.process.poll() is None
    table.process.stdin.write("quit\n")  # type: ignore[union-attr]
    table.process.stdin.flush()  # type: ignore[union-attr]
    table.stop()
    printed = "".join(table.out) + "".join(table.err)
    assert "Traceback" not in printed and "Too many open files" not in printed, printed[-3000:]


def test_a_connection_over_the_budget_is_refused_at_once_and_its_place_comes_back() -> None:
    budget = Budget(2)
    listener = listening_socket("127.0.0.1", 0, budget)
    port = listener.getsockname()[1]
    clients = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
    try:
        first, _ = listener.accept()
        second, _ = listener.accept()
        assert budget.held == 2
        with pytest.raises(BlockingIOError):  # the third is refused, and none is left waiting
            listener.setblocking(False)
            listener.accept()
        assert budget.refused == 1
        assert clients[2].recv(100).startswith(b"HTTP/1.1 503")  # a plain answer, not silence
        first.close()
        assert budget.held == 1
        clients.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        listener.setblocking(True)
        third, _ = listener.accept()
        assert budget.held == 2
        third.close()
        second.close()
        assert budget.held == 0
    finally:
        for client in clients:
            client.close()
        listener.close()
