"""The BLE link: bleak's code path (BleLink) against a bumble NUS peripheral running the
firmware's board logic, at the default 23-byte ATT MTU."""

from __future__ import annotations

from tablelight.board.session import BoardSession
from tablelight.links.ble import BleLink
from tests.link.bumble_ble import PERIPHERAL_ADDRESS, BumbleBleakClient, World
from tests.link.link_helpers import collect, wait_until


def test_session_over_ble_in_20_byte_chunks() -> None:
    links: list[BleLink] = []

    def factory(port: str) -> BleLink:
        link = BleLink(port, backend=BumbleBleakClient, timeout=10)
        links.append(link)
        return link

    session = BoardSession.open(f"ble://{PERIPHERAL_ADDRESS}", link_factory=factory, timeout=15)
    try:
        assert session.hello["board"] == "ble-test" and session.hello["leds"] == 55
        link = links[0]
        board = World.boards[id(link._loop)]
        pixels = [(0, 0, 0, 0)] * 55
        pixels[0] = (255, 0, 0, 0)
        pixels[54] = (0, 0, 255, 2)
        session.show(pixels)  # an 80-odd byte scene: several 20-byte writes
        assert wait_until(lambda: board.scene.has_scene and board.scene.indices[54] != board.scene.indices[1], 5)
        p = board.scene.palette
        shown = [tuple(p[4 * i:4 * i + 4]) for i in board.scene.indices]
        assert shown == pixels
        assert max(board.rx_chunks) <= 20 and len(board.rx_chunks) > 4
        link._loop.call_soon_threadsafe(board.press, 33)
        assert [(e.key, e.pressed) for e in collect(session, 2, timeout=5)] == [(33, True), (33, False)]
        assert session.loopback(bytes(range(60)), timeout=5) == bytes(range(60))
    finally:
        session.close()


class TwentyByteWrites:
    """A serial link that writes in 20-byte pieces, as a BLE central does at the default MTU."""

    def __init__(self, port: str) -> None:
        from tablelight.links.serial_link import SerialLink

        self.inner = SerialLink(port)
        self.name = port
        self.writes = 0

    def read(self, timeout: float) -> bytes:
        return self.inner.read(timeout)

    def write(self, data: bytes) -> None:
        for start in range(0, len(data), 20):
            self.inner.write(data[start:start + 20])
            self.writes += 1

    def reset_input(self) -> None:
        self.inner.reset_input()

    def close(self) -> None:
        self.inner.close()


def test_firmware_ble_path_on_the_simulated_board() -> None:
    """code.py with TL_BLE=1 serves the same protocol through tl_ble (fake adafruit_ble UART)."""
    from tablelight.sim.board import SimBoard
    from tablelight.wire import wire

    with SimBoard.start(settings={"TL_BLE": "1"}) as sim:
        assert sim.ble_port is not None
        session = BoardSession.open(sim.ble_port, link_factory=TwentyByteWrites)
        try:
            assert session.hello["caps"] & wire.CAP_BLE
            pixels = [(0, 0, 0, 0)] * 55
            pixels[5] = (0, 255, 0, 0)
            session.show(pixels)
            sim.wait_pixels(lambda p: len(p) == 55 and p[5][1] > 0 and p[0] == (0, 0, 0))
            sim.press(44)
            assert [(e.key, e.pressed) for e in collect(session, 2)] == [(44, True), (44, False)]
        finally:
            session.close()


def test_ble_discovery_finds_the_board_and_its_hello() -> None:
    from tablelight.links import discover
    from tests.link.bumble_ble import BumbleBleakScanner

    boards = discover.ble_candidates(timeout=1.0, scanner_backend=BumbleBleakScanner)
    assert [b.port for b in boards] == [f"ble://{PERIPHERAL_ADDRESS}"]
    discover.probe_all(boards, 5.0, link_factory=lambda port: BleLink(port, backend=BumbleBleakClient))
    assert boards[0].hello is not None and boards[0].hello["board"] == "ble-test"
