"""BoardProtocol (board/protocol.py) against the firmware's own BoardLink in this process, on a
fake clock: no pty, no thread, no sleeping. Bytes go both ways through real frames."""

from __future__ import annotations

import math
from typing import TypeVar

import pytest

from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_link import BoardLink  # type: ignore[import-not-found]
from tl_scene import Renderer, Scene  # type: ignore[import-not-found]

from tablelight.board.events import (BoardSaid, Connected, Event, HandshakeFailed, KeyEvent, SceneConfirmed, Silent,
                                     WelcomeLost)
from tablelight.board.protocol import CONFIRM_AFTER_S, HEARTBEAT_S, LATE_S, SILENT_S, SYNC_PROBE_S, BoardProtocol
from tablelight.wire import wire

LEDS = 55
E = TypeVar("E")
OFF = (0, 0, 0, 0)
RED = (255, 0, 0, 0)


def payloads(data: bytes) -> list[bytes]:
    return wire.FrameReader().feed(data)


class Bench:
    """A BoardProtocol wired to the firmware's BoardLink; ``t`` is the one clock, in seconds."""

    def __init__(self, *, confirm_scenes: bool = False, layout: str | None = None) -> None:
        self.t = 1000.0
        self.protocol = BoardProtocol(port="bench", layout=layout, confirm_scenes=confirm_scenes, nonces=lambda: 7)
        self.board_out = bytearray()
        self.boot(42)
        self.events: list[Event] = []
        self.protocol.connection_made(self.t, 2.0)
        self.exchange()

    def boot(self, boot_id: int) -> None:
        """A board (again): a new BoardLink, as after a reset; it says hello unasked."""
        scene = Scene(LEDS)
        self.scene = scene
        info = {"firmware": (1, 0, 0), "board": "bench", "layout": "test", "keys": 8, "caps": 7}
        self.board = BoardLink(self.board_out.extend, scene, Renderer(scene, CurrentLimiter(10_000, LEDS)), info,
                               boot_id, self.ms())

    def ms(self) -> int:
        return int(self.t * 1000) & ((1 << 29) - 1)

    def to_board(self) -> bytes:
        sent = self.protocol.bytes_to_send()
        if sent:
            self.board.feed(sent, self.ms())
        return sent

    def to_host(self) -> bytes:
        got = bytes(self.board_out)
        self.board_out.clear()
        if got:
            self.events += self.protocol.receive_bytes(got, self.t)
        return got

    def exchange(self) -> None:
        """Pass frames both ways until both sides are quiet."""
        for _ in range(50):
            sent = self.to_board()
            self.board.tick(self.ms())
            if not sent and not self.to_host():
                return
        raise AssertionError("the two sides never went quiet")

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self.events += self.protocol.tick(self.t)
        self.exchange()

    def shown(self) -> list[tuple[int, ...]]:
        p = self.scene.palette
        return [tuple(p[4 * i:4 * i + 4]) for i in self.scene.indices]

    def taken(self, kind: type[E]) -> list[E]:
        found: list[E] = [e for e in self.events if isinstance(e, kind)]
        self.events = [e for e in self.events if not isinstance(e, kind)]
        return found


def test_the_handshake_connects_and_the_board_takes_the_lease() -> None:
    bench = Bench()
    assert [type(e) for e in bench.events] == [Connected]
    assert bench.protocol.connected and bench.board.lease_ok and bench.protocol.hello["boot_id"] == 42


def test_keys_are_acknowledged_and_a_repeat_is_applied_once() -> None:
    bench = Bench()
    bench.board.key_event(3, True, 1234, bench.ms())
    key_frame = bytes(bench.board_out)
    bench.exchange()
    assert bench.taken(KeyEvent) == [KeyEvent(3, True, 1234, 1)]
    assert bench.board.keys.count == 0  # acknowledged: the board forgot it
    # the same frame again (our ack was lost on the way): acknowledged again, not applied again
    assert bench.protocol.receive_bytes(key_frame, bench.t) == []
    assert payloads(bench.protocol.bytes_to_send()) == payloads(wire.encode_ack(1))
    assert bench.protocol.next_key_seq == 2


def test_a_full_driver_queue_leaves_keys_unacknowledged_until_there_is_room() -> None:
    bench = Bench()
    bench.protocol.key_room = 0
    bench.board.key_event(1, True, 5, bench.ms())
    bench.exchange()
    assert bench.taken(KeyEvent) == [] and bench.board.keys.count == 1
    bench.protocol.key_room = None
    bench.advance(0.2)  # the board re-sends what is not acknowledged
    assert [e.seq for e in bench.taken(KeyEvent)] == [1] and bench.board.keys.count == 0


