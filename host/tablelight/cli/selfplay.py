"""``tablelight selfplay GAME``: a game between bots, shown in the terminal, optionally recorded."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from tablelight.cli.common import add_game_subparsers, make_bots, new_game, options_from_args, write_json_atomic
from tablelight.core.game import Game
from tablelight.core.inputs import number_in_range


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("selfplay", help="play a game between bots and print or record it")

    def add_common(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
        sub.add_argument("--players", type=int, default=cls.min_players, help="number of seats")
        sub.add_argument("--seed", type=int, default=0, help="seed of the game's random generator")
        sub.add_argument(
            "--bots", help=f"comma-separated bot per seat, or one for all ({', '.join(cls.bot_names())})"
        )
        sub.add_argument("--record", metavar="FILE", help="write the game record (JSON) here")
        sub.add_argument("--map", metavar="FILE", help="play on a map read from a JSON file")
        sub.add_argument("--show", action="store_true", help="print the board after every action")
        sub.add_argument("--delay", type=number_in_range(0, 3600), default=0.0, help="seconds to pause between actions with --show")
        sub.set_defaults(func=run)

    add_game_subparsers(parser, "bots play", add_common)


def run(args: argparse.Namespace) -> int:
    cls: type[Game] = args.game_class
    game = new_game(cls, args.players, options_from_args(args, cls), args.seed, args.map)
    bots = make_bots(cls, args.bots, args.players, args.seed)
    shown = 0
    color = sys.stdout.isatty()
    if args.show:
        print(game.describe(color))
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        game.apply(bots[seat].choose(game), seat=seat)
        if args.show:
            for entry in game.log[shown:]:
                print(game.describe_entry(entry))
            shown = len(game.log)
            print(game.describe(color))
            if args.delay:
                time.sleep(args.delay)
    result = game.result()
    print(game.describe_result())
    if args.record:
        write_json_atomic(args.record, game.to_record())
        print(f"record written to {args.record}", file=sys.stderr)
    return 0 if result else 1
