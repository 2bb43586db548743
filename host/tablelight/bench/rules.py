"""Rules-engine benchmarks: random games per second, and bot-against-bot win rates."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tablelight.core.game import Game
from tablelight.core.rng import Rng


def random_games(
    cls: type[Game],
    players: int,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` complete games of uniformly random legal actions; report the rates."""
    rng = Rng(seed)
    actions = 0
    capped = 0
    started = time.perf_counter()
    for number in range(games):
        game = cls(players, options, seed + number)
        while not game.is_over():
            game.apply(game.random_action(rng))
            actions += 1
        # Engines with a turn cap say so in their result; such games end with no winner.
        if game.result().get("turn_cap") is True:
            capped += 1
        if progress:
            progress(number + 1)
    elapsed = time.perf_counter() - started
    return {
        "game": cls.name,
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "turn_capped": capped,
    }


def win_rate(
    cls: type[Game],
    bot_names: list[str],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``bot_names[0]`` against the others, swapping seats every game.

    A shared win counts as a win for every winner; the first bot's rate is the
    share of games it won (alone or shared).
    """
    players = len(bot_names)
    wins = [0] * players  # per bot (not per seat)
    sole = [0] * players
    for number in range(games):
        shift = number % players  # bot b sits at seat (b + shift) % players
        game = cls(players, options, seed + number)
        bots: list[Any] = [None] * players
        for b, name in enumerate(bot_names):
            bots[(b + shift) % players] = cls.make_bot(name, seed * 7919 + number * 31 + b)
        while not game.is_over():
            seat = game.current_seat()
            assert seat is not None
            game.apply(bots[seat].choose(game), seat=seat)
        winners = game.winners()
        for b in range(players):
            if (b + shift) % players in winners:
                wins[b] += 1
                if len(winners) == 1:
                    sole[b] += 1
        if progress:
            progress(number + 1)
    return {
        "game": cls.name,
        "bots": bot_names,
        "games": games,
        "wins": wins,
        "sole_wins": sole,
        "win_rate": round(wins[0] / games, 4),
    }
