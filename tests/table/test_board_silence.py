"""A host whose loop was held up is not a silent board: ``tablelight play`` on the simulated board
with a bot that holds the loop for longer than the board may be silent never reports the board lost."""

from __future__ import annotations

import logging
import time
from typing import Any

from tablelight.cli.main import main
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.table.service import BOARD_AWAY_WORDS

#: Longer than the board's silence limit (board/protocol.py's SILENT_S, 1.5 s).
STALL_S = 2.0
STALLS = 2


class StallingBot:
    """Thinks synchronously, holding the loop, for its first moves (the old way a search ran), then plays at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Any) -> Any:
        if sum(1 for e in game.log if "action" in e and e["seat"] == game.current_seat()) < STALLS:
            until = time.monotonic() + STALL_S
            while time.monotonic() < until:
                pass  # burns the CPU on the loop: nothing else runs meanwhile
        return game.random_action(self.rng)


def test_a_loop_held_up_by_a_bot_never_reports_the_simulated_board_lost(tmp_path, monkeypatch, capsys, caplog):
    monkeypatch.setitem(Farlander.own_bots, "staller", f"{__name__}:StallingBot")
    caplog.set_level(logging.INFO, logger="tablelight.board.protocol")
    code = main(["play", "farlander", "--board", "sim", "--view", "none", "--seats", "staller,random",
                 "--seed", "4", "--db", str(tmp_path / "g.sqlite")])
    out = capsys.readouterr().out
    assert code == 0 and "game over" in out
    assert out.count("not connected") == 0 and BOARD_AWAY_WORDS not in out  # the board was not blamed...
    assert "the board is back" not in out
    late = [r for r in caplog.records if "late" in r.getMessage()]
    assert len(late) >= STALLS  # ...though the loop really was held up past the board's silence limit


def test_a_whole_mcts_deep_game_on_the_simulated_board_never_reports_it_lost(tmp_path, capsys) -> None:
    """The issue's own reproduction, with a short budget a move: ``mcts-deep`` (in its worker process)
    against ``strong`` on the simulated board, a whole game, and the board is never taken for lost."""
    code = main(["play", "farlander", "--players", "2", "--seats", "mcts-deep:50ms,strong", "--board", "sim",
                 "--view", "none", "--bot-delay", "0", "--seed", "4", "--db", str(tmp_path / "g.sqlite")])
    out = capsys.readouterr().out
    assert code == 0 and "game over" in out
    assert out.count("not connected") == 0 and "the board is back" not in out
    assert out.count("red: ") >= 10  # the search bot (red) played its moves through the game
