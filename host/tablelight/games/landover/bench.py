"""``tablelight bench rules landover --vs-catanatron``: Landover against catanatron, same run, same way.

Both sides play complete 4-player games of uniformly random legal actions, one
game of each in turn, and both list every legal action at every step: Landover through
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
from collections.abc import Callable
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover

PLAYERS = 4


class _Tally:
    """Actions, turns, turn caps and seconds of one engine's games."""

    def __init__(self) -> None:
        self.games = self.actions = self.turns = self.capped = 0
        self.seconds = 0.0

    def add(self, actions: int, turns: int, capped: bool, seconds: float) -> None:
        self.games += 1
        self.actions += actions
        self.turns += turns
        self.capped += capped
        self.seconds += seconds

    def figures(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / self.seconds, 2),
            "actions_per_s": round(self.actions / self.seconds, 1),
            "turn_capped": self.capped,
            "mean_turns": round(self.turns / self.games, 1),
        }


#: A clock: seconds as a float (``time.perf_counter``, or ``time.process_time`` for CPU seconds).
Clock = Callable[[], float]


def _landover_game(seed: int, rng: Rng, players: int, tally: _Tally, clock: Clock = time.perf_counter) -> None:
    started = clock()
    game = Landover(players, None, seed)
    actions = 0
    while not game.is_over():
        game.apply(game.random_action(rng))
        actions += 1
    tally.add(actions, game.turns, game.capped, clock() - started)


def load_catanatron() -> Any:
    try:
        # Imported by name: an optional extra, untyped, absent on most machines.
        return importlib.import_module("catanatron")
    except ImportError as error:
        raise RuntimeError(
            f"catanatron is not installed ({error}); install the benchmark extra: pip install 'tablelight[bench]'"
        ) from None


def play_catanatron_game(catanatron: Any, seed: int, tally: _Tally, clock: Clock = time.perf_counter) -> None:
    Color = catanatron.Color
    started = clock()
    players = [catanatron.RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)]
    # catanatron reads seed 0 as "no seed" (a fresh random one): its games are numbered from 1.
    game = catanatron.Game(players, seed=seed + 1)
    game.play()
    tally.add(len(game.state.actions), game.state.num_turns, game.winning_color() is None, clock() - started)


def landover_random_games(games: int, seed: int = 0, players: int = PLAYERS) -> dict[str, Any]:
    """Complete random Landover games: rates, turns, turn caps."""
    rng = Rng(seed)
    tally = _Tally()
    for number in range(games):
        _landover_game(seed + number, rng, players, tally)
    return tally.figures()


def catanatron_random_games(games: int, seed: int = 0) -> dict[str, Any]:
    """Complete random 4-player catanatron games, measured like :func:`landover_random_games`."""
    catanatron = load_catanatron()
    tally = _Tally()
    for number in range(games):
        play_catanatron_game(catanatron, seed + number, tally)
    return {"version": _dist_version("catanatron"), **tally.figures()}


def _dist_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def compare(
    games: int, seed: int = 0, progress: Callable[[int], None] | None = None, cpu: bool = False
) -> dict[str, Any]:
    """Both engines, one game of each in turn (so a busy machine slows both alike); flat figures first.

    ``cpu``: seconds of this process's CPU time (``time.process_time``), not of the clock on the wall:
    on a loaded machine the wall clock also counts the time other processes had the core."""
    clock = time.process_time if cpu else time.perf_counter
    catanatron = load_catanatron()
    rng = Rng(seed)
    ours, theirs = _Tally(), _Tally()
    for number in range(games):
        _landover_game(seed + number, rng, PLAYERS, ours, clock)
        play_catanatron_game(catanatron, seed + number, theirs, clock)
        if progress:
            progress(number + 1)
    landover = ours.figures()
    other = {"version": _dist_version("catanatron"), **theirs.figures()}
    return {
        "game": "landover",
        "players": PLAYERS,
        "games": games,
        "seconds": "cpu" if cpu else "wall",
        "actions_per_s": landover["actions_per_s"],
        "games_per_s": landover["games_per_s"],
        "catanatron_actions_per_s": other["actions_per_s"],
        "catanatron_games_per_s": other["games_per_s"],
        "speedup_actions": round(landover["actions_per_s"] / other["actions_per_s"], 2),
        "landover": landover,
        "catanatron": other,
    }


def _progress(total: int, quiet: bool) -> Callable[[int], None] | None:
    if quiet or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{done}/{total} games of each", end="\n" if done == total else "", file=sys.stderr, flush=True)

    return show


def run_vs_catanatron(args: argparse.Namespace) -> int:
    """The ``--vs-catanatron`` flag of ``tablelight bench rules`` (4 players whatever ``--players`` says)."""
    if args.game != "landover":
        print("tablelight bench: --vs-catanatron compares the landover engine only", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tablelight bench: --games must be at least 1", file=sys.stderr)
        return 2
    if not args.json:
        clock = "CPU seconds" if getattr(args, "cpu", False) else "seconds on the wall clock"
        print(f"landover vs catanatron: {args.games} random 4-player games each, in {clock}...", file=sys.stderr)
    try:
        figures = compare(args.games, args.seed, _progress(args.games, args.json), getattr(args, "cpu", False))
    except RuntimeError as error:
        print(f"tablelight bench: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
        return 0
    unit = "CPU s" if figures["seconds"] == "cpu" else "s"
    for name in ("landover", "catanatron"):
        f = figures[name]
        label = name if name == "landover" else f"catanatron {f['version']}"
        print(
            f"{label}: {f['games']} games, {f['actions']} actions in {f['seconds']} {unit}: "
            f"{f['games_per_s']} games/s, {f['actions_per_s']} actions/s; "
            f"{f['turn_capped']} ended at the turn cap; {f['mean_turns']} turns a game"
        )
    print(f"landover lists and plays {figures['speedup_actions']}x catanatron's actions per second")
    return 0
