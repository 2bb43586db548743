"""The game store: every game played at a table, kept in an embedded SQLite database.

A game is stored as its record header (the core's :meth:`Game.to_record` without the
log), the seats (``human`` or a bot name each) and its log, one row per log entry.
:meth:`GameStore.save` appends the entries a game gained since the last call in one
transaction; the table calls it after every action and before the board shows the
action, so a crash, an unplugged board or a board reboot never loses a move that was
shown. A game also keeps how it was played (board, view, bot delay...: :meth:`GameStore.settings`),
so ``tablelight resume ID`` needs no flags. :meth:`GameStore.load` rebuilds a game by replaying its record
(:func:`tablelight.core.record.replay`), so a damaged store is reported, never
half-loaded.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablelight.core.errors import RecordError, TablelightError
from tablelight.core.fields import is_chance_entry, is_number
from tablelight.core.game import Game
from tablelight.core.inputs import InputError, parse_json
from tablelight.core.record import replay
from tablelight.table.disk_full import full_words, open_read_only

DB_ENV = "TABLELIGHT_DB"
SCHEMA_VERSION = 1
#: How long opening waits for another process that holds a new store (creating it) before it says so.
LOCKED_WAIT_S = 10.0
#: ``PRAGMA application_id`` of a tablelight store ("TLGS"): another program's SQLite file is told
#: apart before anything is written (stores made before it have 0 and are stamped when opened).
APPLICATION_ID = 0x544C4753

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seats TEXT NOT NULL,
    header TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game_id, position)
);
"""

#: The tables a store has: those of the schema (sqlite_sequence comes with AUTOINCREMENT).
_TABLES = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", _SCHEMA)) | {"sqlite_sequence"}

#: The settings' entry holding the seats' devices (:meth:`GameStore.set_seat_devices`).
SEAT_DEVICES = "seat_devices"

PLAYING = "playing"
OVER = "over"
#: The status ``tablelight games`` shows for a row it cannot read (the others are still listed).
DAMAGED = "damaged"
_COLUMNS = {
    "games": {"id", "game", "players", "seats", "header", "status", "result", "created", "updated"},
    "log": {"game_id", "position", "kind", "entry"},
}


def _kind(entry: dict[str, Any]) -> str:
    """``chance``, ``auto`` (a forced skip) or ``action`` (a player's move)."""
    if is_chance_entry(entry):
        return "chance"
    return "auto" if entry.get("auto") else "action"


class StoreError(TablelightError):
    """The store cannot be opened, or a game is unknown or damaged."""


@dataclass(frozen=True)
class GameInfo:
    """One row of ``tablelight games``."""

    id: int
    game: str
    players: int
    seats: list[str]
    status: str
    actions: int
    created: float
    updated: float
    result: dict[str, Any] | None
    #: Why the row could not be read (its status is then ``damaged``); None for a sound row.
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            **({"problem": self.problem} if self.problem else {}),
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "seats": self.seats,
            "status": self.status,
            "actions": self.actions,
            "created": self.created,
            "updated": self.updated,
            "result": self.result,
        }


def default_path() -> Path:
    """``$TABLELIGHT_DB``, else ``$XDG_DATA_HOME/tablelight/games.sqlite`` (~/.local/share)."""
    configured = os.environ.get(DB_ENV)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tablelight" / "games.sqlite"


