"""Landover's lit board: the layout, what the LEDs show, and key presses -> the engine's actions."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tablelight.cli.main import main
from tablelight.core.rng import Rng
from tablelight.games.landover.hexmap import builtin_map
from tablelight.games.landover.engine import Landover
from tablelight.core.registry import game_entry
from tablelight.table.face import BLINK, FLASH, OFF, PULSE, SOLID, make_face
from tablelight.games.landover.choice import FIELD_KINDS
from tablelight.games.landover.face import LandoverFace
from tablelight.games.landover.layoutgen import generate_layout, sea_key_hexes
from tablelight.games.landover.look import (
    BARBARIAN_ON,
    HEX_LEVEL,
    RED_DIE,
    TERRAIN_COLORS,
    VILLAGE_LEVEL,
    WHITE_DIE,
    pale,
)
from tablelight.table.face import SEAT_COLORS, scaled
from tablelight.table.layout import LayoutError, layout_path, load_layout_data
from tablelight.table.service import Table
from tablelight.table.store import GameStore


_LAYOUT: list[dict[str, Any]] = []


def layout() -> dict[str, Any]:
    """The board's layout (read once: every test gets its own deep copy)."""
    if not _LAYOUT:
        _LAYOUT.append(load_layout_data("landover"))
    return copy.deepcopy(_LAYOUT[0])


def face_for(game: Landover) -> LandoverFace:
    if not _LAYOUT:
        layout()
    return LandoverFace(game, _LAYOUT[0])  # faces only read their layout


def play(game: Landover, actions: int, seed: int = 1) -> Landover:
    rng = Rng(seed)
    for _ in range(actions):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    return game


def until(game: Landover, wanted: Any, seed: int = 1, limit: int = 20000) -> Landover:
    rng = Rng(seed)
    for _ in range(limit):
        if wanted(game):
            return game
        game.apply(game.random_action(rng))
    raise AssertionError("state not reached")


# ------------------------------------------------------------------------------ layout


def test_the_layout_file_is_the_generator_output_for_the_built_in_map():
    stored = json.loads(layout_path("landover").read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(generate_layout(builtin_map("archipelago"))))


def test_the_board_fits_the_wide_protocol_and_the_key_matrix():
    data = layout()
    # More than 255 LEDs: wide LED numbers (CAP_WIDE, firmware 1.1.0), which drive up to 760.
    assert data["leds"] == 348 and 255 < data["leds"] <= 760
    assert data["keys"] == 92
    rows, columns = data["key_matrix"]["rows"], data["key_matrix"]["columns"]
    assert rows * columns >= data["keys"]
    assert rows <= 10 and columns <= 10 and rows + columns <= 20  # the Feather's 20 free pins
    # The simulated board wires the whole matrix to its fake keypad pins (it drops a matrix it cannot).
    from tablelight.sim.board import layout_settings

    settings = layout_settings("landover")
    assert settings["TL_LEDS"] == "348" and settings["TL_KEYS"] == "92"
    assert len(settings["TL_ROW_PINS"].split(",")) == rows and len(settings["TL_COLUMN_PINS"].split(",")) == columns


def test_every_land_hex_corner_and_every_side_has_a_light_and_every_water_side_a_key_next_to_it():
    game = Landover(4, seed=1)
    face = face_for(game)
    m = game.map
    land = [h for h in range(game.hex_count) if m.hex_island[h] >= 0]
    water = [h for h in range(game.hex_count) if m.hex_island[h] < 0]
    assert sorted(face.layout.hex_led) == land
    assert sorted(face.layout.corner_led) == sorted({v for h in land for v in m.hex_vertices[h]})
    # Every side of the map (land, coast, water) has its own LED: every road and bridge shows.
    assert sorted(face.layout.side_led) == list(range(game.side_count))
    assert len(set(face.layout.side_led.values())) == game.side_count
    water_sides = [e for e in range(game.side_count) if m.edge_kind[e] == 1]
    assert len(water_sides) == 101
    # The sea keys sit on water hexes, and every water side is a side of one of them.
    sea = set(face.layout.sea_key)
    assert sea <= set(water) and len(sea) == 27
    for e in water_sides:
        assert any(e in face.hex_sides[h] for h in sea), e
    # Land and coast sides are sides of a land hex (their key).
    assert all(any(e in face.hex_sides[h] for h in land) for e in range(game.side_count) if m.edge_kind[e] != 1)
    # No sea key is spare: each is the only one next to some water side.
    for h in sea:
        assert any(all(e not in face.hex_sides[o] for o in sea - {h}) for e in face.hex_sides[h] if m.edge_kind[e] == 1), h
    assert sea_key_hexes(m) == sorted(sea)


