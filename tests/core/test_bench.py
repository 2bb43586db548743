"""The rules benchmarks' figures."""


def test_random_game_bench_counts_games_ended_by_a_turn_cap():
    from tablelight.bench.rules import random_games
    from tablelight.core.registry import game_class

    capped = random_games(game_class("landover"), 2, 3, seed=1, options={"turn_cap": 3})
    assert capped["turn_capped"] == 3 and capped["games"] == 3
    free = random_games(game_class("farlander"), 2, 3, seed=1)
    assert free["turn_capped"] == 0 and free["actions"] > 0