def test_keys_the_board_dropped_are_counted_as_lost_and_the_rest_arrive() -> None:
    bench = Bench()
    for n in range(40):  # the board's queue holds 32: with the host not hearing, the first 8 go
        bench.board.key_event(n % 8, n % 2 == 0, n, bench.ms())
    first_resent = wire.FrameReader().feed(bytes(bench.board_out))[8:]
    bench.board_out.clear()
    for _ in range(4):  # later events while seq 1 is missing: after four, the host asks where the board starts
        bench.events += bench.protocol.receive_bytes(b"".join(wire.frame(p) for p in first_resent[:1]), bench.t)
    bench.exchange()
    for _ in range(6):
        bench.advance(0.15)
    assert bench.protocol.lost_keys == 8
    assert [e.seq for e in bench.taken(KeyEvent)] == list(range(9, 41))
    assert bench.board.keys.count == 0


def test_a_quiet_board_is_asked_then_a_silent_one_given_up() -> None:
    bench = Bench()
    bench.board_out.clear()
    bench.protocol.bytes_to_send()
    bench.t += HEARTBEAT_S
    assert bench.protocol.tick(bench.t) == []
    sent = [p[0] for p in payloads(bench.protocol.bytes_to_send())]
    assert wire.MSG_STATUS_REQ in sent and wire.MSG_HEARTBEAT in sent  # nothing heard for a heartbeat: asked
    bench.t += HEARTBEAT_S  # on time (a late tick's lateness is not counted as silence)
    assert bench.protocol.tick(bench.t) == []
    bench.t += SILENT_S - 2 * HEARTBEAT_S - 0.01
    assert bench.protocol.tick(bench.t) == []
    assert bench.protocol.next_deadline() <= bench.t + 0.01 + 1e-9
    bench.t += 0.01
    (silent,) = bench.protocol.tick(bench.t)
    assert isinstance(silent, Silent) and silent.seconds >= SILENT_S
    assert not bench.protocol.connected and bench.protocol.silences == 1
    assert bench.protocol.bytes_to_send() == b"" and bench.protocol.next_deadline() == math.inf


def test_an_answering_board_is_never_silent() -> None:
    bench = Bench()
    for _ in range(20):
        bench.advance(HEARTBEAT_S)
    assert bench.protocol.connected and not bench.taken(Silent)


def test_a_late_tick_never_gives_up_a_board_whose_answer_waits_to_be_read() -> None:
    bench = Bench()
    bench.advance(HEARTBEAT_S)  # on time: the host asks, the board answers
    bench.t += HEARTBEAT_S
    bench.events += bench.protocol.tick(bench.t)
    bench.to_board()
    bench.board.tick(bench.ms())
    assert bench.board_out  # the board's answer, not read yet...
    bench.t += 2 * SILENT_S  # ...when the host's loop stalls (a bot thinking), then ticks before it reads
    assert bench.protocol.tick(bench.t) == []
    bench.to_host()
    assert bench.protocol.connected and bench.protocol.silences == 0 and not bench.taken(Silent)


def test_a_stalled_host_asks_again_before_it_calls_a_board_silent() -> None:
    bench = Bench()
    bench.board_out.clear()
    bench.protocol.bytes_to_send()
    bench.t += SILENT_S + 1.0  # the loop was busy: no heartbeat went, so the board said nothing
    assert bench.protocol.tick(bench.t) == []
    assert wire.MSG_STATUS_REQ in [p[0] for p in payloads(bench.protocol.bytes_to_send())]  # asked at once
    for _ in range(3):
        bench.advance(HEARTBEAT_S)  # a board that answers is kept
    assert bench.protocol.connected and not bench.taken(Silent)


def test_a_board_that_stays_silent_after_a_stall_is_given_up_a_second_later() -> None:
    bench = Bench()
    bench.board_out.clear()
    bench.protocol.bytes_to_send()
    bench.t += 5.0
    assert bench.protocol.tick(bench.t) == []  # late: the host was not listening, the board gets its chance
    stalled_at = bench.t
    events: list[Event] = []
    while not events:
        bench.t = bench.protocol.next_deadline()  # on time from now on, and nothing from the board
        events = bench.protocol.tick(bench.t)
    (silent,) = events
    assert isinstance(silent, Silent) and bench.t - stalled_at == pytest.approx(SILENT_S - HEARTBEAT_S)