class GameStore:
    """An open store; use as a context manager or call :meth:`close`.

    A new store is created readable by its owner only (file 0600, a new folder 0700): it holds
    every seed and hidden card."""

    def __init__(self, path: str | Path | None = None, *, reads_only: bool = False) -> None:
        """``reads_only``: the caller only reads (listing, exporting): on a full disk the store is
        then opened without writing anything (:func:`~tablelight.table.disk_full.open_read_only`)."""
        self.path = Path(path) if path is not None else default_path()
        give_up_at = time.monotonic() + LOCKED_WAIT_S
        while True:
            try:
                self._open()
                return
            except _Full as full:
                db = open_read_only(self.path) if reads_only else None
                if db is None:
                    raise StoreError(f"cannot open the game store {self.path}: {full}; nothing in it was lost. "
                                     "Free some space, then try again") from None
                self.db = db
                self._stored: dict[int, int] = {}
                self.read_only = True
                return
            except _Locked:
                if time.monotonic() > give_up_at:
                    raise StoreError(f"cannot open the game store {self.path}: another program keeps it locked") from None
                time.sleep(0.05)  # another process is creating or converting the same new store: wait for it

    def _open(self) -> None:
        try:
            create_private(self.path)
            self.db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            # Checked before anything is written: a damaged or foreign file is left as it was.
            check_integrity(self.db, self.path)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise StoreError(f"{self.path} has store format {version}; this tablelight reads format {SCHEMA_VERSION}")
            check_foreign_tables(self.db, self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed action survives a power cut, not only a crash.
            self.db.execute("PRAGMA synchronous=FULL")
            # One transaction: another process opening the store meanwhile sees all its tables or none.
            stamp = f"PRAGMA user_version={SCHEMA_VERSION};" if version == 0 else ""
            self.db.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}{stamp}PRAGMA application_id={APPLICATION_ID};COMMIT;")
        except sqlite3.DatabaseError as error:
            if getattr(self, "db", None) is not None:
                self.db.close()
            if "locked" in str(error):
                raise _Locked() from None
            full = full_words(self.path, error)
            if full is not None:
                raise _Full(full) from None
            raise StoreError(f"cannot open the game store {self.path}: {error}") from None
        except StoreError:
            self.db.close()
            raise
        except OSError as error:
            if error.errno == errno.ENOSPC:
                raise StoreError(f"cannot create the game store {self.path}: the disk holding {self.path.parent} is "
                                 "full; nothing was lost. Free some space, then try again") from None
            raise StoreError(f"cannot create the game store {self.path}: {error.strerror}") from None
        #: game id -> log entries already stored.
        self._stored = {}
        #: Opened without writing (a full disk, for a caller that only reads): nothing is stored.
        self.read_only = False

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                if self.db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as error:
            full = full_words(self.path, error)
            if full is not None:
                raise StoreError(f"cannot write the game store {self.path}: {full}. This change was not stored; "
                                 "nothing stored before it was lost. Free some space, then try again") from None
            raise StoreError(f"cannot write the game store {self.path}: {error}") from None

    # ------------------------------------------------------------------ writing

    def create(self, game: Game, seats: list[str]) -> int:
        """Store a new game (with the log it has so far) and return its id."""
        if len(seats) != game.players:
            raise StoreError(f"{len(seats)} seats given for {game.players} players")
        record = game.to_record()
        header = {k: v for k, v in record.items() if k not in ("log", "result")}
        now = time.time()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, players, seats, header, status, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.name, game.players, json.dumps(seats), json.dumps(header, separators=(",", ":")), PLAYING, now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            self._append(db, game_id, game, 0)
        self._stored[game_id] = len(game.log)
        return game_id

    def save(self, game_id: int, game: Game) -> int:
        """Append the log entries ``game`` gained since it was last saved; commit. Returns how many."""
        stored = self._stored.get(game_id)
        if stored is None:
            stored = self._count(game_id)
        if len(game.log) < stored:
            raise StoreError(f"game {game_id}: the game's log is shorter than the stored one (undo is not kept)")
        if len(game.log) == stored:
            return 0
        try:
            with self._transaction() as db:
                self._append(db, game_id, game, stored)
        except StoreError:
            try:
                changed = self._count(game_id) != stored
            except sqlite3.Error:
                changed = False
            if changed:
                raise StoreError(
                    f"game {game_id} was changed by another tablelight meanwhile (is it still running?); "
                    "this one stops so that no move is lost"
                ) from None
            raise
        self._stored[game_id] = len(game.log)
        return len(game.log) - stored

    def _append(self, db: sqlite3.Connection, game_id: int, game: Game, start: int) -> None:
        db.executemany(
            "INSERT INTO log (game_id, position, kind, entry) VALUES (?, ?, ?, ?)",
            [
                (game_id, position, _kind(game.log[position]), json.dumps(game.log[position], separators=(",", ":")))
                for position in range(start, len(game.log))
            ],
        )
        over = game.is_over()
        db.execute(
            "UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?",
            (OVER if over else PLAYING, json.dumps(game.result()) if over else None, time.time(), game_id),
        )

    # ------------------------------------------------------------------ reading

    def _count(self, game_id: int) -> int:
        self._row(game_id)
        count: int = self.db.execute("SELECT COUNT(*) FROM log WHERE game_id = ?", (game_id,)).fetchone()[0]
        return count

    def _row(self, game_id: int) -> Any:
        row = self.db.execute(
            "SELECT id, game, players, seats, header, status, result, created, updated FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path} (see tablelight games)")
        return row

    def games(self) -> list[GameInfo]:
        """Every stored game, oldest first."""
        rows = self.db.execute(
            "SELECT g.id, g.game, g.players, g.seats, g.status, g.result, g.created, g.updated,"
            " (SELECT COUNT(*) FROM log l WHERE l.game_id = g.id AND l.kind = 'action')"
            " FROM games g ORDER BY g.id"
        ).fetchall()
        return [game_info(row) for row in rows]

    def set_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        """Keep how game ``game_id`` is played (JSON values: board, view, bot delay...) for resuming it.

        The seats' devices kept with it (:meth:`set_seat_devices`) stay unless ``settings`` names them."""
        self._row(game_id)
        if SEAT_DEVICES not in settings:
            kept = self._stored_settings(game_id).get(SEAT_DEVICES)
            if kept is not None:
                settings = {**settings, SEAT_DEVICES: kept}
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO settings (game_id, settings) VALUES (?, ?)",
                (game_id, json.dumps(settings, separators=(",", ":"))),
            )

    def set_seat_devices(self, game_id: int, devices: dict[str, Any]) -> None:
        """Keep which devices hold game ``game_id``'s seats, as JSON (the web pages' table name and a
        digest of each device's token, never the token: :class:`tablelight.web.access.KeptDevices`),
        so a phone that joined is still placed after ``tablelight resume``."""
        self.set_settings(game_id, {**self._stored_settings(game_id), SEAT_DEVICES: devices})

    def seat_devices(self, game_id: int) -> Any:
        """What :meth:`set_seat_devices` kept for game ``game_id`` (None: nothing kept)."""
        return self.settings(game_id).get(SEAT_DEVICES)

    def _stored_settings(self, game_id: int) -> dict[str, Any]:
        try:
            return self.settings(game_id)
        except StoreError:  # damaged settings are replaced, as a flag given to resume replaces them
            return {}

    def settings(self, game_id: int) -> dict[str, Any]:
        """How game ``game_id`` was played ({} for a game stored without them)."""
        self._row(game_id)
        row = self.db.execute("SELECT settings FROM settings WHERE game_id = ?", (game_id,)).fetchone()
        try:
            settings = parse_json(str(row[0]), "its settings") if row else {}
        except InputError as error:
            raise StoreError(f"game {game_id} is damaged in {self.path}: {error}") from None
        if not isinstance(settings, dict):
            raise StoreError(f"game {game_id} is damaged in {self.path}: its settings are not an object")
        return settings

    def delete(self, game_id: int) -> None:
        """Forget game ``game_id`` entirely (its log and settings too)."""
        self._row(game_id)
        with self._transaction() as db:
            db.execute("DELETE FROM log WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM settings WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        self._stored.pop(game_id, None)

    def export(self, game_id: int) -> dict[str, Any]:
        """The owner's full record of game ``game_id`` (seed, every hidden draw, the result once over):
        checked by replaying it, ready for ``tablelight replay``."""
        game = self.load(game_id)
        record = game.to_record()
        return record

    def seats(self, game_id: int) -> list[str]:
        try:
            seats = json.loads(self._row(game_id)[3])
        except (TypeError, ValueError, RecursionError) as error:
            raise StoreError(f"game {game_id} is damaged in {self.path}: its seats cannot be read ({error})") from None
        if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
            raise StoreError(f"game {game_id} is damaged in {self.path}: its seats are not a list of names")
        return seats

    def record(self, game_id: int) -> dict[str, Any]:
        """The game's record as :meth:`Game.to_record` writes it (without the result)."""
        row = self._row(game_id)
        try:
            record = parse_json(str(row[4]), "its header")
            if not isinstance(record, dict):
                raise StoreError(f"game {game_id} is damaged in {self.path}: its header is not an object")
            record["log"] = [
                parse_json(str(entry), f"log entry {position}")
                for (position, entry) in self.db.execute(
                    "SELECT position, entry FROM log WHERE game_id = ? ORDER BY position", (game_id,)
                )
            ]
        except InputError as error:
            raise StoreError(f"game {game_id} is damaged in {self.path}: {error}") from None
        return record

    def load(self, game_id: int) -> Game:
        """Rebuild game ``game_id`` by replaying its record."""
        record = self.record(game_id)
        try:
            game = replay(record)
        except RecordError as error:
            raise StoreError(f"game {game_id} in {self.path} does not replay: {error}") from None
        self._stored[game_id] = len(record["log"])
        if len(game.log) != len(record["log"]) and not self.read_only:
            # The record may stop before forced skips the engine makes by itself: store them now.
            self.save(game_id, game)
        return game


class _Locked(Exception):
    """SQLite said the file is locked while the store was being opened: try again shortly."""


class _Full(Exception):
    """The disk (or the store) is full while the store was being opened: the words say which."""


def check_integrity(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged file (pages, indexes) at open, before anything reads or writes it."""
    problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
    if problems != ["ok"]:
        raise StoreError(
            f"the game store {path} is damaged ({'; '.join(str(p) for p in problems)}); keep a copy, then "
            f"try `sqlite3 {path} .recover` or move it aside to start a new store"
        )


def check_foreign_tables(db: sqlite3.Connection, path: Path) -> None:
    """Refuse another program's database: another application id, tables a store does not have,
    or ``games``/``log`` tables that are not ours."""
    application = db.execute("PRAGMA application_id").fetchone()[0]
    if application not in (0, APPLICATION_ID):
        raise StoreError(f"{path} is not a tablelight game store (it belongs to another program: SQLite "
                         f"application id 0x{application & 0xFFFFFFFF:08X}); give another --db or set {DB_ENV}")
    tables = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    others = sorted(tables - _TABLES)
    if others:
        shown = ", ".join(repr(name[:40]) for name in others[:5]) + (", ..." if len(others) > 5 else "")
        raise StoreError(f"{path} is not a tablelight game store: it has the table(s) {shown}; "
                         f"give another --db or set {DB_ENV}")
    for table, wanted in _COLUMNS.items():
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if columns and not wanted <= columns:
            raise StoreError(
                f"{path} is not a tablelight game store: its table {table!r} has columns "
                f"{', '.join(sorted(columns))}; give another --db or set {DB_ENV}"
            )
    if tables and not {"games", "log"} <= tables:
        raise StoreError(f"{path} is not a whole tablelight game store: it lacks the table(s) "
                         f"{', '.join(sorted({'games', 'log'} - tables))}; keep a copy and move it aside")


def create_private(path: Path) -> None:
    """Make the store's folder (0700) and an empty store file (0600) if they are missing; an
    existing store readable by others is made private (it holds seeds and hidden cards)."""
    missing = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in missing:
        os.chmod(folder, 0o700)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        if path.is_file() and path.stat().st_mode & 0o077:
            try:
                os.chmod(path, 0o600)
            except PermissionError:  # another user's file: opening it says what is wrong, if anything
                pass


def write_private(path: str | Path, text: str) -> None:
    """Write an export (it holds the seed and every hidden card) readable by its owner only."""
    target = Path(path)
    # mkstemp creates a new file of a random name (O_EXCL, mode 0600): a file or a link planted
    # beside the target is never opened, so the export never follows it nor keeps its rights
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


def game_info(row: Any) -> GameInfo:
    """One listing row; a row that cannot be read is listed as ``damaged`` with the reason."""
    game_id, name, players, seats_text, status, result_text, created, updated, actions = row
    problem = None
    seats: Any = []
    result: Any = None
    try:
        seats = parse_json(str(seats_text), "seats")
        if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
            raise InputError("seats", "not a list of names")
        result = parse_json(str(result_text), "result") if result_text else None
        if result is not None and not isinstance(result, dict):
            raise InputError("result", "not an object")
    except InputError as error:
        problem = str(error)
        seats = seats if isinstance(seats, list) and all(isinstance(seat, str) for seat in seats) else []
        result = None
    if status not in (PLAYING, OVER):
        problem = problem or f"unknown status {status!r}"
    numbers_ok = all(is_number(v) for v in (created, updated))
    if not numbers_ok or not isinstance(players, int) or not isinstance(name, str):
        problem = problem or "a column holds a value of the wrong type"
    return GameInfo(
        id=int(game_id),
        game=name if isinstance(name, str) else "?",
        players=players if isinstance(players, int) else 0,
        seats=seats,
        status=DAMAGED if problem else status,
        actions=int(actions),
        created=float(created) if numbers_ok else 0.0,
        updated=float(updated) if numbers_ok else 0.0,
        result=result,
        problem=problem,
    )