def test_the_drawing_puts_each_corner_where_its_hexes_meet():
    data = layout()
    m = builtin_map("archipelago")
    at = {item["led"]: item for item in data["drawing"]["leds"]}
    hex_centre = {}
    for item in data["hexes"]:
        points = at[item["led"]]["points"]
        hex_centre[item["hex"]] = (sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6)
    checked = 0
    for item in data["corners"]:
        hexes = m.vertex_hexes[item["vertex"]]
        if len(hexes) == 3 and all(h in hex_centre for h in hexes):
            x = sum(hex_centre[h][0] for h in hexes) / 3
            y = sum(hex_centre[h][1] for h in hexes) / 3
            cx, cy = at[item["led"]]["at"]
            assert abs(cx - x) < 1e-3 and abs(cy - y) < 1e-3
            checked += 1
    assert checked >= 15
    # A sea key is drawn (as a button) in the middle of its water hex: where its six sides meet around it.
    side_at = {item["edge"]: at[item["led"]]["points"] for item in data["sides"]}
    buttons = {b["key"]: b for b in data["drawing"]["buttons"]}
    for item in data["sea"]:
        corners = m.hex_vertices[item["hex"]]
        around = [e for e, ends in enumerate(m.edge_vertices) if set(ends) <= set(corners)]
        assert len(around) == 6
        points = [p for e in around for p in side_at[e]]
        x, y = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
        button = buttons[item["key"]]
        assert button["label"] == "sea" and abs(button["at"][0] - x) < 1e-3 and abs(button["at"][1] - y) < 1e-3


def test_a_broken_layout_or_another_map_is_refused_with_a_reason():
    data = copy.deepcopy(layout())
    data["corners"][1]["led"] = data["corners"][0]["led"]
    with pytest.raises(LayoutError, match="two roles"):
        LandoverFace(Landover(2, seed=1), data)
    data = copy.deepcopy(layout())
    del data["buttons"]["confirm"]
    with pytest.raises(LayoutError, match="no confirm button"):
        LandoverFace(Landover(2, seed=1), data)
    data = copy.deepcopy(layout())
    data["sea"][0]["hex"] = data["hexes"][0]["hex"]
    with pytest.raises(LayoutError, match="both hexes and sea"):
        LandoverFace(Landover(2, seed=1), data)
    with pytest.raises(Exception, match="--map-name archipelago"):
        LandoverFace(Landover(2, {"map_name": "random"}, seed=1), layout())


def test_the_face_is_registered():
    assert game_entry("landover").face == "tablelight.games.landover.face:LandoverFace"
    assert isinstance(make_face(Landover(2, seed=1)), LandoverFace)


# ------------------------------------------------------------------------------ look


