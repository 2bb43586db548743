"""The BLE link: bleak's code path (BleLink) against the real firmware's adafruit_ble peripheral on
bumble's virtual radio, at the default 23-byte ATT MTU; discovery by service UUID, name and RSSI."""

from __future__ import annotations

import pytest

from tablelight.board import discover
from tablelight.board.session import BoardSession
from tablelight.links.base import LinkClosed
from tablelight.links.ble import BleLink, adapter_error
from tablelight.sim.radio import VirtualRadio
from tests.ble.ble_helpers import keys_in, link_factory, pair_with_press, port, start_board
from tests.link.link_helpers import collect


@pytest.fixture
def radio():
    air = VirtualRadio()
    yield air
    air.close()


def test_session_over_ble_in_20_byte_chunks_and_by_name(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    links: list[BleLink] = []
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)

        def factory(name: str) -> BleLink:
            link = BleLink(name, backend=host.client_backend, scanner_backend=host.scanner_backend, keys=keys)
            links.append(link)
            return link

        session = BoardSession.open("ble://tablelight-test", link_factory=factory, timeout=20)  # by name
        try:
            assert links[0].address == sim.ble_address and links[0].mtu == 23 and links[0].chunk_size == 20
            leds = session.hello["leds"]
            pixels = [(0, 0, 0, 0)] * leds
            pixels[20] = (255, 0, 0, 0)
            pixels[leds - 1] = (0, 0, 255, 2)
            session.show(pixels)  # a full scene: dozens of 20-byte writes
            sim.wait_pixels(lambda p: p[20][0] > 0 and p[leds - 1][2] > 0, timeout=10)
            sim.press(33)
            assert [(e.key, e.pressed) for e in collect(session, 2, timeout=5)] == [(33, True), (33, False)]
            assert session.loopback(bytes(range(60)), timeout=5) == bytes(range(60))
        finally:
            session.close()


def test_ble_discovery_lists_boards_with_signal_and_bond(radio, tmp_path) -> None:
    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        (board,) = discover.ble_candidates(timeout=1.0, scanner_backend=host.scanner_backend, keys=keys)
        assert board.port == port(sim) and board.description == "tablelight-test"
        assert isinstance(board.rssi, int) and board.paired is False
        pair_with_press(sim, host, keys)
        (board,) = discover.ble_candidates(timeout=1.0, scanner_backend=host.scanner_backend, keys=keys)
        assert board.paired is True
        discover.probe_all([board], 10.0, link_factory=link_factory(host, keys))
        assert board.hello is not None and board.hello["layout"] == "farlander"


def test_a_missing_adapter_or_permission_reads_clearly() -> None:
    assert "no usable Bluetooth adapter" in adapter_error(OSError("No Bluetooth adapters found."))
    assert "bluetooth' group" in adapter_error(PermissionError("org.bluez.Error.NotPermitted"))

    class Broken:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError("No Bluetooth adapters found.")

    with pytest.raises(LinkClosed, match="Bluetooth LE scan failed: no usable Bluetooth adapter"):
        discover.ble_candidates(timeout=0.5, scanner_backend=Broken)  # type: ignore[arg-type]


def test_the_asyncio_session_drives_a_ble_link_from_its_executor(radio, tmp_path) -> None:
    """BleLink runs bleak on a loop of its own: AsyncBoardSession connects and reads it in the
    executor, and the events still arrive on the caller's loop."""
    import asyncio
    import threading

    from tablelight.board.aio import AsyncBoardSession, KeyEvent, SessionEvent

    keys = keys_in(tmp_path)
    host = radio.adapter("host")
    with start_board(radio, window=True) as sim:
        pair_with_press(sim, host, keys)

        async def scenario() -> list[tuple[int, bool]]:
            session = await AsyncBoardSession.open(port(sim), link_factory=link_factory(host, keys), timeout=20)
            loop_thread = threading.current_thread()
            pressed: list[tuple[int, bool]] = []

            def heard(event: SessionEvent) -> None:
                assert threading.current_thread() is loop_thread
                if isinstance(event, KeyEvent):
                    pressed.append((event.key, event.pressed))

            session.listen(heard)
            try:
                leds = session.hello["leds"]
                pixels = [(0, 0, 0, 0)] * leds
                pixels[20] = (255, 0, 0, 0)
                session.show(pixels)
                while not (session.in_sync() and sim.pixels()[20][0] > 0):
                    await asyncio.sleep(0.02)
                sim.press(33)
                for _ in range(500):
                    if len(pressed) == 2:
                        break
                    await asyncio.sleep(0.01)
                return pressed
            finally:
                await session.close()

        assert asyncio.run(asyncio.wait_for(scenario(), 60)) == [(33, True), (33, False)]
