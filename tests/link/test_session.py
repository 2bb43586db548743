"""BoardSession against the simulated board (the real firmware over a real pty)."""

from __future__ import annotations

import os
import pty
import threading
import time
import tty

import pytest
import tablelight_wire as fw_wire  # type: ignore[import-not-found]

from tablelight.board import session as session_module
from tablelight.board.errors import BoardError
from tablelight.board.session import BoardSession
from tablelight.sim.board import SimBoard
from tablelight.wire import wire

from tests.link.link_helpers import collect, scripted_board, wait_until

OFF = (0, 0, 0, 0)
RED = (255, 0, 0, 0)
BLUE = (0, 0, 255, 0)
GREEN = (0, 255, 0, 0)


def full(level: int) -> int:
    """What a 255 channel shows at host brightness ``level`` (0..255): the firmware's arithmetic."""
    return 255 * (256 * level) >> 16


def test_hello_describes_the_board(session: BoardSession) -> None:
    hello = session.hello
    assert hello["protocol"] == wire.PROTOCOL and hello["layout"] == "farlander"
    assert hello["leds"] == 55 and hello["keys"] == 51 and hello["max_frame"] >= 100
    assert hello["caps"] & wire.CAP_DICE and isinstance(hello["boot_id"], int)
    assert session.connected


def test_show_lights_exactly_what_was_asked(sim: SimBoard, session: BoardSession) -> None:
    session.set_brightness(1.0)
    pixels = [OFF] * 55
    pixels[0], pixels[8], pixels[54] = RED, BLUE, GREEN
    session.show(pixels)
    shown = sim.wait_pixels(lambda p: len(p) == 55 and p[0][0] > 200 and p[54][1] > 200)
    v = full(255)
    assert shown[0] == (v, 0, 0) and shown[8] == (0, 0, v) and shown[54] == (0, v, 0)
    assert shown.count((0, 0, 0)) == 52


def test_small_change_goes_as_a_small_delta(sim: SimBoard, session: BoardSession) -> None:
    pixels = [OFF] * 55
    pixels[49], pixels[14], pixels[15] = GREEN, RED, RED
    pixels[21] = BLUE
    session.show(pixels)
    sim.wait_pixels(lambda p: len(p) == 55 and p[49][1] > 0)
    scene_bytes = session.last_update_bytes
    # a move: territory at slot 2 slices 0-1 changes owner, the turn passes from seat 0 to seat 1
    pixels[14], pixels[15], pixels[49], pixels[50] = BLUE, BLUE, OFF, GREEN
    session.show(pixels)
    assert session.last_update_bytes <= 20 < scene_bytes
    shown = sim.wait_pixels(lambda p: p[50][1] > 0 and p[14][2] > 0)
    assert shown[15][2] > 0 and shown[49] == (0, 0, 0) and shown[21][2] > 0


def test_key_press_arrives_once_with_release(sim: SimBoard, session: BoardSession) -> None:
    sim.press(12)
    events = collect(session, 2)  # and a little longer: anything re-sent must not come again
    assert [(e.key, e.pressed) for e in events] == [(12, True), (12, False)]
    assert [e.seq for e in events] == [1, 2]


def test_poll_times_out_empty(session: BoardSession) -> None:
    started = time.monotonic()
    assert session.poll(0.1) == []
    assert time.monotonic() - started >= 0.09


def test_bad_pixels_are_refused_and_nothing_is_sent(session: BoardSession) -> None:
    sent = session.bytes_sent
    for bad in ([OFF] * 54, [OFF] * 54 + [(256, 0, 0, 0)], [OFF] * 54 + [(1, 2, 3, 9)], [OFF] * 54 + [(1, 2, 3)]):
        with pytest.raises(BoardError):
            session.show(bad)  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        session.set_brightness(1.5)
    with pytest.raises(BoardError):
        session.dice([60], [3])
    assert session.bytes_sent == sent


def test_board_reboot_resyncs_scene_and_keys(sim: SimBoard, session: BoardSession) -> None:
    pixels = [OFF] * 55
    pixels[3] = RED
    session.show(pixels)
    sim.wait_pixels(lambda p: len(p) == 55 and p[3][0] > 0)
    sim.press(1)
    first = collect(session, 2)
    boot = session.hello["boot_id"]
    sim.reboot()
    shown = sim.wait_pixels(lambda p: len(p) == 55 and p[3][0] > 0, timeout=5)
    assert shown[3][0] > 0 and session.hello["boot_id"] != boot
    sim.press(2)
    events = first + collect(session, 2)
    assert [(e.key, e.pressed) for e in events] == [(1, True), (1, False), (2, True), (2, False)]


