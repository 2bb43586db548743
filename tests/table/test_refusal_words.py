"""A refused choice names seats as players do, by colour: the engines keep their seat numbers.

The engines say why an action is illegal with seat numbers ("seat 0 places a village now"), the
words records and replays keep; what a player reads of a refusal (the answer to the page, the
seat's own screen, the shared screen) names the seat by its colour (``GameFace.seats_in_words``).
"""

from __future__ import annotations

from tablelight.core.errors import IllegalActionError
from tablelight.core.registry import new_game
from tablelight.games.landover.engine import Landover
from tablelight.table.face import make_face
from tablelight.table.intents import Choose
from tablelight.table.service import Table
from tablelight.web.desk import Desk

from ..web.conftest import NoBoard


def test_an_engines_refusal_reaches_the_player_with_the_seat_by_colour_and_the_engine_keeps_its_number() -> None:
    game = Landover(2, seed=4)
    table = Table(game, ["human", "human"], board=NoBoard())
    desk = Desk(table)
    seat = game.current_seat()
    assert seat is not None and game.phase == "setup"
    record = game.to_record()
    road = {"type": "build", "piece": "road", "edge": 3}  # the setup asks for a village first
    answer = table.handle(Choose(road, seat=seat, at=len(game.log)))
    colour = table.seat_label(seat)
    assert not answer.done and answer.rule == "landover.setup.order"
    assert answer.words.startswith(f"{colour} places a village now") and "seat " not in answer.words
    assert table.private_messages[seat][-1] == answer.words == desk.seat(seat)["feedback"]
    assert game.to_record() == record  # nothing changed
    try:  # the engine's own words (records, replays) keep the number
        game.apply(road)
    except IllegalActionError as error:
        assert error.message.startswith(f"seat {seat} places a village now")
    else:  # pragma: no cover
        raise AssertionError("the engine took a road before the village")


def test_every_face_names_the_seats_of_an_engines_words_by_colour() -> None:
    farside = make_face(new_game("farside", 2, seed=1))
    assert farside.seats_in_words("seat 1 already used the manoeuvre die this round") == (
        "blue already used the manoeuvre die this round")
    landover = make_face(new_game("landover", 3, seed=1))
    assert landover.seats_in_words("seat 2 holds no 'wool'") == "green holds no 'wool'"
    assert landover.seats_in_words("it is seat 0's turn, not seat 1's") == "it is red's turn, not blue's"
    assert landover.seats_in_words("a seat 12 away; seats 1") == "a seat 12 away; seats 1"  # no such seat: as it was