def test_after_a_roll_the_producing_hexes_light_up_and_the_dice_show_it():
    game = until(Landover(3, seed=4), lambda g: g.pos.phase == "main" and g.pos.dice and g.pos.dice["white"] + g.pos.dice["red"] != 7
                 and g.pos.by_number.get(g.pos.dice["white"] + g.pos.dice["red"]))
    face = face_for(game)
    pixels = face.pixels()
    total = game.pos.dice["white"] + game.pos.dice["red"]
    lit = 0
    for h, led in face.layout.hex_led.items():
        if h in game.pos.catapult_at or (h == game.pos.merchant_hex and game.pos.merchant_owner >= 0 and game.pos.number[h] != total):
            continue
        color = TERRAIN_COLORS[game.pos.terrain[h]]
        if game.pos.number[h] == total and game.pos.terrain[h] not in ("water", "mystery"):
            assert pixels[led] == scaled(color, 1.0)
            lit += 1
        else:
            assert pixels[led] == scaled(color, HEX_LEVEL)
    assert lit >= 1
    white, red = face.layout.die_leds["white"], face.layout.die_leds["red"]
    assert [pixels[led] for led in white] == [WHITE_DIE] * game.pos.dice["white"] + [OFF] * (6 - game.pos.dice["white"])
    assert [pixels[led] for led in red] == [RED_DIE] * game.pos.dice["red"] + [OFF] * (6 - game.pos.dice["red"])
    assert pixels[face.layout.event_led][:3] != (0, 0, 0)
    # Ending the turn: the next roll is another one (or, before an alchemist's roll, nothing is lit).
    game.apply({"type": "end_turn"})
    if game.pos.phase == "roll":
        assert game.producing_hexes() == []


def test_pieces_show_in_their_owners_colours():
    game = until(Landover(4, seed=2), lambda g: g.pos.phase == "main")
    face = face_for(game)
    pixels = face.pixels()
    seen = set()
    for v, led in face.layout.corner_led.items():
        owner = game.pos.corner_owner[v]
        if owner < 0:
            assert pixels[led] == OFF
        elif game.pos.corner_level[v] == 1:
            assert pixels[led] == scaled(SEAT_COLORS[owner], VILLAGE_LEVEL)
            seen.add(("village", owner))
        else:
            assert pixels[led] == scaled(SEAT_COLORS[owner], 1.0)
            seen.add(("city", owner))
    assert seen == {(kind, s) for kind in ("village", "city") for s in range(4)}
    roads = [(e, game.pos.side_owner[e]) for e in face.layout.side_led if game.pos.side_route[e] == 1]
    assert len(roads) == 8
    for e, owner in roads:
        assert pixels[face.layout.side_led[e]] == scaled(SEAT_COLORS[owner], 0.5)
    seat = game.current_seat()
    assert pixels[face.layout.turn_leds[seat]] == scaled(SEAT_COLORS[seat], 1.0, PULSE)


def test_catapults_merchant_bridges_and_barbarians():
    """Played until catapults, the merchant, a bridge on an LED past 255 and barbarians are all out:
    catapults blink on their hex in the owner's colour, the merchant's hex pulses and its LED shows
    the owner, bridges are pale, the barbarian track counts."""
    game = Landover(3, seed=7)
    face = face_for(game)
    led = face.layout.side_led

    def bridges(g: Landover) -> list[int]:
        return [e for e in range(g.side_count) if g.pos.side_route[e] == 2]

    until(game, lambda g: g.pos.catapult_at and g.pos.merchant_owner >= 0 and g.pos.barbarians > 0
          and any(led[e] > 255 for e in bridges(g)), seed=2)
    assert not game.is_over()
    pixels = face.pixels()
    for h, owner in game.pos.catapult_at.items():
        assert pixels[face.layout.hex_led[h]] == scaled(SEAT_COLORS[owner], 1.0, BLINK)
    merchant = game.pos.merchant_hex
    if merchant not in game.producing_hexes() and merchant not in game.pos.catapult_at:
        assert pixels[face.layout.hex_led[merchant]] == scaled(SEAT_COLORS[game.pos.merchant_owner], 1.0, PULSE)
    assert pixels[face.layout.merchant_led] == scaled(SEAT_COLORS[game.pos.merchant_owner], 1.0)
    for e in bridges(game):
        assert pixels[led[e]] == scaled(pale(SEAT_COLORS[game.pos.side_owner[e]]), 0.5)
    track = [pixels[led] for led in face.layout.barbarian_leds]
    assert track[:game.pos.barbarians] == [BARBARIAN_ON] * game.pos.barbarians and BARBARIAN_ON not in track[game.pos.barbarians:]


