"""The web server refuses what it must, and the refused requests change nothing.

Every request runs against the real server (uvicorn) over a real socket; "changes nothing"
is checked on the game (its log) and on the seats' passes.
"""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from tablelight.web.guard import MAX_BODY
from tablelight.web.throttle import FREE_WRONG

from .conftest import Served

websockets_sync = pytest.importorskip("websockets.sync.client")


def first_choice(served: Served, seat: int, device: str) -> dict:
    state = wait_state(served, seat, device)
    return {"action": state["choices"][0]["action"], "at": state["at"]}


def wait_state(served: Served, seat: int, device: str) -> dict:
    deadline = time.monotonic() + 5
    while True:
        answer = httpx.get(f"{served.base}/api/seat/{seat}", headers={"X-Seat-Token": device})
        assert answer.status_code == 200, answer.text
        state = answer.json()
        if state.get("choices") or time.monotonic() > deadline:
            return state
        time.sleep(0.02)


def test_a_seat_acts_with_its_token_from_its_page_origin(served: Served):
    device = served.join(0)
    body = first_choice(served, 0, device)
    answer = httpx.post(f"{served.base}/api/seat/0/act", json=body, headers={"Origin": served.base, "X-Seat-Token": device})
    assert answer.status_code == 200 and answer.json()["applied"] is True
    assert served.game.log[-1]["action"] == body["action"]


def test_reading_or_acting_for_a_seat_without_its_token_is_refused_and_changes_nothing(served: Served):
    device0, device1 = served.join(0), served.join(1)
    body = first_choice(served, 0, device0)
    before = list(served.game.log)
    for token in (None, "", "wrong", device1, served.web.access.host_token):
        headers = {"Origin": served.base} | ({"X-Seat-Token": token} if token is not None else {})
        assert httpx.get(f"{served.base}/api/seat/0", headers=headers).status_code == 403
        assert httpx.post(f"{served.base}/api/seat/0/act", json=body, headers=headers).status_code == 403
    # seat 1 cannot move for seat 0 with its own token either (it is seat 0's turn)
    answer = httpx.post(f"{served.base}/api/seat/1/act", json=body, headers={"Origin": served.base, "X-Seat-Token": device1})
    assert answer.status_code == 409 and "not your turn" in answer.json()["message"]
    assert served.game.log == before


def test_a_foreign_host_is_refused_even_with_the_right_token(served: Served):
    device = served.join(0)
    body = first_choice(served, 0, device)
    before = list(served.game.log)
    port = served.web.view.port
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1"):
        for path in ("/", "/join", "/api/seat/0"):
            answer = httpx.get(f"{served.base}{path}", headers={"Host": host, "X-Seat-Token": device})
            assert answer.status_code == 421, (host, path)
        answer = httpx.post(f"{served.base}/api/seat/0/act", json=body, headers={"Host": host, "Origin": served.base, "X-Seat-Token": device})
        assert answer.status_code == 421
    assert served.game.log == before


