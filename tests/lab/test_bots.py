"""The search bot (every game) and the Farside tactician: legal, whole games, and no peeking at secrets."""

from __future__ import annotations

import json

import pytest

from tablelight.core.game import Game
from tablelight.core.registry import game_class, game_names
from tablelight.core.rng import Rng
from tablelight.core.search_bot import SearchBot


def play(game: Game, bots: list[object], limit: int = 5000) -> int:
    actions = 0
    while not game.is_over() and actions < limit:
        seat = game.current_seat()
        assert seat is not None
        game.apply(bots[seat].choose(game), seat=seat)  # type: ignore[attr-defined]
        actions += 1
    return actions


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_search_bot_that_chooses_legal_moves_without_changing_the_game(name: str) -> None:
    cls = game_class(name)
    assert "mcts" in cls.bot_names()
    game = cls(cls.min_players, None, 4)
    rng = Rng(4)
    for _ in range(6):  # into the game a little, past the opening
        game.apply(game.random_action(rng))
    search = cls.make_bot("mcts", 9)
    search.iterations = 6  # a light search is enough to check the contract
    before = json.dumps(game.state(), sort_keys=True), len(game.log)
    for _ in range(3):
        if game.is_over():
            break
        action = search.choose(game)
        assert (json.dumps(game.state(), sort_keys=True), len(game.log)) == before
        assert game.is_legal(action)
        game.apply(action)
        before = json.dumps(game.state(), sort_keys=True), len(game.log)


def test_search_bot_plays_a_whole_game_of_farlander() -> None:
    cls = game_class("farlander")
    game = cls(2, None, 1)
    bots = [SearchBot(1, iterations=4, playout=4, policy=cls.make_bot("strong", 1)), cls.make_bot("random", 2)]
    play(game, bots)
    assert game.is_over()


def farside_after_secrets(enemy_primary: str) -> Game:
    """A Farside game in which seat 1 noted ``enemy_primary``; to seat 0 both look the same."""
    cls = game_class("farside")
    game = cls(2, None, 3)
    rng = Rng(3)
    while game.current_seat() == 0 and game.phase != "secrets":
        game.apply(game.random_action(rng))
    game.apply({"type": "secret", "primary": "loot", "stratagem": "secure", "team_size": 2})
    game.apply({"type": "secret", "primary": enemy_primary, "stratagem": "loot", "team_size": 2})
    while game.current_seat() != 0 or game.phase == "command":
        game.apply(game.legal_actions()[-1])
    return game


class WorldRecorder(SearchBot):
    """A search bot that keeps every world (determinization) it searched, whole state and generator."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.worlds: list[str] = []

    def sample_world(self, game, seat, hide):  # type: ignore[no-untyped-def]
        world = super().sample_world(game, seat, hide)
        self.worlds.append(json.dumps([world.state(), world.rng.state], sort_keys=True))
        return world


def test_search_bot_does_not_peek_at_the_enemy_secret() -> None:
    loot = farside_after_secrets("loot")
    secure = farside_after_secrets("secure")
    assert loot.view(0) == secure.view(0) and loot.state() != secure.state()
    searched = []
    for game in (loot, secure):
        bot = WorldRecorder(5, iterations=24, playout=6, policy=game_class("farside").make_bot("tactician", 5))
        bot.choose(game)
        searched.append(bot.worlds)
    # Every world searched, secrets and future dice included, is the same whatever the real secret.
    assert len(searched[0]) == 25 and searched[0] == searched[1]
    assert len(set(searched[0])) > 1  # and the secret is really redrawn from world to world


def test_mainland_determinization_keeps_every_count_and_the_own_hand() -> None:
    from tablelight.games.mainland.search import determinize

    cls = game_class("mainland")
    game = cls(3, None, 2)
    rng = Rng(2)
    for _ in range(12):
        game.apply(game.random_action(rng))
    world = game.clone()
    determinize(world, 0, Rng(7))
    assert world.view(0)["hand"] == game.view(0)["hand"]
    for other in (1, 2):
        assert sorted(world.hands[other] + world.decks[other] + world.discards[other]) == sorted(
            game.hands[other] + game.decks[other] + game.discards[other])
        assert (len(world.hands[other]), len(world.decks[other])) == (len(game.hands[other]), len(game.decks[other]))
    assert any(world.hands[o] != game.hands[o] for o in (1, 2))


def test_farside_tactician_plays_whole_games_over_several_rounds() -> None:
    cls = game_class("farside")
    rounds = []
    impacts = total = 0
    for seed in range(12):
        game = cls(2, None, seed)
        play(game, [cls.make_bot("tactician", seed), cls.make_bot("tactician", seed + 100)])
        assert game.is_over()
        rounds.append(game.state()["round"])
        kinds = [e["action"]["type"] for e in game.log if "action" in e]
        impacts += kinds.count("impact")
        total += len(kinds)
    assert sum(rounds) / len(rounds) >= 2
    assert impacts / total < 0.4
    # and the random bot, for contrast, ends in the first round (the finding)
    random_game = cls(2, None, 1)
    play(random_game, [cls.make_bot("random", 1), cls.make_bot("random", 2)])
    assert random_game.state()["round"] == 1


def test_search_bot_plays_a_whole_game_of_landover_choosing_only_really_legal_actions() -> None:
    # Landover's hidden hands make some actions legal only in a sampled world (taking a card the
    # other seat holds there); the bot must still choose among the real game's actions.
    cls = game_class("landover")
    game = cls(3, None, 0)
    bots = [SearchBot(0, iterations=3, playout=4, policy=cls.make_bot("greedy", 0)),
            cls.make_bot("greedy", 1), cls.make_bot("greedy", 2)]
    play(game, bots)
    assert game.is_over() and game.winners()
