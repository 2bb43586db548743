"""The end of the game (FS-80): "Should you continue to play with or without intending to do so, the
game is continued until one player announces the end. The current round is completed." (option
game_end = announced; at_limit, the default, ends the game after the limit's round as before)."""

from __future__ import annotations

import pytest

from tablelight.core import replay
from tablelight.core.errors import IllegalActionError
from tablelight.games.farside.engine import FarsideEncounter
from tests.farside.test_rules_as_written import DUEL, act, roll, started


def round_one_secured(**options: object) -> FarsideEncounter:
    """Objective limit 1: seat 0 secures a zone in round 1 and the round is played to its end."""
    game = started(DUEL, objective_limit=1, **options)
    with pytest.raises(IllegalActionError) as refused:
        act(game, 0, type="announce_end")
    assert refused.value.rule == ("farside.announce.early" if options.get("game_end") == "announced" else "farside.announce.option")
    act(game, 0, type="secure", zone=1)
    for seat in (0, 1):  # seat 0's turn ends, then seat 1's: the round is over
        act(game, seat, type="end_turn")
        act(game, seat, type="done")
        act(game, 1 - seat, type="done")
    return game


def test_at_the_limit_the_game_ends_after_the_round() -> None:
    game = round_one_secured()
    assert game.is_over() and game.state()["end_reason"].startswith("1 mission objectives")


def test_announced_play_goes_on_until_a_player_announces_and_the_round_is_completed() -> None:
    game = round_one_secured(game_end="announced")
    assert not game.is_over() and game.round == 2
    roll(game, 2, 3)
    roll(game, 4, 6)
    act(game, 0, type="command", die=3)
    act(game, 1, type="command", die=6)
    assert game.active == 0
    act(game, 0, type="announce_end")
    with pytest.raises(IllegalActionError, match="already announced"):
        act(game, 0, type="announce_end")
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    assert not game.is_over() and game.active == 1  # the round is completed: seat 1 still plays
    act(game, 1, type="secure", zone=2)
    act(game, 1, type="end_turn")
    act(game, 1, type="done")
    act(game, 0, type="done")
    assert game.is_over() and game.state()["end_reason"] == "seat 0 announced the end; round 2 was completed"
    assert game.state()["end_announced"] == 0 and game.fired["end:announced"] == 1
    again = replay(game.to_record())
    assert again.is_over() and again.scores() == game.scores()
