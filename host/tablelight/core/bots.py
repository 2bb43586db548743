"""Bots: anything that picks an action for the current seat of a game."""

from __future__ import annotations

from typing import Protocol

from tablelight.core.game import Action, Game
from tablelight.core.rng import Rng


class Bot(Protocol):
    """A player program. ``choose`` must return a legal action and must not change ``game``."""

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action (the engine's :meth:`Game.random_action`)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game) -> Action:
        return game.random_action(self.rng)
