"""Fixtures of the table service's unit tests: an in-process fake board session."""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

import pytest

from tablelight.games.farlander.engine import ACTION, DISTRIBUTION, Farlander


class FakeEvent(NamedTuple):
    key: int
    pressed: bool
    board_ms: int = 0
    seq: int = 0


class FakeBoard:
    """Records what the table shows; hands out queued key presses on poll (a BoardSession stand-in)."""

    def __init__(self) -> None:
        self.shown: list[list[tuple[int, int, int, int]]] = []
        self.queued: deque[FakeEvent] = deque()
        self.polls = 0
        self.connected = True
        self.rolls: list[tuple[list[int], list[int], tuple[int, int, int]]] = []

    def show(self, pixels: list[tuple[int, int, int, int]]) -> None:
        assert all(len(p) == 4 for p in pixels)
        self.shown.append(list(pixels))

    def press(self, key: int) -> None:
        self.queued.append(FakeEvent(key, True))
        self.queued.append(FakeEvent(key, False))

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int]) -> None:
        self.rolls.append((list(leds), list(values), color))

    def in_sync(self) -> bool:
        return True

    def poll(self, timeout: float) -> list[FakeEvent]:
        self.polls += 1
        events = list(self.queued)
        self.queued.clear()
        return events


@pytest.fixture
def fake_board() -> FakeBoard:
    return FakeBoard()


def play_until(game: Farlander, phase: str, seed: int = 1) -> Farlander:
    """Random moves until ``game`` reaches ``phase`` (distribution or action)."""
    from tablelight.core.rng import Rng

    rng = Rng(seed)
    while game.phase != phase and not game.is_over():
        game.apply(game.random_action(rng))
    return game


@pytest.fixture
def action_game() -> Farlander:
    """A 2-player game at the start of the action phase."""
    game = play_until(Farlander(2, seed=11), ACTION)
    assert game.phase == ACTION
    return game


@pytest.fixture
def fresh_game() -> Farlander:
    game = Farlander(2, seed=5)
    assert game.phase == DISTRIBUTION
    return game
