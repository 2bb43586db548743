import json

from tablelight.cli.main import main
from tablelight.games.farlander.engine import Farlander
from tablelight.table.service import Table
from tablelight.table.store import GameStore


def test_play_without_board_then_games_lists_it(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite")
    code = main(["play", "farlander", "--seats", "random,strong", "--board", "none", "--view", "none", "--seed", "3", "--db", db])
    assert code == 0
    out = capsys.readouterr().out
    assert "game over" in out
    assert main(["games", "--db", db, "--json"]) == 0
    info = json.loads(capsys.readouterr().out.splitlines()[0])
    assert info["status"] == "over" and info["seats"] == ["random", "strong"]
    reference = Farlander(2, seed=3)
    Table(reference, ["random", "strong"]).run()
    with GameStore(db) as store:
        assert store.load(info["id"]).to_record() == reference.to_record()
    assert main(["resume", str(info["id"]), "--db", db, "--board", "none"]) == 0
    assert "already over" in capsys.readouterr().out


def test_bad_commands_get_a_reason_and_store_nothing(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite")
    assert main(["play", "farlander", "--seats", "human,bot", "--board", "none", "--db", db]) == 1
    assert "needs a board" in capsys.readouterr().err
    assert main(["play", "farlander", "--seats", "bot,bot,bot", "--players", "2", "--board", "none", "--db", db]) == 1
    assert "3 seats for 2" in capsys.readouterr().err
    assert main(["resume", "42", "--db", db, "--board", "none"]) == 1
    assert "no game 42" in capsys.readouterr().err
    assert main(["games", "--db", db]) == 0
    assert "no games" in capsys.readouterr().out


def test_board_auto_takes_the_first_board_found(monkeypatch):
    import sys
    import types

    import pytest

    from tablelight.core.errors import SetupError
    from tablelight.board.discover import BoardInfo
    from tablelight.cli.table_run import find_port

    fake = types.ModuleType("tablelight.board.discover")
    found: list = []
    fake.find_boards = lambda: found  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tablelight.board.discover", fake)
    with pytest.raises(SetupError, match="no board found"):
        find_port()
    found.append(BoardInfo(port="/dev/ttyACM1", description="test"))
    found.append(BoardInfo(port="/dev/ttyACM2", description="test"))
    assert find_port() == "/dev/ttyACM1"


def test_play_and_sim_refuse_a_game_without_a_face_naming_those_with_one(tmp_path, capsys, monkeypatch):
    import dataclasses

    from tablelight.core.registry import game_entries

    db = str(tmp_path / "g.sqlite")
    faceless = "landover"
    entries = game_entries()
    monkeypatch.setitem(entries, faceless, dataclasses.replace(entries[faceless], face=None))
    assert main(["play", faceless, "--seats", "bot,bot", "--board", "none", "--db", db]) == 1
    err = capsys.readouterr().err
    assert f"{faceless} has no lit-board face yet" in err and "farlander" in err
    assert main(["sim", "--layout", "nosuch", "--view", "none", "--seconds", "0"]) == 1
    err = capsys.readouterr().err
    assert "no game with a lit-board face uses the layout 'nosuch'" in err and "farlander (farlander)" in err
    assert main(["games", "--db", db]) == 0
    assert "no games" in capsys.readouterr().out


def test_bench_table_prints_latency_figures_through_the_simulated_board():
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "tablelight", "bench", "table", "--presses", "10", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["presses"] == 10 and 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_a_map_for_a_game_without_maps_is_refused_not_ignored(tmp_path, capsys):
    db, map_file = str(tmp_path / "g.sqlite"), tmp_path / "map.json"
    map_file.write_text(json.dumps(Farlander(2, seed=1).setup_record()["map"]))
    for command in (["play", "mainland", "--seats", "bot,bot", "--board", "none", "--view", "none", "--db", db],
                    ["selfplay", "farside"]):
        assert main([*command, "--map", str(map_file)]) != 0
        assert f"is not played on a map: leave out --map {map_file}" in capsys.readouterr().err
    with GameStore(db) as store:
        assert store.games() == []
