"""45 ways a game store gets damaged (a truncated or overwritten file, another program's tables,
wrong column types, bad JSON in rows, bad stored settings, numbers out of range): each is one
clear error from `tablelight export` or `resume`, never a traceback or a hang, and `games`
still lists what it can.

Damage is done with sqlite3 or by changing bytes of the file, as another program or a failing
disk would.
"""

from __future__ import annotations

import json
import signal
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore

SETTINGS = {"board": "none", "view": "none", "web_port": 8055, "share": None, "host_link": "file", "https": False,
            "https_cert": None, "https_key": None, "bot_delay": 0.0, "brightness": None}
COMMAND_SECONDS = 60  # far above a whole bot game; a hang is caught, not waited out


def _store(path: Path) -> int:
    with GameStore(path) as store:
        game = Farlander(2, seed=5)
        game_id = store.create(game, ["random", "random"])
        rng = Rng(5)
        for _ in range(6):
            game.apply(game.random_action(rng))
        store.save(game_id, game)
        store.set_settings(game_id, SETTINGS)
    return game_id


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path)
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.close()

    return damage


def _bytes(change: Callable[[bytearray], bytes]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file
        db.close()
        path.write_bytes(change(bytearray(path.read_bytes())))

    return damage


def _garbage(data: bytearray, start: int, length: int) -> bytes:
    rng = Rng(len(data) + start)
    for i in range(start, min(len(data), start + length)):
        data[i] = rng.below(256)
    return bytes(data)


def _header(**changes: object) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path)
        header = json.loads(db.execute("SELECT header FROM games").fetchone()[0])
        header.update(changes)
        db.execute("UPDATE games SET header = ?", (json.dumps(header),))
        db.commit()
        db.close()

    return damage


def _header_text(replace: str, by: str) -> Callable[[Path], None]:
    """Changes the header's text itself (numbers json.dumps would not write, or would refuse)."""

    def damage(path: Path) -> None:
        db = sqlite3.connect(path)
        header = db.execute("SELECT header FROM games").fetchone()[0]
        assert replace in header
        db.execute("UPDATE games SET header = ?", (header.replace(replace, by, 1),))
        db.commit()
        db.close()

    return damage


def _settings(**changes: object) -> Callable[[Path], None]:
    return _sql(f"UPDATE settings SET settings = '{json.dumps(SETTINGS | changes)}'")


