"""The worker's side of the board (PageBoard in AppTable) on CPython's asyncio, against the
simulated board over a pty: the bytes the page would carry go through hex text as in the app.
The board shakes hands, a game for another layout is refused, the board shows the game, a key
press makes a move; the link dropped (a USB cable
pulled, a Bluetooth link lost) stops the choices with the board's reason, and a port opened
again brings the board back with the game as it was."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable

import pytest

from tablelight.app.engine import AppTable

SimBoard = pytest.importorskip("tablelight.sim.board").SimBoard


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within the time: {check}"
        await asyncio.sleep(0.02)


def test_the_board_through_the_page_plays_drops_and_comes_back() -> None:
    async def scenario() -> None:
        sim = await SimBoard.start_async("farlander")
        fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        loop = asyncio.get_running_loop()
        states: list[str] = []
        app = AppTable(board_write=lambda text: os.write(fd, bytes.fromhex(text)),
                       board_state=lambda state, words: states.append(state))
        loop.add_reader(fd, lambda: app.board_bytes(os.read(fd, 4096).hex()))
        try:
            app.board_open()
            await until(lambda: "connected" in states)
            assert states[0] == "handshake"
            assert app.board_forget() is False  # a board on USB holds no key: nothing to forget on it
            wrong = json.loads(app.start(json.dumps({"game": "landover", "seats": ["human", "human"]})))
            assert "the board has layout 'farlander', this game needs 'landover'" in wrong["error"]
            assert json.loads(app.snapshot())["public"] is None  # nothing started
            idle = sim.pixels()
            first = json.loads(app.start(json.dumps({"game": "farlander", "seats": ["human", "human"], "bot_delay": 0})))
            assert first["public"]["board"]
            await until(lambda: sim.pixels() != idle)  # the board shows the game
            assert app.board is not None
            await until(app.board.in_sync)  # and confirmed the scene

            sim.press(0)  # a territory: one press places a unit in Farlander's opening
            await until(lambda: json.loads(app.snapshot())["actions"] == 1)

            app.board_closed("the USB cable was pulled")
            public = json.loads(app.snapshot())["public"]
            assert states[-1] == "away" and public["board"] is False
            seat = public["turn"]
            choice = json.loads(app.snapshot())["seats"][str(seat)]
            refused = json.loads(app.act(json.dumps({"seat": seat, "action": choice["choices"][0]["action"],
                                                     "at": choice["at"]})))
            assert not refused["done"] and "board is not connected" in refused["words"]

            app.board_open()  # the page opened the port again
            await until(lambda: states[-1] == "connected")
            assert json.loads(app.snapshot())["public"]["board"] is True
            done = json.loads(app.act(json.dumps({"seat": seat, "action": choice["choices"][0]["action"],
                                                  "at": choice["at"]})))
            assert done["done"] and json.loads(app.snapshot())["actions"] == 2
        finally:
            app.stop()
            loop.remove_reader(fd)
            os.close(fd)
            sim.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_forget_over_bluetooth_sends_forget_and_ends_the_session_on_the_boards_answer_or_its_silence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tablelight.app import board_link
    from tablelight.wire import auth, wire

    monkeypatch.setattr(board_link, "FORGET_ANSWER_S", 0.05)

    async def scenario() -> None:
        sim = await SimBoard.start_async("farlander")
        fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        loop = asyncio.get_running_loop()
        try:
            for answer in (wire.encode_pair_state(wire.PAIR_FORGOTTEN, None, "forgotten"), None):
                written: list[bytes] = []
                states: list[tuple[str, str]] = []

                def write(data: bytes) -> None:
                    written.append(data)
                    os.write(fd, data)

                board = board_link.PageBoard(write, lambda state, words: states.append((state, words)))
                loop.add_reader(fd, lambda: board.received(os.read(fd, 4096)))
                assert board.forget() is False  # no session: nothing sent
                board.link_opened()  # a real handshake with the board (over its pty) ...
                await until(lambda: bool(states) and states[-1][0] == "connected", 20)
                loop.remove_reader(fd)  # ... then the board's own answers are the test's
                board.bluetooth, board.key = True, bytes(wire.HOST_KEY_SIZE)  # as after a Bluetooth challenge (the sim speaks USB)
                assert board.forget() is True
                assert written[-1] == auth.encode_forget() and states[-1][0] == "forgetting"
                board.in_sync()  # the table goes on asking: nothing more is written meanwhile
                assert written[-1] == auth.encode_forget()
                if answer is not None:
                    board.received(answer)
                    assert [state for state, _ in states[-2:]] == ["away", "forgotten"] and not board.linked
                else:
                    await asyncio.sleep(0.2)
                    assert states[-1][0] == "refused" and "did not answer the forget" in states[-1][1]
                    assert not board.linked and not board.connected
        finally:
            os.close(fd)
            sim.stop()

    asyncio.run(scenario())
