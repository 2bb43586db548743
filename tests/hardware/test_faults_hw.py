"""Faults on the board under test: hosts that come and go, a second host, a reset."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tablelight.board.discover import probe
from tablelight.board.errors import BoardError
from tablelight.board.session import BoardSession

from .conftest import PATIENCE, events, press, shown_version

pytestmark = pytest.mark.hardware


def test_the_board_keeps_its_scene_when_the_host_goes_and_comes_back(port: str, hello: dict[str, Any]) -> None:
    with BoardSession.open(port, timeout=PATIENCE) as first:
        first.show([(0, 50, 0, 0)] * hello["leds"])
        version = shown_version(first)
        boot = first.hello["boot_id"]
    with BoardSession.open(port, timeout=PATIENCE) as second:
        assert second.hello["boot_id"] == boot  # the same run of the firmware
        status = second.status(timeout=PATIENCE)
        assert status["has_scene"] == 1 and status["version"] == version


def test_a_second_host_on_the_same_port_is_refused(port: str) -> None:
    with BoardSession.open(port, timeout=PATIENCE):
        with pytest.raises(BoardError):
            BoardSession.open(port, timeout=2.0)


def test_a_hello_probe_does_not_take_the_board_from_its_host(port: str, hello: dict[str, Any]) -> None:
    with BoardSession.open(port, timeout=PATIENCE) as session:
        session.show([(9, 9, 9, 0)] * hello["leds"])
        version = shown_version(session)
    assert probe(port, timeout=PATIENCE)["boot_id"] == hello["boot_id"]
    with BoardSession.open(port, timeout=PATIENCE) as session:
        assert session.status(timeout=PATIENCE)["version"] == version


def test_a_reset_through_the_console_gives_a_fresh_board_and_the_session_recovers(
        request: pytest.FixtureRequest, port: str, hello: dict[str, Any]) -> None:
    plugin = request.config.pluginmanager.get_plugin("tablelight-board")
    if plugin is None or plugin.console is None:
        pytest.skip("needs --board-console=PORT (the board's REPL console)")
    with BoardSession.open(port, timeout=PATIENCE) as session:
        look = [(0, 0, 60, 0)] * hello["leds"]
        session.show(look)
        old_boot = session.hello["boot_id"]
        plugin.console.soft_reload()
        # the session sees the new hello, welcomes the board and sends the scene again by itself
        deadline = time.monotonic() + PATIENCE
        while session.hello["boot_id"] == old_boot and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.hello["boot_id"] != old_boot
        status = session.status(timeout=PATIENCE)
        while not status["has_scene"] and time.monotonic() < deadline:
            status = session.status(timeout=PATIENCE)
        assert status["has_scene"] == 1 and status["uptime_ms"] < 20_000


@pytest.mark.usefixtures("test_input")
def test_presses_after_a_host_change_reach_the_new_host_once(port: str) -> None:
    with BoardSession.open(port, timeout=PATIENCE) as first:
        press(first, 1)
        assert len(events(first, 2)) == 2
    with BoardSession.open(port, timeout=PATIENCE) as second:
        press(second, 2)
        got = events(second, 2)
        assert [(e.key, e.pressed) for e in got] == [(2, True), (2, False)]
        assert not second.poll(0.3)
