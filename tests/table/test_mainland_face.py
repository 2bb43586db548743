"""Mainland's lit board: the mini-map's pixels, key presses -> actions, refusals, a game on the SimBoard."""

from __future__ import annotations

import copy
import json

import pytest

from tablelight.cli.main import main
from tablelight.core.errors import SetupError
from tablelight.core.rng import Rng
from tablelight.games.mainland.engine import BOARD_SIZES, Mainland
from tablelight.games.mainland.data import turn_name
from tablelight.paths import HARDWARE
from tablelight.sim.board import layout_settings
from tablelight.table.face import BLINK, FLASH, OFF, PULSE, SOLID, face_class, make_face
from tablelight.games.mainland.face import (
    BEYOND_LIMIT,
    CLAN_COLORS,
    EMPTY_SPOT,
    MAINLAND_LEVEL,
    TILE_LEVEL,
    MainlandFace,
    scaled,
)
from tablelight.table.layout import LayoutError, load_layout_data
from tablelight.table.service import Table
from tablelight.table.store import GameStore
from tablelight.wire import format as wire


def face_for(game: Mainland) -> MainlandFace:
    face = make_face(game)
    assert isinstance(face, MainlandFace)
    return face


def key(face: MainlandFace, role: str, value: int = 0) -> int:
    return face.layout.keys_of(role, value)


def press_all(face: MainlandFace, *roles: str | tuple[str, int]):
    outcome = None
    for role in roles:
        outcome = face.press(key(face, *role) if isinstance(role, tuple) else key(face, role))
    return outcome


def after_camps(seed: int = 1) -> Mainland:
    """A 2-clan game where both camps are down (seat 0 to play a hand card)."""
    game = Mainland(2, seed=seed)
    game.apply({"type": "place", "card": "camp", "x": 2, "y": 2, "rotation": 0})
    game.apply({"type": "place", "card": "camp", "x": 7, "y": 7, "rotation": 0})
    assert game.current_seat() == 0
    return game


def state(face: MainlandFace) -> tuple:
    return (face.card, face.rotation, face.x, face.y, face.armed, face.game.to_record())


# ------------------------------------------------------------------------------ the layout


def test_the_layout_shows_every_default_board_and_is_registered():
    data = load_layout_data("mainland")
    assert data["leds"] == 16 * 16 + 4 * 7 == 284 <= wire.MAX_LEDS  # past 255: wide LED numbers
    for players in (2, 3, 4):  # 12x12, 14x14, 16x16: each player count's default board fits
        assert face_for(Mainland(players, seed=0)).game.size == BOARD_SIZES[players] <= 16
    face = face_for(Mainland(4, seed=0))
    leds = [led for row in face.layout.cell_leds for led in row]
    assert sorted(leds) == list(range(256))
    # Serpentine wiring: row 1 runs right to left; the status LEDs follow the matrix.
    assert face.layout.cell_leds[0][:2] == [0, 1] and face.layout.cell_leds[1][:2] == [31, 30]
    assert face.layout.cell_leds[15][0] == 255 and face.layout.turn_leds == [256, 263, 270, 277]
    status = face.layout.turn_leds + [led for row in face.layout.token_leds for led in row]
    assert sorted(status) == list(range(256, 284))
    assert face_class("mainland") is MainlandFace


