"""The commands on the simulated board: tablelight play --board sim, tablelight sim."""

from __future__ import annotations

import pytest

from tablelight.cli.main import main
from tablelight.table.store import GameStore

from .helpers import reference_game

pytest.importorskip("tablelight.board.session")


def test_play_on_the_simulated_board_with_the_terminal_view(tmp_path, capsys, real_board):
    if real_board:
        pytest.skip("starts its own simulated board")
    db = str(tmp_path / "g.sqlite")
    code = main(["play", "farlander", "--seats", "random,random", "--board", "sim", "--view", "terminal", "--seed", "9", "--db", db])
    assert code == 0
    captured = capsys.readouterr()
    assert "(simulated)" in captured.err
    assert "game over" in captured.out
    # Pictures of the board (no colour when not on a terminal): the final one shows both seats' letters.
    last = captured.out.split("turn ")[-2]
    assert ("R" in last or "r" in last) and ("B" in last or "b" in last)
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over"
        assert store.load(info.id).to_record() == reference_game(2, 9, ["random", "random"]).to_record()


def test_sim_command_prints_its_port(capsys, real_board):
    if real_board:
        pytest.skip("starts its own simulated board")
    assert main(["sim", "--view", "none", "--seconds", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "simulated farlander board on /dev/pts/" in out
    assert "tablelight play farlander --board /dev/pts/" in out


def test_sim_command_takes_any_free_web_port(capsys, real_board):
    if real_board:
        pytest.skip("starts its own simulated board")
    assert main(["sim", "--web-port", "0", "--seconds", "0.3"]) == 0
    url = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("web view: "))
    assert url.startswith("web view: http://127.0.0.1:") and ":0/" not in url
