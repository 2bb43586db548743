"""The search bot's options and per-game tuning: iteration budgets, candidates from the fast bot's
ranking, cut-off evaluations, Farside's stand-in table. Each test looks at a few decisions only."""

from __future__ import annotations

import json

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.game import Game
from tablelight.core.registry import game_class
from tablelight.core.rng import Rng
from tablelight.core.search_bot import SearchBot, action_key, search_budget, tuning

FAST_BOTS = {"farlander": "strong", "mainland": "greedy", "landover": "greedy", "farside": "tactician"}


def game_after(name: str, moves: int, seed: int = 2) -> Game:
    """A 2-player game ``moves`` actions in, played by the game's fast bot (a position with choices)."""
    cls = game_class(name)
    game = cls(2, None, seed)
    bot = cls.make_bot(FAST_BOTS[name], seed)
    for _ in range(moves):
        game.apply(bot.choose(game))
    return game


def test_a_search_bot_name_takes_an_iteration_budget() -> None:
    assert search_budget("mcts") == (64, 12) and search_budget("mcts-deep") == (256, 24)
    assert search_budget("mcts:12") == (12, 12) and search_budget("mcts-deep:3") == (3, 24)
    assert search_budget("greedy") is None
    bot = game_class("mainland").make_bot("mcts:7", 1)
    assert (bot.iterations, bot.playout) == (7, 12)
    for bad in ("mcts:", "mcts:-1", "mcts:0", "mcts:1.5", "mcts:100001"):
        with pytest.raises(SetupError, match="whole number 1..100000"):
            game_class("mainland").make_bot(bad, 1)


@pytest.mark.parametrize("name, moves", [("farlander", 20), ("mainland", 12), ("landover", 60)])
def test_the_fast_bots_ranking_is_every_legal_choice_best_first(name: str, moves: int) -> None:
    game = game_after(name, moves)
    before = json.dumps(game.state(), sort_keys=True)
    bot = game_class(name).make_bot(FAST_BOTS[name], 5)
    ranked = bot.ranked(game)
    assert json.dumps(game.state(), sort_keys=True) == before  # ranking changes nothing
    legal = {action_key(a) for a in game.legal_actions()}
    assert len(ranked) > 1 and {action_key(a) for a in ranked} <= legal
    if name != "mainland":  # Mainland ranks placements only (its other actions are never better)
        assert len(ranked) == len(legal)
    # whatever the fast bot would play (ties broken by its seed) is among the few the search weighs
    width = __import__(f"tablelight.games.{name}.search", fromlist=["WIDTH"]).WIDTH
    for seed in range(4):
        choice = game_class(name).make_bot(FAST_BOTS[name], seed).choose(game)
        assert action_key(choice) in {action_key(a) for a in ranked[:width]}


@pytest.mark.parametrize("name, moves", [("farlander", 20), ("mainland", 12), ("landover", 60)])
def test_the_search_weighs_only_the_fast_bots_best_few(name: str, moves: int) -> None:
    game = game_after(name, moves)
    search = game_class(name).make_bot("mcts:6", 3)
    module = __import__(f"tablelight.games.{name}.search", fromlist=["WIDTH"])
    best = [action_key(a) for a in game_class(name).make_bot(FAST_BOTS[name], 0).ranked(game)[: module.WIDTH]]
    for _ in range(2):
        action = search.choose(game)
        assert game.is_legal(action) and action_key(action) in best
        game.apply(action)
        best = [action_key(a) for a in game_class(name).make_bot(FAST_BOTS[name], 0).ranked(game)[: module.WIDTH]]


@pytest.mark.parametrize("name, moves", [("farlander", 20), ("mainland", 12), ("landover", 60), ("farside", 30)])
def test_cut_off_playouts_are_valued_between_0_and_1_for_every_seat(name: str, moves: int) -> None:
    game = game_after(name, moves)
    rewards = tuning(game).evaluate(game)
    assert len(rewards) == 2 and all(0.0 <= r <= 1.0 for r in rewards)
    assert rewards[0] + rewards[1] == pytest.approx(1.0)  # a lead for one seat is a deficit for the other


