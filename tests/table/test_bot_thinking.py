"""A bot's search never stops the table: it thinks in slices on the table's loop, the loop's other
work (typed lines, pages, the board) runs between them, and a search the game moved on from is
dropped. Each test waits for states (the bot's move not landed yet), never for a time."""

from __future__ import annotations

import asyncio
import os

import pytest

from tablelight.cli.main import main
from tablelight.core.errors import SetupError
from tablelight.games.farlander.engine import Farlander
from tablelight.table.intents import Choose, Tick
from tablelight.table.loop import TableLoop, read_lines
from tablelight.table.seats import bot_seed, resolve_seats
from tablelight.table.service import Table

#: A search far longer than a slice (seconds of CPU): the tests never wait for it to end.
LONG_SEARCH = "mcts:3000"


@pytest.mark.parametrize("apart", [True, False], ids=["in a process", "in slices"])
def test_a_typed_line_is_read_while_a_bot_thinks(apart: bool) -> None:
    """The terminal's lines come through the loop's reader: one typed while the bot searches is read
    before the bot's move lands (on one long synchronous search it waited for the move)."""
    game = Farlander(2, seed=3)
    table = Table(game, [LONG_SEARCH, LONG_SEARCH])
    read_at: list[int] = []

    async def scenario() -> None:
        driver = TableLoop(table, bots_apart=apart)
        reading, writing = os.pipe()
        stream = os.fdopen(reading, "r")
        stop = read_lines(stream, lambda line: read_at.append(table.actions_made()))
        runner = asyncio.ensure_future(driver.run())
        try:
            os.write(writing, b"?\n")
            while not read_at:
                assert not runner.done(), "the table stopped before the typed line was read"
                await asyncio.sleep(0)
        finally:
            runner.cancel()
            stop()
            stream.close()
            os.close(writing)

    asyncio.run(asyncio.wait_for(scenario(), 120))
    assert read_at == [0]  # read while the first bot still thought: no move had landed


@pytest.mark.parametrize("apart", [True, False], ids=["in a process", "in slices"])
def test_a_seat_request_is_answered_while_a_bot_thinks(apart: bool) -> None:
    """A page's request (a choice through the table's one door) is answered, refused as a bot's
    turn, before the bot's move lands."""
    game = Farlander(2, seed=3)
    table = Table(game, ["human", LONG_SEARCH], board_attached=True)
    answers: list[tuple[str, int]] = []

    async def scenario() -> None:
        driver = TableLoop(table, bots_apart=apart)
        runner = asyncio.ensure_future(driver.run())
        try:
            assert driver.handle(Choose(game.legal_actions()[0], seat=0, at=len(game.log))).done
            await asyncio.sleep(0)  # the driver wakes and starts the bot's search
            answer = driver.handle(Choose(game.legal_actions()[0], seat=0, at=len(game.log)))
            answers.append((answer.words, table.actions_made()))
        finally:
            runner.cancel()

    asyncio.run(asyncio.wait_for(scenario(), 120))
    ((words, log_length),) = answers
    assert words == "it is not your turn" and log_length == 1  # the bot had not moved yet


def test_a_search_the_game_moved_on_from_is_dropped() -> None:
    game = Farlander(2, seed=5)
    table = Table(game, ["mcts:200", "mcts:200"])
    table.handle(Tick())
    assert table.actions_made() == 0 and table.wake_at() is not None  # thinking, a slice at a time
    table.apply(game.legal_actions()[-1])  # a tool plays the seat: the game moves on under the search
    seat = game.current_seat()
    expected = Farlander.make_bot("mcts:200", bot_seed(game, seat)).choose(game)
    moved = len(game.log)
    while table.actions_made() == 1:
        table.handle(Tick())
    assert game.log[moved]["seat"] == seat and game.log[moved]["action"] == expected


def test_a_search_after_an_undo_starts_again_for_the_position_now() -> None:
    game = Farlander(2, seed=6)
    table = Table(game, ["mcts:100", "mcts:100"])
    while table.actions_made() == 0:
        table.handle(Tick())
    (first,) = [e["action"] for e in game.log if "action" in e]
    table.handle(Tick())
    assert table.actions_made() == 1  # the second seat thinks...
    game.undo()  # ...about a position that is gone
    while table.actions_made() < 2:
        table.handle(Tick())
    replica = Farlander(2, seed=6)
    replica.apply(first)
    expected = Farlander.make_bot("mcts:100", bot_seed(replica, 1)).choose(replica)
    assert [e["action"] for e in game.log if "action" in e] == [first, expected]


def test_the_table_moves_as_the_bot_chooses_whole() -> None:
    """Thinking in slices changes nothing: a seeded search bot makes the moves it makes at once."""
    sliced, whole = Farlander(2, seed=8), Farlander(2, seed=8)
    table = Table(sliced, ["mcts:24", "mcts-deep:16"])
    for _ in range(6):
        before = table.actions_made()
        while table.actions_made() == before:
            table.handle(Tick())
        seat = whole.current_seat()
        chosen = Farlander.make_bot(table.seats[seat], bot_seed(whole, seat)).choose(whole)
        whole.apply(chosen)
        assert sliced.to_record() == whole.to_record()


