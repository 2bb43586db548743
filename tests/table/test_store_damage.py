"""A damaged or foreign game store: reported clearly, per game where possible, never a traceback.

Damage is made the way it happens to a real file: by another program writing the database, or by
bytes changing on disk (an index page flipped).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore, StoreError


def _store_with_games(path: Path, count: int) -> list[int]:
    ids = []
    with GameStore(path) as store:
        for seed in range(count):
            game = Farlander(2, seed=seed)
            game_id = store.create(game, ["random", "random"])
            rng = Rng(seed)
            for _ in range(6):
                game.apply(game.random_action(rng))
            store.save(game_id, game)
            ids.append(game_id)
    return ids


def _write(path: Path, sql: str, *values: object) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, values)
    db.commit()
    db.close()


def test_damaged_rows_are_reported_per_game_and_the_rest_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.sqlite"
    first, second, third = _store_with_games(path, 3)
    _write(path, "UPDATE games SET seats = ? WHERE id = ?", "not json", first)
    _write(path, "UPDATE games SET result = ?, created = ? WHERE id = ?", "[1, 2]", "yesterday", second)
    assert main(["games", "--db", str(path)]) == 0
    captured = capsys.readouterr()
    rows = [line.split()[0] for line in captured.out.splitlines()[1:]]
    assert rows == [str(first), str(second), str(third)]
    assert f"game {first} is damaged: seats: line 1 column 1" in captured.err
    assert f"game {second} is damaged: result: not an object" in captured.err
    assert f"game {third} " not in captured.err
    with GameStore(path) as store:
        statuses = [info.status for info in store.games()]
    assert statuses == ["damaged", "damaged", "playing"]


@pytest.mark.parametrize("header", ["[1, 2, 3]", "\"farlander\"", "{\"game\": ", "[" * 500 + "]" * 500])
def test_a_damaged_header_is_a_clear_error_on_resume(header: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.sqlite"
    (game_id,) = _store_with_games(path, 1)
    _write(path, "UPDATE games SET header = ? WHERE id = ?", header, game_id)
    assert main(["resume", str(game_id), "--board", "none", "--db", str(path)]) == 1
    error = capsys.readouterr().err
    assert f"game {game_id} is damaged in {path}" in error and "Traceback" not in error


def test_damaged_seats_are_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    (game_id,) = _store_with_games(path, 1)
    _write(path, "UPDATE games SET seats = ? WHERE id = ?", json.dumps({"a": 1}), game_id)
    with GameStore(path) as store, pytest.raises(StoreError, match="seats are not a list"):
        store.seats(game_id)


def test_a_foreign_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT, score INTEGER)")
    db.execute("INSERT INTO games VALUES ('chess', 3)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is not a tablelight game store: its table 'games' has columns name, score"):
        GameStore(path)
    assert path.read_bytes() == before


def test_a_damaged_index_is_noticed_when_the_store_opens(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    _store_with_games(path, 1)
    db = sqlite3.connect(path)
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_log_1'").fetchone()
    (page_size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    data[root * page_size - 2] ^= 0x01  # a byte of the last index cell: an index entry no longer matches its row
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged .*index sqlite_autoindex_log_1.*recover"):
        GameStore(path)