def test_the_keys_fit_the_reference_feather_and_the_simulated_keypad():
    """One key per column and row, hand keys and buttons: 47 keys on the Feather's 8 x 7 matrix."""
    data = load_layout_data("mainland")
    face = face_for(Mainland(4, seed=0))
    assert sorted(face.layout.roles) == list(range(data["keys"])) and data["keys"] == 16 + 16 + 5 + 10
    assert [face.layout.roles[k] for k in data["column_keys"]] == [("column", x) for x in range(16)]
    assert [face.layout.roles[k] for k in data["row_keys"]] == [("row", y) for y in range(16)]
    feather = json.loads((HARDWARE / "boards" / "feather_nrf52840.json").read_text())
    rows, columns = data["key_matrix"]["rows"], data["key_matrix"]["columns"]
    assert rows <= len(feather["key_matrix"]["rows"]) and columns <= len(feather["key_matrix"]["columns"])
    assert data["keys"] <= rows * columns
    # The simulated board scans the same pins (it silently drops a matrix it has no pins for).
    settings = layout_settings("mainland")
    assert settings["TL_ROW_PINS"].split(",") == feather["key_matrix"]["rows"][:rows]
    assert settings["TL_COLUMN_PINS"].split(",") == feather["key_matrix"]["columns"][:columns]
    assert (settings["TL_LEDS"], settings["TL_KEYS"]) == ("284", "47")


def test_a_board_larger_than_the_matrix_is_refused_up_front(tmp_path, capsys):
    with pytest.raises(SetupError, match="up to 16x16 tiles, this game's board is 17x17.*--board-size 16 or less") as caught:
        make_face(Mainland(4, {"board_size": 17}, seed=0))
    assert "255" not in str(caught.value) and "protocol" not in str(caught.value)
    assert face_for(Mainland(4, {"board_size": 16}, seed=0)).game.size == 16
    # tablelight play refuses it before a board is opened or anything is stored.
    db = tmp_path / "g.sqlite"
    code = main(["play", "mainland", "--players", "4", "--board-size", "20", "--seats", "bot,bot,bot,bot",
                 "--board", "sim", "--view", "none", "--db", str(db)])
    assert code != 0
    assert "up to 16x16 tiles, this game's board is 20x20" in capsys.readouterr().err
    if db.exists():
        with GameStore(str(db)) as store:
            assert store.games() == []


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.pop("matrix"), "missing matrix"),
        (lambda d: d["token_leds"][2].pop(), "6 LEDs per clan"),
        (lambda d: d["buttons"].pop("gather"), "no gather button"),
        (lambda d: d["hand_keys"].__setitem__(0, d["row_keys"][0]), "key 16 is given two roles"),
        (lambda d: d["turn_leds"].__setitem__(0, 0), "two roles"),
    ],
)
def test_bad_mainland_layouts_are_refused_with_a_reason(damage, message):
    data = copy.deepcopy(load_layout_data("mainland"))
    damage(data)
    with pytest.raises(LayoutError, match=message):
        MainlandFace(Mainland(2, seed=0), data)


# ------------------------------------------------------------------------------ pixels


def test_pixels_of_a_known_board():
    game = after_camps()
    face = face_for(game)
    # Clan 1 gets a larger territory away from its camp: that becomes its Mainland.
    for x in range(0, 6):
        game.set_tile(x, 10, 1, "plain")
    pixels = face.pixels()
    cell = face.layout.cell_leds
    green, frozen = CLAN_COLORS[0], CLAN_COLORS[1]
    # Seat 0 acts: its Mainland (the camp) at full, clan 1's tiles dim everywhere.
    assert pixels[cell[2][2]] == scaled(green, MAINLAND_LEVEL)
    assert pixels[cell[7][7]] == scaled(frozen, TILE_LEVEL)
    assert pixels[cell[10][0]] == scaled(frozen, TILE_LEVEL)
    assert pixels[cell[0][0]] == OFF
    # 12x12 board on a 16x16 matrix: the cells beyond the limit glow faint.
    assert pixels[cell[12][0]] == BEYOND_LIMIT and pixels[cell[0][15]] == BEYOND_LIMIT
    assert pixels[cell[15][15]] == BEYOND_LIMIT and pixels[cell[0][12]] == BEYOND_LIMIT
    assert pixels[cell[11][11]] == OFF
    # Turn and tokens.
    turn = face.layout.turn_leds
    assert pixels[turn[0]] == scaled(green, 1.0, PULSE)
    assert pixels[turn[1]][3] == SOLID and 0 < max(pixels[turn[1]][:3]) < 40
    assert pixels[turn[2]] == OFF and pixels[turn[3]] == OFF
    assert all(pixels[led] != OFF for led in face.layout.token_leds[0])
    # Clan 0 passes: clan 1 acts, its Mainland (the row of six) is highlighted, clan 0 has 5 tokens.
    game.apply({"type": "pass"})
    face.reset()
    pixels = face.pixels()
    assert pixels[cell[10][3]] == scaled(frozen, MAINLAND_LEVEL)
    assert pixels[cell[7][7]] == scaled(frozen, TILE_LEVEL)
    assert pixels[cell[2][2]] == scaled(green, TILE_LEVEL)
    assert [pixels[led] == OFF for led in face.layout.token_leds[0]] == [False] * 5 + [True]
    assert pixels[turn[1]][3] == PULSE