def test_cross_site_posts_are_refused_and_change_nothing(served: Served):
    device = served.join(0)
    body = first_choice(served, 0, device)
    before = list(served.game.log)
    url = f"{served.base}/api/seat/0/act"
    token = {"X-Seat-Token": device}
    refused = [
        httpx.post(url, json=body, headers={**token, "Origin": "http://evil.example"}),  # another site
        httpx.post(url, json=body, headers={**token, "Origin": "null"}),
        httpx.post(url, json=body, headers=token),  # no Origin at all
        httpx.post(url, content=json.dumps(body), headers={**token, "Origin": served.base, "Content-Type": "text/plain"}),
        httpx.post(url, data={"action": "x"}, headers={**token, "Origin": served.base}),  # a form
        httpx.post(url, json=body, headers={**token, "Origin": served.base, "Sec-Fetch-Site": "cross-site"}),
        httpx.post(f"{served.base}/api/join", json={"code": served.web.access.pass_of(1).code}, headers={"Origin": "http://evil.example"}),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403, 415, 415, 403, 403]
    assert served.game.log == before and not served.web.access.joined(1)
    preflight = httpx.options(url, headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 403 and "access-control-allow-origin" not in preflight.headers
    page = httpx.get(f"{served.base}/")
    assert "access-control-allow-origin" not in page.headers
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"


def test_large_bodies_are_refused(served: Served):
    device = served.join(0)
    big = json.dumps({"action": {"type": "pass", "pad": "x" * MAX_BODY}, "at": 0})
    answer = httpx.post(f"{served.base}/api/seat/0/act", content=big,
                        headers={"Origin": served.base, "X-Seat-Token": device, "Content-Type": "application/json"})
    assert answer.status_code == 413


def test_only_the_host_presses_keys_and_drops_devices(served: Served):
    headers = {"Origin": served.base}
    host = {**headers, "X-Host-Token": served.web.access.host_token}
    device = served.join(0)
    assert httpx.post(f"{served.base}/api/press/3", json={}, headers=headers).status_code == 403
    assert httpx.post(f"{served.base}/api/host/drop", json={"seat": 0}, headers={**headers, "X-Seat-Token": device}).status_code == 403
    assert httpx.get(f"{served.base}/api/host", headers={"X-Seat-Token": device}).status_code == 403
    assert served.web.access.is_seat(0, device)
    answer = httpx.post(f"{served.base}/api/host/drop", json={"seat": 0}, headers=host)
    assert answer.status_code == 200
    assert httpx.get(f"{served.base}/api/seat/0", headers={"X-Seat-Token": device}).status_code == 403
    fresh = httpx.post(f"{served.base}/api/join", json={"code": answer.json()["code"]}, headers=headers)
    assert fresh.status_code == 200 and fresh.json()["seat"] == 0


def test_a_bool_is_not_a_seat_to_drop(served: Served):
    host = {"Origin": served.base, "X-Host-Token": served.web.access.host_token}
    device = served.join(1)
    for seat in (True, False, 1.0, "1"):
        answer = httpx.post(f"{served.base}/api/host/drop", json={"seat": seat}, headers=host)
        assert answer.status_code == 400 and "seat must be one of" in answer.json()["error"], (seat, answer.text)
    assert served.web.access.is_seat(1, device)  # nothing dropped


def test_seat_sockets_need_the_seat_token_and_a_page_origin(served: Served):
    device = served.join(0)
    ws = served.base.replace("http", "ws")
    with websockets_sync.connect(f"{ws}/ws/seat/0?token={device}", origin=served.base) as conn:
        first = [json.loads(conn.recv(timeout=5)) for _ in range(2)]
        assert any("state" in m and m["state"]["seat"] == 0 for m in first)
    for url in (f"{ws}/ws/seat/0?token=wrong", f"{ws}/ws/seat/1?token={device}"):
        with websockets_sync.connect(url, origin=served.base) as conn:
            with pytest.raises(Exception) as closed:
                conn.recv(timeout=5)
            assert "4401" in str(closed.value)
    with pytest.raises(Exception):
        with websockets_sync.connect(f"{ws}/ws/seat/0?token={device}", origin="http://evil.example") as conn:
            conn.recv(timeout=5)


def test_idle_connections_are_closed(served: Served):
    """The fixture's server closes connections idle for 1 s: silent ones, and kept-alive ones after an answer."""
    silent = socket.create_connection(("127.0.0.1", served.web.view.port))
    silent.settimeout(10)
    assert silent.recv(100) == b""  # closed by the server, not by our 10 s timeout (that would raise)
    silent.close()
    kept = socket.create_connection(("127.0.0.1", served.web.view.port))
    kept.settimeout(10)
    kept.sendall(f"GET /join HTTP/1.1\r\nHost: 127.0.0.1:{served.web.view.port}\r\n\r\n".encode())
    received = b""
    while True:
        chunk = kept.recv(65536)
        if not chunk:
            break
        received += chunk
    assert received.startswith(b"HTTP/1.1 200")
    kept.close()
    trickle = socket.create_connection(("127.0.0.1", served.web.view.port))
    trickle.settimeout(10)
    trickle.sendall(b"GET / HT")  # headers that never finish
    assert trickle.recv(100) == b""
    trickle.close()


def test_a_code_guesser_is_slowed_down_by_its_address_not_by_what_it_claims(served: Served):
    """Guessing codes through the real server: after a few wrong codes the guesser's address waits
    (429 with Retry-After), right code or not; X-Forwarded-For does not give it a fresh address."""
    clock = [0.0]
    served.web.access.throttle.clock = lambda: clock[0]
    headers = {"Origin": served.base}
    code = served.web.access.pass_of(1).code
    wrong = next(c * 6 for c in "23456789" if c * 6 not in (code, served.web.access.pass_of(0).code))
    answers = [
        httpx.post(f"{served.base}/api/join", json={"code": wrong}, headers={**headers, "X-Forwarded-For": f"10.1.2.{n}", "X-Real-IP": f"10.1.3.{n}"})
        for n in range(FREE_WRONG)
    ]
    assert [a.status_code for a in answers] == [403] * FREE_WRONG
    late = httpx.post(f"{served.base}/api/join", json={"code": code}, headers={**headers, "X-Forwarded-For": "10.9.9.9"})
    assert late.status_code == 429 and late.headers["retry-after"] == "1" and "try again in 1 s" in late.json()["error"]
    assert not served.web.access.joined(1) and served.web.access.pass_of(1).code == code
    clock[0] += 1  # the wait is over: the right code opens the seat
    assert httpx.post(f"{served.base}/api/join", json={"code": code}, headers=headers).status_code == 200
