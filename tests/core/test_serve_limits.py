"""``rules serve`` keeps a bounded number of games (finished and idle ones freed first) and
answers wrong-typed chance outcomes in a loaded record (shuffles, seat orders) with a clear error."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tablelight.core.rng import Rng
from tablelight.core.serve import MAX_GAMES, RulesServer
from tablelight.games.farlander.engine import Farlander
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _finished_record() -> dict[str, Any]:
    game = Farlander(2, seed=1)
    rng = Rng(1)
    while not game.is_over():
        game.apply(game.random_action(rng))
    return game.to_record()


def test_games_beyond_the_bound_are_freed_finished_ones_first() -> None:
    server = RulesServer(max_games=3, clock=Clock())
    first = server.handle({"cmd": "new", "game": "farlander", "seed": 1})["game_id"]
    finished = server.handle({"cmd": "load", "record": _finished_record()})["game_id"]
    third = server.handle({"cmd": "new", "game": "farlander", "seed": 3})["game_id"]
    assert server.handle({"cmd": "state", "game_id": first})["ok"]  # first is now the most recently used
    fourth = server.handle({"cmd": "new", "game": "farlander", "seed": 4})["game_id"]
    assert set(server.games) == {first, third, fourth}  # the finished game went, not the oldest
    fifth = server.handle({"cmd": "new", "game": "farlander", "seed": 5})["game_id"]
    assert set(server.games) == {first, fourth, fifth}  # then the least recently used
    gone = server.handle({"cmd": "state", "game_id": third})
    assert not gone["ok"] and gone["error"]["kind"] == "NoGame" and "is closed" in gone["error"]["message"]
    assert "load its record again" in gone["error"]["message"]


def test_idle_games_are_freed_when_the_next_one_comes() -> None:
    clock = Clock()
    server = RulesServer(max_games=10, idle_seconds=60, clock=clock)
    idle = server.handle({"cmd": "new", "game": "farlander", "seed": 1})["game_id"]
    clock.now = 50
    busy = server.handle({"cmd": "new", "game": "farlander", "seed": 2})["game_id"]
    clock.now = 100
    assert server.handle({"cmd": "legal", "game_id": busy})["ok"]
    clock.now = 120
    server.handle({"cmd": "new", "game": "farlander", "seed": 3})
    assert idle not in server.games and busy in server.games


def test_a_long_session_holds_at_most_the_bound() -> None:
    server = RulesServer()
    for seed in range(MAX_GAMES * 3):
        assert server.handle({"cmd": "new", "game": "farlander", "seed": seed})["ok"]
        assert len(server.games) <= MAX_GAMES
    assert len(server.games) == MAX_GAMES and server.last_id == MAX_GAMES * 3


def _records() -> list[tuple[str, dict[str, Any], int]]:
    """(name, record, index of its first shuffle / seat order) of a Mainland and a Landover game."""
    out = []
    for cls, kind in ((Mainland, "shuffle"), (Landover, "seat_order")):
        game = cls(cls.min_players, None, 3)
        rng = Rng(3)
        for _ in range(20):
            game.apply(game.random_action(rng))
        record = game.to_record()
        index = next(i for i, entry in enumerate(record["log"]) if entry.get("chance") == kind)
        out.append((f"{cls.name} {kind}", record, index))
    return out


@pytest.mark.parametrize("value", [[None, 0], ["0", 1], [0, "1", 2], [0, [1]], [{"a": 1}, 0], [0.0, 1.5], "01",
                                   {"0": 1}])
def test_wrong_typed_shuffles_and_seat_orders_are_refused_clearly(value: Any) -> None:
    for name, record, index in _records():
        damaged = copy.deepcopy(record)
        damaged["log"][index]["value"] = value
        server = RulesServer()
        answer = server.handle({"cmd": "load", "record": damaged})
        assert not answer["ok"] and answer["error"]["kind"] == "RecordError", (name, answer)
        assert "is not a possible outcome" in answer["error"]["message"] and not server.games
