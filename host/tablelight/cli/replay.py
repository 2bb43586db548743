"""``tablelight replay FILE``: re-run a record through its engine and print the result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablelight.cli.common import read_json
from tablelight.core.errors import RecordError, SetupError
from tablelight.core.record import replay


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="check a game record against the rules and print its result (exit 1 if illegal)"
    )
    parser.add_argument("file", help="a record written by selfplay, play or rules serve")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = read_json(args.file)
    except SetupError as error:
        print(f"tablelight replay: {error}", file=sys.stderr)
        return 2
    try:
        game = replay(record)
    except RecordError as error:
        where = f" (log entry {error.entry})" if error.entry is not None else ""
        if args.json:
            print(json.dumps({"legal": False, "entry": error.entry, "error": error.message}))
        print(f"tablelight replay: not a legal game{where}: {error.message}", file=sys.stderr)
        return 1
    notes = [] if game.chance_matches_seed else ["chance outcomes differ from the seed's (physical dice?)"]
    if args.json:
        print(json.dumps({"legal": True, "over": game.is_over(), "result": game.result(), "notes": notes}))
    else:
        status = "a legal game" if game.is_over() else "a legal game, not finished"
        print(f"{record.get('game')}: {status}, {len(game.log)} log entries")
        for note in notes:
            print(f"note: {note}")
        print(game.describe_result())
    return 0
