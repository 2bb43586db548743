"""The end of a game at a terminal of 80x24 (a real pty, read through pyte): once a bots-only game
on the simulated board ends and the command returns, the screen's last line says who won, with
the scores, under the final board."""

from __future__ import annotations

import time

import pytest

from tablelight.table.store import GameStore

from .helpers import wait_for
from .pty_screen import PtyScreen


@pytest.fixture(autouse=True)
def _no_real_board(real_board):
    if real_board:
        pytest.skip("starts its own simulated board")


def test_the_result_is_the_last_thing_on_an_80x24_screen(tmp_path):
    db = tmp_path / "games.sqlite"
    screen = PtyScreen(["play", "farlander", "--seats", "bot,bot", "--bot-delay", "0.02", "--seed", "3", "--board", "sim",
                        "--db", str(db)])
    try:
        # the emulator reads all along (a pty nobody reads blocks the command), until the command returns
        wait_for(lambda: (time.sleep(0.05), screen.read(), screen.process.poll() is not None)[-1], timeout=120)
        assert screen.process.returncode == 0
        lines = [line.rstrip() for line in screen.text().splitlines() if line.strip()]
        with GameStore(db) as store:
            (row,) = store.games()
            game = store.load(row.id)
        colours = ("red", "blue")
        (winner,) = game.winners()
        scores = ", ".join(f"{colours[seat]} {score}" for seat, score in enumerate(game.scores()))
        assert lines[-1] == f"game over: {colours[winner]} wins ({scores})", lines[-4:]
        assert any("turn" in line for line in lines[:-1])  # the final board is still above it
    finally:
        if screen.process.poll() is None:
            screen.process.terminate()
            screen.process.wait(10)
