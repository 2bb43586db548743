"""Bots: anything that picks an action for the current seat of a game, and a bot's thinking in slices."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any, Protocol

from tablelight.core.game import Action, Game
from tablelight.core.rng import Rng

#: A decision made a step at a time: the generator yields between steps and returns the action.
Steps = Generator[None, None, Action]


class Bot(Protocol):
    """A player program. ``choose`` must return a legal action and must not change ``game``.

    A bot that thinks long (the search bots) also has ``think(game)``: the same decision as
    :data:`Steps` on a copy of the position, so a host can think in slices (:class:`Thinking`)."""

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action (the engine's :meth:`Game.random_action`)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game) -> Action:
        return game.random_action(self.rng)


def finish(steps: Steps) -> Action:
    """Run ``steps`` to the end: the action it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Position:
    """Where a game is now, to tell later whether it moved on (another move, an undo and a new move)."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self._length = len(game.log)
        self._last = game.log[-1] if game.log else None  # held: an undo then a new move makes a new entry

    def is_now(self, game: Game) -> bool:
        last = game.log[-1] if game.log else None
        return game is self._game and len(game.log) == self._length and last is self._last


class Thinking:
    """A bot's decision on one position, made in slices of at most a few milliseconds each.

    Whoever drives it (the table, on its loop) calls :meth:`run` with a slice's length and does
    other work between calls; :attr:`action` is set once the bot decided. A bot without
    ``think`` (the fast ones: greedy, random) decides in one slice. :meth:`is_for` tells whether
    the game is still where the thinking began: when it moved on (an undo, another move), the
    thinking is dropped, never applied.
    """

    #: The table must tick for this thinking to go on (a slice a tick).
    here = True

    def __init__(self, bot: Any, game: Game, seat: int, clock: Callable[[], float] = time.perf_counter) -> None:
        self.seat = seat
        self._game = game
        self._position = Position(game)
        think = getattr(bot, "think", None)
        self._steps: Steps | None = think(game) if think is not None else None
        self._bot = bot
        self._clock = clock
        self.action: Action | None = None
        self.decided = False

    def is_for(self, game: Game, seat: int) -> bool:
        """Whether this thinking is about ``game`` as it is now, for ``seat``."""
        return self._position.is_now(game) and seat == self.seat

    def drop(self) -> None:
        """The game moved on: nothing to stop (the slices simply stop coming)."""

    def run(self, seconds: float) -> bool:
        """Think for about ``seconds`` (at least one step); True once decided."""
        if self.decided:
            return True
        if self._steps is None:
            self._decide(self._bot.choose(self._game))
            return True
        until = self._clock() + seconds
        while True:
            try:
                next(self._steps)
            except StopIteration as done:
                self._decide(done.value)
                return True
            if self._clock() >= until:
                return False

    def _decide(self, action: Action) -> None:
        self.action = action
        self.decided = True
        self._steps = None
