"""A full disk under the game store, said as such, and the store read without writing on it.

SQLite names a full disk in two ways: "database or disk is full" (a page could not be written)
and, more often in WAL mode, "disk I/O error" (the write-ahead log's index could not grow). The
second says nothing a person can act on, so an I/O error while little space is left is taken
for a full disk too. Either way SQLite rolls the transaction back: what was stored before is
kept, which the words say.

Listing and exporting games only read, but opening the store in WAL mode writes (its index
file, the schema's check): :func:`open_read_only` opens it without writing, so both still work
on a full disk.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

#: Free space below which an I/O error on the store is taken for a full disk.
FULL_BELOW_BYTES = 4 * 1024 * 1024


def free_bytes(path: Path) -> int | None:
    """The space left to this user on the disk holding ``path`` (None when it cannot be read)."""
    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return None


def full_words(path: Path, error: sqlite3.Error) -> str | None:
    """What is full (the disk holding ``path``, or the store itself) when ``error`` means that, else None."""
    name = getattr(error, "sqlite_errorname", "") or ""
    free = free_bytes(path)
    low = free is not None and free < FULL_BELOW_BYTES
    if name == "SQLITE_FULL" or "disk is full" in str(error):
        if low or free is None:
            return f"the disk holding {path.parent} is full ({_size(free)} free)"
        return f"the game store {path} is full (SQLite: {error})"
    if low and (name.startswith("SQLITE_IOERR") or "disk I/O error" in str(error)):
        return f"the disk holding {path.parent} is full ({_size(free)} free)"
    return None


def _size(free: int | None) -> str:
    if free is None:
        return "no space"
    return f"{free // 1024} kB" if free >= 1024 else f"{free} bytes"


def open_read_only(path: Path) -> sqlite3.Connection | None:
    """The store opened for reading only, writing nothing on its disk (not even WAL's index), or
    None when that cannot be done without missing moves (a write-ahead log holds some)."""
    db = _reader(path, "mode=ro")
    if db is not None:
        return db
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return None  # moves not yet copied into the store: reading without the log would miss them
    return _reader(path, "immutable=1")  # no log: the file alone is the whole store, read without locks


def _reader(path: Path, mode: str) -> sqlite3.Connection | None:
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        db.execute("SELECT COUNT(*) FROM games").fetchone()
        return db
    except sqlite3.Error:
        db.close()
        return None
