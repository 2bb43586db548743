"""The board's lease and frame-size rules, as docs/protocol.md states them, on the firmware's own
BoardLink with the clock given by the test (no waiting, nothing timing-dependent)."""

from __future__ import annotations

import pytest
from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_link import NEED_SCENE_GAP_MS, BoardLink  # type: ignore[import-not-found]
from tl_scene import Renderer, Scene  # type: ignore[import-not-found]

from tablelight.wire import wire

LEASE = 3000


def welcomed_board() -> tuple[BoardLink, list[bytes]]:
    sent: list[bytes] = []
    scene = Scene(55)
    info = {"firmware": (1, 0, 0), "board": "test", "layout": "test", "keys": 8, "caps": 7}
    link = BoardLink(lambda data: sent.extend(wire.FrameReader().feed(data)), scene,
                     Renderer(scene, CurrentLimiter(10_000, 55)), info, 42, 0)
    link.feed(wire.encode_welcome(LEASE), 0)
    assert link.lease_ok
    sent.clear()
    return link, sent


@pytest.mark.parametrize("frame", [wire.encode_status_req(), wire.encode_loop(b"ping"), wire.encode_hello_req(7),
                                   wire.encode_heartbeat(0, LEASE), wire.encode_ack(0), wire.encode_brightness(9)])
def test_every_valid_frame_from_a_welcomed_host_renews_the_lease(frame: bytes) -> None:
    link, _ = welcomed_board()
    link.feed(frame, LEASE - 100)
    link.tick(LEASE + 500)  # past the first lease, within the renewed one
    assert link.lease_ok
    link.tick(2 * LEASE)
    assert not link.lease_ok  # and the renewed lease runs out in its turn


def test_a_host_frame_after_host_lost_brings_the_lease_back() -> None:
    link, _ = welcomed_board()
    link.tick(LEASE + 1)
    assert not link.lease_ok
    link.feed(wire.encode_status_req(), LEASE + 10)
    assert link.lease_ok


def test_a_frame_that_is_not_valid_does_not_renew() -> None:
    link, sent = welcomed_board()
    link.feed(bytes([0x7E, 1, 2]) + b"\x00", 100)  # garbage: bad COBS/CRC, dropped unanswered
    link.feed(wire.frame(bytes([0x7E])), 200)  # good CRC, unknown type: ERROR 1, no renewal
    link.tick(LEASE + 1)
    assert not link.lease_ok
    assert [p[0] for p in sent] == [wire.MSG_ERROR] and wire.decode_error(sent[0])[0] == wire.ERR_UNKNOWN_TYPE


def oversize_frame(payload: bytes) -> bytes:
    """What wire.frame refuses to make: a frame of a payload over MAX_PAYLOAD, with a good CRC."""
    crc = wire.crc16(payload)
    return bytes(wire.cobs_encode(bytearray(payload) + bytes((crc >> 8, crc & 0xFF)))) + b"\x00"


def test_an_oversize_payload_with_a_good_crc_is_answered_too_large() -> None:
    link, sent = welcomed_board()
    link.feed(oversize_frame(bytes([wire.MSG_LOOP]) + bytes(wire.MAX_PAYLOAD)), 10)  # 1025 bytes
    (error,) = sent
    assert wire.decode_error(error)[:2] == (wire.ERR_TOO_LARGE, wire.MSG_LOOP)
    sent.clear()
    bad_before = link.reader.bad
    link.feed(oversize_frame(bytes([wire.MSG_LOOP]) + bytes(wire.MAX_PAYLOAD + 40)), 20)  # past the reader's buffer
    assert sent == [] and link.reader.bad == bad_before + 1


def test_need_scene_is_rate_limited() -> None:
    link, sent = welcomed_board()  # no scene yet
    for now in range(0, NEED_SCENE_GAP_MS, 10):
        link.feed(wire.encode_heartbeat(0, LEASE), 1000 + now)
    assert [p[0] for p in sent] == [wire.MSG_NEED_SCENE]
    assert wire.decode_need_scene(sent[0])[1] == wire.NEED_NO_SCENE
