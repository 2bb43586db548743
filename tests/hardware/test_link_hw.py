"""The link on the board under test: hello, framing, bad frames, errors (docs/protocol.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablelight.wire import wire

from .conftest import RawBoard

pytestmark = pytest.mark.hardware


def test_hello_matches_the_boards_layout(hello: dict[str, Any], layout: dict[str, Any]) -> None:
    assert hello["protocol"] == wire.PROTOCOL
    assert tuple(int(n) for n in hello["firmware"].split(".")) >= (1, 1, 0)
    assert (hello["leds"], hello["keys"]) == (layout["leds"], layout["keys"])
    assert hello["max_frame"] >= 600 and hello["caps"] & wire.CAP_LIMITER


@pytest.mark.parametrize("size", [1, 100, wire.MAX_PAYLOAD - 1])
def test_loopback_echoes_exactly(raw: RawBoard, size: int) -> None:
    data = bytes(random.Random(size).randrange(256) for _ in range(size))
    raw.send(wire.encode_loop(data))
    assert raw.expect(wire.MSG_LOOP_REPLY)[1:] == data


def test_every_byte_value_survives_cobs(raw: RawBoard) -> None:
    data = bytes(range(256)) * 3
    raw.send(wire.encode_loop(data))
    assert raw.expect(wire.MSG_LOOP_REPLY)[1:] == data


def test_a_frame_in_one_byte_writes_is_one_frame(raw: RawBoard) -> None:
    for byte in wire.encode_loop(b"slowly"):
        raw.send(bytes([byte]))
    assert raw.expect(wire.MSG_LOOP_REPLY)[1:] == b"slowly"


def test_a_corrupted_frame_is_dropped_silently_and_counted(raw: RawBoard) -> None:
    before = raw.status()["bad_frames"]
    broken = bytearray(wire.encode_loop(b"corrupt me"))
    broken[3] ^= 0x40
    raw.send(bytes(broken))
    assert [p for p in raw.payloads(0.5) if p[0] == wire.MSG_LOOP_REPLY] == []
    assert raw.status()["bad_frames"] == before + 1


def test_noise_then_a_good_frame(raw: RawBoard) -> None:
    noise = bytes(random.Random(5).randrange(1, 256) for _ in range(3000)) + b"\x00"
    raw.send(noise)
    raw.send(wire.encode_loop(b"after the noise"))
    assert raw.expect(wire.MSG_LOOP_REPLY)[1:] == b"after the noise"
    assert raw.status()["bad_frames"] >= 1


def test_unknown_message_type_is_answered_with_error_1(raw: RawBoard) -> None:
    raw.send(wire.frame(bytes([0x7E, 1, 2, 3])))
    code, about, _ = raw.error()
    assert (code, about) == (wire.ERR_UNKNOWN_TYPE, 0x7E)


def test_malformed_message_is_answered_with_error_2_and_changes_nothing(raw: RawBoard) -> None:
    raw.welcome()
    before = raw.status()["brightness"]
    raw.send(wire.frame(bytes([wire.MSG_BRIGHTNESS])))  # no level byte
    code, about, _ = raw.error()
    assert (code, about) == (wire.ERR_MALFORMED, wire.MSG_BRIGHTNESS)
    assert raw.status()["brightness"] == before


def test_a_refused_board_takes_no_scene_until_welcomed_again(raw: RawBoard, hello: dict[str, Any]) -> None:
    raw.welcome()
    raw.send(wire.encode_refuse("test: wrong layout"))
    raw.send(wire.encode_scene(1, [(1, 2, 3, 0)], [0] * hello["leds"]))
    assert raw.error()[:2] == (wire.ERR_NOT_NOW, wire.MSG_SCENE)
    raw.welcome()
    raw.send(wire.encode_scene(2, [(1, 2, 3, 0)], [0] * hello["leds"]))
    status = raw.status()
    assert (status["has_scene"], status["version"]) == (1, 2)


def test_a_scene_of_the_wrong_size_is_refused_with_error_3(raw: RawBoard, hello: dict[str, Any]) -> None:
    raw.welcome()
    raw.send(wire.encode_scene(5, [(1, 2, 3, 0)], [0] * (hello["leds"] - 1)))
    code, about, _ = raw.error()
    assert (code, about) == (wire.ERR_WRONG_LED_COUNT, wire.MSG_SCENE)
