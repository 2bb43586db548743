"""Taking over a secured zone (option secure_takeover, record format 5): "The enemy could take over
(following the same process and instead placing his token) to receive a point instead"."""

from __future__ import annotations

import pytest

from tablelight.core import replay
from tablelight.games.farside.engine import FarsideEncounter
from tests.farside.test_rules_as_written import DUEL, act, started


def taken_over(**options: object) -> FarsideEncounter:
    """Seat 0 secures zone 1 with its one action point; then seat 1 takes it over."""
    game = started(DUEL, **options)
    act(game, 0, type="secure", zone=1)
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    assert game.active == 1 and game.phase == "action"
    act(game, 1, type="secure", zone=1)
    return game


def test_a_takeover_moves_the_zones_point_to_the_new_holder() -> None:
    game = taken_over()
    assert game.secured == {1: 1}
    assert [o["secure"] for o in game.objectives] == [0, 1]
    assert game.total_objectives() == 1  # a zone traded back and forth never adds up to the limit


def test_the_other_reading_adds_a_point_and_the_old_holder_keeps_its_own() -> None:
    game = taken_over(secure_takeover="adds")
    assert [o["secure"] for o in game.objectives] == [1, 1]
    assert game.total_objectives() == 2


@pytest.mark.parametrize("option", ["moves", "adds"])
def test_records_before_format_5_keep_adding(option: str) -> None:
    game = taken_over(secure_takeover=option, record_format=4)
    assert [o["secure"] for o in game.objectives] == [1, 1]
    again = replay(game.to_record())
    assert again.record_format == 4 and again.objectives == game.objectives


def test_a_format_5_record_replays_with_its_reading() -> None:
    for option, counts in (("moves", [0, 1]), ("adds", [1, 1])):
        record = taken_over(secure_takeover=option).to_record()
        assert record["format"] == 5 and record["options"]["secure_takeover"] == option
        assert [o["secure"] for o in replay(record).objectives] == counts
