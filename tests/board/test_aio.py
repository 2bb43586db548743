"""AsyncBoardSession (board/aio.py) on the simulated board (the real firmware) over a real pty,
both served by one event loop: no thread of ours while it runs."""

from __future__ import annotations

import asyncio
import os
import pty
import threading
import time
import tty
from collections.abc import Awaitable, Callable, Iterator

import pytest

from tablelight.board.aio import AsyncBoardSession, ConnectionChanged, KeyEvent, SceneConfirmed, SessionEvent
from tablelight.board.errors import BoardError
from tablelight.sim.board import SimBoard

LEDS = 55
OFF = (0, 0, 0, 0)
GREEN = (0, 200, 0, 0)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


async def until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.01)


def look(led: int) -> list[tuple[int, int, int, int]]:
    pixels = [OFF] * LEDS
    pixels[led] = GREEN
    return pixels


def test_keys_scenes_and_a_reboot_on_one_loop_with_no_thread() -> None:
    async def scenario() -> None:
        threads = threading.active_count()
        async with await SimBoard.start_async() as sim:
            lit: list[list[tuple[int, int, int]]] = []
            sim.on_pixels(lit.append)
            session = await AsyncBoardSession.open(sim.port)
            heard: list[SessionEvent] = []
            session.listen(heard.append)
            try:
                assert session.connected and session.hello["leds"] == LEDS and session.port == sim.port
                session.show(look(7))
                await until(lambda: SceneConfirmed(session.scene_version) in heard)
                assert session.in_sync()
                await until(lambda: bool(lit) and lit[-1][7][1] > 0)  # pushed by the board, not polled
                sim.press(3)
                await until(lambda: sum(isinstance(e, KeyEvent) for e in heard) == 2)
                assert [(e.key, e.pressed) for e in heard if isinstance(e, KeyEvent)] == [(3, True), (3, False)]
                assert threading.active_count() == threads  # the board, its console, the session: all on the loop

                heard.clear()
                sim.reboot()  # a new boot, an empty scene: the session shakes hands again, sends it all
                await until(lambda: any(isinstance(e, ConnectionChanged) and e.connected for e in heard))
                changes = [e for e in heard if isinstance(e, ConnectionChanged)]
                assert [c.connected for c in changes] == [False, True] and "rebooted" in changes[0].reason
                await until(lambda: sim.pixels()[7][1] > 0 and sim.pixels()[8] == (0, 0, 0))
                await until(session.in_sync)
                assert session.reconnects == 1 and threading.active_count() == threads
            finally:
                await session.close()
            assert not session.connected

    run(scenario)


def test_a_crashed_board_is_given_up_then_reconnected_with_its_scene() -> None:
    async def scenario() -> None:
        async with await SimBoard.start_async() as sim:
            session = await AsyncBoardSession.open(sim.port)
            heard: list[SessionEvent] = []
            session.listen(heard.append)
            try:
                session.show(look(9))
                await until(session.in_sync)
                sim.crash()
                await until(lambda: not session.connected, 5)
                lost = heard[-1]
                assert isinstance(lost, ConnectionChanged) and not lost.connected and "silent" in lost.reason
                session.show(look(10))  # while away: kept, sent when the board is back
                sim.revive()
                await until(lambda: session.connected and session.in_sync(), 10)
                assert isinstance(heard[-1], (ConnectionChanged, SceneConfirmed))
                assert any(e == ConnectionChanged(True, "the board is back") for e in heard)
                await until(lambda: sim.pixels()[10][1] > 0 and sim.pixels()[9] == (0, 0, 0))
            finally:
                await session.close()

    run(scenario)


