"""``tablelight rules serve|games``: the JSON-lines rules server and the list of engines."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tablelight.core.serve import RulesServer, serve


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("rules", help="the rules engines: serve them over JSON lines, list them")
    actions = parser.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    serve_parser = actions.add_parser("serve", help="answer JSON-lines requests on stdin/stdout (docs/rules-serve.md)")
    serve_parser.set_defaults(func=lambda args: serve())
    games = actions.add_parser("games", help="list the games, their options and bots as JSON")
    games.set_defaults(func=list_games)


def list_games(args: argparse.Namespace) -> int:
    print(json.dumps(RulesServer().list_games({})["games"], indent=1))
    return 0
