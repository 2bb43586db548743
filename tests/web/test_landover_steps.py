"""Landover on a phone: a corner or a side is chosen as the board's keys choose it, hex first.

The first placement has about 80 possible corners; a seat's page lists the hexes first (each
corner filed under one of its hexes), then the corners of the hex tapped. A hex tapped on the page
is a partial choice the face takes as if that hex's key were pressed (the board blinks the first
corner around it), and a hex key pressed on the board narrows the page the same way.
"""

from __future__ import annotations

from tablelight.games.landover.engine import Landover

from .test_narrowing import listed, narrow, seated


def test_the_first_placement_is_narrowed_by_hex_then_by_corner():
    game = Landover(2, seed=4)
    table, desk = seated(game)
    face, seat = table.face, game.current_seat()
    corners = {a["vertex"] for a in game.legal_actions()}
    page = desk.seat(seat)
    choices = page["choices"]
    assert len(choices) == len(corners) > 60
    assert page["narrowed"] is False  # the placement the phase forces is no key's choice: nothing to start over
    for choice in choices:  # build, piece village, hex H, corner V: V is a corner of H
        kind, piece, hex_step, corner = choice["path"]
        h = choice["values"][2]
        assert hex_step == face.place_words("hex", h)  # "wheat 8 (hex 12)"
        assert (kind, piece, corner) == ("build", "a village", face.place_words("vertex", choice["action"]["vertex"]))
        assert corner.startswith("where ") and corner.endswith(f"(corner {choice['action']['vertex']})")
        assert choice["action"]["vertex"] in face.hex_corners[h]
        assert choice["fields"] == ["type", "piece", "hex_of_vertex", "vertex"] and choice["values"][2] == h
    hexes = {c["path"][2] for c in choices}
    assert len(hexes) <= len(face.layout.hex_led) and len(hexes) * 2 < len(choices)
    # The page taps a hex: it lists every possible corner around it, and the board blinks the first
    h = choices[0]["values"][2]
    around = [v for v in face.hex_corners[h] if v in corners]
    taken, message = narrow(desk, seat, {"type": "build", "piece": "village", "hex_of_vertex": h})
    assert taken and f"(corner {around[0]})" in message and face.corner_words(around[0]) in message
    assert {a["vertex"] for a in listed(desk, seat)} == set(around) and 1 <= len(around) <= 6
    assert {c["path"][2] for c in desk.seat(seat)["choices"]} == {face.place_words("hex", h)}
    assert face.tentative == ("vertex", around[0])
    # ... and the board's confirm takes that corner
    table.press(face.layout.key_of("confirm"))
    table.press(face.layout.key_of("confirm"))
    placed = [e["action"] for e in game.log if "action" in e][-1]
    assert placed == {"type": "build", "piece": "village", "vertex": around[0]}


def test_a_hex_key_on_the_board_narrows_the_page_to_that_hex_and_a_bad_hex_step_is_refused():
    game = Landover(2, seed=4)
    table, desk = seated(game)
    face, seat = table.face, game.current_seat()
    corners = {a["vertex"] for a in game.legal_actions()}
    h = next(h for h in face.layout.hex_led if sum(v in corners for v in face.hex_corners[h]) >= 3)
    table.press(face.layout.key_of("hex", h))
    assert desk.seat(seat)["narrowed"] is True
    assert {a["vertex"] for a in listed(desk, seat)} == {v for v in face.hex_corners[h] if v in corners}
    # A corner filed under a neighbouring hex is listed under this one now: the page follows the keys
    assert {c["path"][2] for c in desk.seat(seat)["choices"]} == {face.place_words("hex", h)}
    record, narrowed = game.to_record(), face.candidates()
    empty = next(x for x in face.layout.keyed_hexes if not any(v in corners for v in face.hex_corners[x]))
    keyless = next(x for x in range(game.hex_count) if x not in face.layout.keyed_hexes)
    for bad in (empty, keyless, 999, "12", None):
        taken, _ = narrow(desk, seat, {"type": "build", "piece": "village", "hex_of_vertex": bad})
        assert not taken, bad
    for step in ("hex_of_edge", "hex_of_nothing", "hex_of_"):
        taken, _ = narrow(desk, seat, {"type": "build", "piece": "village", step: h})
        assert not taken, step
    assert game.to_record() == record and face.candidates() == narrowed  # refusals change nothing
