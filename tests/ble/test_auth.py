"""Bluetooth session authentication on the simulated board (the real firmware, Adafruit's
adafruit_ble over the _bleio stand-in, bumble's virtual radio): challenge-response, replays
refused, a silent stranger dropped so that the paired host gets in."""

from __future__ import annotations

import time

import pytest

from tablelight.board.session import BoardSession
from tablelight.links.base import LinkClosed
from tablelight.links.ble import BleLink
from tablelight.wire import auth, wire

from .ble_helpers import keys_in, link_factory, pair_with_press, port, start_board, wait_until

DROP_LIMIT_S = 5.0


class RecordingLink(BleLink):
    """A host's link whose every written frame is kept, as a listener on the air would (after
    breaking the link's encryption, or with the bytes from a host it controls)."""

    sent: list[bytes]

    def write(self, data: bytes) -> None:
        self.__dict__.setdefault("sent", []).append(bytes(data))
        super().write(data)


def _payloads(link: BleLink, timeout: float, until: int | None = None) -> list[bytes]:
    """The frames' payloads the link reads: the first ones to come, or (``until``: a message type)
    all up to the first of that type (the nonce's answer may come alone before it)."""
    reader = wire.FrameReader()
    got: list[bytes] = []

    def done() -> bool:
        got.extend(reader.feed(link.read(0.1)))
        return any(p[0] == until for p in got) if until is not None else bool(got)

    wait_until(done, timeout)
    return got


def test_a_recorded_authentication_replayed_by_another_device_is_refused(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        key = keys.get(sim.ble_address)
        assert key is not None
        real = RecordingLink(port(sim), backend=host.client_backend, keys=keys, timeout=10)
        real.close()
        recorded = real.sent
        assert recorded and all(key not in frame for frame in recorded)  # the key never went on the air
        replayer = BleLink(port(sim), backend=radio.adapter("recorder").client_backend, timeout=10,
                           authenticate=False)
        try:
            for frame in recorded:  # AUTH_BEGIN (answered with a fresh nonce), then the old proof
                replayer.write(frame)
            answers = _payloads(replayer, 10, until=wire.MSG_PAIR_STATE)
            states = [wire.decode_pair_state(p) for p in answers if p[0] == wire.MSG_PAIR_STATE]
            assert states and states[-1][0] == wire.PAIR_REFUSED and "not paired" in states[-1][2]
            replayer.write(wire.encode_hello_req(9))
            refusals = _payloads(replayer, 5)
            assert refusals and all(p[0] == wire.MSG_BOARD_REFUSE for p in refusals)
        finally:
            replayer.close()


def test_a_silent_stranger_is_dropped_and_the_paired_host_then_connects(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        time.sleep(0.5)  # the pairing connection is gone
        connected = time.monotonic()  # from the start of its connection, encryption included
        stranger = BleLink(port(sim), backend=radio.adapter("stranger").client_backend, timeout=10,
                           authenticate=False)  # encrypted ("just works"), then silent
        try:
            with pytest.raises(LinkClosed, match="disconnected"):
                while time.monotonic() - connected < DROP_LIMIT_S + 5:
                    stranger.read(0.05)
            dropped_after = time.monotonic() - connected
        finally:
            stranger.close()
        assert dropped_after <= DROP_LIMIT_S, f"the silent stranger held the board for {dropped_after:.2f} s"
        print(f"silent stranger dropped after {dropped_after:.2f} s")
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            assert session.connected and session.hello["caps"] & wire.CAP_PAIRING
        finally:
            session.close()


def test_a_paired_host_that_tries_while_a_stranger_holds_the_board_gets_in(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        time.sleep(0.5)
        stranger = BleLink(port(sim), backend=radio.adapter("stranger").client_backend, timeout=10,
                           authenticate=False)
        try:
            started = time.monotonic()
            session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
            try:
                assert session.connected and time.monotonic() - started < 15
            finally:
                session.close()
        finally:
            stranger.close()


def test_an_old_host_sending_its_key_is_refused_with_the_reason(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        key = keys.get(sim.ble_address)
        assert key is not None
        old = BleLink(port(sim), backend=host.client_backend, timeout=10, authenticate=False)
        try:
            state, _code, text = old.exchange(wire.encode_host_key(wire.MSG_AUTH, key), 5)
            assert state == wire.PAIR_REFUSED and "no longer takes a host key" in text
            assert old.exchange(auth.encode_auth_begin(auth.AUTH_VERSION + 1), 5)[0] == wire.PAIR_REFUSED
        finally:
            old.close()


def test_the_host_runs_the_boards_own_authentication_file() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    link = root / "host" / "tablelight" / "wire" / "auth.py"
    assert link.is_symlink() and link.resolve() == (root / "firmware" / "lib" / "tl_auth.py").resolve()
    assert Path(auth.__file__).resolve() == link.resolve()


@pytest.mark.parametrize("reply,words", [
    (wire.encode_board_refuse("not paired: run `tablelight pair` (send MSG_AUTH first)"),
     "older than this host's Bluetooth authentication .*tablelight flash"),
    (auth.encode_challenge(bytes(16), auth.AUTH_VERSION + 1), "speaks Bluetooth authentication 2, this host 1"),
    (wire.encode_pair_state(wire.PAIR_REFUSED, None, "this host speaks Bluetooth authentication 1, the board 0"),
     "refused this computer: this host speaks"),
])
def test_a_host_never_sends_its_key_to_a_board_that_asks_for_it(reply: bytes, words: str) -> None:
    """Firmware before 1.2 wants AUTH with the key itself: the host stops with what to do, and
    the only thing it wrote is its AUTH_BEGIN (a board the host cannot tell from a fake one)."""
    link = object.__new__(BleLink)  # the link's own challenge code, without a radio
    link.name = "ble://AA:BB:CC:DD:EE:FF"
    written: list[bytes] = []
    replies = [reply]
    link.write = written.append  # type: ignore[method-assign, assignment]
    link.read = lambda timeout: replies.pop(0) if replies else b""  # type: ignore[method-assign]
    with pytest.raises(LinkClosed, match=words):
        link.challenge(1.0)
    assert written == [auth.encode_auth_begin()]
