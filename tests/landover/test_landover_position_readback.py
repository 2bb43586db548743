"""``Landover.position()`` read back: a game started from the position a game is at (random play,
several seeds, player counts and option mixes) lists, shows and scores the same, and plays on the
same with the same outcomes."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.record import replay
from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover

MIXES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"map_name": "random"}),
    (4, {"settlement_limits": True, "city_resources": "every_city", "barbarian_delay": 2}),
    (3, {"explorer_each_island": False, "barbarian_losers": "reducible", "map_numbers": "fixed"}),
]


def copy_of(game: Landover, chance: Any = ()) -> Landover:
    position = json.loads(json.dumps(game.position()))  # as a record holds it
    return Landover(
        game.players, game.options, game.seed, setup={"map": game.map.to_json(), "position": position}, chance=chance
    )


def assert_same(game: Landover, copy: Landover) -> None:
    assert copy.legal_actions() == game.legal_actions()
    assert copy.scores() == game.scores()
    assert copy.state() == game.state()
    for seat in range(game.players):
        assert copy.view(seat) == game.view(seat)
    assert copy.describe() == game.describe()


def random_positions(players: int, options: dict[str, Any], seed: int, every: int = 6):
    """The game at every ``every``-th step of a random game from its first turn on."""
    game = Landover(players, {"turn_cap": 120, "target": 18, **options}, seed)
    rng = Rng(seed + 50)
    step = 0
    while not game.is_over():
        if game.pos.phase in ("main", "roll", "take") and step % every == 0:
            yield game
        game.apply(game.random_action(rng))
        step += 1


@pytest.mark.parametrize("players, options", MIXES)
def test_a_game_started_from_the_position_read_back_is_the_same_game(players: int, options: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in (1, 2, 3):
        for game in random_positions(players, options, seed):
            position = game.position()
            seen.update(field for field in ("merchant", "numbers", "revealed", "taking") if position.get(field))
            seen.update(["catapults"] if any(h is not None for h in position["catapults"]) else [])
            seen.update(["explored"] if not all(p["home"] for p in position["pieces"]) else [])
            seen[position["phase"]] += 1
            copy = copy_of(game)
            assert_same(game, copy)
            assert copy.position() == position
    # the sweep reached the fields a plain start cannot have
    assert seen["main"] > 50 and seen["merchant"] and seen["catapults"] and seen["numbers"], seen


def test_the_copy_plays_on_as_the_original_with_the_same_outcomes() -> None:
    """Decks, unrevealed tiles, tokens before anarchy: what only later draws read is the same too."""
    checked = 0
    for players, options in MIXES:
        for game in random_positions(players, options, 7, every=40):
            start = len(game.log)
            ahead = game.clone()
            rng = Rng(checked)
            for _ in range(60):
                if ahead.is_over():
                    break
                ahead.apply(ahead.random_action(rng))
            later = ahead.log[start:]
            copy = copy_of(game, chance=[e for e in later if "chance" in e])
            for entry in later:
                if "action" in entry and not entry.get("auto"):
                    copy.apply(entry["action"], seat=entry["seat"])
            assert copy.undrawn_chance() is None  # every outcome of the original was drawn
            assert copy.state() == ahead.state() and copy.result() == ahead.result()
            if not ahead.is_over():
                assert_same(ahead, copy)
            checked += 1
    assert checked > 10


def test_a_game_from_a_read_back_position_records_replays_and_undoes() -> None:
    game = next(g for g in random_positions(3, {}, 5) if g.position()["merchant"] and g.pos.turns > 20)
    copy = copy_of(game)
    rng = Rng(9)
    for _ in range(30):
        copy.apply(copy.random_action(rng))
    again = replay(json.loads(json.dumps(copy.to_record())))
    assert again.state() == copy.state() and again.position() == copy.position()
    copy.undo()
    assert replay(copy.to_record()).state() == copy.state() and len(copy.log) < len(again.log)


def test_there_is_no_position_before_the_first_turn() -> None:
    with pytest.raises(SetupError, match="read in phase main, roll or take, not in phase setup"):
        Landover(2, None, 1).position()


@pytest.mark.parametrize("change, named", [
    ({"revealed": [{"hex": 0, "tile": 0}, {"hex": 1, "tile": 0}]}, "revealed names a tile twice"),
    ({"numbers": "swap"}, "numbers must list one token per hex"),
    ({"longest_route": None}, "longest_route is seat"),
])
def test_a_read_back_position_changed_badly_is_one_setup_error(change: dict[str, Any], named: str) -> None:
    game = next(g for g in random_positions(2, {}, 2) if g.position()["longest_route"] is not None)
    position = {**game.position(), **change}
    if change.get("numbers") == "swap":  # a token that is not on the map
        numbers = list(game.pos.number)
        h = next(h for h, token in enumerate(numbers) if token is not None)
        numbers[h] = 7
        position["numbers"] = numbers
    with pytest.raises(SetupError, match=named):
        Landover(2, game.options, game.seed, setup={"map": game.map.to_json(), "position": position})
