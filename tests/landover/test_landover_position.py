"""A Landover game started from a documented position (games/landover/position.py): what it sets,
that the record keeps it (replay, undo, save), and one clear SetupError per bad field."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.record import replay
from tablelight.games.landover.engine import CITY, MAIN, ROLL, Landover

from .helpers import force, hand, inland_corner, main_game, pieces, spare_corners
from .test_landover_rules import roll


def start(players: int = 2, **position: Any) -> Landover:
    return Landover(players, {"map_numbers": "fixed"}, 3, setup={"position": position})


def test_the_position_sets_the_turn_hands_cards_culture_and_pieces() -> None:
    board = main_game()
    v = inland_corner(board)
    far = spare_corners(board, 1, avoid=(v,))[0]
    game = start(
        order=[1, 0], seat=1, dice={"white": 2, "red": 5, "event": "science"},
        hands=[{"ore": 2}, {"wool": 1, "coin": 3}], dev_cards=[["spy"], []],
        culture=[{}, {"politics": 2}], military=[1, 0], vp_cards=[0, 1], barbarians=4,
        pieces=pieces(0, "village", [far]) + pieces(1, "city", [v]) + pieces(1, "wall", [v]),
        metros={"politics": v},
    )
    assert game.pos.phase == MAIN and game.current_seat() == 1 and game.pos.order == [1, 0] and game.pos.dice["red"] == 5
    assert game.pos.hands[0] == hand(ore=2) and game.pos.hands[1] == hand(wool=1, coin=3)
    assert game.pos.dev_cards == [["spy"], []] and game.pos.culture[1] == [0, 0, 2] and game.pos.military == [1, 0]
    assert game.pos.barbarians == 4 and game.pos.corner_level[v] == CITY and game.pos.corner_wall[v]
    assert game.pos.metro_owner[2] == 1 and game.pos.corner_metro[v] == 2
    assert game.vp(1) == 2 + 2 + 1 and game.vp(0) == 1  # city, metro, a point card; a village
    assert not any(e.get("chance") == "seat_order" for e in game.log)  # the order was given


def test_without_an_order_the_seats_are_drawn_and_the_first_acts() -> None:
    game = start(3, phase="roll")
    assert game.log[0]["chance"] == "seat_order" and game.current_seat() == game.pos.order[0]
    assert game.pos.phase == ROLL and {"type": "roll"} in game.legal_actions()


def test_the_record_keeps_the_position_so_replay_undo_and_load_work() -> None:
    v = inland_corner(main_game())
    position = {"pieces": pieces(0, "village", [v]), "hands": [{"ore": 3}, {"wool": 4}], "dev_cards": [["crane"], []]}
    game = main_game(position=position)
    record = game.to_record()
    assert record["position"]["pieces"] == [{"seat": 0, "piece": "village", "at": v, "home": True}]
    assert record["position"]["hands"] == [{"ore": 3}, {"wool": 4}]
    game.apply({"type": "play", "card": "crane"})
    force(game, ("white_die", 2), ("red_die", 3), ("event_die", 1))
    game.apply({"type": "end_turn"})  # from format 4 seat 1's turn waits for its roll: two actions to undo
    again = replay(game.to_record())
    assert again.state() == game.state() and again.pos.corner_owner[v] == 0 and again.pos.hands[1] == hand(wool=4)
    assert Landover.load(game.save()).state() == game.state()
    game.undo()
    game.undo()
    assert game.state() == main_game(position=position).state()
    roll(game, 1, 1)
    assert replay(game.to_record()).state() == game.state()


@pytest.mark.parametrize("position, named", [
    ([], "a Landover position is a JSON object"),
    ({"hand": []}, "unknown field 'hand'"),
    ({"order": [0, 0]}, "order must list the seats 0-1"),
    ({"phase": "setup"}, "phase must be main, roll or take"),
    ({"seat": 2}, "seat must be a seat 0-1"),
    ({"seat": True}, "seat must be a seat 0-1"),
    ({"dice": {"white": 7, "red": 1, "event": "science"}}, "dice must be"),
    ({"turns": 1000}, r"turns must be 0-999 \(the turn cap"),
    ({"fleet": ["wool", "wool"]}, "fleet must list card kinds"),
    ({"free_routes": -1}, "free_routes must be a whole number"),
    ({"crane": "no"}, "crane must be true or false"),
    ({"lucky_raid": True, "dice": {"white": 1, "red": 2, "event": "science"}}, "lucky_raid is open only"),
    ({"phase": "take"}, "taking is given in phase take, and only then"),
    ({"taking": {"card": "spy", "target": 1}}, "taking is given in phase take, and only then"),
    ({"phase": "take", "taking": {"card": "wedding", "target": 1}}, "taking must be"),
    ({"phase": "take", "taking": {"card": "spy", "target": 0}}, "taking's target is another seat"),
    ({"revealed": [{"hex": 2, "tile": 0}]}, "revealed must list {'hex': a mystery hex"),
    ({"numbers": [5]}, "numbers must list one token per hex"),
    ({"numbers_before_anarchy": "5"}, "numbers_before_anarchy must list one token per hex"),
    ({"catapults": [0, None]}, "catapults of seat 0 is not valid"),
    ({"merchant": {"seat": 0, "hex": 0}}, "the merchant stands on a resource hex next to its seat's settlement"),
    ({"merchant": {"seat": 3, "hex": 0}}, "merchant must be"),
    ({"longest_route": 0}, "seat 0 cannot hold longest_route"),
    ({"port_authority": "0"}, "port_authority must be a seat 0-1 or null"),
    ({"defender": [0, 100]}, "defender of seat 1 is not valid"),
    ({"decks": {"science": ["spy"]}}, "the science deck holds cards of its own deck"),
    ({"decks": {"science": ["printer", "printer"]}}, "the science deck holds cards of its own deck"),
    ({"barbarian_delay": -1}, "barbarian_delay must be a whole number"),
    ({"raided": 1}, "raided must be true or false"),
    ({"pieces": {}}, "pieces must be a list"),
    ({"pieces": [{"seat": 0, "piece": "castle", "at": 3}]}, r"pieces\[0\]: piece must be one of"),
    ({"pieces": [{"seat": 0, "piece": "road", "at": 10**6}]}, r"pieces\[0\]: at must be a side"),
    ({"pieces": [{"seat": 5, "piece": "village", "at": 3}]}, r"pieces\[0\]: seat must be"),
    ({"pieces": [{"seat": 0, "piece": "village", "at": 3, "home": "yes"}]}, r"pieces\[0\]: home must be"),
    ({"pieces": [{"seat": 0, "piece": "village", "at": 3}, {"seat": 1, "piece": "village", "at": 3}]},
     "corner 3 holds two settlements"),
    ({"pieces": [{"seat": 0, "piece": "wall", "at": 3}]}, "a wall goes on one of the seat's own cities"),
    ({"metros": {"science": 3}}, "the science metro must stand on a city"),
    ({"hands": [{"wool": 1}]}, r"hands must list one entry per seat \(2\)"),
    ({"hands": [{"gold": 1}, {}]}, "hands of seat 0 is not valid"),
    ({"hands": [{}, {"wool": -1}]}, "hands of seat 1 is not valid"),
    ({"dev_cards": [["joker"], []]}, "dev_cards of seat 0 is not valid"),
    ({"culture": [{"science": 7}, {}]}, "culture of seat 0 is not valid"),
    ({"military": [0, "1"]}, "military of seat 1 is not valid"),
    ({"vp_cards": [0]}, "vp_cards must list one entry per seat"),
    ({"barbarians": 7}, "barbarians must be 0-6"),
])
def test_a_bad_position_is_one_setup_error_naming_the_field(position: Any, named: str) -> None:
    with pytest.raises(SetupError, match=named):
        Landover(2, None, 1, setup={"position": position})


JUNK: list[Any] = [
    True, "x", [], {}, [{}], [[]], -1, 10**9, [True, True], [None, None], {"a": {}}, [[{}], [{}]],
    [{"hex": True, "tile": 0}], {"seat": 0, "hex": True}, {"science": ["crane", {}]}, [["x"], {}],
]


def test_junk_in_any_field_is_a_setup_error_and_nothing_else() -> None:
    from tablelight.games.landover.position import KEYS

    for field in KEYS:
        for junk in JUNK:
            try:
                Landover(2, None, 1, setup={"position": {field: junk}})
            except SetupError as error:
                assert str(error).startswith("position:"), (field, junk, error)
