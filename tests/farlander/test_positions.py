"""A game that starts from a given position (setup "position"): kept in its record, replayed,
undone to; a bad position is refused with one SetupError naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.record import replay
from tablelight.games.farlander.engine import Farlander

from .helpers import make_map, position

EDGES = [("x", "t"), ("y", "t"), ("t", "u")]
HOLDINGS = {"x": (0, 4), "y": (0, 2), "t": (1, 3), "u": (1, 1)}


def test_a_started_position_is_in_the_record_and_replays_and_undoes() -> None:
    game = position(EDGES, HOLDINGS)
    start = game.position()
    assert start == {"phase": "action", "turn": 0, "reserve": [0, 0],
                     "holdings": {"t": [1, 3], "u": [1, 1], "x": [0, 4], "y": [0, 2]}}
    game.apply({"type": "conquer", "target": "t", "moves": {"x": 2, "y": 1}})
    record = game.to_record()
    assert record["position"] == start
    again = replay(record)
    assert again.state() == game.state() and again.position() == game.position()
    game.undo()
    assert game.position() == start


def test_a_distribution_position_goes_on_placing() -> None:
    game = Farlander(2, {}, 0, setup={"map": make_map(EDGES), "position": {
        "phase": "distribution", "turn": 1, "reserve": [1, 1], "holdings": {"x": [0, 1]}}})
    assert game.phase == "distribution" and game.current_seat() == 1
    assert {"type": "place", "territory": "t"} in game.legal_actions()


@pytest.mark.parametrize("start, words", [
    ([], "a position is a JSON object"),
    ({"turn": 0, "holdings": {}, "score": 3}, "unknown field 'score'"),
    ({"turn": 2, "holdings": {}}, "turn must be a seat 0-1"),
    ({"turn": True, "holdings": {}}, "turn must be a seat"),
    ({"turn": 0, "phase": "over", "holdings": {}}, "phase must be distribution or action"),
    ({"turn": 0, "holdings": {"nowhere": [0, 1]}}, "'nowhere', which is not a territory"),
    ({"turn": 0, "holdings": {"x": [0, 6]}}, "'x' must hold [seat 0-1, units 1-5]"),
    ({"turn": 0, "holdings": {"x": [3, 1]}}, "'x' must hold"),
    ({"turn": 0, "holdings": {"x": 1}}, "'x' must hold"),
    ({"turn": 0, "holdings": [], "reserve": [0, 0]}, "holdings must map territory ids"),
    ({"turn": 0, "holdings": {}, "reserve": [0]}, "reserve must list 2 numbers"),
    ({"turn": 0, "holdings": {}, "reserve": [0, 99]}, "reserve must list 2 numbers of units 0-36"),
])
def test_a_bad_position_is_refused_naming_the_field(start: Any, words: str) -> None:
    with pytest.raises(SetupError) as error:
        Farlander(2, {}, 0, setup={"map": make_map(EDGES), "position": start})
    assert words in str(error.value)
