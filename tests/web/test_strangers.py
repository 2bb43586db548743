"""Strangers who reach the web port cannot stop the seats, fill the host's memory or print on its terminal.

Each test holds a few hundred hostile connections open against the real server (uvicorn, real
sockets) and then has a seat join and move: the move must go through. Nothing a stranger sends
may print on the shared terminal (stdout/stderr, captured at the file descriptors).
"""

from __future__ import annotations

import json
import socket
import ssl
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from tablelight.web.limits import HANDSHAKES, PUBLIC_SOCKETS, STRANGERS
from tablelight.web.throttle import FREE_WRONG, TABLE_FREE_WRONG
from tablelight.web.tls import HttpsChoice

from .conftest import Served, serving
from .test_security import first_choice

HOSTILE = 200
#: How long the server may take over a few hundred connections on a loaded machine: every wait below
#: ends as soon as what it waits for happens, this is only when it gives up.
PATIENCE = 30


def connect(served: Served, payload: bytes = b"", source: str = "127.0.0.1") -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", served.web.view.port), source_address=(source, 0))
    if payload:
        conn.sendall(payload)
    return conn


def board_socket_request(served: Served) -> bytes:
    port = served.web.view.port
    return (
        f"GET /ws/board HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def half_sent_join(served: Served) -> bytes:
    port = served.web.view.port
    return (
        f"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"code": '
    ).encode()


def a_seat_moves(served: Served) -> None:
    """Seat 0 joins with its code and makes its first move, as its page would."""
    device = served.join(0)
    body = first_choice(served, 0, device)
    answer = httpx.post(f"{served.base}/api/seat/0/act", json=body, headers={"Origin": served.base, "X-Seat-Token": device},
                        timeout=PATIENCE)
    assert answer.status_code == 200 and answer.json()["applied"] is True
    assert served.game.log[-1]["action"] == body["action"]


def answer_or_close(conn: socket.socket, within: float = PATIENCE) -> bytes:
    """What the server sends before it closes ``conn`` (raises if it keeps it open longer than ``within``)."""
    conn.settimeout(within)
    received = b""
    try:
        while chunk := conn.recv(65536):
            received += chunk
    except ConnectionResetError:  # closed before it read what we sent
        pass
    return received


def closed_by_server(conn: socket.socket) -> bool:
    """Whether the server has closed ``conn`` (what it sent before is read and dropped)."""
    conn.setblocking(False)
    try:
        while conn.recv(65536):
            pass
    except BlockingIOError:
        return False
    except ConnectionResetError:  # closed before it read what we sent
        pass
    return True


def close_all(conns: list[socket.socket]) -> None:
    for conn in conns:
        conn.close()
    time.sleep(0.3)  # let the server see them go (and print, if it would)


def test_open_board_sockets_of_strangers_do_not_stop_the_seats(served: Served, capfd: pytest.CaptureFixture[str]):
    hostile = [connect(served, board_socket_request(served), source=f"127.0.0.{2 + n % 50}") for n in range(HOSTILE)]
    limits = served.web.view.server.limits
    deadline = time.monotonic() + PATIENCE
    while len(limits.public_sockets) < PUBLIC_SOCKETS and time.monotonic() < deadline:  # the strangers hold them
        time.sleep(0.05)
    a_seat_moves(served)
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + PATIENCE
    while len(closed) < HOSTILE - PUBLIC_SOCKETS and time.monotonic() < deadline:
        closed |= {conn for conn in hostile if conn not in closed and closed_by_server(conn)}
        time.sleep(0.05)
    # the server holds its share of public sockets and closed the rest: memory stays bounded
    assert len(limits.public_sockets) == PUBLIC_SOCKETS and len(closed) == HOSTILE - PUBLIC_SOCKETS
    close_all(hostile)
    assert capfd.readouterr() == ("", "")


def next_state(conn: Any, wanted: Any = lambda state: True) -> dict[str, Any]:
    """The next state the socket sends that is ``wanted`` (the others, sent before it, are passed)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        message = json.loads(conn.recv(timeout=max(0.01, deadline - time.monotonic())))
        if "state" in message and wanted(message["state"]):
            return dict(message["state"])


def test_the_seats_and_the_hosts_sockets_outlast_a_flood(served: Served):
    websockets_sync = pytest.importorskip("websockets.sync.client")
    device = served.join(0)
    ws = served.base.replace("http", "ws")
    with websockets_sync.connect(f"{ws}/ws/seat/0?token={device}", origin=served.base) as seat, \
            websockets_sync.connect(f"{ws}/ws/board?token={served.web.access.host_token}", origin=served.base) as host:
        before = next_state(host)  # what a page is sent as it opens
        hostile = [connect(served, board_socket_request(served) if n % 2 else b"", source=f"127.0.0.{2 + n % 50}")
                   for n in range(2 * HOSTILE)]
        time.sleep(0.3)
        body = first_choice(served, 0, device)
        answer = httpx.post(f"{served.base}/api/seat/0/act", json=body, headers={"Origin": served.base, "X-Seat-Token": device},
                        timeout=PATIENCE)
        assert answer.status_code == 200 and answer.json()["applied"] is True
        moved = len(served.game.log)
        assert next_state(seat, lambda state: state["at"] == moved)
        assert next_state(host, lambda state: state["log"] and state["log"] != before["log"])
        limits = served.web.view.server.limits
        assert len(limits.placed) >= 2 and len(limits.public_sockets) <= PUBLIC_SOCKETS
    close_all(hostile)


def test_silent_connections_do_not_stop_the_seats(served: Served, capfd: pytest.CaptureFixture[str]):
    hostile = [connect(served) for _ in range(HOSTILE)]
    a_seat_moves(served)
    assert served.web.view.server.limits.open_connections() <= STRANGERS + 8
    close_all(hostile)
    assert capfd.readouterr() == ("", "")


def test_half_sent_bodies_do_not_stop_the_seats_and_are_cut_off_quietly(served: Served, capfd: pytest.CaptureFixture[str]):
    hostile = [connect(served, half_sent_join(served)) for _ in range(HOSTILE)]
    time.sleep(0.3)
    a_seat_moves(served)
    # each is answered 408 after the fixture's 1 s, or was closed to make room for newer ones
    answers = [answer_or_close(conn) for conn in hostile]
    assert all(a == b"" or a.startswith(b"HTTP/1.1 408") for a in answers)
    assert any(a.startswith(b"HTTP/1.1 408") for a in answers)
    close_all(hostile)
    assert capfd.readouterr() == ("", "")


def test_what_strangers_send_prints_nothing_on_the_shared_terminal(capfd: pytest.CaptureFixture[str]):
    with serving() as served:
        capfd.readouterr()  # the addresses it printed for people
        held = [connect(served, half_sent_join(served)) for _ in range(3)]  # bodies announced, never sent
        time.sleep(0.2)
        garbage = connect(served, b"\x16\x03\x01 not http at all\r\n\r\n")
        assert answer_or_close(garbage).startswith(b"HTTP/1.1 400")
    # the server stopped while the held requests still waited for their bodies
    close_all(held + [garbage])
    assert capfd.readouterr() == ("", "")


def test_headers_that_never_end_are_cut_off_at_8_kb(served: Served):
    huge = connect(served, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.web.view.port}\r\nX-Pad: {'x' * 10000}".encode())
    assert answer_or_close(huge).startswith(b"HTTP/1.1 400")
    huge.close()


def test_a_body_that_trickles_in_is_cut_off(served: Served):
    conn = connect(served, half_sent_join(served))
    conn.settimeout(0.2)
    received = b""
    deadline = time.monotonic() + 5
    while not received and time.monotonic() < deadline:
        conn.sendall(b" ")  # a byte now and then: the body never completes
        try:
            received = conn.recv(65536)
        except TimeoutError:
            pass
    assert received.startswith(b"HTTP/1.1 408")
    conn.close()


def test_a_chunked_body_over_the_limit_is_refused_with_413(served: Served, capfd: pytest.CaptureFixture[str]):
    device = served.join(0)
    before = list(served.game.log)
    chunks = [json.dumps({"action": {"type": "pass"}, "at": 0}).encode()] + [b" " * 1000] * 5
    answer = httpx.post(f"{served.base}/api/seat/0/act", content=iter(chunks),
                        headers={"Origin": served.base, "X-Seat-Token": device, "Content-Type": "application/json"})
    assert answer.status_code == 413 and "at most" in answer.json()["error"]
    assert served.game.log == before
    assert capfd.readouterr() == ("", "")


def post_join(served: Served, conn: socket.socket, answers: Any, code: str) -> int:
    """POST a code to /api/join on a kept-alive connection, in one write (httpx's two writes
    meet delayed ACKs: 40 ms a request); the answer's status."""
    body = json.dumps({"code": code}).encode()
    port = served.web.view.port
    conn.sendall(f"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {served.base}\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    status = int(answers.readline().split()[1])
    length = 0
    while (line := answers.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    answers.read(length)
    return status


def test_code_guesses_from_many_addresses_meet_the_tables_own_limit(served: Served):
    """200 loopback addresses, five wrong codes each: the table checks its budget and one
    first try per address, and refuses the rest unchecked; a player's right code still opens its seat."""
    clock = [0.0]
    served.web.access.throttle.clock = lambda: clock[0]
    rights = (served.web.access.pass_of(0).code, served.web.access.pass_of(1).code)
    wrong = next(c * 6 for c in "23456789" if c * 6 not in rights)
    statuses: list[int] = []
    for n in range(HOSTILE):
        with connect(served, source=f"127.0.0.{n + 2}") as conn, conn.makefile("rb") as answers:
            for _ in range(FREE_WRONG):
                statuses.append(post_join(served, conn, answers, wrong))
    checked = statuses.count(403)
    assert checked <= TABLE_FREE_WRONG + HOSTILE and statuses.count(429) == len(statuses) - checked
    clock[0] += 1  # its own wait is over, the table's is not
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as client:  # mistyped before: waits
        answer = client.post(f"{served.base}/api/join", json={"code": rights[1]}, headers={"Origin": served.base})
        assert answer.status_code == 429 and "join with the link" in answer.json()["error"]
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.1.1")) as client:  # a player's first try
        answer = client.post(f"{served.base}/api/join", json={"code": rights[1]}, headers={"Origin": served.base})
        assert answer.status_code == 200 and answer.json()["seat"] == 1


def test_silent_connections_to_https_pages_are_bounded_and_cut_off(tmp_path: Path):
    """With --https the handshake is the first thing a connection owes: it is held in a small pool
    (each holds a 256 kB buffer) and dropped after the idle timeout, not after asyncio's 60 s."""
    choice = HttpsChoice.from_options(True, None, None, tmp_path)
    with serving(https=choice) as served:
        trusted = ssl.create_default_context(cafile=str(served.web.view.server.tls.cert))
        hostile = [connect(served, source=f"127.0.0.{2 + n % 50}") for n in range(HOSTILE)]
        code = served.web.access.pass_of(0).code
        answer = httpx.post(f"{served.base}/api/join", json={"code": code}, headers={"Origin": served.base}, verify=trusted,
                            timeout=PATIENCE)
        assert answer.status_code == 200
        assert all(answer_or_close(conn) == b"" for conn in hostile)  # the fixture's idle timeout is 1 s
        close_all(hostile)
        # at most HANDSHAKES were under way at once: the others were closed to make room
        assert served.web.view.server.limits.crowded_out["handshakes"] >= HOSTILE - HANDSHAKES


def test_a_socket_that_keeps_talking_is_closed(served: Served):
    """The pages send nothing over their sockets: a peer that floods one with messages is cut off."""
    websockets = pytest.importorskip("websockets")
    websockets_sync = pytest.importorskip("websockets.sync.client")
    ws = served.base.replace("http", "ws")
    with websockets_sync.connect(f"{ws}/ws/board", origin=served.base) as chatty:
        with pytest.raises(Exception) as closed:
            for _ in range(1000):
                chatty.send("x" * 1000)
                time.sleep(0.001)
            chatty.recv(timeout=5)
            while True:
                chatty.recv(timeout=5)
        assert isinstance(closed.value, websockets.exceptions.ConnectionClosed)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def watcher(served: Served, source: str) -> Any:
    """The public board page's socket (no token), opened from ``source``."""
    websockets_sync = pytest.importorskip("websockets.sync.client")
    port = served.web.view.port
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    return websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/board", sock=sock, origin=served.base, open_timeout=10)


def refusal(conn: Any) -> tuple[int, str]:
    """The close code and words of a socket the server closes before sending anything."""
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed:
        conn.recv(timeout=10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_strangers_watching_from_many_addresses_leave_room_for_the_tables_own_screens(served: Served):
    """16 watchers from 16 addresses fill the public sockets; the table's own machine (127.0.0.1, the
    address the server listens on) still gets a board page, and a 17th stranger is told "too many
    watchers" in words (it was a bare HTTP 403, and the page stayed blank)."""
    with ExitStack() as held:
        strangers = [held.enter_context(watcher(served, f"127.0.0.{2 + n}")) for n in range(PUBLIC_SOCKETS)]
        for conn in strangers:
            assert "pixels" in json.loads(conn.recv(timeout=10))
        for _ in range(3):  # the table's second screens
            own = held.enter_context(watcher(served, "127.0.0.1"))
            assert "pixels" in json.loads(own.recv(timeout=10))
        with watcher(served, f"127.0.0.{2 + PUBLIC_SOCKETS}") as late:
            code, words = refusal(late)
        assert code == 1013 and words.startswith("too many watchers"), (code, words)


def test_a_third_tab_from_one_address_is_told_why_in_words(served: Served):
    with ExitStack() as held:
        for _ in range(2):
            tab = held.enter_context(watcher(served, "127.0.0.2"))
            assert "pixels" in json.loads(tab.recv(timeout=10))
        with watcher(served, "127.0.0.2") as third:
            code, words = refusal(third)
        assert code == 1013 and "too many watchers" in words and "tries again by itself" in words