def test_the_camp_shows_its_legal_spots_and_itself():
    """Every clan's first card is the camp (no secret): the board shows where it fits."""
    game = Mainland(2, seed=1)
    face = face_for(game)
    spots = face.spots()
    legal = {(y, x) for c, x, y, r in game.placements() if c == "camp" and r == 0}
    assert set(spots) == legal and len(spots) >= 1
    pixels = face.pixels()
    cell = face.layout.cell_leds
    footprint = set(face.footprint(face.x, face.y))
    fits = game.is_legal(face.place_action())
    assert pixels[cell[face.y][face.x]] == (scaled(CLAN_COLORS[0], 1.0, BLINK) if fits else (110, 110, 110, BLINK))
    for y, x in spots:
        led = cell[y][x]
        if led in footprint:
            continue
        owner, _ = game.cell(x, y)
        assert pixels[led] == (EMPTY_SPOT if owner < 0 else scaled(CLAN_COLORS[owner], 0.7, PULSE))


def test_a_hand_card_shows_only_where_the_keys_put_it():
    """A hand card is secret: choosing it leaves the spot where it was, no legal spot pulses, and
    the four tiles at the spot blink in the clan's colour whether it fits there or not (issue 24:
    the pulsing spots named the card in half the cases). The seat's own words say where it fits."""
    game = after_camps()
    face = face_for(game)
    before = face.pixels()
    index = next(i for i, c in enumerate(game.hands[0]) if any(p[0] == c and p[3] == 0 for p in game.placements()))
    card = game.hands[0][index]
    outcome = press_all(face, ("hand", index))
    assert (face.x, face.y) == (5, 5) and face.rotation == 0 and not outcome.refused  # the spot did not jump
    rotation, x, y = next((r, x, y) for c, x, y, r in sorted(game.placements(), key=lambda p: (p[3], p[2], p[1])) if c == card)
    assert f"e.g. at x{x} y{y}, {turn_name(rotation)}" in outcome.message
    cell = face.layout.cell_leds
    blink = scaled(CLAN_COLORS[0], 1.0, BLINK)
    for spot in ((5, 5), (x, y), (9, 0)):
        press_all(face, ("column", spot[0]), ("row", spot[1]))
        pixels = face.pixels()
        footprint = set(face.footprint(*spot))
        assert all(pixels[led] == blink for led in footprint)
        assert all(pixels[led] == before[led] for row in cell for led in row if led not in footprint)
    assert (0, 9, card) not in {(y, x, c) for c, x, y, r in game.placements()}  # (9, 0) does not fit: same look