def test_a_walled_city_shows_in_a_pale_owner_colour():
    """Every city in its owner's colour, pale when walled, pulsing when it holds a metro: checked
    at every step of a game of greedy bots until walled cities with and without a metro were seen."""
    game = Landover(2, seed=2)
    bots = [Landover.make_bot("greedy", 20 + seat) for seat in range(2)]
    face = face_for(game)
    seen: set[tuple[bool, bool]] = set()
    while not {(True, False), (True, True)} <= seen and not game.is_over():
        game.apply(bots[game.current_seat()].choose(game))
        pixels = face.pixels()
        for v in range(game.corner_count):
            if game.pos.corner_level[v] != 2:
                continue
            walled, metro = game.pos.corner_wall[v], game.pos.corner_metro[v] >= 0
            owner = SEAT_COLORS[game.pos.corner_owner[v]]
            assert pixels[face.layout.corner_led[v]] == scaled(pale(owner) if walled else owner, 1.0, PULSE if metro else SOLID)
            seen.add((walled, metro))
    assert {(False, False), (True, False), (True, True)} <= seen


def test_the_palette_stays_within_64_colours_while_choosing():
    """Protocol 1 carries at most 64 distinct pixels in a scene."""
    game = Landover(4, seed=9)
    rng = Rng(5)
    worst = 0
    for step in range(3000):
        if game.is_over():
            break
        if step % 50 == 0:
            face = face_for(game)
            for role in ("road", "bridge", "village", "raid", "card"):
                face.reset()
                face.press(face.layout.key_of(role))
                worst = max(worst, len(set(face.pixels([0, 1]))))
        game.apply(game.random_action(rng))
    assert 20 <= worst <= 64


# ------------------------------------------------------------------------------ input


def presses_for(game: Landover, action: dict[str, Any], face: LandoverFace | None = None) -> list[int]:
    """The keys a person presses for ``action`` (every legal action has some).

    Worked out on a face of its own (or ``face``, left with the choice made but not
    confirmed), pressing as a person would and reading only the face's state (which
    corner or side blinks) to know when to stop cycling.
    """
    face = face or face_for(game)
    layout = face.layout
    keys: list[int] = []

    def press(key: int) -> None:
        keys.append(key)
        outcome = face.press(key)
        assert not outcome.refused, outcome.message
        assert outcome.action is None, outcome

    kind = action["type"]
    mode = {"build": action.get("piece"), "improve": action.get("culture"), "play": "card", "lucky_raid": "raid",
            "remove_catapult": "catapult"}.get(kind, kind)
    if game.pos.phase in ("setup", "lucky_raid", "take") or kind == "roll":
        mode = None
    if kind == "play" and action["card"] == "alchemist":
        mode = None  # the die keys choose it before the roll
    if mode == "card":
        for _ in range(12):
            press(layout.key_of("card"))
            if face.card == action["card"]:
                break
    elif mode is not None:
        press(layout.key_of(mode))
    fields = [name for name in FIELD_KINDS if name in action]
    for name in fields:
        value = action[name]
        slot = FIELD_KINDS[name]
        if slot in ("corner", "side"):
            around = face.hex_corners if slot == "corner" else face.hex_sides
            hexes = [h for h in layout.keyed_hexes if value in around[h]]
            assert hexes, f"no key next to {slot} {value}"
            for _ in range(7):
                press(layout.key_of("hex", hexes[0]))
                if face.tentative == (name, value):
                    break
            assert face.tentative == (name, value)
            if name != fields[-1]:
                press(layout.key_of("confirm"))
        elif slot == "hex":
            press(layout.key_of("hex", value))
        elif slot == "hexes":
            for h in value:
                press(layout.key_of("hex", h))
        elif slot == "seat":
            press(layout.key_of("seat", value))
        elif slot in ("kind", "kinds"):
            for item in value if isinstance(value, list) else [value]:
                press(layout.key_of("kind", item))
        elif slot in ("white", "red"):
            press(layout.key_of(slot, value))
        elif slot == "name":
            for _ in range(8):
                press(layout.key_of("card"))
                if face.tentative == (name, value):
                    break
    keys.append(layout.key_of("confirm"))
    return keys


def water_bridge(game: Landover, action: dict[str, Any]) -> bool:
    return action.get("piece") == "bridge" and game.map.edge_kind[action["edge"]] == 1


