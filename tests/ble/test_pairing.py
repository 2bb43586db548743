"""Pairing and bonding through the real firmware (adafruit_ble over the _bleio stand-in) on
bumble's virtual radio: the window, the colour code, bonds that survive a reboot, refusals."""

from __future__ import annotations

import asyncio

import pytest
from bleak import BleakClient
from bleak.exc import BleakError

from tablelight.board.errors import BoardError
from tablelight.board.session import BoardSession
from tablelight.links.base import LinkClosed
from tablelight.links.ble import NUS_RX, NUS_TX, BleLink
from tablelight.links.ble_pairing import forget, pair
from tablelight.wire import auth, wire

from .ble_helpers import keys_in, link_factory, pair_with_press, port, start_board, wait_until


def test_pairing_in_the_window_shows_the_code_and_the_bond_survives_a_reboot(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        names = pair_with_press(sim, host, keys)
        assert len(names) == wire.PAIR_CODE_LENGTH and set(names) <= {n for n, _ in wire.PAIR_COLOURS}
        key = keys.get(sim.ble_address)
        assert key is not None and [wire.PAIR_COLOURS[i][0] for i in wire.pair_code(key)] == names
        assert (tablelight_mode := (keys.path.stat().st_mode & 0o777)) == 0o600, oct(tablelight_mode)

        sim.reboot()  # no key held: the window stays shut, the stored bond and host key still work
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            assert session.hello["caps"] & wire.CAP_BLE and session.hello["caps"] & wire.CAP_PAIRING
            pixels = [(0, 0, 0, 0)] * session.hello["leds"]
            pixels[9] = (0, 255, 0, 0)
            session.show(pixels)
            sim.wait_pixels(lambda p: p[9][1] > 0 and p[0] == (0, 0, 0), timeout=10)
        finally:
            session.close()


def test_no_pairing_outside_the_window(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    with start_board(radio) as sim:
        with pytest.raises(LinkClosed, match="pairing window is closed: hold key 0"):
            pair(port(sim), keys=keys, backend=radio.adapter("stranger").client_backend, timeout=15)
        assert keys.addresses() == []


def test_a_code_nobody_accepts_pairs_nothing(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    with start_board(radio, window=True) as sim:
        shown: list[list[str]] = []
        with pytest.raises(LinkClosed, match="no pairing answer"):
            pair(port(sim), keys=keys, backend=radio.adapter("host").client_backend, on_code=shown.append,
                 timeout=15, confirm_timeout=1.5)
        assert len(shown) == 1 and keys.addresses() == []


def test_an_unencrypted_central_can_neither_write_nor_subscribe(radio, tmp_path) -> None:
    with start_board(radio) as sim:
        backend = radio.adapter("stranger").client_backend

        async def try_it() -> tuple[str, str]:
            async with BleakClient(sim.ble_address, backend=backend, timeout=10) as client:  # no pair()
                with pytest.raises(BleakError) as written:
                    await client.write_gatt_char(NUS_RX, wire.encode_hello_req(1)[:20], response=True)
                with pytest.raises(BleakError) as subscribed:
                    await client.start_notify(NUS_TX, lambda _c, _d: None)
                return str(written.value), str(subscribed.value)

        written, subscribed = asyncio.run(try_it())
        assert "INSUFFICIENT_ENCRYPTION" in written and "INSUFFICIENT_ENCRYPTION" in subscribed


def test_an_encrypted_but_unpaired_central_gets_no_session(radio, tmp_path) -> None:
    """Just-works encryption is open to anyone (CircuitPython's only pairing): without a host key
    the board answers nothing but a refusal -- not even its hello."""
    with start_board(radio) as sim:
        stranger = BleLink(port(sim), backend=radio.adapter("stranger").client_backend, timeout=10,
                           authenticate=False)
        try:
            stranger.write(wire.encode_hello_req(7))
            reader = wire.FrameReader()
            payloads: list[bytes] = []
            wait_until(lambda: bool(payloads.extend(reader.feed(stranger.read(0.1))) or payloads), 5)
            assert payloads and all(p[0] == wire.MSG_BOARD_REFUSE for p in payloads)
            assert "not paired" in wire.decode_board_refuse(payloads[0])
            nonce = stranger.challenge(5)
            state, _code, text = stranger.exchange(auth.answer(bytes(16), nonce), 5)
            assert state == wire.PAIR_REFUSED and "not paired with the board" in text
        finally:
            stranger.close()
        with pytest.raises(BoardError, match="not paired with the board: run `tablelight pair"):
            BoardSession.open(port(sim), link_factory=link_factory(radio.adapter("stranger"), keys_in(tmp_path)),
                              timeout=10)


def test_forget_removes_the_host_on_both_sides(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        key = keys.get(sim.ble_address)
        assert key is not None
        assert forget(port(sim), keys=keys, backend=host.client_backend) == sim.ble_address
        assert keys.get(sim.ble_address) is None
        keys.put(sim.ble_address, key)  # the old key no longer opens a session
        with pytest.raises(LinkClosed, match="not paired with the board"):
            BleLink(port(sim), backend=host.client_backend, keys=keys, timeout=10)