def test_flashing_leds_and_game_over():
    game = Mainland(2, {"board_size": 8}, seed=3)
    rng = Rng(5)
    while not game.is_over():
        game.apply(game.random_action(rng))
    face = face_for(game)
    pixels = face.pixels(flashing=[face.layout.cell_leds[0][0]])
    assert pixels[face.layout.cell_leds[0][0]] == FLASH
    for seat in range(2):
        assert (pixels[face.layout.turn_leds[seat]][3] == BLINK) == (seat in game.winners())
        assert all(pixels[led] == OFF for led in face.layout.token_leds[seat])
    # Every clan's Mainland is at full brightness.
    for clan in game.clan_scores():
        if clan.mainland is not None:
            x, y = clan.mainland.cells[0]
            assert pixels[face.layout.cell_leds[y][x]] == scaled(CLAN_COLORS[clan.clan], MAINLAND_LEVEL)


# ------------------------------------------------------------------------------ presses


def test_camp_turn_presses_give_the_exact_action():
    game = Mainland(2, seed=1)
    face = face_for(game)
    assert (face.x, face.y) == (5, 5)
    outcome = press_all(face, "right", "down", "down", "rotate", "rotate", "confirm")
    assert outcome.action == {"type": "place", "card": "camp", "x": 6, "y": 7, "rotation": 2}
    assert len(game.log) == 0 or all("action" not in e for e in game.log)  # the face applied nothing
    game.apply(outcome.action)
    face.reset()
    outcome = press_all(face, ("column", 0), ("row", 10), "confirm")
    assert outcome.action == {"type": "place", "card": "camp", "x": 0, "y": 10, "rotation": 0}


def test_hand_card_rotate_move_confirm():
    game = after_camps()
    face = face_for(game)
    card = game.hands[0][0]
    outcome = press_all(face, ("hand", 0))
    assert card in outcome.message
    # Try every rotation and spot the person could reach with the keys: the first legal one is placed.
    target = sorted((r, y, x) for c, x, y, r in game.placements() if c == card)[0]
    rotation, y, x = target
    outcome = press_all(face, *(["rotate"] * ((rotation - face.rotation) % 4)), ("column", x), ("row", y), "confirm")
    assert outcome.action == {"type": "place", "card": card, "x": x, "y": y, "rotation": rotation}
    assert game.is_legal(outcome.action)
    # Arrows move by one; the same hand key again puts the card back.
    before = (face.x, face.y)
    press_all(face, "left" if face.x > 0 else "right")
    assert abs(face.x - before[0]) == 1 and face.y == before[1]
    press_all(face, ("hand", 0))
    assert face.card is None


def test_replace_pass_and_gather():
    game = after_camps()
    face = face_for(game)
    card = game.hands[0][2]
    outcome = press_all(face, ("hand", 2), "replace")
    assert outcome.action == {"type": "replace", "card": card}
    # Pass asks for a second press; confirm completes it, another key calls it off.
    outcome = press_all(face, "pass")
    assert outcome.action is None and not outcome.refused and "again" in outcome.message
    assert press_all(face, "pass").action == {"type": "pass"}
    press_all(face, "pass")
    assert press_all(face, "confirm").action == {"type": "pass"}
    press_all(face, "gather", "up")
    assert face.armed is None
    press_all(face, "gather")
    assert press_all(face, "gather").action == {"type": "gather"}
    press_all(face, "pass")
    assert "called off" in press_all(face, "cancel").message and face.armed is None


