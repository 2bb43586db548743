"""Mainland speed figures: legal placements per second and complete random games per second.

The generic ``tablelight bench rules mainland`` counts actions; placing is the
costly part of a Mainland turn, so this benchmark also times the listing of
every legal (card, position, rotation) on positions taken from random games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.mainland.engine import Mainland
from tablelight.games.mainland.reads import MainlandReads


def _sample_positions(players: int, games: int, seed: int) -> list[Mainland]:
    """Every position where a clan with its camp down is to act, from ``games`` random games."""
    positions: list[Mainland] = []
    rng = Rng(seed)
    for number in range(games):
        game = Mainland(players, seed=seed + number)
        while not game.is_over():
            seat = game.current_seat()
            assert seat is not None
            if MainlandReads(game).camp_placed(seat):
                positions.append(game.clone())
            game.apply(game.random_action(rng))
    return positions


def placement_speed(players: int = 2, games: int = 20, seed: int = 0) -> dict[str, Any]:
    """List the legal placements of sampled positions from scratch; report the rates."""
    positions = _sample_positions(players, games, seed)
    found = 0
    started = time.perf_counter()
    for game in positions:
        game.forget_placements()
        found += len(game.placements())
    elapsed = time.perf_counter() - started
    return {
        "positions": len(positions),
        "placements": found,
        "seconds": round(elapsed, 4),
        "listings_per_s": round(len(positions) / elapsed, 1),
        "placements_per_s": round(found / elapsed, 1),
        "mean_placements": round(found / max(1, len(positions)), 1),
    }


def random_game_speed(
    players: int = 2, games: int = 100, seed: int = 0, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Complete games of uniformly random legal actions."""
    rng = Rng(seed)
    actions = 0
    started = time.perf_counter()
    for number in range(games):
        game = Mainland(players, seed=seed + number)
        while not game.is_over():
            game.apply(game.random_action(rng))
            actions += 1
        if progress:
            progress(number + 1)
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
    }
