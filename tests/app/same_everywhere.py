"""Run under CPython and under Pyodide (tests/app/pyodide_run.mjs): prints one JSON line that
must be the same on both. Seeded random games of the four engines (their records' hashes), the
wire format's portable checks (on sys.path: firmware/lib and tests/firmware/portable), and the
table core with a GameStore: a bots-only game driven by TableLoop on asyncio, stopped, resumed
from the store's sqlite file, played to the end."""

import asyncio
import hashlib
import json
import os
import sys
import tempfile

from tablelight.app.engine import random_record
from tablelight.table.loop import TableLoop
from tablelight.table.service import Table
from tablelight.table.store import GameStore

GAMES = [("farlander", 2, 1), ("mainland", 2, 1), ("landover", 3, 1), ("farside", 2, 1)]


def digest(record):
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:24]


def engines():
    found = {}
    for name, players, seed in GAMES:
        record = random_record(name, players, seed)
        found[name] = {"hash": digest(record), "entries": len(record["log"]), "scores": (record.get("result") or {}).get("scores")}
    return found


def portable_checks():
    import check_auth
    import check_hosts
    import check_link
    import check_scene
    import check_testinput
    import check_wire

    count = 0
    for module in (check_wire, check_scene, check_link, check_testinput, check_hosts, check_auth):
        for name in sorted(dir(module)):
            if name.startswith("test_"):
                getattr(module, name)()
                count += 1
    return count


async def stored_game():
    from tablelight.core.registry import new_game

    path = os.path.join(tempfile.mkdtemp(), "games.sqlite")
    seats = ["random", "random"]
    with GameStore(path) as store:
        table = Table(new_game("farlander", 2, None, seed=5), seats, store=store)
        await TableLoop(table).run(max_actions=12)
        game_id, stopped_at = table.game_id, len(table.game.log)
    with GameStore(path) as store:  # the page reloaded: the game comes back from the file
        game = store.load(game_id)
        resumed_at = len(game.log)
        table = Table(game, store.seats(game_id), store=store, game_id=game_id)
        await TableLoop(table).run()
    with GameStore(path) as store:
        record = store.record(game_id)
    return {"stopped_at": stopped_at, "resumed_at": resumed_at, "hash": digest(record), "over": table.game.is_over()}


async def main():
    print(json.dumps({"engines": engines(), "portable_checks": portable_checks(), "store": await stored_game()}))


if __name__ == "__main__" and sys.platform != "emscripten":
    asyncio.run(main())
