"""Mainland with four clans on the 16x16 mini-map (284 LEDs: wide LED numbers) through the real
firmware on the simulated board: the command line end to end, and the pixels the board shows."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tablelight.cli.main import main
from tablelight.games.mainland.engine import Mainland
from tablelight.table.face import SOLID, Pixel
from tablelight.games.mainland.face import MainlandFace
from tablelight.table.service import Table
from tablelight.table.store import GameStore
from tablelight.wire import format as wire

from .helpers import shows_scene, wait_for

BoardSession = pytest.importorskip("tablelight.board.session").BoardSession

SEATS = ["strong"] * 4  # what --seats bot,bot,bot,bot gives Mainland
#: The budget the user guide gives for the mini-map on its own 5 V 3 A supply.
SUPPLY_BUDGET = {"TL_BUDGET_MA": "2700"}


def reference_game(seed: int) -> Mainland:
    game = Mainland(4, seed=seed)
    Table(game, SEATS).run()
    return game


def lit(pixel: Pixel) -> bool:
    return pixel[3] == SOLID and max(pixel[:3]) > 0


def check_shown(shown: Sequence[Sequence[int]], wanted: Sequence[Pixel], leds: range) -> list[int]:
    """The solid LEDs in ``leds`` the face lights; each must be lit on the board, the dark ones dark."""
    on = [led for led in leds if lit(wanted[led])]
    assert all(max(shown[led]) > 0 for led in on), [(led, shown[led]) for led in on if max(shown[led]) == 0]
    dark = [led for led in leds if wanted[led][3] == SOLID and max(wanted[led][:3]) == 0]
    assert all(max(shown[led]) == 0 for led in dark), [(led, shown[led]) for led in dark if max(shown[led])]
    return on


def test_four_bots_play_the_default_board_with_the_command(tmp_path, capsys, real_board):
    """tablelight play mainland --players 4 --seats bot,bot,bot,bot --board sim --view none."""
    if real_board:
        pytest.skip("starts its own simulated board")
    db = str(tmp_path / "g.sqlite")
    code = main(["play", "mainland", "--players", "4", "--seats", "bot,bot,bot,bot", "--board", "sim",
                 "--view", "none", "--seed", "5", "--db", db])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "(simulated)" in captured.err and "game over" in captured.out
    assert "board-size" not in captured.err + captured.out
    reference = reference_game(5)
    assert reference.size == 16
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over" and info.game == "mainland"
        assert store.load(info.id).to_record() == reference.to_record()


def test_the_firmware_shows_a_four_clan_game_on_all_284_leds(real_board):
    """The real firmware, told the scenes over the pty with two-byte LED numbers, lights what the
    face asks for: the 16th row and column of the matrix and the status LEDs past LED 255."""
    if real_board:
        pytest.skip("starts its own simulated board")
    from tablelight.sim.board import SimBoard

    with SimBoard.start("mainland", settings=SUPPLY_BUDGET) as sim:
        session = BoardSession.open(sim.port)
        try:
            hello = session.hello
            assert hello["layout"] == "mainland" and hello["leds"] == 284
            assert hello["caps"] & wire.CAP_WIDE and wire.wide(hello["leds"])
            game = Mainland(4, seed=5)
            assert game.size == 16
            table = Table(game, SEATS, board=session)
            face = table.face
            assert isinstance(face, MainlandFace)
            edge = [face.layout.cell_leds[y][15] for y in range(16)] + face.layout.cell_leds[15]

            # Mid-game: every clan has camped and played; token LEDs (257 and up) are lit.
            table.run(max_actions=48)
            assert not game.is_over()
            wanted = table.face.pixels()
            wait_for(lambda: shows_scene(sim.pixels(), wanted), timeout=10)
            shown = sim.pixels()
            status = check_shown(shown, wanted, range(256, 284))
            # LEDs past 255 (two-byte numbers) are lit as asked; which ones depends on the bots' play
            assert len(status) >= 4 * 5 and max(status) >= 270
            assert len(check_shown(shown, wanted, range(256))) >= 40

            # To the end: the final map, with tiles on the 16th row or column, is shown.
            table.run()
            assert game.is_over()
            wanted = table.face.pixels()
            wait_for(lambda: shows_scene(sim.pixels(), wanted), timeout=10)
            shown = sim.pixels()
            assert [led for led in check_shown(shown, wanted, range(256)) if led in edge]
            losers = [s for s in range(4) if s not in game.winners()]
            assert check_shown(shown, wanted, range(256, 284)) == [face.layout.turn_leds[s] for s in losers]
            assert game.to_record() == reference_game(5).to_record()
        finally:
            session.close()
