"""The rules of Last Light, as a tablelight engine (pure: no I/O, chance only through ``_chance*``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError
from tablelight.core.fields import is_whole
from tablelight.core.game import Action, Game
from tablelight.core.options import OptionSpec

MAX_TAKE = 3


class LastLight(Game):
    """A row of lights; each turn a player takes 1-3 from the end; taking the last one wins."""

    name = "lastlight"
    min_players = 2
    max_players = 2
    option_specs = (OptionSpec("lights", int, 7, "lights in the row at the start", choices=(4, 5, 6, 7)),)

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        #: Lights still in the row (they are taken from the end: lights 0..left-1 remain).
        self.left: int = self.options["lights"]
        #: The seat to act; chance decides who starts, and the log keeps the draw.
        self.seat: int | None = self._chance_below("first", self.players)
        #: Who took the last light, once the game is over.
        self.winner: int | None = None

    def current_seat(self) -> int | None:
        return self.seat

    def legal_actions(self) -> list[Action]:
        if self.seat is None:
            return []
        return [Action({"type": "take", "count": n}) for n in range(1, min(MAX_TAKE, self.left) + 1)]

    def _check(self, action: Action) -> Action:
        if action.get("type") != "take" or set(action) != {"type", "count"}:
            raise MalformedActionError("lastlight.action.shape", f'an action is {{"type": "take", "count": n}}, got {action!r}')
        count = action["count"]
        if not is_whole(count):
            raise MalformedActionError("lastlight.take.count", f"count must be a whole number, got {count!r}")
        if not 1 <= count <= MAX_TAKE:
            raise RuleViolationError("lastlight.take.limit", f"take 1-{MAX_TAKE} lights, not {count}")
        if count > self.left:
            raise RuleViolationError("lastlight.take.left", f"only {self.left} lights are left")
        return Action({"type": "take", "count": count})

    def _perform(self, action: Action) -> None:
        assert self.seat is not None
        self.left -= action["count"]
        if self.left == 0:
            self.winner, self.seat = self.seat, None
        else:
            self.seat = 1 - self.seat

    # -- public read API: what faces and bots may ask

    def takeable(self) -> int:
        """How many lights the seat to act may take at most now."""
        return min(MAX_TAKE, self.left) if self.seat is not None else 0

    def scores(self) -> list[int]:
        return [1 if seat == self.winner else 0 for seat in range(self.players)]

    def state(self) -> dict[str, Any]:
        return {"left": self.left, "seat": self.seat, "winner": self.winner}