def _foreign_file(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id = 1096045633")  # another program's id
    db.execute("CREATE TABLE notes (body TEXT)")
    db.execute("INSERT INTO notes VALUES ('shopping')")
    db.commit()
    db.close()


def _folder(path: Path) -> None:
    for extra in path.parent.glob(path.name + "*"):
        extra.unlink()
    path.mkdir()


DEEP = "[" * 2000 + "]" * 2000
DAMAGES: dict[str, Callable[[Path], None]] = {
    # the file
    "truncated to nothing": _bytes(lambda data: b""),
    "truncated inside the header": _bytes(lambda data: bytes(data[:60])),
    "truncated to one page": _bytes(lambda data: bytes(data[:4096])),
    "truncated in the middle": _bytes(lambda data: bytes(data[: len(data) // 2 + 100])),
    "garbage over the header": _bytes(lambda data: _garbage(data, 0, 100)),
    "garbage over the second page": _bytes(lambda data: _garbage(data, 4096, 4096)),
    "garbage over the last page": _bytes(lambda data: _garbage(data, len(data) - 4096, 4096)),
    "the whole file garbage": _bytes(lambda data: _garbage(data, 0, len(data))),
    "a text file": lambda path: path.write_text("not a database\n" * 300),
    "a folder": _folder,
    # the schema
    "another program's database": _foreign_file,
    "another program's application id": _sql("PRAGMA application_id = 1096045633"),
    "another program's table beside ours": _sql("CREATE TABLE accounts (name TEXT, balance REAL)"),
    "a newer store format": _sql("PRAGMA user_version = 99"),
    "games table dropped": _sql("DROP TABLE games"),
    "log table dropped": _sql("DROP TABLE log"),
    "games table of other columns": _sql("DROP TABLE games", "CREATE TABLE games (name TEXT, score INTEGER)"),
    "log table of other columns": _sql("DROP TABLE log", "CREATE TABLE log (line TEXT)"),
    # the game's row
    "header not JSON": _sql("UPDATE games SET header = '{\"game\": '"),
    "header a list": _sql("UPDATE games SET header = '[1, 2]'"),
    "header nested deeply": _sql(f"UPDATE games SET header = '{DEEP}'"),
    "header of an unknown game": _header(game="chess"),
    "header players as text": _header(players="two"),
    "header seed of 48 digits": _header_text('"seed":5', '"seed":' + "9" * 48),
    "header seed of 39 digits": _header_text('"seed":5', '"seed":' + "9" * 39),
    "header seed negative": _header(seed=-5),
    "header option of a wrong type": _header(options={"garrisons": [1]}),
    "header option of 39 digits": _header_text('"garrisons":false', '"garrisons":' + "9" * 39),
    "seats not JSON": _sql("UPDATE games SET seats = 'random,random'"),
    "seats an object": _sql("UPDATE games SET seats = '{\"a\": 1}'"),
    "seats nested deeply": _sql(f"UPDATE games SET seats = '{DEEP}'"),
    "header a blob": _sql("UPDATE games SET header = x'ff00fe'"),
    # the log
    "log entry not JSON": _sql("UPDATE log SET entry = '{\"type\": ' WHERE position = 2"),
    "log entry a number": _sql("UPDATE log SET entry = 5 WHERE position = 2"),
    "log entry nested deeply": _sql(f"UPDATE log SET entry = '{DEEP}' WHERE position = 2"),
    "log entry an illegal move": _sql("UPDATE log SET entry = '{\"type\": \"place\", \"territory\": \"zz9\"}' "
                                      "WHERE position = 2"),
    "log entry a blob": _sql("UPDATE log SET entry = x'c3' WHERE position = 2"),
    "log entry lost": _sql("DELETE FROM log WHERE position = 1"),
    # the stored table settings
    "settings not JSON": _sql("UPDATE settings SET settings = '{\"board\": '"),
    "settings a list": _sql("UPDATE settings SET settings = '[\"none\"]'"),
    "settings nested": _settings(board={"port": {"name": "none"}}),
    "settings board a list": _settings(board=["none"]),
    "settings bot_delay as text": _settings(bot_delay="fast"),
    "settings bot_delay of a billion seconds": _settings(bot_delay=1e9),
    "settings web_port out of range": _settings(web_port=70000),
}


@pytest.fixture
def no_hang() -> Iterator[None]:
    def stop(_signal: int, _frame: object) -> None:
        raise TimeoutError(f"a command on a damaged store ran over {COMMAND_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(COMMAND_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_there_are_45_damages() -> None:
    assert len(DAMAGES) == 45


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_damaged_store_is_one_clear_error(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            no_hang: None) -> None:
    path = tmp_path / "games.sqlite"
    game_id = _store(path)
    DAMAGES[name](path)
    capsys.readouterr()
    listed = main(["games", "--db", str(path)])
    listing = capsys.readouterr()
    exported = main(["games", "export", str(game_id), "--db", str(path)])
    export = capsys.readouterr()
    resumed = main(["resume", str(game_id), "--db", str(path)])
    resume = capsys.readouterr()
    for run in (listing, export, resume):
        assert "Traceback" not in run.err and "Error:" not in run.err, run.err
    assert listed in (0, 1) and (listed == 0 or listing.err.startswith("tablelight: "))
    assert 1 in (exported, resumed), f"the damage went unnoticed: export {exported}, resume {resumed}"
    for code, run in ((exported, export), (resumed, resume)):
        if code == 1:
            lines = run.err.strip().splitlines()
            assert lines[-1].startswith("tablelight: "), run.err
            assert str(path) in run.err or "setting" in run.err or f"game {game_id}" in run.err, run.err


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    from tablelight.table.store import StoreError

    path = tmp_path / "photos.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (name TEXT, taken REAL)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is not a tablelight game store: it has the table\\(s\\) 'photos'"):
        GameStore(path)
    assert path.read_bytes() == before


def test_a_store_made_before_the_application_id_is_adopted_and_stamped(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    game_id = _store(path)
    _sql("PRAGMA application_id = 0")(path)
    with GameStore(path) as store:
        assert store.load(game_id).name == "farlander"
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == 0x544C4753
    db.close()


def test_the_store_and_its_exports_are_private(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new" / "folder" / "games.sqlite"
    game_id = _store(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o700
    assert path.parent.stat().st_mode & 0o777 == 0o700
    for extra in path.parent.glob("games.sqlite-*"):  # the write-ahead log and its index
        assert extra.stat().st_mode & 0o777 == 0o600, extra
    exported = tmp_path / "record.json"
    assert main(["games", "export", str(game_id), "-o", str(exported), "--db", str(path)]) == 0
    assert exported.stat().st_mode & 0o777 == 0o600 and json.loads(exported.read_text())["seed"] == 5
    path.chmod(0o644)  # a store made by an older tablelight is made private when opened
    GameStore(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_the_settings_checks_follow_the_table_flags() -> None:
    from tablelight.cli import table_run as run
    from tablelight.table import stored_settings

    assert stored_settings.VIEWS == run.VIEWS and stored_settings.MAX_BOT_DELAY_S == run.MAX_BOT_DELAY_S
    assert set(stored_settings.CHECKS) == set(run.TABLE_SETTINGS)


def test_a_bad_stored_setting_is_replaced_by_the_flag_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite"
    game_id = _store(path)
    _settings(bot_delay="fast")(path)
    assert main(["resume", str(game_id), "--db", str(path)]) == 1
    assert "stored setting bot_delay is 'fast', not seconds, 0-3600: give --bot-delay" in capsys.readouterr().err
    with GameStore(path) as store:
        assert store.settings(game_id)["bot_delay"] == "fast"  # nothing stored
    assert main(["resume", str(game_id), "--db", str(path), "--bot-delay", "0"]) == 0
    with GameStore(path) as store:
        assert store.settings(game_id)["bot_delay"] == 0 and store.load(game_id).is_over()


@pytest.mark.parametrize("flags", [["farlander", "--seed", "1" * 48], ["farlander", "--seed", "-1"],
                                   ["landover", "--option", "target=" + "1" * 41],
                                   ["landover", "--option", "target=9223372036854775808"]])
def test_big_numbers_are_refused_before_anything_is_stored(flags: list[str], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite"
    try:
        code = main(["play", *flags, "--board", "none", "--seats", "bot,bot,bot", "--db", str(path)])
    except SystemExit as error:  # argparse refuses a --seed out of range
        code = error.code
    err = capsys.readouterr().err
    assert code in (1, 2) and "Traceback" not in err
    assert ("is outside 0-9223372036854775807" in err or "between -2**63 and 2**63" in err), err
    if path.exists():
        with GameStore(path) as store:
            assert store.games() == []


def test_the_engine_bounds_seeds_and_whole_number_options() -> None:
    from tablelight.core.errors import SetupError
    from tablelight.games.landover.engine import Landover

    for seed in (-1, 2**63, 10**47):
        with pytest.raises(SetupError, match="seed must be 0 to 2\\*\\*63 - 1"):
            Farlander(2, seed=seed)
    assert Farlander(2, seed=2**63 - 1).seed == 2**63 - 1
    with pytest.raises(SetupError, match="option 'target' must be a whole number between"):
        Landover(3, {"target": 10**40})
    with pytest.raises(SetupError, match="option 'target' must be int"):
        Landover(3, {"target": float("inf")})
