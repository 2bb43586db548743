"""The handshake's deadline counts only the time the host listened (board/handshake.py): a driver
whose loop stalled past the whole timeout (a bot thinking, a core busy elsewhere) asks the board
again and gets it, instead of calling a board it never listened to silent. BoardProtocol against
the firmware's own BoardLink on a fake clock, as in test_protocol.py."""

from __future__ import annotations

import pytest

from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_link import BoardLink  # type: ignore[import-not-found]
from tl_scene import Renderer, Scene  # type: ignore[import-not-found]

from tablelight.board.events import Connected, Event, HandshakeFailed
from tablelight.board.handshake import HELLO_RETRY_S, Cause, Handshake, Refused
from tablelight.board.protocol import BoardProtocol

LEDS = 55
TIMEOUT_S = 2.0


class Link:
    """A protocol and the firmware's BoardLink at one clock ``t``; the board's unasked hello at boot
    went nowhere (the host's port opened after it), and so does the host's first HELLO_REQ."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.board_out = bytearray()
        scene = Scene(LEDS)
        info = {"firmware": (1, 0, 0), "board": "bench", "layout": "test", "keys": 8, "caps": 7}
        self.board = BoardLink(self.board_out.extend, scene, Renderer(scene, CurrentLimiter(10_000, LEDS)), info, 42,
                               self.ms())
        self.board_out.clear()
        self.protocol = BoardProtocol(port="bench", nonces=lambda: 7)
        self.protocol.connection_made(self.t, TIMEOUT_S)
        assert self.protocol.bytes_to_send()  # the first request, lost on the way
        self.events: list[Event] = []

    def ms(self) -> int:
        return int(self.t * 1000) & ((1 << 29) - 1)

    def tick(self) -> None:
        self.events += self.protocol.tick(self.t)

    def exchange(self) -> None:
        for _ in range(20):
            sent = self.protocol.bytes_to_send()
            if sent:
                self.board.feed(sent, self.ms())
            self.board.tick(self.ms())
            got = bytes(self.board_out)
            self.board_out.clear()
            if got:
                self.events += self.protocol.receive_bytes(got, self.t)
            if not sent and not got:
                return


def test_a_host_that_stalled_past_the_handshakes_timeout_asks_again_and_gets_the_board() -> None:
    link = Link()
    link.t += 2.5 * TIMEOUT_S  # the loop was busy: no request went again, so the board said nothing
    link.tick()
    assert not [e for e in link.events if isinstance(e, HandshakeFailed)], link.events
    link.exchange()  # asked again at once, the board answers
    assert [type(e) for e in link.events] == [Connected] and link.protocol.connected


def test_a_board_that_stays_silent_after_a_stall_keeps_only_the_time_it_had_left() -> None:
    link = Link()
    link.t += 2.5 * TIMEOUT_S
    link.tick()
    stalled_at = link.t
    while not link.events:  # on time from now on, and every request lost
        link.t = link.protocol.next_deadline()
        link.tick()
        link.protocol.bytes_to_send()
    (failed,) = link.events
    assert isinstance(failed, HandshakeFailed) and failed.refused.cause is Cause.SILENT
    # the request was due HELLO_RETRY_S into the exchange: the board had the rest of the timeout left
    assert link.t - stalled_at == pytest.approx(TIMEOUT_S - HELLO_RETRY_S)


def test_a_discovery_that_calls_late_is_not_told_the_board_was_silent() -> None:
    shake = Handshake(nonce=9, now=0.0, timeout=TIMEOUT_S)
    assert shake.frames_due(0.0)  # HELLO_REQ
    now = 10.0
    assert shake.frames_due(now)  # a late call: asked again, not given up
    assert shake.outcome is None
    while shake.outcome is None:  # on time from now on (as wait_time says), never answered
        now += shake.wait_time(now)
        shake.frames_due(now)
    assert isinstance(shake.outcome, Refused) and shake.outcome.cause is Cause.SILENT
    assert now == pytest.approx(10.0 + TIMEOUT_S - HELLO_RETRY_S)
