"""A seat's page labels each step of a choice in the game's own words, which the game's face
gives (``GameFace.choice_value_words``): the page's code names no game."""

from __future__ import annotations

from tablelight.core.registry import new_game
from tablelight.games.mainland.face import card_words
from tablelight.table.face import make_face
from tablelight.web.desk import choice_path


def test_mainland_names_a_card_by_its_tiles() -> None:
    face = make_face(new_game("mainland", 2, seed=3))
    assert face.choice_value_words("card", "castle1") == f"castle1: {card_words('castle1')}"
    assert face.choice_value_words("card", "camp") == "camp"
    assert face.choice_value_words("x", 3) is None
    path = choice_path(face, [("type", "place"), ("card", "castle1"), ("rotation", 1), ("x", 3)])
    assert path == ["place", f"castle1: {card_words('castle1')}", "turned 90 degrees", "x 3"]


def test_landover_names_its_places_as_its_board_does() -> None:
    face = make_face(new_game("landover", 2, seed=3))
    assert face.choice_value_words("vertex", 14) == "corner 14"
    assert face.choice_value_words("hex_of_edge", 5) == "hex 5"
    assert choice_path(face, [("type", "settle"), ("vertex", 14)]) == ["settle", "corner 14"]


def test_a_face_without_words_of_its_own_gets_the_generic_ones() -> None:
    face = make_face(new_game("farlander", 2, seed=3))
    assert face.choice_value_words("territory", 4) is None
    assert choice_path(face, [("type", "claim"), ("territory", 4)]) == ["claim", "territory 4"]