def test_mainland_playouts_are_cut_at_half_length() -> None:
    game = game_after("mainland", 12)
    assert tuning(game).playout_share == 0.5


def test_farside_search_records_no_impact_but_the_stand_in_dice() -> None:
    """Along a whole game, the search's candidates never include an impact it chose, a group
    activation, the enemy's manoeuvre, or a model leaving the table before it got there."""
    from tablelight.games.farside.search import candidates

    cls = game_class("farside")
    game = cls(2, None, 4)
    players = [cls.make_bot("tactician", 4), cls.make_bot("tactician", 5)]
    policy = cls.make_bot("tactician", 6)
    checked = 0
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        legal = game.legal_actions()
        chosen = candidates(game.clone(), legal, policy)
        if any(a["type"] == "impact" for a in chosen):
            assert len(chosen) == 1  # the stand-in dice decided: nothing to choose
        for action in chosen:
            assert not action.get("group")
            if action["type"] == "manoeuvre":
                assert action["player"] == seat
            if action["type"] in ("loot", "break_through"):
                assert game.models[action["model"]]["activated"] and len(game.on_table(seat)) > 1
            if action["type"] == "break_through":
                assert game.round >= 3
        checked += len(legal) > 1
        game.apply(players[seat].choose(game))
    assert checked > 20


def test_farside_search_weighs_a_few_secrets() -> None:
    from tablelight.games.farside.search import PRIMARIES, TEAM_SIZES, candidates

    cls = game_class("farside")
    game = cls(2, None, 3)
    rng = Rng(3)
    while game.phase != "secrets":
        game.apply(game.random_action(rng))
    chosen = candidates(game, game.legal_actions(), cls.make_bot("tactician", 1))
    assert len(chosen) == len(PRIMARIES) * len(TEAM_SIZES)
    assert {a["primary"] for a in chosen} == set(PRIMARIES) and {a["stratagem"] for a in chosen} == {"destruction"}


def test_search_is_deterministic_given_its_seed() -> None:
    game = game_after("landover", 60)
    first = [SearchBot(9, 5, 4, game_class("landover").make_bot("greedy", 9)).choose(game) for _ in range(2)]
    assert first[0] == first[1]


def test_lookahead_copies_share_only_what_never_changes() -> None:
    from tablelight.core.search_bot import lookahead_copy

    game = game_after("landover", 40)
    before = json.dumps(game.state(), sort_keys=True), len(game.log)
    world = lookahead_copy(game, tuning(game).shared)
    assert world.map is game.map and world.log is not game.log and world.log == game.log
    bot = game_class("landover").make_bot("greedy", 1)
    for _ in range(10):
        world.apply(bot.choose(world))
    assert (json.dumps(game.state(), sort_keys=True), len(game.log)) == before
    assert json.dumps(world.state(), sort_keys=True) != before[0]


def test_landover_candidates_face_the_same_sampled_worlds() -> None:
    """PAIRED: every candidate is played out in each of iterations // candidates worlds."""
    game = game_after("landover", 60)
    assert tuning(game).paired

    class Counting(SearchBot):
        worlds = 0

        def sample_world(self, game, seat, hide):  # type: ignore[no-untyped-def]
            Counting.worlds += 1
            return super().sample_world(game, seat, hide)

    from tablelight.games.landover.search import candidates as landover_candidates

    policy = game_class("landover").make_bot("greedy", 4)
    weighed = landover_candidates(game, game.legal_actions(), policy)
    assert len(weighed) > 1
    action = Counting(4, 12, 4, policy).choose(game)
    # one world to ask the fast bot, then the same worlds for every candidate
    assert action in weighed and Counting.worlds == 1 + 12 // len(weighed)
