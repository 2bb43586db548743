"""The start of a turn tells the others nothing of the seat's hand (record format 4).

Until format 4 a turn waited for the seat to roll only when it held an alchemist (the one card
played before the roll); every other turn rolled at once. So everyone saw, from the phase, the log
and the dice, which seat held an alchemist. From format 4 every turn begins in the roll phase; the
seat rolls (a bot at once) or plays its alchemist. Older records keep the automatic roll.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.record import replay
from tablelight.core.rng import Rng
from tablelight.core.serve import RulesServer
from tablelight.games.landover.engine import LUCKY, MAIN, ROLL, Landover

HOLDER = 1
OTHERS = (0, 2)


def turn_of_holder(card: str, record_format: int | None = None) -> Landover:
    """Seat 0 ends its turn and seat 1's begins; seat 1 holds one development card, ``card`` (a new
    game's record format unless ``record_format``)."""
    position = {"order": [0, 1, 2], "dice": {"white": 1, "red": 2, "event": "barbarian"},
                "dev_cards": [[], [card], []]}
    game = Landover(3, {"map_numbers": "fixed"}, 5, record_format=record_format, setup={"position": position})
    game.apply({"type": "end_turn"})
    return game


def seen_by(game: Landover, seat: int) -> Any:
    """What ``seat`` sees: its view and log, and its ``rules serve`` state and listing."""
    server = RulesServer()
    assert server.handle({"cmd": "load", "record": game.to_record()})["ok"]
    state = server.handle({"cmd": "state", "as_seat": seat})
    legal = server.handle({"cmd": "legal", "as_seat": seat})
    return game.view(seat), list(game.view_log(seat)), state, legal


def test_the_turn_starts_the_same_whether_or_not_the_seat_holds_an_alchemist() -> None:
    holder, other = turn_of_holder("alchemist"), turn_of_holder("crane")
    for seat in OTHERS:
        assert seen_by(holder, seat) == seen_by(other, seat), f"seat {seat} tells the hands apart"
    assert holder.pos.phase == other.pos.phase == ROLL
    assert holder.current_seat() == other.current_seat() == HOLDER


def test_the_seat_without_an_alchemist_may_only_roll() -> None:
    holder, other = turn_of_holder("alchemist"), turn_of_holder("crane")
    assert other.legal_actions() == [{"type": "roll"}]
    assert len(holder.legal_actions()) == 37 and {"type": "roll"} in holder.legal_actions()
    other.apply({"type": "roll"})
    assert other.pos.phase in (MAIN, LUCKY) and other.pos.dice


@pytest.mark.parametrize("record_format", [1, 2, 3])
def test_older_records_keep_the_automatic_roll(record_format: int) -> None:
    assert turn_of_holder("alchemist", record_format).pos.phase == ROLL
    assert turn_of_holder("crane", record_format).pos.phase in (MAIN, LUCKY)


def test_new_games_roll_on_every_turn_and_replay_from_their_records() -> None:
    game = Landover(2, {"turn_cap": 60}, 3)
    assert game.record_format == 4
    rng, rolls, turns = Rng(3), 0, 0
    while not game.is_over():
        if game.pos.phase == ROLL:
            turns += 1
        action = game.random_action(rng)
        rolls += action["type"] == "roll"
        game.apply(action)
    assert turns >= 50 and rolls >= 40  # every turn after the setup waited for its roll
    assert replay(game.to_record()).to_record() == game.to_record()
