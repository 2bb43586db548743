"""Sessions over Bluetooth LE through the real firmware and Adafruit's adafruit_ble: a whole game
played from the board's keys, one host at a time across USB and BLE, and a dropped link."""

from __future__ import annotations

import time

from tablelight.board.session import BoardSession
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import InputMachine, load_layout
from tablelight.links.ble import BleLink
from tablelight.table.service import Table
from tablelight.wire import wire

from .ble_helpers import keys_in, link_factory, pair_with_press, port, start_board, wait_until


def _keys_for(game: Farlander, machine: InputMachine, action: dict) -> list[int]:
    if action["type"] == "place":
        return [machine.keys_for(game.index[action["territory"]])[0]]
    keys = [machine.keys_for(game.index[action["target"]])[-1]]
    for tid, count in action["moves"].items():
        keys += [machine.keys_for(game.index[tid])[0]] * count
    return keys + [load_layout().confirm_key]


def test_a_bonded_host_plays_a_whole_game_over_ble(radio, tmp_path) -> None:
    """Seat 0 presses the board's keys (key events go out as notifications of adafruit_ble's
    UARTService), seat 1 is a bot; every scene goes in as 20-byte writes."""
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            game = Farlander(2, seed=12)
            table = Table(game, ["human", "random"], board=session)
            machine = InputMachine(game, load_layout())
            rng = Rng(3)
            pressed = 0
            while not game.is_over():
                if game.current_seat() != 0:
                    table.step()
                    continue
                action = game.random_action(rng)
                count = len(game.log)
                for key in _keys_for(game, machine, action):
                    sim.press(key)
                    pressed += 1
                assert wait_until(lambda: bool(table.step() or len(game.log) > count), 20), action
            assert game.is_over() and pressed > 20
            assert session.connected and session.hello["caps"] & wire.CAP_PAIRING
        finally:
            session.close()


def test_an_intruder_during_a_usb_game_changes_nothing_and_learns_nothing(radio, tmp_path) -> None:
    """A host paired over BLE while another host plays over USB: its frames get BOARD_REFUSE
    ("in use by a host on USB"), the LEDs keep the USB host's scene, key events go to USB only."""
    keys = keys_in(tmp_path)
    intruder = radio.adapter("intruder")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, intruder, keys)
        usb = BoardSession.open(sim.port, timeout=10)
        try:
            leds = usb.hello["leds"]
            pixels = [(0, 0, 0, 0)] * leds
            pixels[10] = (255, 0, 0, 0)
            usb.show(pixels)
            sim.wait_pixels(lambda p: p[10][0] > 0, timeout=10)

            link = BleLink(port(sim), backend=intruder.client_backend, keys=keys, timeout=10)
            try:
                reader = wire.FrameReader()
                replies: list[bytes] = []
                link.write(wire.encode_hello_req(9))  # who is this board: allowed
                link.write(wire.encode_welcome(3000))
                link.write(wire.encode_scene(1, [(0, 0, 0, 0)], [0] * leds))
                link.write(wire.encode_brightness(0))
                link.write(wire.encode_status_req())
                sim.press(11)  # a press during the intrusion: for the USB host only
                deadline = time.monotonic() + 3
                while time.monotonic() < deadline:
                    replies += reader.feed(link.read(0.1))
                kinds = [p[0] for p in replies]
                assert wire.MSG_HELLO in kinds and wire.MSG_KEY not in kinds and wire.MSG_STATUS not in kinds
                refusals = [wire.decode_board_refuse(p) for p in replies if p[0] == wire.MSG_BOARD_REFUSE]
                assert refusals == ["in use by a host on USB"] * 4
            finally:
                link.close()
            events = []
            assert wait_until(lambda: bool(events.extend(usb.poll(0.1)) or len(events) >= 2), 5)
            assert [(e.key, e.pressed) for e in events] == [(11, True), (11, False)]
            shown = sim.pixels()
            assert shown[10][0] > 0 and usb.status()["brightness"] > 0
        finally:
            usb.close()


def test_the_session_comes_back_after_the_link_drops(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            leds = session.hello["leds"]
            pixels = [(0, 0, 0, 0)] * leds
            pixels[2] = (0, 0, 255, 0)
            session.show(pixels)
            sim.wait_pixels(lambda p: p[2][2] > 0, timeout=10)
            assert radio.drop_links(sim.ble_address) == 1
            assert wait_until(lambda: not session.connected, 5)
            pixels[2] = (0, 255, 0, 0)
            session.show(pixels)  # shown once the link is back (the session reconnects with backoff)
            sim.wait_pixels(lambda p: p[2][1] > 0 and p[2][2] == 0, timeout=20)
            assert session.connected
            sim.press(4)
            events: list = []
            assert wait_until(lambda: bool(events.extend(session.poll(0.1)) or len(events) >= 2), 5)
            assert [(e.key, e.pressed) for e in events] == [(4, True), (4, False)]
        finally:
            session.close()


def test_a_usb_host_is_refused_while_a_ble_host_plays(radio, tmp_path) -> None:
    import pytest

    from tablelight.board.errors import BoardError

    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            with pytest.raises(BoardError, match="refused this host: in use by a host on Bluetooth"):
                BoardSession.open(sim.port, timeout=5)
            assert session.connected and session.status()["lease_ok"]
        finally:
            session.close()


def test_a_ble_host_gets_the_board_after_a_usb_game(radio, tmp_path) -> None:
    """The USB host played and left; the Bluetooth handshake's hello requests must not keep the
    USB host's lease alive (they did: Bluetooth hosts were refused until the board rebooted)."""
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)
        usb = BoardSession.open(sim.port, timeout=10)
        usb.show([(0, 0, 0, 0)] * usb.hello["leds"])
        usb.close()
        time.sleep(3.5)  # the USB host's lease (3 s) runs out
        session = BoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
        try:
            assert session.connected and session.status()["lease_ok"]
        finally:
            session.close()
