"""The search bot a step at a time (what a table runs in slices), and its budget in milliseconds."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.bots import Thinking
from tablelight.core.registry import game_class
from tablelight.core.rng import Rng
from tablelight.core.search_bot import MAX_ITERATIONS, SearchBot, parse_search_name


def position(name: str, seed: int, moves: int) -> Any:
    cls = game_class(name)
    game = cls(3 if name == "landover" else 2, None, seed)
    rng = Rng(seed)
    for _ in range(moves):
        game.apply(game.random_action(rng))
    return game


@pytest.mark.parametrize("name", ["farlander", "mainland", "landover", "farside"])
def test_thinking_a_step_at_a_time_chooses_what_the_bot_chooses_at_once(name: str) -> None:
    for seed, moves in ((1, 1), (2, 7)):
        game = position(name, seed, moves)
        before = game.to_record()
        cls = game_class(name)
        thinking = Thinking(cls.make_bot("mcts:8", seed), game, game.current_seat())
        while not thinking.run(0.0):  # one step per slice: the finest slicing there is
            pass
        assert game.to_record() == before  # thinking never touches the game
        assert thinking.action == cls.make_bot("mcts:8", seed).choose(game)


def test_a_search_takes_many_slices() -> None:
    game = position("farlander", 1, 1)
    thinking = Thinking(game_class("farlander").make_bot("mcts:8", 1), game, game.current_seat())
    slices = 1
    while not thinking.run(0.0):
        slices += 1
    assert slices > 8 * 4  # a step at least per iteration and per playout action


def test_a_search_goes_on_on_its_own_copy_when_the_game_moves_on() -> None:
    game = position("mainland", 4, 3)
    bot = game_class("mainland").make_bot("mcts:8", 4)
    steps = bot.think(game)
    next(steps)
    game.apply(game.legal_actions()[0])  # the table drops such a search; the search itself must not break
    while True:
        try:
            next(steps)
        except StopIteration:
            break


class CountingBot(SearchBot):
    """Counts the worlds it samples: one for the root, then one per iteration."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.worlds = 0

    def sample_world(self, game, seat, hide):  # type: ignore[no-untyped-def]
        self.worlds += 1
        return super().sample_world(game, seat, hide)


class SteppingClock:
    """A fake clock that moves on a millisecond each time it is read."""

    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_a_budget_in_milliseconds_stops_the_search_when_it_is_spent() -> None:
    game = position("farlander", 3, 2)
    policy = game_class("farlander").make_bot("strong", 3)
    timed = CountingBot(3, MAX_ITERATIONS, 4, policy, think_ms=20, clock=SteppingClock())
    timed.choose(game)
    assert 2 <= timed.worlds <= 22  # the root, then about an iteration a millisecond (a clock reading) for 20 ms
    counted = CountingBot(3, 30, 4, policy)
    counted.choose(game)
    assert counted.worlds == 31  # without a time budget: exactly the iterations asked


def test_a_spent_budget_still_searches_once() -> None:
    game = position("farlander", 3, 2)
    policy = game_class("farlander").make_bot("strong", 3)
    bot = CountingBot(3, MAX_ITERATIONS, 4, policy, think_ms=1, clock=lambda: 0.0 if bot.worlds < 2 else 9.0)
    assert game.is_legal(bot.choose(game))
    assert bot.worlds == 2


def test_search_names_with_budgets() -> None:
    assert parse_search_name("mcts") == (64, 12, None)
    assert parse_search_name("mcts-deep:800ms") == (MAX_ITERATIONS, 24, 800)
    assert parse_search_name("mcts:32") == (32, 12, None)
    assert parse_search_name("greedy") is None
    bot = game_class("farlander").make_bot("mcts-deep:250ms", 1)
    assert (bot.think_ms, bot.playout) == (250, 24)
