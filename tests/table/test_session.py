"""One table session (``table/session.py``) behind every place: its one request entry, play again with
the board and the listeners following the next game, and both hosts built on it (``tablelight play``'s
``cli/table_run.py`` and the browser's ``AppTable``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tablelight.app.engine import AppTable
from tablelight.board.events import ConnectionChanged, KeyEvent, SceneConfirmed
from tablelight.core.errors import SetupError
from tablelight.games.farlander.engine import Farlander
from tablelight.table import events as ev
from tablelight.table.session import TableSession
from tablelight.table.store import GameStore


class LinkedBoard:
    """A board session's contract (what a BoardPort uses): keys and links told to its listeners."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.shown: list[Any] = []

    def listen(self, listener: Any) -> None:
        self.listeners.append(listener)

    def tell(self, event: Any) -> None:
        for listener in list(self.listeners):
            listener(event)

    def show(self, pixels: Any) -> None:
        """Shown, and confirmed soon after (bots wait for the board to show each move)."""
        self.shown.append(pixels)
        asyncio.get_running_loop().call_soon(self.tell, SceneConfirmed(len(self.shown)))

    def dice(self, *args: Any, **kwargs: Any) -> None:
        pass

    def in_sync(self) -> bool:
        return True


def test_a_request_from_any_place_goes_through_the_one_entry_and_is_kept(tmp_path) -> None:
    async def play() -> None:
        store = GameStore(tmp_path / "g.sqlite")
        session = TableSession(Farlander(2, seed=3), ["human", "random"], store=store, bot_delay=0)
        told: list[Any] = []
        session.listen(told.append)
        runner = asyncio.ensure_future(session.run())
        await asyncio.sleep(0)
        seat = session.game.current_seat()
        assert seat == 0  # seed 3: red first
        action = session.game.legal_actions()[0]
        refused = session.request(0, "act", {"action": dict(action), "at": len(session.game.log) + 1})
        assert refused.to_json() == {"applied": False, "message": "the game moved on since this choice was shown: choose again"}
        bad = session.request(True, "act", {"action": dict(action), "at": len(session.game.log)})
        assert "'seat' must be a seat's number" in str(bad.error)
        done = session.request(0, "act", {"action": dict(action), "at": len(session.game.log)})
        assert done.to_json() == {"applied": True, "message": "done"}
        assert store.record(session.game_id)["log"][-1]["action"] == action  # kept before it is shown
        assert any(isinstance(e, ev.ActionApplied) and e.action == action for e in told)
        runner.cancel()
        store.close()

    asyncio.run(play())


def test_play_again_is_refused_until_the_end_then_the_board_and_listeners_follow_the_next_game(tmp_path) -> None:
    async def play() -> None:
        store = GameStore(tmp_path / "g.sqlite")
        settings = {"bot_delay": 0}
        session = TableSession(Farlander(2, seed=3), ["random", "random"], store=store, bot_delay=0, settings=settings)
        board = LinkedBoard()
        session.attach_board(board)
        seen: list[Any] = []
        session.listen(seen.append)
        new_tables: list[int | None] = []
        session.on_new_table(lambda s: new_tables.append(s.game_id))
        with pytest.raises(SetupError, match="not over yet"):
            session.offering_again = True
            session.play_again()
        session.offering_again = False
        await session.run()
        first_id, first_game = session.game_id, session.game
        assert first_game.is_over()
        with pytest.raises(SetupError, match="stopping"):  # over, but the place does not offer it
            session.play_again()
        session.offering_again = True
        table = session.play_again()
        assert table is session.table and session.game_id != first_id and new_tables == [session.game_id]
        assert session.game.seed != first_game.seed and session.game.setup_record() == first_game.setup_record()
        assert store.settings(session.game_id) == settings  # resume of the new game needs no flags
        seen.clear()
        board.tell(ConnectionChanged(False, "unplugged"))  # the board's events reach the new game, not the old
        assert not session.table.board_up
        board.tell(ConnectionChanged(True, "back"))
        await session.run(max_actions=2)
        assert any(isinstance(e, ev.ActionApplied) for e in seen) and len(store.games()) == 2
        assert board.shown  # the new game's scenes went to the same board
        store.close()

    asyncio.run(play())


def test_a_key_of_the_board_presses_for_the_session_after_play_again() -> None:
    async def play() -> None:
        session = TableSession(Farlander(2, seed=3), ["human", "human"], bot_delay=0)
        board = LinkedBoard()
        session.attach_board(board)
        session.offering_again = True
        with pytest.raises(SetupError):
            session.play_again()
        runner = asyncio.ensure_future(session.run())
        await asyncio.sleep(0)
        told: list[Any] = []
        session.listen(told.append)
        key = next(iter(session.face.place_keys().values()))
        board.tell(KeyEvent(key, True, 0, 1))
        assert told, "the board's key reached the table"
        runner.cancel()

    asyncio.run(play())


def test_the_browser_table_draws_a_secret_seed_unless_one_is_typed() -> None:
    async def play() -> None:
        table = AppTable()
        seeds = []
        for _ in range(3):
            assert "error" not in json.loads(table.start(json.dumps({"game": "mainland", "seats": ["human", "human"]})))
            seeds.append(table.session.game.seed)
        assert len(set(seeds)) == 3  # a new deal every game (the form sends no seed when none is typed)
        table.start(json.dumps({"game": "mainland", "seats": ["human", "human"], "seed": 7}))
        assert table.session.game.seed == 7  # a typed seed deals that game again (a replay, a tournament)
        for bad in (True, -1, "7", 2**64):
            answer = json.loads(table.start(json.dumps({"game": "mainland", "seats": ["human", "human"], "seed": bad})))
            assert '"seed" is a whole number from 0' in answer["error"], (bad, answer)
        table.stop()

    asyncio.run(play())


def test_the_browser_table_plays_again_the_same_way_at_the_end() -> None:
    async def play() -> None:
        table = AppTable()
        table.start(json.dumps({"game": "farlander", "seats": ["random", "random"], "seed": 4, "bot_delay": 0}))
        assert "not over yet" in json.loads(table.again())["error"]
        for _ in range(2000):
            if table.session.game.is_over() and not table.running:
                break
            await asyncio.sleep(0.005)
        first = table.session.game
        again = json.loads(table.again())
        assert again["public"]["over"] is False and table.session.game is not first
        assert table.session.game.seed == 5  # a typed seed counts on, as tablelight play --seed does
        for _ in range(2000):
            if table.session.game.is_over():
                break
            await asyncio.sleep(0.005)
        assert json.loads(table.snapshot())["public"]["over"]  # the next game ran to its end too
        table.stop()

    asyncio.run(play())


def test_play_through_offers_play_again_at_each_end_and_stops_when_nobody_takes_it() -> None:
    async def play() -> None:
        session = TableSession(Farlander(2, seed=3), ["random", "random"], bot_delay=0)
        offers: list[bool] = []
        session.on_offer_changed(offers.append)
        ends: list[int] = []

        def over(s: TableSession) -> None:
            ends.append(s.number)
            if s.number == 1:  # a place asks for the next game as soon as the offer is made
                asyncio.get_running_loop().call_soon(s.play_again)

        await asyncio.wait_for(session.play_through(offer_again_s=0.2, on_over=over), 60)
        assert ends == [1, 2] and session.number == 2 and session.game.is_over()
        assert offers == [True, False, True, False] and not session.offering_again  # the second offer lapsed
        with pytest.raises(SetupError, match="stopping"):
            session.play_again()

    asyncio.run(play())