def test_host_gone_shows_host_lost_then_recovers(sim: SimBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "LEASE_MS", 400)
    first = BoardSession.open(sim.port)
    pixels = [RED] * 10 + [OFF] * 45  # few enough that the current limiter leaves them alone
    first.show(pixels)
    sim.wait_pixels(lambda p: len(p) == 55 and p[0][0] > 50 and p[0][1] == 0)
    first.close()  # the host goes quiet
    lost = sim.wait_pixels(lambda p: p[0][1] > 0 and p[0][2] == 0, timeout=3)  # dim amber, not red
    assert lost[0][0] < 50
    second = BoardSession.open(sim.port)
    second.show(pixels)
    shown = sim.wait_pixels(lambda p: p[0][0] > 50 and p[0][1] == 0, timeout=3)
    assert shown[0][0] == full(96)
    second.close()


def test_status_and_loopback(session: BoardSession) -> None:
    assert session.loopback(b"\x00\x01\x02ping\x00") == b"\x00\x01\x02ping\x00"
    session.show([(255, 255, 255, 0)] * 55)
    session.set_brightness(1.0)
    assert wait_until(lambda: session.status()["limit_scale"] < 255, 3)
    status = session.status()
    assert status["estimated_ma"] <= status["budget_ma"] == 450
    assert status["has_scene"] == 1 and status["lease_ok"] == 1


def test_dice_lands_on_values(sim: SimBoard, session: BoardSession) -> None:
    session.show([OFF] * 55)
    session.set_brightness(1.0)
    session.dice(list(range(7, 13)) + list(range(14, 20)), [4, 2], roll_ms=200, hold_ms=3000)
    time.sleep(0.5)  # past the 200 ms roll, inside the hold
    lit = [i for i, x in enumerate(sim.pixels()) if x != (0, 0, 0)]
    assert lit == [7, 8, 9, 10, 14, 15]


def _fake_board(answer_protocol: int) -> tuple[str, threading.Thread, list[bytes], int]:
    """A board whose hello says it speaks ``answer_protocol``."""
    return scripted_board({
        wire.MSG_HELLO_REQ: lambda p: wire.frame(bytes((wire.MSG_HELLO, answer_protocol, 0, 9, 0)) + p[2:4]),
    })


def test_other_protocol_is_refused_with_a_readable_reason() -> None:
    port, thread, received, master = _fake_board(answer_protocol=2)
    with pytest.raises(BoardError, match=r"firmware speaks protocol 2, host needs 1: run tablelight flash"):
        BoardSession.open(port, timeout=2)
    thread.join(3)
    refusals = [wire.decode_refuse(p) for p in received if p[0] == wire.MSG_REFUSE]
    assert refusals and "protocol 2" in refusals[0]
    os.close(master)


def test_silent_port_gives_no_answer_error() -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    started = time.monotonic()
    with pytest.raises(BoardError, match="no answer"):
        BoardSession.open(os.ttyname(slave), timeout=0.4)
    assert time.monotonic() - started < 2
    os.close(master)
    os.close(slave)


def test_missing_port_gives_readable_error() -> None:
    with pytest.raises(BoardError, match="cannot open /dev/nonexistent-board"):
        BoardSession.open("/dev/nonexistent-board", timeout=0.3)


def test_firmware_and_host_share_one_wire_module() -> None:
    assert fw_wire.frame(b"\x49\x00\x01") == wire.frame(b"\x49\x00\x01")
    assert os.path.samefile(fw_wire.__file__, wire.__file__)


def test_sim_refuses_a_key_the_board_does_not_have(sim: SimBoard) -> None:
    from tablelight.sim.board import SimBoardError

    with pytest.raises(SimBoardError, match="keys 0..50"):
        sim.press(51)


def test_board_of_another_layout_is_refused_and_told(sim: SimBoard) -> None:
    with pytest.raises(BoardError, match="wired for layout 'farlander', this game needs 'mainland'"):
        BoardSession.open(sim.port, layout="mainland", timeout=3)
    lost = sim.wait_pixels(lambda p: len(p) == 55 and p[0][0] > 0 and p[0][1] == 0 and p[0][2] == 0, timeout=3)
    assert lost[0][0] < 64  # the dim red "refused" pattern
    ok = BoardSession.open(sim.port, layout="farlander")
    assert ok.connected
    ok.close()
