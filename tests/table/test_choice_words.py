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
    assert path == ["place a card", f"castle1: {card_words('castle1')}", "turned a quarter clockwise", "x 3"]


def test_landover_names_its_places_where_players_find_them_with_the_boards_number_after() -> None:
    game = new_game("landover", 2, seed=3)
    face = make_face(game)
    land = [h for h in game.land_hexes() if game.number(h) is not None]
    v = next(v for v in range(game.corner_count) if len(set(game.map.vertex_hexes[v]) & set(land)) == 3)
    met = [face.hex_name(h) for h in game.map.vertex_hexes[v]]
    assert all(name.split()[0] in ("wool", "wood", "ore", "wheat", "clay", "gold") for name in met)
    corner = face.choice_value_words("vertex", v)
    assert corner == f"where {met[0]}, {met[1]} and {met[2]} meet (corner {v})"
    e = next(e for e in range(game.side_count) if set(game.map.edge_vertices[e]) <= set(game.map.hex_vertices[land[0]])
             and len(set(game.map.vertex_hexes[game.map.edge_vertices[e][0]]) & set(game.map.vertex_hexes[game.map.edge_vertices[e][1]])) == 2)
    assert face.choice_value_words("edge", e).startswith("between ") and f"(side {e})" in face.choice_value_words("edge", e)
    assert face.choice_value_words("hex_of_edge", land[0]) == f"{face.hex_name(land[0])} (hex {land[0]})"
    assert face.choice_value_words("piece", "village") == "a village"
    road = {"type": "build", "piece": "road", "edge": e}
    assert face.describe_action(road) == f"builds a road {face.side_words(e)} (side {e})"
    assert "side" not in face.describe_action(road).split("(")[0]  # no board number before the brackets
    assert choice_path(face, [("type", "build"), ("piece", "village"), ("vertex", v)]) == ["build", "a village", corner]
    assert choice_path(face, [("type", "remove_catapult")]) == ["remove a catapult"]


def test_the_first_step_of_every_games_choices_is_a_players_word_not_the_action_type() -> None:
    raw = {"farlander": "place", "mainland": "place", "landover": "end_turn", "farside": "impact"}
    said = {"farlander": "place a unit", "mainland": "place a card", "landover": "end the turn",
            "farside": "record impact tokens"}
    for name, kind in raw.items():
        face = make_face(new_game(name, 2, seed=3))
        assert choice_path(face, [("type", kind)]) == [said[name]], name


def test_a_face_without_words_of_its_own_gets_the_generic_ones() -> None:
    face = make_face(new_game("farlander", 2, seed=3))
    assert face.choice_value_words("territory", 4) is None
    assert choice_path(face, [("type", "claim"), ("territory", 4)]) == ["claim", "territory 4"]