def test_bots_in_a_process_play_the_moves_they_play_in_slices() -> None:
    apart, here = Farlander(2, seed=9), Farlander(2, seed=9)
    asyncio.run(asyncio.wait_for(TableLoop(Table(apart, ["mcts:8", "mcts-deep:6"]), bots_apart=True).run(8), 300))
    Table(here, ["mcts:8", "mcts-deep:6"]).run(8)
    assert apart.to_record() == here.to_record() and len(apart.log) > 8


def test_a_search_in_the_process_the_game_moved_on_from_is_dropped() -> None:
    game = Farlander(2, seed=5)
    table = Table(game, ["mcts:40", "mcts:40"])
    taken: list[object] = []

    async def scenario() -> None:
        driver = TableLoop(table, bots_apart=True)
        runner = asyncio.ensure_future(driver.run())
        try:
            while table.wake_at() is not None:  # until the first bot's search is in the worker
                await asyncio.sleep(0)
            assert table.actions_made() == 0
            taken.append(game.legal_actions()[-1])
            table.apply(taken[0])  # the game moves on while the worker searches
            driver.wake()
            while table.actions_made() < 3:
                assert not runner.done(), "the table stopped"
                await asyncio.sleep(0.01)
        finally:
            runner.cancel()

    asyncio.run(asyncio.wait_for(scenario(), 300))
    reference = Farlander(2, seed=5)
    reference.apply(taken[0])
    for _ in range(2):
        seat = reference.current_seat()
        reference.apply(Farlander.make_bot("mcts:40", bot_seed(reference, seat)).choose(reference))
    played = [e for e in game.log if "action" in e]
    assert played[:3] == [e for e in reference.log if "action" in e][:3]


@pytest.mark.parametrize("spec, kinds", [
    ("mcts-deep:800ms,mcts:64", ["mcts-deep:800ms", "mcts:64"]),
    ("MCTS:1ms,human", ["mcts:1ms", "human"]),
])
def test_a_search_bot_seat_takes_a_budget(spec: str, kinds: list[str]) -> None:
    assert resolve_seats(Farlander, spec, None) == kinds


@pytest.mark.parametrize("seat", ["mcts:0ms", "mcts:800s", "mcts:fast", "mcts-deep:60001ms", "mcts:-5", "mcts:"])
def test_a_bad_budget_is_one_clear_error(seat: str) -> None:
    with pytest.raises(SetupError, match=f"bot '{seat}': after ':' give the iterations per move, a whole number 1..100000 "):
        resolve_seats(Farlander, f"{seat},random", None)


def test_play_refuses_a_bad_budget_and_keeps_nothing(tmp_path, capsys) -> None:
    db = tmp_path / "g.sqlite"
    assert main(["play", "farlander", "--seats", "mcts-deep:soon,random", "--board", "none", "--view", "none",
                 "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "bot 'mcts-deep:soon': after ':' give" in err and "mcts-deep:800ms" in err and "Traceback" not in err
    assert main(["games", "--db", str(db)]) == 0
    assert "mcts-deep:soon" not in capsys.readouterr().out


def test_a_bot_with_a_time_budget_plays_a_game_to_its_end(tmp_path, capsys) -> None:
    db = str(tmp_path / "g.sqlite")
    assert main(["play", "farlander", "--seats", "mcts:1ms,random", "--board", "none", "--view", "none",
                 "--seed", "2", "--db", db]) == 0
    assert "game over" in capsys.readouterr().out


class NoProcesses:
    """A multiprocessing context whose processes never start (no processes left, a sandbox)."""

    def Pipe(self):  # type: ignore[no-untyped-def]
        import multiprocessing

        return multiprocessing.Pipe()

    def Process(self, **kwargs):  # type: ignore[no-untyped-def]
        class Refused:
            def start(self) -> None:
                raise RuntimeError("no processes here")

        return Refused()


def test_a_bot_whose_process_cannot_start_thinks_here(monkeypatch, caplog) -> None:
    from tablelight.table import bot_process

    monkeypatch.setattr(bot_process.multiprocessing, "get_context", lambda kind: NoProcesses())
    apart, here = Farlander(2, seed=10), Farlander(2, seed=10)
    asyncio.run(asyncio.wait_for(TableLoop(Table(apart, ["mcts:6", "mcts:6"]), bots_apart=True).run(4), 300))
    Table(here, ["mcts:6", "mcts:6"]).run(4)
    assert apart.to_record() == here.to_record()
    assert "cannot think in a process" in caplog.text and "no processes here" in caplog.text


def test_bench_table_measures_presses_beside_a_thinking_bot(capsys) -> None:
    import json

    assert main(["bench", "table", "--while-thinking", "mcts:4", "--presses", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures) == ["no bot thinking", "bot thinking in a process", "bot thinking in slices",
                             "bot thinking whole"]
    for found in figures.values():
        assert found["presses"] == 3 and 0 < found["p50_ms"] <= found["p99_ms"] <= found["max_ms"]
        assert found["board_lost"] >= 0
    assert main(["bench", "table", "--while-thinking", "greedy"]) == 2
    assert "--while-thinking takes a search bot" in capsys.readouterr().err
