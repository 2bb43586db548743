"""Mainland's refusals and moves speak the board's words: a spot by its column and row keys
(``x0 y6``), a card's turn in quarter turns, never coordinates in brackets or degrees (issue 33:
"land7 at (0, 6) turned 270 degrees: not here (... (tile (1, 7)))")."""

import re

from tablelight.games.mainland.engine import Mainland
from tablelight.table.face import make_face
from tablelight.table.picker import refusal

COORDINATES = re.compile(r"\(\s*\d+\s*,\s*\d+\s*\)|degree")


def after_camps() -> Mainland:
    game = Mainland(2, seed=1)
    game.apply({"type": "place", "card": "camp", "x": 2, "y": 2, "rotation": 0})
    game.apply({"type": "place", "card": "camp", "x": 7, "y": 7, "rotation": 0})
    return game


def test_a_refused_spot_is_named_as_the_board_names_it():
    game = after_camps()
    face = make_face(game)
    fits = {(c, r) for c, _, _, r in game.placements()}
    refused = None
    spots = [(x, y) for y in range(1, 10) for x in range(1, 10)]  # around the camps
    for (card, rotation), (x, y) in ((f, s) for f in sorted(fits) for s in spots):
        action = {"type": "place", "card": card, "x": x, "y": y, "rotation": rotation}
        words = refusal(game, action)
        if words and "cannot be placed on" in words:
            refused = (action, words)
            break
    # the page chooses the card, the board's column and row keys put the spot there, the page turns it
    action, words = refused
    face.narrow({"type": "place", "card": action["card"]})
    x, y = action["x"], action["y"]
    face.press(face.layout.keys_of("column", x))
    face.press(face.layout.keys_of("row", y))
    assert refused, "no card refused at the cursor for what it covers"
    action, words = refused
    assert "the tile at x" in words and not COORDINATES.search(words), words
    outcome = face.narrow({"type": "place", "card": action["card"], "rotation": action["rotation"]})
    assert f"{action['card']} at x{action['x']} y{action['y']}, turned" in outcome.message or \
        f"{action['card']} at x{action['x']} y{action['y']}, unturned" in outcome.message, outcome.message
    assert "not here" in outcome.message and not COORDINATES.search(outcome.message), outcome.message


def test_a_move_in_the_log_names_its_spot_and_turn_in_the_boards_words():
    game = after_camps()
    face = make_face(game)
    said = face.describe_action(game.log[-1]["action"] if "action" in game.log[-1] else
                                next(e["action"] for e in reversed(game.log) if "action" in e))
    assert said.startswith("places camp") and "at x7 y7, unturned" in said and not COORDINATES.search(said), said
