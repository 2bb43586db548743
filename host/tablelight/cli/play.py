"""``tablelight play GAME``: a game at a lit board (real or simulated), kept in the game store.

Every game with a face (its entry's ``face``, :class:`tablelight.core.registry.GameEntry`) can be played; the others get a
clear error naming the games that can.
"""

from __future__ import annotations

import argparse
from typing import Any

from tablelight.cli.common import add_game_subparsers, new_game, options_from_args
from tablelight.core.game import Game
from tablelight.core.inputs import seed_argument


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a game at a lit board (or a simulated one)")

    def add_common(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
        from tablelight.cli.table_run import add_table_arguments

        sub.add_argument("--players", type=int, default=None, help="number of seats (default: as many as --seats names)")
        sub.add_argument(
            "--seats",
            default="human,bot",
            help="one per seat: human, bot or a bot name "
            f"({', '.join(cls.bot_names())}); one kind for every seat (default human,bot). A search bot "
            "takes a budget after ':': iterations per move (mcts:64, the same moves on every machine) "
            "or milliseconds it may think a move (mcts-deep:800ms)",
        )
        sub.add_argument(
            "--seed", type=seed_argument, default=None,
            help="seed of the game, 0 to 2**63-1 (default: a secret random one; a seed you choose lets anyone "
            "who knows it rebuild the hidden cards)",
        )
        if all(spec.name != "map" for spec in cls.option_specs):
            sub.add_argument("--map", metavar="FILE", dest="map_file", help="play on a map read from a JSON file")
        add_table_arguments(sub)
        sub.set_defaults(func=run)

    add_game_subparsers(parser, "play", add_common)


def run(args: argparse.Namespace) -> int:
    from tablelight.core.rng import secret_seed
    from tablelight.table.face import face_class
    from tablelight.cli.table_run import run_table
    from tablelight.table.service import resolve_seats
    from tablelight.table.store import GameStore

    cls: type[Game] = args.game_class
    face_class(cls.name)  # a game without a lit-board face is refused here, with the games that have one
    seats = resolve_seats(cls, args.seats, args.players)
    # The seed decides every hidden card: it is never shown (tablelight games export ID has it).
    seed = args.seed if args.seed is not None else secret_seed()
    game = new_game(cls, len(seats), options_from_args(args, cls), seed, getattr(args, "map_file", None))
    with GameStore(args.db) as store:
        return run_table(game, seats, store, None, args)