@pytest.fixture
def mute_port() -> Iterator[str]:
    """A pty nobody answers on."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_a_port_where_nothing_answers_gives_a_readable_reason(mute_port: str) -> None:
    async def scenario() -> None:
        with pytest.raises(BoardError, match=r"no answer from a tablelight board within 0.3 s.*tablelight devices"):
            await AsyncBoardSession.open(mute_port, timeout=0.3)

    run(scenario)


def test_a_board_of_another_layout_is_refused() -> None:
    async def scenario() -> None:
        async with await SimBoard.start_async() as sim:
            with pytest.raises(BoardError, match="wired for layout 'farlander'"):
                await AsyncBoardSession.open(sim.port, layout="landover", timeout=2)

    run(scenario)


def test_a_port_that_does_not_exist() -> None:
    async def scenario() -> None:
        with pytest.raises(BoardError, match="cannot open /dev/no-such-board"):
            await AsyncBoardSession.open("/dev/no-such-board")

    run(scenario)


def test_a_blocking_link_runs_in_the_executor() -> None:
    from tests.wire.test_properties import InProcessBoard

    async def scenario() -> None:
        board = InProcessBoard()
        session = await AsyncBoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
        try:
            session.show(look(2))
            await until(lambda: board.shown() == look(2))
            await until(session.in_sync)
            session.dice([0, 1, 2, 3], [4, 5], color=(255, 0, 0))
            session.set_brightness(0.25)
            await until(lambda: board.renderer.brightness == 64)
        finally:
            await session.close()

    run(scenario)


class TickingBoard:
    """The firmware's BoardLink in this process, ticked after every write: a frame the host
    sends is answered (and pending keys re-sent) before the host reads again."""

    def __init__(self) -> None:
        from tests.wire.test_properties import InProcessBoard

        self.inner = InProcessBoard()
        self.name = "ticking"

    def read(self, timeout: float) -> bytes:
        return self.inner.read(timeout)

    def write(self, data: bytes) -> None:
        self.inner.write(data)
        self.inner.link.tick(self.inner.now())

    def reset_input(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_key_the_board_sends_with_the_handshake_reaches_the_first_listener() -> None:
    async def scenario() -> None:
        board = TickingBoard()
        board.inner.link.keys.push(5, True, 77)  # pressed for the host before: the board re-sends it
        session = await AsyncBoardSession.open("ticking", link_factory=lambda port: board, timeout=2)
        heard: list[SessionEvent] = []
        session.listen(heard.append)
        try:
            await until(lambda: bool(heard))
            assert heard == [KeyEvent(5, True, 77, 1)]
        finally:
            await session.close()

    run(scenario)


def test_the_console_of_a_board_on_the_loop_stops_and_reloads_the_firmware() -> None:
    async def scenario() -> None:
        threads = threading.active_count()
        async with await SimBoard.start_async() as sim:
            console = os.open(sim.console_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            try:
                os.write(console, b"\x03")  # Ctrl-C: code.py stops
                await until(lambda: not sim.running and "Code done running" in sim.console.text())
                boots = sim.boots
                os.write(console, b"\x04")  # Ctrl-D: it reloads
                await until(lambda: sim.running and sim.boots == boots + 1 and "soft reboot" in sim.console.text())
                assert threading.active_count() == threads
            finally:
                os.close(console)

    run(scenario)


def test_an_unplugged_port_is_reported_at_once() -> None:
    """The session's port is a pty bridged (on the loop) to the simulated board; closing its
    master is a pulled cable: the read fails, listeners hear it, the session keeps trying."""
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        async with await SimBoard.start_async() as sim:
            board_end = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            cable, plug = pty.openpty()
            tty.setraw(plug)
            os.set_blocking(cable, False)
            loop.add_reader(cable, lambda: os.write(board_end, os.read(cable, 4096)))
            loop.add_reader(board_end, lambda: os.write(cable, os.read(board_end, 4096)))
            session = await AsyncBoardSession.open(os.ttyname(plug))
            heard: list[SessionEvent] = []
            session.listen(heard.append)
            try:
                os.close(plug)  # only the session holds the port now
                session.show(look(4))
                await until(session.in_sync)
                loop.remove_reader(cable)
                unplugged = time.monotonic()
                os.close(cable)
                await until(lambda: not session.connected, 5)
                assert time.monotonic() - unplugged < 1.0  # the read failed: no waiting for silence
                (lost,) = [e for e in heard if isinstance(e, ConnectionChanged)]
                assert not lost.connected and "silent" not in lost.reason
                await asyncio.sleep(0.5)
                assert not session.connected and session.reconnects == 0  # the port is gone: it keeps trying
            finally:
                loop.remove_reader(board_end)
                os.close(board_end)
                await session.close()

    run(scenario)