def test_the_lateness_of_every_tick_is_not_counted_as_silence() -> None:
    bench = Bench()
    bench.board_out.clear()
    bench.protocol.bytes_to_send()
    heard, late, ticks = bench.t, 0.3, 0
    events: list[Event] = []
    while not events:  # a dead board, and a host whose every tick comes 0.3 s late (its process waits for a core)
        bench.t = bench.protocol.next_deadline() + late
        events = bench.protocol.tick(bench.t)
        ticks += 1
    (silent,) = events
    assert isinstance(silent, Silent) and bench.t - heard - ticks * late == pytest.approx(SILENT_S)
    slack = Bench()  # lateness within the timers' slack still counts
    slack.board_out.clear()
    slack.protocol.bytes_to_send()
    heard, events = slack.t, []
    while not events:
        slack.t = slack.protocol.next_deadline() + LATE_S / 2
        events = slack.protocol.tick(slack.t)
    assert slack.t - heard < SILENT_S + LATE_S


def test_scenes_go_as_deltas_and_are_confirmed() -> None:
    bench = Bench(confirm_scenes=True)
    pixels = [OFF] * LEDS
    pixels[4] = RED
    bench.protocol.show(pixels, bench.t)
    bench.exchange()
    whole = bench.protocol.last_update_bytes
    assert bench.shown() == pixels and bench.taken(SceneConfirmed) == []
    assert bench.protocol.next_deadline() == bench.t + CONFIRM_AFTER_S
    bench.advance(CONFIRM_AFTER_S)
    assert bench.taken(SceneConfirmed) == [SceneConfirmed(1)] and bench.protocol.in_sync(bench.t)
    pixels[5] = (0, 0, 255, 2)
    bench.protocol.show(pixels, bench.t)
    assert not bench.protocol.in_sync(bench.t)
    bench.exchange()
    assert bench.protocol.last_update_bytes < whole and bench.shown() == pixels
    bench.advance(SYNC_PROBE_S)  # the last request went with the first confirmation: not sooner
    assert bench.taken(SceneConfirmed) == [SceneConfirmed(2)]
    bench.advance(HEARTBEAT_S)
    assert bench.taken(SceneConfirmed) == []  # once per version


def test_a_rebooted_board_gets_the_handshake_and_the_whole_scene_again() -> None:
    bench = Bench()
    pixels = [RED] * 3 + [OFF] * (LEDS - 3)
    bench.protocol.show(pixels, bench.t)
    bench.protocol.set_brightness(0.5, bench.t)
    bench.exchange()
    bench.events.clear()
    bench.boot(43)  # its hello arrives unasked, with another boot id
    bench.exchange()
    assert [type(e) for e in bench.events] == [WelcomeLost, Connected]
    assert bench.protocol.reconnects == 1 and bench.protocol.board_boot_id == 43
    assert bench.shown() == pixels and bench.board.renderer.brightness == 128


def test_a_board_that_forgot_the_welcome_is_welcomed_again() -> None:
    bench = Bench()
    bench.events.clear()
    bench.events += bench.protocol.receive_bytes(wire.encode_error(wire.ERR_NOT_NOW, wire.MSG_SCENE, "not welcomed"),
                                                 bench.t)
    assert [type(e) for e in bench.events] == [BoardSaid, WelcomeLost] and not bench.protocol.connected
    bench.exchange()
    assert isinstance(bench.events[-1], Connected) and bench.protocol.connected


def test_a_board_of_another_layout_is_refused_and_told_why() -> None:
    bench = Bench(layout="landover")
    (failed,) = bench.taken(HandshakeFailed)
    assert isinstance(failed, HandshakeFailed) and "layout 'test'" in failed.reason
    assert bench.board.refusal and not bench.protocol.connected  # the REFUSE went out before the end
    assert bench.protocol.refused == failed.refused.reason


def test_nothing_is_sent_without_a_link_but_the_scene_is_kept() -> None:
    protocol = BoardProtocol(nonces=lambda: 7)
    protocol.show([RED] * 4, 0.0)
    assert protocol.bytes_to_send() == b"" and not protocol.in_sync(0.0) and protocol.next_deadline() == math.inf


def test_a_key_read_with_the_hello_of_a_reboot_is_still_acknowledged() -> None:
    bench = Bench()
    bench.board.key_event(2, True, 9, bench.ms())
    key_frame = bytes(bench.board_out)
    bench.board_out.clear()
    bench.boot(43)
    hello = bytes(bench.board_out)
    bench.board_out.clear()
    events = bench.protocol.receive_bytes(key_frame + hello, bench.t)
    assert [type(e) for e in events] == [KeyEvent, WelcomeLost]
    sent = payloads(bench.protocol.bytes_to_send())
    assert sent[0] == payloads(wire.encode_ack(1))[0] and sent[1][0] == wire.MSG_HELLO_REQ
