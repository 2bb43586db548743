"""`tablelight play` runs on one asyncio loop: with a simulated board, the web pages and bots it
starts no thread, and the table core plays a whole game driven by nothing but that loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from tablelight.cli.main import main
from tablelight.games.farlander.engine import Farlander
from tablelight.table import events as ev
from tablelight.table.intents import BoardLink, Choose, Narrow, Press
from tablelight.table.loop import TableLoop
from tablelight.table.service import Table


def test_play_with_a_simulated_board_web_pages_and_bots_starts_no_thread(tmp_path, monkeypatch, capsys):
    started: list[str] = []
    real_start = threading.Thread.start

    def recording_start(self: threading.Thread) -> None:
        started.append(self.name)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", recording_start)
    code = main(["play", "farlander", "--board", "sim", "--view", "web", "--web-port", "0", "--seats", "random,random",
                 "--seed", "3", "--db", str(tmp_path / "g.sqlite"), "--host-link", "file"])
    assert code == 0
    assert "game over" in capsys.readouterr().out
    assert started == []  # no thread: the board, the simulated board, the pages and the bots share one loop


def test_a_bot_game_plays_to_its_end_on_a_bare_event_loop():
    """The same core and driver with no board, no server, nothing but asyncio (as in a browser)."""
    game = Farlander(2, seed=5)
    reference = Farlander(2, seed=5)
    Table(reference, ["random", "strong"]).run()
    table = Table(game, ["random", "strong"])
    seen: list[Any] = []
    table.listen(seen.append)
    asyncio.run(TableLoop(table).run())
    assert game.is_over() and game.to_record() == reference.to_record()
    over = [e for e in seen if isinstance(e, ev.GameOver)]
    assert len(over) == 1 and over[0].winners == list(game.winners())
    applied = [e for e in seen if isinstance(e, ev.ActionApplied)]
    assert [e.index for e in applied] == [i for i, entry in enumerate(game.log) if "action" in entry]


class FakeBoard:
    connected = True

    def show(self, pixels: Any) -> None:
        pass

    def dice(self, *args: Any, **kwargs: Any) -> None:
        pass

    def in_sync(self) -> bool:
        return True

    def poll(self, timeout: float) -> list[Any]:
        return []


@pytest.mark.parametrize("intent_of", [
    lambda game: Press(0),
    lambda game: Choose(game.legal_actions()[0], seat=game.current_seat(), at=len(game.log)),
    lambda game: Narrow({"type": game.legal_actions()[0]["type"]}, seat=game.current_seat(), at=len(game.log)),
])
def test_every_channel_passes_the_one_gate(intent_of):
    """Game over, a dead board, a bot's turn, another seat, a stale position: refused the same way
    whatever the input, with the reason, and nothing changes."""
    game = Farlander(2, seed=1)
    table = Table(game, ["human", "human"], board=FakeBoard())
    intent = intent_of(game)
    table.handle(BoardLink(False))
    before = game.to_record()
    answer = table.handle(intent)
    assert not answer.done and "board is not connected" in answer.words and game.to_record() == before
    table.handle(BoardLink(True))
    if not isinstance(intent, Press):
        stale = type(intent)(**{**intent.__dict__, "at": len(game.log) + 1})
        answer = table.handle(stale)
        assert not answer.done and "moved on" in answer.words
        other = type(intent)(**{**intent.__dict__, "seat": 1 - game.current_seat()})
        answer = table.handle(other)
        assert not answer.done and answer.words == "it is not your turn"
    assert game.to_record() == before
    bots = Table(Farlander(2, seed=1), ["random", "random"])
    bot_intent = intent_of(bots.game)
    answer = bots.handle(bot_intent)
    assert not answer.done and ("plays by itself" in answer.words or "not played by a person" in answer.words)


def test_a_choice_from_a_page_and_a_typed_line_are_refused_after_the_game_is_over():
    game = Farlander(2, seed=2)
    Table(game, ["random", "random"]).run()
    table = Table(game, ["human", "human"], board=FakeBoard())
    for intent in (Press(0), Choose({"type": "pass"}, seat=0, at=len(game.log)), Narrow({}, seat=0, at=len(game.log))):
        answer = table.handle(intent)
        assert not answer.done and answer.words == "the game is over"
