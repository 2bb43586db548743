"""Boards of more than 255 LEDs (the wide-LED extension, CAP_WIDE): the real firmware in the
simulated board with TL_LEDS=300, and the host refusing firmware from before the extension."""

from __future__ import annotations

import os
import threading
import time

import pytest

from tablelight.board.errors import BoardError
from tablelight.board.session import BoardSession
from tablelight.sim.board import SimBoard
from tablelight.wire import wire

from tests.link.link_helpers import scripted_board

OFF = (0, 0, 0, 0)
RED = (255, 0, 0, 0)
GREEN = (0, 255, 0, 0)
BLUE = (0, 0, 255, 0)


def test_simboard_with_300_leds_lights_leds_above_255() -> None:
    with SimBoard.start("farlander", settings={"TL_LEDS": "300", "TL_BOARD": "sim-300"}) as sim:
        session = BoardSession.open(sim.port, layout="farlander")
        try:
            hello = session.hello
            assert hello["leds"] == 300 and hello["caps"] & wire.CAP_WIDE and hello["max_frame"] == wire.MAX_PAYLOAD
            pixels = [OFF] * 300
            pixels[0], pixels[256], pixels[299] = RED, GREEN, BLUE
            session.show(pixels)
            shown = sim.wait_pixels(lambda p: len(p) == 300 and p[256][1] > 0 and p[1] == (0, 0, 0))
            lit = [i for i, p in enumerate(shown) if p != (0, 0, 0)]
            assert lit == [0, 256, 299]
            assert shown[0][0] > 0 and shown[256][1] > 0 and shown[299][2] > 0
            # a move on LEDs above 255 goes as a small delta
            pixels[256], pixels[270], pixels[271] = OFF, GREEN, GREEN
            session.show(pixels)
            assert session.last_update_bytes <= 20
            shown = sim.wait_pixels(lambda p: p[270][1] > 0 and p[256] == (0, 0, 0))
            assert [i for i, p in enumerate(shown) if p != (0, 0, 0)] == [0, 270, 271, 299]
            session.dice(list(range(280, 292)), [2, 5], roll_ms=100, hold_ms=3000)
            landed = [280, 281, 286, 287, 288, 289, 290]  # 2 of the first six, 5 of the next six
            time.sleep(0.3)  # past the 100 ms roll, inside the hold
            shown = sim.wait_pixels(lambda p: [i for i in range(280, 292) if p[i] != (0, 0, 0)] == landed, timeout=3)
            assert shown[299][2] > 0 and shown[0][0] > 0  # the rest of the scene stays
            assert session.status()["has_scene"] == 1 and not session.errors
        finally:
            session.close()


def _old_firmware_board(leds: int) -> tuple[str, threading.Thread, list[bytes], int]:
    """A pty that answers hello requests like firmware 1.0.0 (protocol 1 without CAP_WIDE) set
    to ``leds`` LEDs."""
    return scripted_board({
        wire.MSG_HELLO_REQ: lambda p: wire.encode_hello((1, 0, 0), 77, leds, 51, 7, 600, 1,
                                                        wire.decode_hello_req(p)[1], "old", "mainland"),
        wire.MSG_STATUS_REQ: lambda p: wire.encode_status((0, 0, 96, 255, 100, 450, 0, 1, 0, 1, 10, 0)),
    })


def test_old_firmware_on_a_big_board_is_refused_with_a_readable_reason() -> None:
    port, thread, received, master = _old_firmware_board(284)
    with pytest.raises(BoardError, match=r"reports 284 LEDs, but its firmware 1\.0\.0 .*run tablelight flash"):
        BoardSession.open(port, timeout=2)
    thread.join(3)
    refusals = [wire.decode_refuse(p) for p in received if p[0] == wire.MSG_REFUSE]
    assert refusals and "run tablelight flash" in refusals[0]
    assert not [p for p in received if p[0] in (wire.MSG_WELCOME, wire.MSG_SCENE)]
    os.close(master)


def test_old_firmware_on_a_small_board_still_works() -> None:
    port, thread, received, master = _old_firmware_board(250)  # protocol-1 firmware, no CAP_WIDE
    session = BoardSession.open(port, timeout=2)
    try:
        assert session.connected and session.hello["leds"] == 250 and session.refused is None
        assert [p for p in received if p[0] == wire.MSG_WELCOME]
        assert not [p for p in received if p[0] == wire.MSG_REFUSE]
    finally:
        session.close()
        os.close(master)


def test_the_simulated_board_takes_the_budget_a_big_layout_asks_for():
    from tablelight.sim.board import layout_settings

    assert layout_settings("mainland")["TL_BUDGET_MA"] == "2700"  # its own 5 V supply, per the guide
    assert layout_settings("landover")["TL_BUDGET_MA"] == "1800"
    assert "TL_BUDGET_MA" not in layout_settings("farlander")  # USB powered: the firmware's default
