"""Key presses on the board under test, injected through the test-input extension (TEST_KEY)."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.board.session import BoardSession
from tablelight.wire import wire

from .conftest import PATIENCE, RawBoard, events, press, wait_for

pytestmark = [pytest.mark.hardware, pytest.mark.usefixtures("test_input")]


def test_a_press_arrives_as_press_then_release(session: BoardSession) -> None:
    press(session, 4)
    got = events(session, 2)
    assert [(e.key, e.pressed) for e in got] == [(4, True), (4, False)]
    assert got[1].seq == (got[0].seq + 1) & 0xFFFF or 1


def test_every_key_of_the_layout_can_be_pressed(session: BoardSession, hello: dict[str, Any]) -> None:
    for key in range(hello["keys"]):
        press(session, key)
    got = events(session, 2 * hello["keys"], timeout=PATIENCE)
    assert [(e.key, e.pressed) for e in got] == [(k, p) for k in range(hello["keys"]) for p in (True, False)]


def test_a_burst_of_presses_is_delivered_in_order_each_once(session: BoardSession) -> None:
    for n in range(40):  # 80 events: more than the board's queue of 32, acknowledged as they come
        press(session, n % 7)
    got = events(session, 80, timeout=PATIENCE)
    assert [e.key for e in got if e.pressed] == [n % 7 for n in range(40)]
    assert len({e.seq for e in got}) == 80 and session.lost_keys == 0
    assert not session.poll(0.3)  # nothing twice


def test_a_key_the_board_does_not_have_is_refused(session: BoardSession, hello: dict[str, Any]) -> None:
    session.test_key(hello["keys"], True)
    wait_for(lambda: any(code == wire.ERR_MALFORMED and about == wire.MSG_TEST_KEY for code, about, _ in session.errors),
             "the board's refusal of a key it does not have")
    assert not session.poll(0.2)


def test_a_malformed_test_key_is_refused(raw: RawBoard) -> None:
    raw.welcome()
    raw.send(wire.frame(bytes([wire.MSG_TEST_KEY, 1, 7])))
    assert raw.error()[:2] == (wire.ERR_MALFORMED, wire.MSG_TEST_KEY)


def test_an_unacknowledged_key_is_sent_again_until_acknowledged(raw: RawBoard) -> None:
    raw.welcome()
    raw.send(wire.encode_test_key(2, True))
    first = wire.decode_key(raw.expect(wire.MSG_KEY))
    again = wire.decode_key(raw.expect(wire.MSG_KEY, timeout=PATIENCE))  # re-sent every 120 ms
    assert again == first
    raw.send(wire.encode_ack(first[0]))
    raw.payloads(0.2)  # a re-send already on its way may still come
    assert [p for p in raw.payloads(0.5) if p[0] == wire.MSG_KEY] == []


def test_presses_while_the_host_is_lost_are_dropped(raw: RawBoard) -> None:
    raw.welcome(lease_ms=200)
    raw.payloads(0.6)  # lease over: the board shows "host lost"
    raw.send(wire.encode_test_key(1, True))
    assert [p for p in raw.payloads(0.5) if p[0] == wire.MSG_KEY] == []
    assert raw.status()["pending_keys"] == 0