def test_refused_presses_flash_say_why_and_change_nothing():
    game = Mainland(2, seed=1)
    face = face_for(game)
    before = state(face)
    for role, reason in (
        (("hand", 0), "your first card is your camp"),
        (("pass", 0), "your first card must be your camp"),
        (("replace", 0), "camp"),
    ):
        outcome = face.press(key(face, *role))
        assert outcome.refused and reason in outcome.message, outcome
        assert state(face) == before
    # Beyond the edge: x and y are 0-10 on a 12x12 board.
    outcome = press_all(face, ("column", 11))
    assert outcome.refused and "leave the board" in outcome.message and "0-10" in outcome.message
    assert outcome.flash == face.footprint(5, 5) and state(face) == before
    unknown = face.press(999)
    assert unknown.refused and "does nothing" in unknown.message
    game.apply({"type": "place", "card": "camp", "x": 5, "y": 5, "rotation": 0})
    face.reset()
    # Clan 1's camp may not overlap: confirm at the same spot is refused by the engine's rule.
    before = state(face)
    outcome = press_all(face, "confirm")
    assert outcome.refused and "empty space" in outcome.message and outcome.action is None
    assert outcome.flash == face.footprint(5, 5) and state(face) == before
    # No card chosen: confirm, rotate and replace ask for a card.
    game.apply({"type": "place", "card": "camp", "x": 0, "y": 0, "rotation": 0})
    face.reset()
    before = state(face)
    for role in ("confirm", "rotate", "replace", "up"):
        outcome = press_all(face, role)
        assert outcome.refused and "choose a card first" in outcome.message
    assert state(face) == before
    hand, deck = list(game.hands[0]), list(game.decks[0])
    game.set_cards(0, hand[:3], hand[3:] + deck)
    outcome = press_all(face, ("hand", 4))
    assert outcome.refused and "your hand holds 3" in outcome.message
    game.set_cards(0, hand, deck)


def test_gather_after_replace_is_refused_by_the_engine():
    game = after_camps()
    face = face_for(game)
    game.apply({"type": "replace", "card": game.hands[0][0]})
    before = state(face)
    outcome = press_all(face, "gather")
    assert outcome.refused and "very start of a turn" in outcome.message
    assert outcome.flash == face.layout.token_leds[0] and state(face) == before


# ------------------------------------------------------------------------------ at a table


def test_a_person_plays_through_the_table_and_a_refused_press_flashes(fake_board):
    game = Mainland(2, seed=1)
    table = Table(game, ["human", "random"], board=fake_board, clock=lambda: 100.0)
    face = table.face
    assert isinstance(face, MainlandFace)
    for role in ("right", "confirm"):
        fake_board.press(key(face, role))
    table.step()
    assert [e["action"] for e in game.log if "action" in e][0] == {"type": "place", "card": "camp", "x": 6, "y": 5, "rotation": 0}
    table.step()  # the bot's camp
    assert game.current_seat() == 0 and "green: your hand: 1 " in table.private_messages[0][-1]
    # The shared screen names no card: the seat is sent to its own screen.
    assert table.messages[-1] == "green: your turn, see your own screen"
    assert not any(card in " ".join(table.messages) for card in game.hands[0])
    # A spot on empty space only: the engine refuses it (a card must overlap one in play).
    x, y = next(
        (x, y) for y in range(11) for x in range(11)
        if all(game.cell(x + dx, y + dy)[0] < 0 for dx in (0, 1) for dy in (0, 1))
    )
    before = game.to_record()
    for role in (("hand", 0), ("column", x), ("row", y), ("confirm", 0)):
        fake_board.press(key(face, *role))
    table.step()
    assert game.to_record() == before
    assert "must overlap at least one card in play" in table.private_messages[0][-1]
    assert all(fake_board.shown[-1][led] == FLASH for led in face.footprint(x, y))
    assert face.card == game.hands[0][0]  # the choice stays: move it and confirm again


def test_bot_game_on_the_simulated_board(tmp_path, capsys, real_board):
    """tablelight play mainland --seats bot,bot --board sim --view none, to the end, stored."""
    pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("starts its own simulated board")
    db = str(tmp_path / "g.sqlite")
    code = main(["play", "mainland", "--seats", "bot,bot", "--board", "sim", "--view", "none", "--seed", "4", "--db", db])
    assert code == 0
    captured = capsys.readouterr()
    assert "(simulated)" in captured.err and "game over" in captured.out
    reference = Mainland(2, seed=4)
    Table(reference, ["strong", "strong"]).run()
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over" and info.game == "mainland"
        assert store.load(info.id).to_record() == reference.to_record()


