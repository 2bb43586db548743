"""A board that goes silent (its firmware process killed: the port stays open, nothing answers)
is noticed within about three heartbeats; bots wait; the game finishes once the board is back.

The simulated board's process is really killed (SIGKILL) and restarted; nothing here depends on
timing it does not control beyond generous upper bounds.
"""

from __future__ import annotations

import threading
import time

from tests.link.link_helpers import wait_until

from tablelight.board.session import EVENT_QUEUE, REPLY_QUEUE, SILENT_S, BoardSession
from tablelight.games.farlander.engine import Farlander
from tablelight.sim.board import SimBoard
from tablelight.table.service import Table
from tablelight.table.store import GameStore
from tablelight.wire import wire

OFF = (0, 0, 0, 0)


def test_a_killed_board_is_noticed_and_the_scene_comes_back(sim: SimBoard) -> None:
    session = BoardSession.open(sim.port)
    try:
        pixels = [OFF] * 55
        pixels[7] = (0, 200, 0, 0)
        session.show(pixels)
        assert wait_until(session.in_sync, 3)
        sim.crash()
        crashed = time.monotonic()
        assert wait_until(lambda: not session.connected, 5 * SILENT_S)
        assert time.monotonic() - crashed < 4 * SILENT_S  # about three heartbeats, not 10 s
        assert session.silences == 1 and not session.in_sync()
        sim.revive()
        assert wait_until(lambda: session.connected and session.in_sync(), 10)
        assert session.reconnects == 1
        assert wait_until(lambda: sim.pixels()[7][1] > 0 and sim.pixels()[8] == (0, 0, 0), 5)
    finally:
        session.close()


def test_unsolicited_replies_do_not_pile_up() -> None:
    from tests.wire.test_properties import InProcessBoard

    board = InProcessBoard()
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        for n in range(5000):  # answers nobody asked for (a chatty or hostile board)
            board.out.put(wire.encode_loop_reply(b"old %d" % n) + wire.encode_status(tuple(range(12))))
        assert wait_until(board.out.empty, 10)
        assert session.poll(0.2) == []
        assert session.unread_replies == 0  # none kept: nobody was waiting
        assert session.loopback(b"ping") == b"ping"  # the answer to this request, not a stale one
        assert session.unread_replies <= REPLY_QUEUE
    finally:
        session.close()


def test_a_bot_game_waits_for_a_killed_board_and_finishes_when_it_is_back(sim: SimBoard, tmp_path) -> None:
    session = BoardSession.open(sim.port)
    game = Farlander(2, seed=3)
    actions = lambda: sum(1 for e in game.log if "action" in e and not e.get("auto"))  # noqa: E731
    tables: list[Table] = []
    errors: list[BaseException] = []
    path = tmp_path / "games.sqlite"

    def play() -> None:  # the table's own thread, as in tablelight play (SQLite stays in it)
        try:
            with GameStore(path) as store:
                table = Table(game, ["random", "random"], board=session, store=store, poll_interval=0.05)
                tables.append(table)
                table.run()
        except BaseException as error:  # reported by the test, not lost in the thread
            errors.append(error)

    player = threading.Thread(target=play, daemon=True)
    try:
        player.start()
        assert wait_until(lambda: actions() >= 10 or bool(errors), 30) and not errors
        sim.crash()
        at_crash = actions()
        assert wait_until(lambda: not session.connected, 5 * SILENT_S)
        noticed = actions()
        # at most the move in flight when the board died; none while the table knows it is away
        assert noticed <= at_crash + 1
        time.sleep(3 * SILENT_S)
        assert actions() == noticed
        (table,) = tables
        assert any("not connected" in m for m in table.messages)
        sim.revive()
        player.join(timeout=120)
        assert not player.is_alive() and not errors
        assert game.is_over() and "the board is back" in table.messages
        with GameStore(path) as store:
            assert store.load(table.game_id or 0).to_record() == game.to_record()
        shown = table.shown
        assert shown is not None
        assert wait_until(lambda: [v > 0 for px in sim.pixels() for v in px]
                          == [v > 0 for px in shown for v in px[:3]], 5)
    finally:
        session.close()
        player.join(timeout=5)


def test_key_events_nobody_polls_stay_bounded_and_in_order() -> None:
    from tests.wire.test_properties import InProcessBoard

    board = InProcessBoard()
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        for i in range(EVENT_QUEUE + 20):  # far more presses than anyone polls
            with board.lock:
                board.link.key_event(i % 8, True, i, InProcessBoard.now())
            wait_until(lambda: board.out.empty(), 2)
        assert wait_until(lambda: session.unpolled_keys == EVENT_QUEUE, 5)
        events = session.poll(0.1)
        assert [e.seq for e in events] == list(range(1, EVENT_QUEUE + 1))  # the first ones, in order
        later: list = []
        deadline = time.monotonic() + 5
        while len(later) < 20 and time.monotonic() < deadline:  # the rest: kept on the board, re-sent
            with board.lock:
                board.link.tick(InProcessBoard.now() + 1000)
            later += session.poll(0.05)
        assert [e.seq for e in later] == list(range(EVENT_QUEUE + 1, EVENT_QUEUE + 21))
    finally:
        session.close()
