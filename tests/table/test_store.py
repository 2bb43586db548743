import sqlite3

import pytest

from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore, StoreError


def advance(game, steps, seed=0):
    rng = Rng(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.random_action(rng))


def test_games_are_kept_action_by_action_and_reload_exactly(tmp_path):
    path = tmp_path / "games.sqlite"
    game = Farlander(3, seed=9)
    with GameStore(path) as store:
        game_id = store.create(game, ["human", "random", "strong"])
        for _ in range(30):
            advance(game, 1, seed=len(game.log))
            store.save(game_id, game)
    # A new connection (a new process after a crash) sees every action.
    with GameStore(path) as store:
        loaded = store.load(game_id)
        assert loaded.to_record() == game.to_record()
        assert store.seats(game_id) == ["human", "random", "strong"]
        info = store.games()[0]
        assert info.status == "playing" and info.actions == 30 and info.result is None


def test_finished_games_are_marked_with_their_result(tmp_path):
    game = Farlander(2, seed=1)
    with GameStore(tmp_path / "g.sqlite") as store:
        game_id = store.create(game, ["random", "random"])
        advance(game, 10_000)
        assert store.save(game_id, game) > 0
        assert store.save(game_id, game) == 0
        info = store.games()[0]
        assert info.status == "over" and info.result == game.result()
        assert store.load(game_id).to_record() == game.to_record()


def test_unknown_and_damaged_games_are_reported(tmp_path):
    path = tmp_path / "g.sqlite"
    game = Farlander(2, seed=1)
    with GameStore(path) as store:
        game_id = store.create(game, ["random", "random"])
        advance(game, 5)
        store.save(game_id, game)
        with pytest.raises(StoreError, match="no game 99"):
            store.load(99)
    db = sqlite3.connect(path)
    db.execute("UPDATE log SET entry = ? WHERE position = 3", ('{"seat":0,"action":{"type":"place","territory":"zz"}}',))
    db.commit()
    db.close()
    with GameStore(path) as store:
        with pytest.raises(StoreError, match="does not replay"):
            store.load(game_id)


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database, " * 100)
    with pytest.raises(StoreError, match="cannot open"):
        GameStore(path)


def test_two_hosts_on_one_game_are_caught(tmp_path):
    path = tmp_path / "g.sqlite"
    game = Farlander(2, seed=1)
    with GameStore(path) as first:
        game_id = first.create(game, ["random", "random"])
        with GameStore(path) as second:
            other = second.load(game_id)
            advance(other, 2, seed=5)
            second.save(game_id, other)
        advance(game, 2, seed=6)
        with pytest.raises(StoreError, match="changed by another tablelight"):
            first.save(game_id, game)
    with GameStore(path) as store:
        assert store.load(game_id).to_record() == other.to_record()
