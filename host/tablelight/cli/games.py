"""``tablelight games`` lists, exports and deletes the stored games; ``tablelight resume ID`` continues one."""

from __future__ import annotations

import argparse
import errno
import json
import sys
import time
from pathlib import Path
from typing import Any

DB_HELP = "game store file (default $TABLELIGHT_DB or ~/.local/share/tablelight/games.sqlite)"


def register(subparsers: Any) -> None:
    from tablelight.cli.table_run import add_table_arguments

    games = subparsers.add_parser("games", help="list, export or delete the games kept in the game store")
    games.add_argument("--db", help=DB_HELP)
    games.add_argument("--json", action="store_true", help="print one JSON object per game")
    games.set_defaults(func=run_games)
    actions = games.add_subparsers(dest="games_action", metavar="ACTION")
    export = actions.add_parser(
        "export", help="write a game's full record (seed and every hidden card: the owner's copy) for tablelight replay"
    )
    export.add_argument("id", type=int, help="the game's id (see tablelight games)")
    export.add_argument("--output", "-o", metavar="FILE", help="write the record to FILE (default: print it)")
    export.add_argument("--db", help=DB_HELP)
    export.set_defaults(func=run_export)
    delete = actions.add_parser("delete", help="forget a stored game")
    delete.add_argument("id", type=int, help="the game's id (see tablelight games)")
    delete.add_argument("--db", help=DB_HELP)
    delete.set_defaults(func=run_delete)

    resume = subparsers.add_parser(
        "resume", help="continue a stored game (after a crash, unplug or board reboot) as it was played"
    )
    resume.add_argument("id", type=int, help="the game's id (see tablelight games)")
    add_table_arguments(resume)
    resume.set_defaults(func=run_resume)


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def run_games(args: argparse.Namespace) -> int:
    from tablelight.table.result import score_line
    from tablelight.table.store import GameStore

    with GameStore(args.db, reads_only=True) as store:  # a full disk still lists
        infos = store.games()
        if args.json:
            for info in infos:
                print(json.dumps(info.to_json()))
            return 0
        if not infos:
            print(f"no games in {store.path} yet: start one with tablelight play GAME (farlander, mainland...)")
            return 0
        print(f"{'id':>4}  {'game':<10} {'seats':<28} {'actions':>7}  {'status':<8} {'started':<16}  result")
        for info in infos:
            result = ""
            if info.result:
                result = score_line(seat_words(info.game, len(info.seats)), info.result.get("winners"), info.result.get("scores"))
            print(
                f"{info.id:>4}  {info.game:<10} {','.join(info.seats):<28} {info.actions:>7}  "
                f"{info.status:<8} {_when(info.created):<16}  {result}"
            )
        for info in infos:
            if info.problem:
                print(f"tablelight games: game {info.id} is damaged: {info.problem}", file=sys.stderr)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from tablelight.core.errors import TablelightError
    from tablelight.table.store import GameStore, write_private

    with GameStore(args.db, reads_only=True) as store:  # a full disk still exports
        record = store.export(args.id)
    text = json.dumps(record, indent=1) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_private(args.output, text)  # readable by its owner only
    except OSError as error:
        if error.errno == errno.ENOSPC:
            raise TablelightError(f"cannot write {args.output}: the disk is full; nothing was written there and "
                                  f"game {args.id} is still in the store. Free some space, then try again") from None
        raise TablelightError(f"cannot write {args.output}: {error.strerror}") from None
    print(f"game {args.id} written to {args.output} (it holds the seed and every hidden card: keep it to yourself)", file=sys.stderr)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from tablelight.table.result import score_line
    from tablelight.table.store import GameStore

    with GameStore(args.db) as store:
        store.delete(args.id)
        print(f"game {args.id} deleted from {store.path}")
    return 0


def run_resume(args: argparse.Namespace) -> int:
    from tablelight.cli.table_run import run_table
    from tablelight.table.result import score_line
    from tablelight.table.store import GameStore

    with GameStore(args.db) as store:
        game = store.load(args.id)
        seats = store.seats(args.id)
        if game.is_over():
            print(f"game {args.id} is already over: {game.describe_result()}")
            return 0
        print(f"resuming game {args.id} after {len(game.log)} log entries", file=sys.stderr, flush=True)
        return run_table(game, seats, store, args.id, args)


def seat_words(game: str, players: int) -> list[str]:
    """The seats' colour words of ``game`` (its face's), or ``seat N`` for a game without a face."""
    from tablelight.core.errors import SetupError
    from tablelight.table.face import face_class

    try:
        names = face_class(game).seat_names
    except (SetupError, ImportError, AttributeError):
        names = ()
    return [names[seat] if seat < len(names) else f"seat {seat}" for seat in range(players)]
