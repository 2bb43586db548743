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

CULTURE_NAMES = ("science", "commerce", "politics")
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


@pytest.mark.parametrize("name, moves", [("farlander", 20), ("mainland", 12)])
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


def test_landover_search_keeps_the_greedy_move_but_where_it_reconsiders() -> None:
    """Along a whole game the Landover search plays the greedy bot's move (same seed, same world)
    except a village corner, a culture, or an action that gains points before the turn ends."""
    from tablelight.games.landover.search import decide

    cls = game_class("landover")
    game = cls(2, None, 5)
    search = cls.make_bot("mcts:4", 5)
    other = cls.make_bot("greedy", 6)
    changed = {"village": 0, "culture": 0, "grab": 0}
    seen: set[str] = set()
    while not game.is_over():
        if game.current_seat() == 1:
            game.apply(other.choose(game))
            continue
        legal = game.legal_actions()
        ranked = search.policy.ranked(game)[:6]
        first = ranked[0]
        seen.add(first.get("piece", first["type"]))
        chosen = decide(search, game, 0, ranked, first)
        assert game.is_legal(chosen) and len(legal) >= 1
        if chosen != first:
            if first["type"] == "end_turn":
                trial = game.clone()
                trial.apply(chosen)
                assert trial.vp(0) > game.vp(0)  # the grab gains points at once
                changed["grab"] += 1
            elif first["type"] == "improve":
                assert chosen["type"] == "improve"
                level = list(game.culture(0).values())
                assert level[CULTURE_NAMES.index(chosen["culture"])] >= level[CULTURE_NAMES.index(first["culture"])]
                changed["culture"] += 1
            else:
                assert first["type"] == chosen["type"] == "build" and first["piece"] == chosen["piece"] == "village"
                changed["village"] += 1
        game.apply(chosen)
    # every kind of decision came up; changes are rare (about one a game: docs/lab.md)
    assert seen >= {"end_turn", "improve", "village"}, seen


def test_landover_settling_is_deterministic_given_the_seed() -> None:
    from tablelight.games.landover.search import settle_choice

    cls = game_class("landover")
    game = cls(2, None, 3)
    villages = [a for a in game.legal_actions() if a["type"] == "build" and a["piece"] == "village"]
    ranked = [a for a in cls.make_bot("greedy", 1).ranked(game) if a in villages][:3]
    chosen = [settle_choice(cls.make_bot("mcts:4", 2), game, game.current_seat(), ranked) for _ in range(2)]
    assert chosen[0] == chosen[1] and chosen[0] in ranked