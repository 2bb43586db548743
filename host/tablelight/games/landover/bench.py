"""``tablelight bench rules landover --vs-catanatron``: Landover against catanatron, same run, same way.

Both sides play complete 4-player games of uniformly random legal actions, and
both list every legal action at every step: Landover through
:meth:`Game.random_action` (``rng.choice(legal_actions())``), catanatron's
``RandomPlayer`` by choosing from its ``playable_actions`` list. Games that stop
at a turn cap (Landover's ``turn_cap`` option, catanatron's ``TURNS_LIMIT``) are
counted and reported. catanatron is an optional extra: ``pip install
'tablelight[bench]'``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover

PLAYERS = 4


def landover_random_games(games: int, seed: int = 0, players: int = PLAYERS) -> dict[str, Any]:
    """Complete random Landover games: rates, winners, turn caps."""
    rng = Rng(seed)
    actions = 0
    capped = 0
    turns = 0
    started = time.perf_counter()
    for number in range(games):
        game = Landover(players, None, seed + number)
        while not game.is_over():
            game.apply(game.random_action(rng))
            actions += 1
        capped += game.capped
        turns += game.turns
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "turn_capped": capped,
        "mean_turns": round(turns / games, 1),
    }


def catanatron_random_games(games: int, seed: int = 0) -> dict[str, Any]:
    """Complete random 4-player catanatron games, measured like :func:`landover_random_games`."""
    try:
        # Imported by name: an optional extra, untyped, absent on most machines.
        catanatron = importlib.import_module("catanatron")
    except ImportError as error:
        raise RuntimeError(
            f"catanatron is not installed ({error}); install the benchmark extra: pip install 'tablelight[bench]'"
        ) from None
    Color, RandomPlayer, CatanGame = catanatron.Color, catanatron.RandomPlayer, catanatron.Game
    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    actions = 0
    capped = 0
    turns = 0
    started = time.perf_counter()
    for number in range(games):
        game = CatanGame([RandomPlayer(c) for c in colors], seed=seed + number)
        game.play()
        actions += len(game.state.actions)
        turns += game.state.num_turns
        capped += game.winning_color() is None
    elapsed = time.perf_counter() - started
    return {
        "version": getattr(catanatron, "__version__", None) or _dist_version("catanatron"),
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "turn_capped": capped,
        "mean_turns": round(turns / games, 1),
    }


def _dist_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def compare(games: int, seed: int = 0) -> dict[str, Any]:
    """Both measurements, Landover first, and the flat figures the CLI prints with ``--json``."""
    ours = landover_random_games(games, seed)
    theirs = catanatron_random_games(games, seed)
    return {
        "game": "landover",
        "players": PLAYERS,
        "games": games,
        "actions_per_s": ours["actions_per_s"],
        "games_per_s": ours["games_per_s"],
        "catanatron_actions_per_s": theirs["actions_per_s"],
        "catanatron_games_per_s": theirs["games_per_s"],
        "speedup_actions": round(ours["actions_per_s"] / theirs["actions_per_s"], 2),
        "landover": ours,
        "catanatron": theirs,
    }


def run_vs_catanatron(args: argparse.Namespace) -> int:
    """The ``--vs-catanatron`` flag of ``tablelight bench rules`` (4 players whatever ``--players`` says)."""
    if args.game != "landover":
        print("tablelight bench: --vs-catanatron compares the landover engine only", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tablelight bench: --games must be at least 1", file=sys.stderr)
        return 2
    if not args.json:
        print(f"landover vs catanatron: {args.games} random 4-player games each...", file=sys.stderr)
    try:
        figures = compare(args.games, args.seed)
    except RuntimeError as error:
        print(f"tablelight bench: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
        return 0
    for name in ("landover", "catanatron"):
        f = figures[name]
        label = name if name == "landover" else f"catanatron {f['version']}"
        print(
            f"{label}: {f['games']} games, {f['actions']} actions in {f['seconds']} s: "
            f"{f['games_per_s']} games/s, {f['actions_per_s']} actions/s; "
            f"{f['turn_capped']} ended at the turn cap; {f['mean_turns']} turns a game"
        )
    print(f"landover lists and plays {figures['speedup_actions']}x catanatron's actions per second")
    return 0