def test_the_simulated_mini_map_shows_the_game(real_board):
    """The real firmware, told the mini-map over the pty, lights what the face asked for."""
    session_module = pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("starts its own simulated board")
    from tablelight.sim.board import SimBoard

    from tests.e2e.helpers import shows_scene, wait_for

    with SimBoard.start("mainland") as sim:
        session = session_module.BoardSession.open(sim.port)
        try:
            assert session.hello["layout"] == "mainland" and session.hello["leds"] == 284
            game = Mainland(2, seed=6)
            table = Table(game, ["strong", "random"], board=session)
            table.run(max_actions=12)
            wanted = table.face.pixels()
            assert sum(1 for p in wanted[:256] if p[3] == SOLID and max(p[:3]) > 0 and p != BEYOND_LIMIT) >= 20
            wait_for(lambda: shows_scene(sim.pixels(), wanted))
        finally:
            session.close()


def test_a_person_plays_with_the_simulated_board_keys(real_board):
    """Seat 0 presses the simulated board's keys (through the real firmware and the pty) for the
    moves the greedy bot would make: the camp, hand cards moved with the x/y keys, turned and
    confirmed, and replace, gather or pass when it would."""
    session_module = pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("presses keys by program")
    from tablelight.sim.board import SimBoard

    from tests.e2e.helpers import wait_for

    with SimBoard.start("mainland") as sim:
        session = session_module.BoardSession.open(sim.port)
        try:
            game = Mainland(2, seed=8)
            table = Table(game, ["human", "random"], board=session, poll_interval=0.01)
            face = table.face
            assert isinstance(face, MainlandFace)
            advisor = Mainland.make_bot("greedy", 1)
            chosen = []
            while len(chosen) < 8 and not game.is_over():
                if game.current_seat() != 0:
                    table.step()
                    continue
                action = advisor.choose(game)
                kind = action["type"]
                if kind == "place":
                    card = action["card"]
                    keys = [] if card == "camp" else [key(face, "hand", game.hands[0].index(card))]
                    # A hand card starts unturned when it fits that way, else turned as its first fit.
                    turns = [r for c, _, _, r in game.placements() if c == card]
                    start = 0 if card == "camp" or 0 in turns else min(turns)
                    keys += [key(face, "rotate")] * ((action["rotation"] - start) % 4)
                    keys += [key(face, "column", action["x"]), key(face, "row", action["y"]), key(face, "confirm")]
                elif kind == "replace":
                    keys = [key(face, "hand", game.hands[0].index(action["card"])), key(face, "replace")]
                else:
                    keys = [key(face, kind), key(face, "confirm")]
                count = len(game.log)
                for k in keys:
                    sim.press(k)
                wait_for(lambda: (table.step() or len(game.log) > count), timeout=10)
                chosen.append(action)
            played = [e["action"] for e in game.log if e.get("seat") == 0 and "action" in e]
            assert played == chosen
            assert sum(1 for a in chosen if a["type"] == "place") >= 3
        finally:
            session.close()


def test_a_page_choosing_a_hand_card_shows_on_the_board_as_its_hand_key_does():
    """A seat's page chose a card (the seat's own screen): the spot stays where it was and no spot
    pulses, as after its hand key; a spot the page chose shows on that seat's page only (issue 30:
    on the board, the spots a card may take told the card)."""
    game = after_camps()
    face, keyed = face_for(game), face_for(game)
    card = next(c for c in game.hands[0] if any(p[0] == c for p in game.placements()))
    assert not face.narrow({"type": "place", "card": card}).refused
    press_all(keyed, ("hand", game.hands[0].index(card)))
    assert (face.x, face.y) == (5, 5) and face.pixels() == keyed.pixels()
    _, x, y, rotation = next(p for p in game.placements() if p[0] == card)
    assert not face.narrow({"type": "place", "card": card, "rotation": rotation, "x": x}).refused
    assert (face.x, face.y) == (5, 5) and face.pixels() == keyed.pixels()
    assert face.page_spot is not None and face.page_spot[0] == x
