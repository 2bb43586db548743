"""One choice narrowed from two sides: the board's keys and a seat's page share the face's picker.

Keys pressed through the table narrow the choices the seat's snapshot lists; a partial choice sent
the way a page sends it (``Desk.narrow``, through the table's one door) changes what the board
shows. Positions are reached through public means only (actions applied by the table).
"""

from __future__ import annotations

from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
from tablelight.web.desk import Desk

from .conftest import NoBoard


def seated(game, seats: list[str] | None = None) -> tuple[Table, Desk]:
    table = Table(game, seats or ["human"] * game.players, board=NoBoard())
    desk = Desk(table)
    return table, desk


def narrow(desk: Desk, seat: int, chosen: dict) -> tuple[bool, str]:
    answer = desk.narrow(seat, chosen, len(desk.game.log))
    return answer.done, answer.words


def listed(desk: Desk, seat: int) -> list[dict]:
    return [c["action"] for c in desk.seat(seat)["choices"]]


def test_mainland_keys_narrow_the_page_and_the_page_moves_the_board():
    game = Mainland(2, seed=5)
    table, desk = seated(game)
    face = table.face
    everything = listed(desk, 0)
    assert desk.seat(0)["narrowed"] is False and {a["rotation"] for a in everything} == {0, 1, 2, 3}
    # rotate on the board: the page lists only the camp turned 90 degrees
    table.press(face.layout.keys_of("rotate"))
    turned = listed(desk, 0)
    assert desk.seat(0)["narrowed"] is True
    assert turned and {a["rotation"] for a in turned} == {1} and all(a in everything for a in turned)
    # the page chooses a column: the card on the board jumps there (its footprint blinks in the clan's colour)
    wanted = next(a for a in turned if a["x"] == 3)
    before = table.pixels()
    taken, message = narrow(desk, 0, {"type": "place", "card": "camp", "rotation": 1, "x": 3})
    assert taken and "camp at x3 y" in message
    assert (face.x, face.y, face.rotation) == (3, wanted["y"], 1)
    after = table.pixels()
    corner = face.layout.cell_leds[wanted["y"]][3]
    assert after[corner] != before[corner] and after[corner][:3] == (0, 200, 0)
    # the board's confirm places exactly what the page chose
    table.press(face.layout.keys_of("confirm"))
    assert [e["action"] for e in game.log if "action" in e][-1] == wanted


def test_a_page_choice_no_legal_action_agrees_with_is_refused_and_changes_nothing():
    game = Mainland(2, seed=5)
    table, desk = seated(game)
    record = game.to_record()
    taken, message = narrow(desk, 0, {"type": "place", "card": "camp", "x": 99})
    assert not taken and "no legal action agrees" in message
    assert game.to_record() == record and table.face.candidates() is None
    taken, message = narrow(desk, 1, {"type": "place", "card": "camp"})
    assert not taken and "not your turn" in message
    assert game.to_record() == record and table.face.candidates() is None


def test_mainland_hand_key_narrows_to_that_card_and_a_step_back_widens_again():
    game = Mainland(2, seed=5)
    table = Table(game, ["random", "random"])
    for _ in range(2):
        table.bot_move(game.current_seat())  # both camps, by the bots
    table, desk = seated(game)
    seat = game.current_seat()
    face = table.face
    card = next(c for c in game.hands[seat] if any(p[0] == c for p in game.placements()))
    table.press(face.layout.keys_of("hand", game.hands[seat].index(card)))
    narrowed = listed(desk, seat)
    assert narrowed and all(a.get("card") == card for a in narrowed)
    assert {a["type"] for a in narrowed} <= {"place", "replace"}
    # back on the page to the type step: the board drops the card, the page lists everything again
    taken, _ = narrow(desk, seat, {"type": "place"})
    assert taken and face.card is None and desk.seat(seat)["narrowed"] is False
    assert len(listed(desk, seat)) > len(narrowed)


def test_farside_menu_keys_narrow_the_page_and_the_page_opens_a_choice():
    game = FarsideEncounter(2, {"dice": "press"}, seed=1)
    table, desk = seated(game)
    while game.phase != "action":  # setup and command through the engine's own legal actions
        table.apply(game.legal_actions()[0])
    seat = game.current_seat()
    everything = listed(desk, seat)
    face = table.face
    table.press(next(key for key, role in face.layout.key_role.items() if role == ("button", "spend")))
    spend = listed(desk, seat)
    assert spend and len(spend) < len(everything) and {a["type"] for a in spend} <= {"activate", "secure"}
    impact = next(a for a in everything if a["type"] == "impact")
    taken, message = narrow(desk, seat, {"type": "impact", "model": impact["model"]})
    assert taken and face.menu == "impact"  # the menu the impact key opens: it pulses on the console
    assert listed(desk, seat) and all(a["type"] == "impact" and a["model"] == impact["model"] for a in listed(desk, seat))
    assert face.choices[face.index]["model"] == impact["model"]


def test_landover_page_step_sets_the_mode_the_board_shows():
    game = Landover(2, seed=4)
    table, desk = seated(game)
    village = next(a for a in game.legal_actions() if a["type"] == "build" and a["piece"] == "village")
    taken, _ = narrow(desk, 0, village)
    assert taken and table.face.candidates() == [village]
    taken, _ = narrow(desk, 0, {})
    assert taken and table.face.chosen == {}
