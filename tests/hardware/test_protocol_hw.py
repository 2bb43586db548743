"""Scenes, deltas, brightness, the current limiter, dice and the lease on the board under test."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tablelight.board.session import BoardSession
from tablelight.wire import wire

from .conftest import PATIENCE, RawBoard, shown_version

pytestmark = pytest.mark.hardware


def wait_status(session: BoardSession, check: Any, timeout: float = PATIENCE) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status = session.status(timeout=PATIENCE)
        if check(status) or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def test_a_scene_arrives_whole(session: BoardSession, hello: dict[str, Any]) -> None:
    session.show([(40, 0, 0, 0)] * hello["leds"])
    status = session.status(timeout=PATIENCE)
    assert status["has_scene"] == 1 and status["lease_ok"] == 1
    assert not session.errors


def test_a_small_change_goes_as_a_delta(session: BoardSession, hello: dict[str, Any]) -> None:
    look = [(0, 0, 30, 0)] * hello["leds"]
    session.show(look)
    first = shown_version(session)
    look[3] = (30, 30, 0, 1)
    session.show(look)
    assert session.last_update_bytes < wire.scene_payload_size(hello["leds"], 2)
    assert shown_version(session) == (first + 1) & 0xFFFF and not session.errors


def test_brightness_reaches_the_board(session: BoardSession, hello: dict[str, Any]) -> None:
    session.show([(10, 10, 10, 0)] * hello["leds"])
    session.set_brightness(0.25)
    assert session.status(timeout=PATIENCE)["brightness"] == round(0.25 * 255)
    session.set_brightness(96 / 255)
    assert session.status(timeout=PATIENCE)["brightness"] == 96


def test_the_current_limiter_holds_full_white_to_the_budget(session: BoardSession, hello: dict[str, Any]) -> None:
    session.set_brightness(1.0)
    session.show([(255, 255, 255, 0)] * hello["leds"])
    status = wait_status(session, lambda s: s["limit_scale"] < 255)
    assert status["limit_scale"] < 255
    assert status["estimated_ma"] <= status["budget_ma"]


def test_a_dim_scene_is_not_limited(session: BoardSession, hello: dict[str, Any]) -> None:
    session.set_brightness(0.1)
    session.show([(0, 0, 0, 0)] * hello["leds"])
    status = wait_status(session, lambda s: s["limit_scale"] == 255)
    assert status["limit_scale"] == 255 and status["estimated_ma"] <= status["budget_ma"]


def test_dice_are_accepted(session: BoardSession, hello: dict[str, Any]) -> None:
    session.show([(0, 0, 0, 0)] * hello["leds"])
    session.dice([0, 1, 2, 3, 4, 5], [3, 6], roll_ms=100, hold_ms=100)
    assert session.status(timeout=PATIENCE)["has_scene"] == 1 and not session.errors


def test_every_valid_frame_renews_the_lease_status_requests_too(raw: RawBoard) -> None:
    # docs/protocol.md: STATUS_REQ renews the lease and STATUS reports lease_ok after that renewal,
    # so a host that only asks for status for longer than the lease keeps the board showing its scene.
    raw.welcome(lease_ms=300)
    for _ in range(8):  # 0.8 s in all, well past the 300 ms lease
        raw.payloads(0.1)
        assert raw.status()["lease_ok"] == 1
    raw.send(wire.encode_heartbeat(0, 3000))
    assert raw.status()["lease_ok"] == 1


def test_a_heartbeat_with_another_version_asks_for_the_scene(raw: RawBoard, hello: dict[str, Any]) -> None:
    raw.send(wire.encode_scene(40, [(1, 1, 1, 0)], [0] * hello["leds"]))
    raw.payloads(0.3)  # the board asks for a scene at most every 100 ms: let an earlier request pass
    raw.send(wire.encode_heartbeat(41, 3000))
    version, reason = wire.decode_need_scene(raw.expect(wire.MSG_NEED_SCENE))
    assert (version, reason) == (40, wire.NEED_VERSION_MISMATCH)