def check_every_action_by_keys(game: Landover, limit: int = 60) -> tuple[int, int]:
    """For (up to ``limit`` of) the legal actions now, and up to 3 bridges on water sides: the
    presses give exactly that action. Returns (actions checked, of them bridges on water sides)."""
    done = bridges = 0
    actions = game.legal_actions()
    step = max(1, len(actions) // limit)
    sample = actions[::step]
    sample += [a for a in actions if water_bridge(game, a) and a not in sample][:3]
    # While a lucky 7 raid is open the raid key takes it (free) before a paid raid on the same hex.
    sample = [a for a in sample if not (a["type"] == "raid" and {"type": "lucky_raid", "hex": a["hex"]} in actions)]
    record = game.to_record()
    face = face_for(game)
    for action in sample:
        face.reset()
        keys = presses_for(game, action, face)
        outcome = face.press(keys[-1])
        assert outcome.action == action, (action, outcome)
        done += 1
        bridges += water_bridge(game, action)
    assert game.to_record() == record  # choosing never changes the game
    return done, bridges


def test_press_sequences_give_exactly_the_legal_actions_through_a_game():
    game = Landover(3, seed=21)
    rng = Rng(8)
    checked = bridges = 0
    kinds: set[str] = set()
    for step in range(2500):
        if game.is_over():
            break
        if step % 10 == 0 or game.pos.phase in ("setup", "roll", "lucky_raid", "take"):
            done, on_water = check_every_action_by_keys(game, limit=20)
            checked += done
            bridges += on_water
            kinds |= {a["type"] + ":" + str(a.get("piece", a.get("card", ""))) for a in game.legal_actions()}
        game.apply(game.random_action(rng))
    assert checked > 300
    assert bridges >= 20  # bridges on open water, chosen with the sea keys
    assert {"build:village", "build:road", "build:city", "trade:", "end_turn:", "raid:"} <= kinds


def test_building_a_village_by_keys():
    game = until(Landover(2, seed=5), lambda g: g.pos.phase == "main" and any(
        a["type"] == "build" and a["piece"] == "village" for a in g.legal_actions()), seed=2)
    face = face_for(game)
    spot = next(a["vertex"] for a in game.legal_actions() if a.get("piece") == "village")
    layout = face.layout
    assert not face.press(layout.key_of("village")).refused
    pixels = face.pixels()
    seat = game.current_seat()
    assert pixels[layout.corner_led[spot]] == scaled(SEAT_COLORS[seat], 0.6, PULSE)  # a possible corner
    h = next(h for h in layout.hex_led if spot in face.hex_corners[h])
    for _ in range(6):
        face.press(layout.key_of("hex", h))
        if face.tentative == ("vertex", spot):
            break
    assert face.pixels()[layout.corner_led[spot]] == scaled(SEAT_COLORS[seat], 1.0, BLINK)
    outcome = face.press(layout.key_of("confirm"))
    assert outcome.action == {"type": "build", "piece": "village", "vertex": spot}


def test_refused_presses_say_why_flash_and_change_nothing():
    game = until(Landover(2, seed=5), lambda g: g.pos.phase == "main" and g.pos.hands[g.pos.seat][2] < 3)
    face = face_for(game)
    layout = face.layout
    record = game.to_record()

    def state() -> tuple[Any, ...]:
        return (face.mode, face.card, dict(face.chosen), face.tentative)

    before = state()
    # The hand is secret (issue 24): the city button is taken as with any hand (the board shows the
    # villages a city could go on), the cost is said on the seat's own screen, confirm is refused.
    outcome = face.press(layout.key_of("city"))
    assert not outcome.refused and "costs" in outcome.message and face.mode == "city"
    village = face.options("vertex")[0]
    assert not face.press(layout.key_of("hex", face.corner_home[village])).refused
    picked = state()
    corner = picked[3][1]
    outcome = face.press(layout.key_of("confirm"))
    assert outcome.refused and "costs" in outcome.message and outcome.action is None
    assert state() == picked and outcome.flash == [layout.corner_led[corner]]
    assert not face.press(layout.key_of("cancel")).refused and state() == before
    outcome = face.press(layout.key_of("confirm"))
    assert outcome.refused and "nothing to confirm" in outcome.message
    outcome = face.press(layout.key_of("kind", "ore"))
    assert outcome.refused and state() == before
    assert game.to_record() == record
    # A hex with no free corner for a road's side: the engine's reason, the hex flashes (played
    # on until the seat to act may build a road).
    game = until(game, lambda g: g.pos.phase == "main" and any(a.get("piece") == "road" for a in g.legal_actions()))
    face = face_for(game)
    record = game.to_record()
    assert not face.press(layout.key_of("road")).refused
    lonely = next(h for h in layout.hex_led if not set(face.hex_sides[h]) & set(face.options("edge")))
    before = state()
    outcome = face.press(layout.key_of("hex", lonely))
    assert outcome.refused and outcome.flash == [layout.hex_led[lonely]] and state() == before
    assert "must join your own" in outcome.message or "already holds" in outcome.message
    assert face.pixels([layout.hex_led[lonely]])[layout.hex_led[lonely]] == FLASH
    assert face.press(layout.key_of("confirm")).refused  # no side picked yet
    assert game.to_record() == record
    outcome = face.press(1000)
    assert outcome.refused and "does nothing" in outcome.message


def test_a_sea_key_picks_the_bridges_around_its_water_hex_or_flashes_its_outline():
    game = until(Landover(3, seed=21), lambda g: g.pos.phase == "main" and any(
        water_bridge(g, a) for a in g.legal_actions()), seed=8)
    face = face_for(game)
    layout = face.layout
    record = game.to_record()
    bridge = next(a["edge"] for a in game.legal_actions() if water_bridge(game, a))
    sea = next(h for h in layout.sea_key if bridge in face.hex_sides[h])
    assert not face.press(layout.key_of("bridge")).refused
    assert face.pixels()[layout.side_led[bridge]] == scaled(SEAT_COLORS[game.pos.seat], 0.6, PULSE)
    picks = []
    for _ in range(6):
        outcome = face.press(layout.key_of("hex", sea))
        assert not outcome.refused and face.tentative is not None
        picks.append(face.tentative[1])
    assert bridge in picks and set(picks) <= set(face.hex_sides[sea])
    # A sea key with no possible side around it is refused, and the sides of its hex flash.
    options = set(face.options("edge"))
    lonely = next(h for h in layout.sea_key if not options & set(face.hex_sides[h]))
    outcome = face.press(layout.key_of("hex", lonely))
    assert outcome.refused and f"around {face.place_words('hex', lonely)}" in outcome.message and f"(hex {lonely})" in outcome.message
    assert sorted(outcome.flash) == sorted(layout.side_led[e] for e in face.hex_sides[lonely])
    # With nothing chosen a sea key tells what it is.
    face.reset()
    assert "the sea by " in face.press(layout.key_of("hex", lonely)).message
    assert game.to_record() == record


def test_a_person_plays_through_the_table(fake_board):
    game = Landover(2, seed=3)
    table = Table(game, ["human", "random"], board=fake_board, clock=lambda: 100.0)
    face = table.face
    assert isinstance(face, LandoverFace)
    while game.current_seat() != 0:
        table.step()
    village = game.legal_actions()[0]
    for key in presses_for(game, village):
        fake_board.press(key)
    table.step()
    assert [e["action"] for e in game.log if "action" in e and e["seat"] == 0] == [village]
    assert "red: builds a village" in "\n".join(table.messages)
    # The road next: a hex with no side for it is refused, says why and flashes; nothing changes.
    assert game.current_seat() == 0 and game.legal_actions()[0]["piece"] == "road"
    record = game.to_record()
    roads = {a["edge"] for a in game.legal_actions()}
    far = next(h for h in face.layout.hex_led if not set(face.hex_sides[h]) & roads)
    fake_board.press(face.layout.key_of("hex", far))
    table.step()
    assert fake_board.shown[-1][face.layout.hex_led[far]] == FLASH
    assert "no side around " in table.private_messages[0][-1] and "corner just settled" in table.private_messages[0][-1]
    assert game.to_record() == record


def test_master_merchant_takes_cards_chosen_with_the_kind_keys():
    seat, other = 0, 1
    game = Landover(2, seed=5, setup={"position": {  # documented in games/landover/position.py
        "order": [seat, other],
        "dice": {"white": 2, "red": 3, "event": "barbarian"},
        "dev_cards": [["master_merchant"], []],
        "hands": [{}, {"wool": 2, "ore": 1, "cloth": 1}],
        "vp_cards": [0, 4],  # the target must have more points
    }})
    assert game.pos.phase == "main" and game.current_seat() == seat
    plays = [a for a in game.legal_actions() if a.get("card") == "master_merchant"]
    assert plays == [{"type": "play", "card": "master_merchant", "target": other}]
    face = face_for(game)
    keys = presses_for(game, plays[0], face)
    assert face.press(keys[-1]).action == plays[0]
    game.apply(plays[0])
    # Now the player sees the hand (its prompt, its own screen) and takes two cards with the kind keys
    face = face_for(game)
    assert "blue holds 2 wool, 1 ore, 1 cloth" in face.prompt(seat) or "red holds 2 wool, 1 ore, 1 cloth" in face.prompt(seat)
    takes = game.legal_actions()
    assert {tuple(a["cards"]) for a in takes} == {("wool", "wool"), ("wool", "ore"), ("wool", "cloth"), ("ore", "cloth")}
    for action in takes:
        face = face_for(game)
        keys = presses_for(game, action, face)
        assert face.press(keys[-1]).action == action
    assert face.press(face.layout.key_of("end_turn")).refused  # the take comes first


# ------------------------------------------------------------------------------ end to end


def test_bot_game_on_the_simulated_board(tmp_path, capsys, real_board):
    """tablelight play landover --seats bot,bot --board sim --view none, to the end, stored."""
    pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("starts its own simulated board")
    db = str(tmp_path / "g.sqlite")
    code = main(["play", "landover", "--seats", "bot,bot", "--board", "sim", "--view", "none", "--seed", "3",
                 "--target", "10", "--turn-cap", "200", "--db", db])
    assert code == 0
    captured = capsys.readouterr()
    assert "(simulated)" in captured.err and "game over" in captured.out
    reference = Landover(2, {"target": 10, "turn_cap": 200}, seed=3)
    Table(reference, ["greedy", "greedy"]).run()
    assert reference.winners() and max(reference.scores()) >= 10
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over" and info.game == "landover"
        assert store.load(info.id).to_record() == reference.to_record()


def test_the_simulated_board_shows_the_game_past_led_255(real_board):
    """The real firmware (1.1.0, wide LED numbers), told the Landover scene over the pty while two
    random bots play, lights what the face asked for, up to a bridge on open water past LED 255."""
    session_module = pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("starts its own simulated board")
    from tablelight.sim.board import SimBoard
    from tablelight.wire import format as wire

    from tests.e2e.helpers import shows_scene, wait_for

    with SimBoard.start("landover") as sim:
        session = session_module.BoardSession.open(sim.port)
        try:
            hello = session.hello
            assert hello["layout"] == "landover" and hello["leds"] == 348 and hello["caps"] & wire.CAP_WIDE
            game = Landover(2, seed=2)  # its random bots build a bridge past LED 255 early
            table = Table(game, ["random", "random"], board=session)
            face = table.face
            assert isinstance(face, LandoverFace)

            def far_bridges() -> list[int]:
                return [e for e in range(game.side_count)
                        if game.pos.side_route[e] == 2 and game.map.edge_kind[e] == 1 and face.layout.side_led[e] > 255]

            for _ in range(600):
                if far_bridges():
                    break
                table.step()
            (bridge, *_) = far_bridges()
            led = face.layout.side_led[bridge]
            wanted = table.face.pixels()
            assert sum(1 for p in wanted if p[3] == SOLID and max(p[:3]) > 0) >= 30
            assert wanted[led] == scaled(pale(SEAT_COLORS[game.pos.side_owner[bridge]]), 0.5)
            wait_for(lambda: shows_scene(sim.pixels(), wanted), timeout=10)  # after a roll the board holds the dice 3.4 s
            assert max(sim.pixels()[led]) > 0 and max(sim.pixels()[face.layout.turn_leds[0]]) > 0
        finally:
            session.close()


def test_each_new_roll_is_handed_to_the_board_to_animate():
    game = until(Landover(2, seed=11), lambda g: g.pos.phase == "main" and "alchemist" not in g.pos.dev_cards[1 - g.pos.seat])
    face = face_for(game)
    before = len(game.log)
    game.apply({"type": "end_turn"})
    game.apply({"type": "roll"})  # every turn waits for its roll (record format 4)
    (roll,) = face.dice_rolls(game.log[before:])
    assert roll.values == [game.pos.dice["white"], game.pos.dice["red"]]
    assert roll.leds == face.layout.die_leds["white"] + face.layout.die_leds["red"]
    assert face.dice_rolls([{"seat": 0, "action": {"type": "end_turn"}}]) == []


def test_a_person_plays_with_the_simulated_board_keys(real_board):
    """Seat 0 presses the simulated board's keys (through the real firmware and the pty) for the
    moves the greedy bot would make: setup by hex keys and confirm, then building, trading,
    cards and ending turns."""
    session_module = pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("presses keys by program")
    from tablelight.sim.board import SimBoard

    from tests.e2e.helpers import wait_for

    with SimBoard.start("landover") as sim:
        session = session_module.BoardSession.open(sim.port)
        try:
            assert session.hello["keys"] == 92
            game = Landover(2, seed=8)
            table = Table(game, ["human", "random"], board=session, poll_interval=0.01)
            advisor = Landover.make_bot("greedy", 1)
            chosen = []
            while len(chosen) < 14 and not game.is_over():
                if game.current_seat() != 0:
                    table.step()
                    continue
                action = advisor.choose(game)
                keys = presses_for(game, action)
                count = len(game.log)
                for k in keys:
                    sim.press(k)
                wait_for(lambda: (table.step() or len(game.log) > count), timeout=10)
                chosen.append(action)
            played = [e["action"] for e in game.log if e.get("seat") == 0 and "action" in e]
            assert played == chosen
            assert {"village", "city", "road"} <= {a.get("piece") for a in chosen}
            assert any(a["type"] == "end_turn" for a in chosen)
        finally:
            session.close()


def test_a_person_builds_a_bridge_on_open_water_with_a_sea_key_of_the_simulated_board(real_board):
    """The sea key is pressed on the simulated board (the real firmware's key matrix, rows 2-5);
    the bridge it picks is applied and its LED (past 255) lights on the board."""
    session_module = pytest.importorskip("tablelight.board.session")
    if real_board:
        pytest.skip("presses keys by program")
    from tablelight.sim.board import SimBoard

    from tests.e2e.helpers import wait_for

    def open_water(g: Landover, a: dict[str, Any]) -> bool:
        return water_bridge(g, a) and not any(
            g.map.hex_island[h] >= 0 for v in g.map.edge_vertices[a["edge"]] for h in g.map.vertex_hexes[v])

    game = until(Landover(2, seed=3), lambda g: g.current_seat() == 0 and g.pos.phase == "main" and any(
        open_water(g, a) for a in g.legal_actions()), seed=2)
    action = next(a for a in game.legal_actions() if open_water(game, a))
    with SimBoard.start("landover") as sim:
        session = session_module.BoardSession.open(sim.port)
        try:
            table = Table(game, ["human", "random"], board=session, poll_interval=0.01)
            keys = presses_for(game, action)
            sea_keys = set(table.face.layout.sea_key.values())
            assert keys[0] == table.face.layout.key_of("bridge") and set(keys[1:-1]) <= sea_keys
            count = len(game.log)
            for k in keys:
                sim.press(k)
            wait_for(lambda: (table.step() or len(game.log) > count), timeout=10)
            assert game.log[count]["action"] == action and game.pos.side_route[action["edge"]] == 2
            led = table.face.layout.side_led[action["edge"]]
            wait_for(lambda: max(sim.pixels()[led]) > 0, timeout=10)
        finally:
            session.close()
