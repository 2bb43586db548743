"""Exports stay private whatever was planted beside them, and a full disk is said in words.

An export holds the seed and every hidden card: it is written to a new file of a random name
(created exclusively, mode 0600) and moved into place, so a file or a link that someone put at
a name it might use is never opened. A disk that fills up under the game store is named as
such ("the disk is full"), with what was kept, for every command that reads or writes it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore


def _store(path: Path) -> int:
    with GameStore(path) as store:
        game = Farlander(2, seed=5)
        game_id = store.create(game, ["random", "random"])
        rng = Rng(5)
        for _ in range(6):
            game.apply(game.random_action(rng))
        store.save(game_id, game)
    return game_id


def test_an_export_never_follows_nor_keeps_a_file_planted_at_its_temporary_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "games.sqlite"
    game_id = _store(store)
    out = tmp_path / "shared"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    exported = out / "record.json"
    # the names a writer in this process might use: the old fixed one, and a few of the usual patterns
    planted = [out / f".record.json.{os.getpid()}.tmp", out / "record.json.tmp", out / ".record.json.tmp"]
    for name in planted[:2]:
        name.symlink_to(victim)
    planted[2].write_text("planted\n")
    planted[2].chmod(0o644)
    assert main(["games", "export", str(game_id), "-o", str(exported), "--db", str(store)]) == 0
    assert victim.read_text() == "mine\n"  # the link was not followed
    assert not exported.is_symlink() and json.loads(exported.read_text())["seed"] == 5
    assert exported.stat().st_mode & 0o777 == 0o600
    assert planted[2].read_text() == "planted\n"
    leftovers = {p.name for p in out.iterdir()} - {p.name for p in planted} - {"record.json"}
    assert not leftovers, leftovers


def test_a_store_that_fills_up_says_so_and_keeps_what_it_had(tmp_path: Path) -> None:
    """SQLite's own limit on a store's pages (``max_page_count``) fails a write as a full disk does."""
    path = tmp_path / "games.sqlite"
    game_id = _store(path)
    with GameStore(path) as store:
        game = store.load(game_id)
        kept = len(game.log)
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages}")
        rng = Rng(9)
        for _ in range(200):  # enough moves to need a new page
            if game.is_over():
                break
            game.apply(game.random_action(rng))
        with pytest.raises(Exception) as refused:
            store.save(game_id, game)
    words = str(refused.value)
    assert "is full" in words and "nothing stored before it was lost" in words and "I/O" not in words, words
    with GameStore(path) as store:
        assert len(store.load(game_id).log) == kept


def _unshare_works() -> bool:
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.skipif(not _unshare_works(), reason="needs unshare -rm (a user and mount namespace) to mount a tiny filesystem")
def test_a_full_disk_is_named_and_listing_and_exporting_still_work(tmp_path: Path) -> None:
    """The store on a real 1 MB filesystem (tmpfs, in a mount namespace of its own), filled up."""
    made = tmp_path / "made.sqlite"
    game_id = _store(made)
    disk = tmp_path / "disk"
    disk.mkdir()
    command = f"""
set -u
mount -t tmpfs -o size=1m tmpfs {disk} || exit 99
cp {made} {disk}/games.sqlite
dd if=/dev/zero of={disk}/fill bs=4k 2>/dev/null
run() {{ echo "=== $1"; shift; "$@" 2>&1; echo "rc=$?"; }}
run list {sys.executable} -m tablelight games --db {disk}/games.sqlite
run export {sys.executable} -m tablelight games export {game_id} --db {disk}/games.sqlite
run export-file {sys.executable} -m tablelight games export {game_id} -o {disk}/record.json --db {disk}/games.sqlite
run play {sys.executable} -m tablelight play farlander --seats random,random --board none --view none --seed 2 --db {disk}/games.sqlite
run delete {sys.executable} -m tablelight games delete {game_id} --db {disk}/games.sqlite
run list-after {sys.executable} -m tablelight games --db {disk}/games.sqlite
"""
    done = subprocess.run(["unshare", "-rm", "sh", "-c", command], capture_output=True, text=True, timeout=300)
    if done.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    parts = dict(part.split("\n", 1) for part in done.stdout.split("=== ")[1:])
    for name in ("list", "export", "list-after"):
        assert parts[name].rstrip().endswith("rc=0"), (name, parts[name])
    assert "farlander" in parts["list"] and f"{game_id}  farlander" in parts["list-after"]
    assert json.loads(parts["export"].rsplit("rc=", 1)[0])["seed"] == 5
    for name in ("export-file", "play", "delete"):
        words = parts[name]
        assert words.rstrip().endswith("rc=1") and "is full" in words and "Traceback" not in words, (name, words)
        assert "disk I/O error" not in words and ("nothing" in words), (name, words)
