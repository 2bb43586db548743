"""The one handshake (board/handshake.py), without I/O: fed the board's bytes and the time, it
says what to send and how the exchange ended. Its two users: the session (welcomes or refuses)
and discovery (`tablelight devices`: asks for the hello only)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from tablelight.board import discover
from tablelight.board.errors import BoardError, NoHello
from tablelight.board.handshake import HELLO_RETRY_S, Accepted, Cause, Handshake, Refused
from tablelight.board.session import BoardSession
from tablelight.cli.main import main
from tablelight.wire import wire

from tests.link.link_helpers import scripted_board

NONCE = 4242
LEASE = 3000


def hello_frame(nonce: int = NONCE, *, leds: int = 55, caps: int = 0x0F, max_frame: int = wire.MAX_PAYLOAD,
                layout: str = "farlander", firmware: tuple[int, int, int] = (1, 1, 0)) -> bytes:
    return wire.encode_hello(firmware, 0xB007, leds, 51, caps, max_frame, 1, nonce, "sim", layout)


def status_frame(lease_ok: int) -> bytes:
    return wire.encode_status((1, 0, 96, 255, 30, 450, 0, 3, 0, lease_ok, 1000, 0))


def payloads(data: bytes) -> list[bytes]:
    return wire.FrameReader().feed(data)


def session_handshake(**options: Any) -> Handshake:
    return Handshake(nonce=NONCE, now=0.0, timeout=5.0, lease_ms=LEASE, **options)


def discovery_handshake() -> Handshake:
    return Handshake(nonce=NONCE, now=0.0, timeout=1.0)


def test_a_session_welcomes_the_hello_and_is_done_when_a_status_confirms_it() -> None:
    shake = session_handshake(layout="farlander")
    assert payloads(shake.frames_due(0.0)) == [wire.unframe(wire.encode_hello_req(NONCE)[:-1])]
    reply = shake.receive_data(hello_frame())
    assert [p[0] for p in payloads(reply)] == [wire.MSG_WELCOME, wire.MSG_STATUS_REQ]
    assert wire.decode_welcome(payloads(reply)[0]) == LEASE
    assert shake.outcome is None and shake.welcoming
    assert shake.receive_data(status_frame(lease_ok=0)) == b"" and shake.outcome is None  # not our welcome yet
    key = wire.encode_key(1, 3, True, 10)
    assert shake.receive_data(status_frame(lease_ok=1) + key) == b""
    assert isinstance(shake.outcome, Accepted)
    assert shake.outcome.hello["leds"] == 55 and shake.outcome.hello["layout"] == "farlander"
    assert "nonce" not in shake.outcome.hello  # the nonce belongs to the exchange, not the board
    assert [p[0] for p in shake.unread] == [wire.MSG_KEY]  # the session handles what came after


def test_discovery_is_done_at_the_hello_and_never_welcomes() -> None:
    shake = discovery_handshake()
    shake.frames_due(0.0)
    assert shake.receive_data(hello_frame()) == b""
    assert isinstance(shake.outcome, Accepted) and shake.outcome.hello["keys"] == 51
    assert shake.frames_due(0.3) == b""  # nothing more, ever


def test_hello_request_and_welcome_are_repeated_until_answered() -> None:
    shake = session_handshake()
    assert shake.frames_due(0.0) != b""
    assert shake.frames_due(HELLO_RETRY_S / 2) == b""
    assert [p[0] for p in payloads(shake.frames_due(HELLO_RETRY_S))] == [wire.MSG_HELLO_REQ]
    shake.receive_data(hello_frame())
    assert shake.frames_due(0.3) == b""  # the welcome just went: its retry counts from here
    again = shake.frames_due(0.3 + HELLO_RETRY_S)
    assert [p[0] for p in payloads(again)] == [wire.MSG_WELCOME, wire.MSG_STATUS_REQ]


def test_hellos_for_someone_else_and_broken_frames_are_ignored() -> None:
    shake = session_handshake()
    shake.frames_due(0.0)
    broken = bytearray(hello_frame())
    broken[5] ^= 0xFF  # fails its CRC
    assert shake.receive_data(hello_frame(nonce=NONCE + 1) + bytes(broken) + wire.encode_need_scene(0, 1)) == b""
    assert shake.outcome is None and shake.hello is None
    shake.receive_data(hello_frame()[:7])  # a hello cut by a read ...
    shake.receive_data(hello_frame()[7:])  # ... and its rest
    assert shake.welcoming


@pytest.mark.parametrize(("hello", "cause", "words"), [
    (wire.frame(bytes((wire.MSG_HELLO, 2, 0, 9, 0, 0))), Cause.PROTOCOL, "firmware speaks protocol 2, host needs 1"),
    (hello_frame(leds=0), Cause.LED_COUNT, "handles 1..760"),
    (hello_frame(leds=300, caps=0x0F, firmware=(1, 0, 0)), Cause.NOT_WIDE, "firmware 1.0.0 drives at most 255"),
    (hello_frame(leds=255, max_frame=300), Cause.FRAME_SIZE, "accepts payloads of 300 bytes"),
    (hello_frame(layout="mainland"), Cause.LAYOUT, "wired for layout 'mainland', this game needs 'farlander'"),
])
def test_each_board_this_host_cannot_drive_is_refused_with_its_reason(hello: bytes, cause: Cause, words: str) -> None:
    session = session_handshake(layout="farlander")
    session.frames_due(0.0)
    told = payloads(session.receive_data(hello))
    assert isinstance(session.outcome, Refused) and session.outcome.cause is cause
    assert words in session.outcome.reason and session.outcome.hello is not None
    assert [wire.decode_refuse(p) for p in told] == [session.outcome.reason]  # the board is told why

    looking = Handshake(nonce=NONCE, now=0.0, timeout=1.0, layout="farlander")
    looking.frames_due(0.0)
    assert looking.receive_data(hello) == b""  # discovery reports it, but never refuses a board
    assert looking.outcome == session.outcome


def test_a_board_that_refuses_this_host_ends_the_handshake() -> None:
    shake = session_handshake()
    shake.frames_due(0.0)
    assert shake.receive_data(wire.encode_board_refuse("in use by a host on USB")) == b""
    assert isinstance(shake.outcome, Refused) and shake.outcome.cause is Cause.BOARD_REFUSED
    assert shake.outcome.reason == "the board refused this host: in use by a host on USB"


def _tick_until_over(shake: Handshake, now: float) -> tuple[float, int]:
    """Call the handshake whenever it asks to be called (a driver that is never late) until it ends:
    when it ended, and how many frames it sent meanwhile."""
    sent = 0
    while shake.outcome is None:
        now += shake.wait_time(now)
        sent += shake.frames_due(now) != b""
    return now, sent


def test_a_silent_board_and_an_unconfirmed_welcome_end_at_the_deadline() -> None:
    silent = session_handshake()
    silent.frames_due(0.0)
    ended, asked = _tick_until_over(silent, 0.0)
    assert ended == pytest.approx(5.0) and asked >= 5  # asked again every HELLO_RETRY_S, then given up
    assert isinstance(silent.outcome, Refused) and silent.outcome.cause is Cause.SILENT
    assert "no answer from a tablelight board within 5 s" in silent.outcome.reason and silent.outcome.hello is None

    unconfirmed = session_handshake()
    unconfirmed.frames_due(0.0)
    unconfirmed.receive_data(hello_frame())
    ended, _ = _tick_until_over(unconfirmed, 0.0)
    assert ended == pytest.approx(5.0)
    assert isinstance(unconfirmed.outcome, Refused) and unconfirmed.outcome.cause is Cause.UNCONFIRMED
    assert unconfirmed.outcome.hello is not None


def test_a_nonce_outside_16_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="nonce 0"):
        Handshake(nonce=0, now=0.0, timeout=1.0)


# --- both users over a real pty ---------------------------------------------------------------

def other_protocol_board() -> tuple[str, Any, list[bytes], int]:
    return scripted_board({wire.MSG_HELLO_REQ: lambda p: wire.frame(bytes((wire.MSG_HELLO, 2, 0, 9, 0)) + p[2:4])})


def test_devices_says_why_this_host_cannot_drive_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    port, thread, received, master = other_protocol_board()
    assert main(["devices", "--port", port, "--json"]) == 0
    (board,) = [b for b in json.loads(capsys.readouterr().out) if b["port"] == port]
    assert board["hello"] == {"protocol": 2}
    assert board["error"] == "firmware speaks protocol 2, host needs 1: run tablelight flash"
    assert main(["devices", "--port", port]) == 0
    assert "protocol 2" in capsys.readouterr().out
    assert not [p for p in received if p[0] in (wire.MSG_REFUSE, wire.MSG_WELCOME)]  # only asked
    os.close(master)


def test_discovery_and_the_session_give_the_same_reason() -> None:
    port, thread, received, master = other_protocol_board()
    (board,) = discover.probe_all([discover.BoardInfo(port=port)], timeout=1.0)
    with pytest.raises(BoardError) as raised:
        BoardSession.open(port, timeout=2)
    assert board.error is not None and str(raised.value) == f"{port}: {board.error}"
    thread.join(3)
    os.close(master)


def test_discovery_reports_a_board_that_refuses_this_host() -> None:
    port, thread, received, master = scripted_board({
        wire.MSG_HELLO_REQ: lambda p: wire.encode_board_refuse("not paired: run `tablelight pair`")})
    (board,) = discover.probe_all([discover.BoardInfo(port=port)], timeout=1.0)
    assert board.hello is None and board.error == "the board refused this host: not paired: run `tablelight pair`"
    os.close(master)


def test_probe_names_the_port_and_the_refusal_of_a_board_that_says_no_hello() -> None:
    port, thread, received, master = scripted_board({
        wire.MSG_HELLO_REQ: lambda p: wire.encode_board_refuse("another host has it")})
    with pytest.raises(NoHello) as raised:
        discover.probe(port, timeout=1.0)
    assert isinstance(raised.value, BoardError) and not isinstance(raised.value, TimeoutError)
    assert str(raised.value) == f"{port}: the board refused this host: another host has it"
    assert (raised.value.port, raised.value.cause) == (port, "board_refused")
    os.close(master)


def test_probe_of_a_silent_port_says_nothing_answered_there() -> None:
    port, thread, received, master = scripted_board({})  # reads the requests, answers none
    with pytest.raises(NoHello, match=f"^{port}: no answer from a tablelight board within 0.2 s") as raised:
        discover.probe(port, timeout=0.2)
    assert raised.value.cause == "silent" and received and received[0][0] == wire.MSG_HELLO_REQ
    os.close(master)


def test_waiting_for_the_hello_after_flashing_ends_in_one_error_with_the_boards_words() -> None:
    from tablelight.flash import FlashError
    from tablelight.flash.hello import wait_for_hello

    port, thread, received, master = scripted_board({
        wire.MSG_HELLO_REQ: lambda p: wire.encode_board_refuse("not paired: run `tablelight pair`")})
    with pytest.raises(FlashError, match=f"it refused this host \\({port}: the board refused this host: not paired"):
        wait_for_hello(port, 5.0)
    assert [kind for kind, *_ in received] == [wire.MSG_HELLO_REQ]  # asked once: a refusal is not waited out
    os.close(master)


def test_a_board_that_forgot_the_welcome_gets_the_same_handshake_again() -> None:
    """ERROR 5 (not welcomed) in the middle of a session: the session shakes hands again on the
    same link, then sends the whole scene."""
    from tests.link.link_helpers import wait_until
    from tests.wire.test_properties import InProcessBoard
    from tl_link import BoardLink  # type: ignore[import-not-found]

    board = InProcessBoard()
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        session.show([(1, 2, 3, 0)] * 55)
        assert board.shown() == [(1, 2, 3, 0)] * 55
        # the board's link state starts over (same boot, its hello lost): it welcomes nobody
        forgetful = BoardLink(lambda frame: None, board.scene, board.renderer, board.link.info, 42, board.now())
        forgetful.write = board.out.put
        board.link = forgetful
        written = len(board.written)
        session.show([(9, 9, 9, 0)] * 55)  # answered with ERROR 5
        assert wait_until(lambda: board.shown() == [(9, 9, 9, 0)] * 55 and session.connected, 3)
        kinds = [wire.FrameReader().feed(frame)[0][0] for frame in board.written[written:]]
        assert wire.MSG_HELLO_REQ in kinds and wire.MSG_WELCOME in kinds
        assert any(error[0] == wire.ERR_NOT_NOW for error in session.errors)
    finally:
        session.close()
