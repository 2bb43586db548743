"""The Farside Encounter console face: pixels of known tracker states, presses -> exact actions,
refused presses change nothing, the layout, the dice animation, and (with the table service) a
whole bot game on the simulated board."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError
from tablelight.core.rng import Rng
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table import layout as layout_module
from tablelight.table.face import BLINK, OFF, PULSE, SOLID, Outcome
from tablelight.games.farside.face import FarsideFace, FarsideLayout, FarsideLayoutError
from tablelight.games.farside.look import AMBER, PIP_PATTERNS
from tablelight.table.face import SEAT_COLORS

LAYOUT_FILE = Path(__file__).resolve().parents[2] / "hardware" / "layouts" / "farside.json"
LAYOUT: dict[str, Any] = json.loads(LAYOUT_FILE.read_text())
SECTION = LAYOUT["farside"]
KEY = {name: item["key"] for name, item in SECTION["buttons"].items()}
BUTTON_LED = {name: item["led"] for name, item in SECTION["buttons"].items()}
SEATS = SECTION["seats"]
MAX_PALETTE = 64  # distinct (colour, effect) pairs in one scene (protocol 1)

ARMIES = {
    "armies": [
        {"name": "Raiders", "models": [
            {"name": "Warrior", "points": 50, "size": 1, "defense": 4},
            {"name": "Beast", "points": 120, "size": 2, "defense": 3},
        ]},
        {"name": "Guards", "models": [
            {"name": "Trooper", "points": 40, "size": 1, "defense": 4},
            {"name": "Walker", "points": 200, "size": 3, "defense": 3},
        ]},
    ]
}


# --------------------------------------------------------------------------- helpers


def new_game(dice: str = "table", **options: Any) -> FarsideEncounter:
    return FarsideEncounter(2, {"dice": dice, **options}, setup=ARMIES)


def through_setup(game: FarsideEncounter) -> None:
    for seat, action in [
        (0, {"type": "roll", "dice": [4]}), (1, {"type": "roll", "dice": [2]}),
        (0, {"type": "roll", "dice": [1, 3]}), (0, {"type": "roll", "dice": [2, 2]}),
        (1, {"type": "roll", "dice": [1]}), (0, {"type": "roll", "dice": [6]}),
        (0, {"type": "secret", "primary": "destruction", "stratagem": "loot", "team_size": 1}),
        (1, {"type": "secret", "primary": "secure", "stratagem": "destruction", "team_size": 1}),
    ]:
        game.apply(action, seat=seat)


def command_rolled(**options: Any) -> FarsideEncounter:
    """Round 1: red rolled 2 and 5 (sum 7), blue 4 and 6 (sum 10): red chooses first."""
    game = new_game(**options)
    through_setup(game)
    game.apply({"type": "roll", "dice": [5, 2]}, seat=0)
    game.apply({"type": "roll", "dice": [6, 4]}, seat=1)
    return game


def blue_turn(**options: Any) -> FarsideEncounter:
    """Red took 5 (manoeuvre die 2), blue 4 (manoeuvre die 6): blue has fewer points and goes first."""
    game = command_rolled(**options)
    game.apply({"type": "command", "die": 5}, seat=0)
    game.apply({"type": "command", "die": 4}, seat=1)
    assert game.phase == "action" and game.active == 1 and game.action_points == [0, 4]
    return game


def spend_all_points(game: FarsideEncounter) -> None:
    """Blue spends its action points securing zones (1 point each) until none are left."""
    while game.action_points[1]:
        game.apply(next(a for a in game.legal_actions() if a["type"] == "secure"))
    assert game.phase == "action" and game.current_seat() == 1


def face_for(game: FarsideEncounter) -> FarsideFace:
    return FarsideFace(game, LAYOUT)


def press(face: FarsideFace, *names: str | int) -> Outcome:
    """Press keys by button name (or key number); returns the last outcome. Applies nothing."""
    outcome = Outcome("")
    for name in names:
        outcome = face.press(KEY[name] if isinstance(name, str) else name)
    return outcome


def apply(face: FarsideFace, outcome: Outcome) -> None:
    """What the table does with an outcome that holds an action."""
    assert outcome.action is not None, outcome
    face.game.apply(outcome.action)
    face.reset()


def lit(pixels: list[tuple[int, int, int, int]], leds: list[int]) -> list[int]:
    """Pip positions (0-6) of a die that are lit."""
    return [pip for pip, led in enumerate(leds) if pixels[led][:3] != (0, 0, 0)]


def snapshot(game: FarsideEncounter) -> str:
    return json.dumps([game.state(), game.log], sort_keys=True)


# --------------------------------------------------------------------------- layout


def test_layout_section_reads_and_uses_every_led_and_key_once() -> None:
    section = FarsideLayout(LAYOUT)
    leds = [led for group in section.command_die + section.manoeuvre_die + section.action_points + section.last_roll for led in group]
    leds += section.turn + section.track + list(section.phases.values()) + list(section.button_led.values())
    assert sorted(leds) == list(range(LAYOUT["leds"]))
    keys = section.command_key + section.manoeuvre_key + section.last_roll_keys + list(section.button_key.values())
    assert sorted(keys) == list(range(LAYOUT["keys"]))
    rows, columns = LAYOUT["key_matrix"]["rows"], LAYOUT["key_matrix"]["columns"]
    assert rows * columns >= LAYOUT["keys"]


def test_layout_passes_the_generic_layout_check() -> None:
    check = getattr(layout_module, "check_layout_data", None)
    if check is None:
        pytest.skip("the generic layout check comes with the table refactor")
    assert check(copy.deepcopy(LAYOUT))["id"] == "farside"
    drawn_keys = {item["key"] for item in LAYOUT["drawing"]["leds"] if "key" in item}
    assert drawn_keys == set(range(LAYOUT["keys"]))  # every key can be clicked in a view


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.pop("farside"), "missing section 'farside'"),
        (lambda d: d["farside"]["seats"].pop(), "seats must list two"),
        (lambda d: d["farside"]["seats"][0]["command_die"].pop(), "seat 0 command_die must list 7"),
        (lambda d: d["farside"]["objective_track"].__setitem__(3, 999), "objective_track: 999 is not a number"),
        (lambda d: d["farside"]["phases"].pop("melee"), "phases must map"),
        (lambda d: d["farside"]["buttons"]["roll"].__setitem__("led", d["farside"]["buttons"]["spend"]["led"]), "an LED is given two roles"),
        (lambda d: d["farside"]["buttons"]["roll"].__setitem__("key", d["farside"]["buttons"]["spend"]["key"]), "a key is given two roles"),
    ],
)
def test_bad_layout_sections_are_refused_with_the_reason(change: Any, words: str) -> None:
    data = copy.deepcopy(LAYOUT)
    change(data)
    with pytest.raises(FarsideLayoutError, match=words):
        FarsideFace(new_game(), data)


def test_the_face_is_registered() -> None:
    from tablelight.core.registry import game_entry
    from tablelight.table.face import face_class

    assert game_entry("farside").face == "tablelight.games.farside.face:FarsideFace"
    assert face_class("farside") is FarsideFace


# --------------------------------------------------------------------------- pixels


def test_pixels_command_phase_show_both_players_rolled_dice() -> None:
    game = command_rolled()
    pixels = face_for(game).pixels()
    red, blue = SEATS
    # Engine sorts entered dice: red [2, 5] on its two dice, pulsing (red chooses now); blue [4, 6] steady.
    assert lit(pixels, red["command_die"]) == list(PIP_PATTERNS[2])
    assert lit(pixels, red["manoeuvre_die"]) == list(PIP_PATTERNS[5])
    assert {pixels[led] for led in red["command_die"] if pixels[led] != OFF} == {(255, 0, 0, PULSE)}
    assert lit(pixels, blue["command_die"]) == list(PIP_PATTERNS[4])
    assert lit(pixels, blue["manoeuvre_die"]) == list(PIP_PATTERNS[6])
    assert {pixels[led][3] for led in blue["command_die"] if pixels[led] != OFF} == {SOLID}
    assert pixels[red["turn"]] == (255, 0, 0, PULSE)
    assert pixels[blue["turn"]][3] == SOLID and pixels[blue["turn"]][2] < 60
    assert pixels[SECTION["phases"]["command"]] != OFF
    assert all(pixels[SECTION["phases"][p]] == OFF for p in SECTION["phases"] if p != "command")
    # The last roll is blue's command roll, in blue.
    assert lit(pixels, SECTION["last_roll"][0]) == list(PIP_PATTERNS[4])
    assert lit(pixels, SECTION["last_roll"][1]) == list(PIP_PATTERNS[6])
    assert pixels[SECTION["last_roll"][0][0]][:3] == tuple(round(c * 0.8) for c in SEAT_COLORS[1])
    # No action points yet; no objectives.
    assert all(pixels[led] == OFF for seat in SEATS for led in seat["action_points"])
    assert all(pixels[led] == OFF for led in SECTION["objective_track"][:9])
    assert pixels[SECTION["objective_track"][9]] == (26, 26, 26, SOLID)  # the limit, 10


def test_pixels_action_phase_dice_and_action_points() -> None:
    game = blue_turn()
    game.apply({"type": "activate", "model": "b1", "action": "simple"})
    pixels = face_for(game).pixels()
    red, blue = SEATS
    assert lit(pixels, red["command_die"]) == list(PIP_PATTERNS[5])
    assert lit(pixels, red["manoeuvre_die"]) == list(PIP_PATTERNS[2])
    assert lit(pixels, blue["command_die"]) == list(PIP_PATTERNS[4])
    assert lit(pixels, blue["manoeuvre_die"]) == list(PIP_PATTERNS[6])
    assert pixels[blue["command_die"][0]] == (0, 60, 255, SOLID)
    # Blue: 4 points, one spent: 3 lit, 1 dim, 2 dark. Red: not its turn, nothing.
    ap = [pixels[led] for led in blue["action_points"]]
    assert ap[:3] == [(0, 60, 255, SOLID)] * 3
    assert ap[3] == (0, 6, 26, SOLID)
    assert ap[4:] == [OFF, OFF]
    assert all(pixels[led] == OFF for led in red["action_points"])
    assert pixels[blue["turn"]] == (0, 60, 255, PULSE)
    assert pixels[SECTION["phases"]["action"]] != OFF
    # Keys: spend, advance, impact, leave, group (b2 may join), next, prev glow; confirm does not.
    glowing = {name for name, led in BUTTON_LED.items() if pixels[led] != OFF}
    assert glowing == {"spend", "advance", "impact", "leave", "group", "next", "prev"}


def test_pixels_used_manoeuvre_die_goes_dim() -> None:
    game = blue_turn()
    before = face_for(game).pixels()[SEATS[1]["manoeuvre_die"][0]]
    game.apply({"type": "manoeuvre", "player": 1, "name": "Sniper"})
    after = face_for(game).pixels()[SEATS[1]["manoeuvre_die"][0]]
    assert before == (0, 36, 153, SOLID) and after == (0, 9, 38, SOLID)


def test_pixels_objective_track() -> None:
    """Red's accomplished objectives in red, then blue's in blue, a dim mark at the limit; in the
    last round (the limit reached) the lit ones pulse."""
    red, blue = (255, 0, 0), (0, 60, 255)
    for seed in range(40):  # random play until both sides have accomplished something
        game, rng = blue_turn(), Rng(seed)
        while not game.is_over() and not all(sum(game.objectives[s].values()) for s in (0, 1)):
            game.apply(game.random_action(rng))
        if not game.is_over():
            break
    counts = [sum(game.objectives[s].values()) for s in (0, 1)]
    assert counts[0] and counts[1] and sum(counts) < 9
    track = [face_for(game).pixels()[led] for led in SECTION["objective_track"]]
    assert track[:sum(counts)] == [(*red, SOLID)] * counts[0] + [(*blue, SOLID)] * counts[1]
    assert track[sum(counts):9] == [OFF] * (9 - sum(counts))
    assert track[9] == (26, 26, 26, SOLID)
    # Objective limit 3: blue secures three zones, the game is in its last round and the track pulses.
    game = blue_turn(objective_limit=3)
    for zone in (1, 2, 3):
        game.apply({"type": "secure", "zone": zone})
    track = [face_for(game).pixels()[led] for led in SECTION["objective_track"]]
    assert not game.is_over() and track == [(*blue, PULSE)] * 3 + [OFF] * 7


def test_the_objective_track_shows_ten_of_eleven_objectives() -> None:
    """The track has 10 LEDs: objectives past the limit in its last round (11 here, reached by
    both seats securing the 4 zones in turn) fill it, red's first, and the rest are not shown."""
    red, blue = (255, 0, 0), (0, 60, 255)
    game, rng = blue_turn(secure_takeover="adds"), Rng(1)  # each takeover adds a point
    at_ten: list[Any] = []
    for _ in range(200):  # secure whenever possible, never attack; the dice by the rng
        if game.is_over() or game.total_objectives() >= 11:
            break
        if game.total_objectives() == 10:
            at_ten = face_for(game).pixels()
        legal = game.legal_actions()
        for kind in ("secure", "roll", "command", "end_turn", "done"):
            picks = [a for a in legal if a["type"] == kind]
            if picks:
                game.apply(picks[rng.below(len(picks))])
                break
    counts = [sum(game.objectives[s].values()) for s in (0, 1)]
    assert not game.is_over() and sum(counts) == 11 and game.state()["objective_total"] == 11
    assert counts[0] < 10 and game.log[-1]["action"]["type"] == "secure"  # both colours show
    pixels = face_for(game).pixels()
    track = [pixels[led] for led in SECTION["objective_track"]]
    assert track == [(*red, PULSE)] * counts[0] + [(*blue, PULSE)] * (10 - counts[0])
    # From 10 to 11 only the spent action point and the key lights change: the 11th is nowhere.
    seat = game.log[-1]["seat"]
    may_change = set(SEATS[seat]["action_points"]) | set(BUTTON_LED.values())
    assert at_ten and {led for led, pixel in enumerate(pixels) if pixel != at_ten[led]} <= may_change


def test_pixels_defence_roll_shows_failed_dice_in_amber() -> None:
    game = blue_turn()
    game.apply({"type": "impact", "model": "a1", "tokens": 3})
    game.apply({"type": "end_turn"})
    game.apply({"type": "done"})
    game.apply({"type": "done"})
    assert game.pending is not None and game.pending["roll"] == "defense" and game.current_seat() == 0
    game.apply({"type": "roll", "fails": 2})
    pixels = face_for(game).pixels()
    assert lit(pixels, SECTION["last_roll"][0]) == list(PIP_PATTERNS[2])
    assert lit(pixels, SECTION["last_roll"][1]) == []
    assert pixels[SECTION["last_roll"][0][0]] == (*AMBER, SOLID)
    assert game.models["a1"]["damage"] == 2


def test_pixels_game_over_winners_blink() -> None:
    game = blue_turn()
    rng = Rng(3)
    while not game.is_over():  # random play (seed 3) ends with blue's two models off the table: red wins
        game.apply(game.random_action(rng))
    assert not game.on_table(1) and game.winners() == [0]
    pixels = face_for(game).pixels()
    assert pixels[SEATS[0]["turn"]] == (255, 0, 0, BLINK)
    assert pixels[SEATS[1]["turn"]][3] == SOLID
    assert all(pixels[led] == OFF for led in BUTTON_LED.values())


def test_flashing_things_blink_white() -> None:
    game = blue_turn()
    face = face_for(game)
    pixels = face.pixels(face.layout.leds_to_flash(["spend", "ap1", "command0"]))
    for led in [BUTTON_LED["spend"], *SEATS[1]["action_points"], *SEATS[0]["command_die"]]:
        assert pixels[led] == (255, 255, 255, BLINK)


# --------------------------------------------------------------------------- presses -> actions


def test_command_die_choice_by_pressing_a_die() -> None:
    game = command_rolled()
    face = face_for(game)
    outcome = face.press(SEATS[0]["manoeuvre_key"])  # red's second die shows 5
    assert outcome.action == {"type": "command", "die": 5}
    apply(face, outcome)
    refused = face.press(SEATS[0]["command_key"])  # blue chooses now
    assert refused.refused and "blue chooses" in refused.message
    assert face.press(SEATS[1]["command_key"]).action == {"type": "command", "die": 4}


def test_spend_menu_builds_an_exact_activation() -> None:
    face = face_for(blue_turn())
    opened = press(face, "spend")
    assert opened.action is None and "activates b1" in opened.message
    outcome = press(face, "field", "next", "field", "next", "confirm")
    assert outcome.action == {"type": "activate", "model": "b2", "action": "simple"}


def test_spend_menu_secures_a_zone() -> None:
    face = face_for(blue_turn())
    outcome = press(face, "spend", "next", "field", "next", "next", "confirm")  # secure, zone 1 -> 2 -> 3
    assert outcome.action == {"type": "secure", "zone": 3}


def test_impact_menu_model_then_tokens() -> None:
    face = face_for(blue_turn())
    outcome = press(face, "impact", "next", "field", "next", "next", "next", "prev", "confirm")
    assert outcome.action == {"type": "impact", "model": "a2", "tokens": 3}
    outcome = press(face, "cancel", "impact", "prev", "confirm")  # prev wraps to the last model
    assert outcome.action == {"type": "impact", "model": "b2", "tokens": 1}


def test_group_and_leave_menus() -> None:
    face = face_for(blue_turn())
    apply(face, press(face, "spend", "confirm"))  # activates b1 (complex)
    outcome = press(face, "group", "next", "confirm")
    assert outcome.action == {"type": "activate", "model": "b2", "action": "simple", "group": True}
    outcome = press(face, "leave", "field", "next", "confirm")
    assert outcome.action == {"type": "break_through", "model": "b2"}
    outcome = press(face, "leave", "next", "confirm")
    assert outcome.action == {"type": "loot", "model": "b1"}


def test_manoeuvre_die_opens_that_seats_manoeuvres() -> None:
    face = face_for(blue_turn())
    # Red's manoeuvre die is 2: nothing needs 2 or less.
    refused = face.press(SEATS[0]["manoeuvre_key"])
    assert refused.refused and "needs a manoeuvre die of" in refused.message and refused.flash == face.layout.flash_leds("manoeuvre0")
    opened = face.press(SEATS[1]["manoeuvre_key"])  # blue's is 6: anything
    assert opened.action is None
    outcome = press(face, "confirm")
    assert outcome.action is not None and outcome.action["type"] == "manoeuvre" and outcome.action["player"] == 1
    assert face.game.is_legal(outcome.action)


def test_advance_twice_with_points_left_once_without() -> None:
    game = blue_turn()
    face = face_for(game)
    first = press(face, "advance")
    assert first.action is None and not first.refused and "4 action points left" in first.message
    assert press(face, "advance").action == {"type": "end_turn"}
    # Any other press disarms it.
    press(face, "advance", "impact", "cancel")
    assert press(face, "advance").action is None
    spend_all_points(game)
    face.reset()
    assert press(face, "advance").action == {"type": "end_turn"}
    apply(face, press(face, "advance"))
    assert game.phase == "melee"
    assert press(face, "advance").action == {"type": "done"}


def test_entering_physical_dice_on_the_last_roll_dice() -> None:
    game = new_game()
    face = face_for(game)
    refused = press(face, "roll")
    assert refused.refused and "set the 1 dice" in refused.message
    press(face, SECTION["last_roll_keys"][0], SECTION["last_roll_keys"][0], SECTION["last_roll_keys"][0])
    assert face.pixels()[SECTION["last_roll"][0][3]] == (255, 0, 0, BLINK)  # entered 3: centre pip, blinking
    refused = face.press(SECTION["last_roll_keys"][1])
    assert refused.refused and "has 1 die" in refused.message
    assert press(face, "roll").action == {"type": "roll", "dice": [3]}
    # Seven presses count 1..6 and round to 1.
    face.reset()
    press(face, *[SECTION["last_roll_keys"][0]] * 7)
    assert press(face, "confirm").action == {"type": "roll", "dice": [1]}


def test_two_dice_entry_and_d3() -> None:
    game = new_game()
    game.apply({"type": "roll", "dice": [4]})
    game.apply({"type": "roll", "dice": [2]})
    face = face_for(game)  # red rolls 2D3 for the terrain zones
    first, second = SECTION["last_roll_keys"]
    outcome = press(face, first, first, second, second, second, second, "roll")  # 2; 4 -> wraps to 1 on a D3
    assert outcome.action == {"type": "roll", "dice": [1, 2]}


def test_defence_roll_entered_as_failed_dice() -> None:
    game = blue_turn()
    for action in ({"type": "impact", "model": "a1", "tokens": 3}, {"type": "end_turn"}, {"type": "done"}, {"type": "done"}):
        game.apply(action)
    face = face_for(game)
    assert press(face, "roll", "next", "next", "confirm").action == {"type": "roll", "fails": 2}
    assert press(face, "cancel", "roll", "prev", "confirm").action == {"type": "roll", "fails": 3}


def test_press_mode_roll_key_rolls() -> None:
    game = new_game("press")
    face = face_for(game)
    assert face.prompt(0).startswith("press roll for the setup roll")
    assert press(face, "roll").action == {"type": "roll"}
    assert face.pixels()[BUTTON_LED["roll"]] == (255, 0, 0, PULSE)


def test_secrets_and_failed_activation_through_the_list_of_legal_actions() -> None:
    game = new_game()
    for seat, action in [
        (0, {"type": "roll", "dice": [4]}), (1, {"type": "roll", "dice": [2]}),
        (0, {"type": "roll", "dice": [1, 3]}), (0, {"type": "roll", "dice": [2, 2]}),
        (1, {"type": "roll", "dice": [1]}), (0, {"type": "roll", "dice": [6]}),
    ]:
        game.apply(action, seat=seat)
    face = face_for(game)
    opened = press(face, "next")  # opens the list on its first entry
    assert "notes primary breakthrough, stratagem breakthrough, team size 1" in opened.message
    outcome = press(face, "next", "field", "next", "next", "field", "next", "confirm")
    assert outcome.action == {"type": "secret", "primary": "destruction", "stratagem": "grand slam", "team_size": 2}


def test_failed_activation_choice() -> None:
    # Red goes first (command die 2 against 6), puts 2 impact tokens on b1 and blue fails both
    # defence dice: b1 has 2 damage when blue's turn comes.
    game = command_rolled()
    game.apply({"type": "command", "die": 2}, seat=0)
    game.apply({"type": "command", "die": 6}, seat=1)
    game.apply({"type": "impact", "model": "b1", "tokens": 2})
    game.apply({"type": "end_turn"})
    while game.pending is None:
        game.apply({"type": "done"})
    game.apply({"type": "roll", "fails": 2})
    assert game.models["b1"]["damage"] == 2 and game.phase == "action" and game.current_seat() == 1
    game.apply({"type": "activate", "model": "b1", "action": "complex"})
    game.apply({"type": "roll", "dice": [1]})
    assert game.failed is not None
    face = face_for(game)
    assert "failed its activation" in face.prompt(1)
    refused = press(face, "spend")
    assert refused.refused and "failed its activation" in refused.message
    assert press(face, "next", "confirm").action == {"type": "failed", "model": "b1", "choice": "act"}


# --------------------------------------------------------------------------- refusals


def test_refused_presses_say_why_and_flash() -> None:
    game = new_game("host")  # the host rolled the setup; red notes its secrets
    face = face_for(game)
    refused = press(face, "roll")
    assert refused.refused and "the host rolls" in refused.message and refused.flash == face.layout.flash_leds("roll")
    refused = press(face, "spend")
    assert refused.refused and "not possible in the secrets phase" in refused.message
    refused = press(face, "confirm")
    assert refused.refused and refused.flash == face.layout.flash_leds("confirm")
    refused = face.press(SEATS[1]["command_key"])
    assert refused.refused and "not possible in the secrets phase" in refused.message
    refused = face.press(999)
    assert refused.refused and "does nothing" in refused.message
    assert press(face, "cancel").message == "nothing to cancel"


def test_no_action_points_left_says_so() -> None:
    game = blue_turn()
    spend_all_points(game)
    face = face_for(game)
    refused = press(face, "spend")
    assert refused.refused and "no action points left" in refused.message
    assert set(face.layout.flash_leds("ap1")) <= set(refused.flash)


def test_random_presses_change_nothing_and_give_only_legal_actions() -> None:
    """Seeded random presses on every key, through whole games: a press never changes the game,
    a refusal always says why, every action a press yields is accepted by the engine, and every
    scene fits the board's palette."""
    rng = Rng(7)
    applied = refused = games = 0
    for dice in ("table", "press", "table", "press"):
        game = FarsideEncounter(2, {"dice": dice}, seed=games)  # the demo armies, five models a side
        games += 1
        face = face_for(game)
        for step in range(1000):
            if game.is_over():
                break
            before = snapshot(game)
            # Every third press confirms (or rolls), so that games move on; the rest are any key.
            key = (KEY["confirm"], KEY["roll"])[rng.below(2)] if step % 3 == 2 else rng.below(LAYOUT["keys"] + 1)
            outcome = face.press(key)
            assert snapshot(game) == before
            assert outcome.message
            pixels = face.pixels(outcome.flash)
            assert len(pixels) == LAYOUT["leds"] and len(set(pixels)) <= MAX_PALETTE
            if outcome.refused:
                refused += 1
                assert outcome.flash or "does nothing" in outcome.message, outcome
            elif outcome.action is not None:
                try:
                    game.apply(outcome.action)
                except IllegalActionError as error:  # pragma: no cover - the failure being tested
                    raise AssertionError(f"{outcome.action} refused: {error}") from None
                face.reset()
                applied += 1
    print(f"{applied} actions applied, {refused} presses refused")
    assert applied > 100 and refused > 100


def test_every_legal_action_is_reachable_from_the_list() -> None:
    """Every legal action is in the list: chosen on it (as a phone's tap or the keys choose, through
    narrow) it is what confirm gives. Opening the list shows more than one field to fix."""
    game = blue_turn()
    opened = face_for(game)
    assert "field for the next field" in press(opened, "next").message
    legal = game.legal_actions()
    reached: set[str] = set()
    for action in legal:
        face = face_for(game)
        assert not face.narrow(action).refused
        reached.add(json.dumps(press(face, "confirm").action, sort_keys=True))
    assert reached == {json.dumps(a, sort_keys=True) for a in legal}


# --------------------------------------------------------------------------- the tracker's dice = press


def test_press_dice_roll_only_on_the_roll_action_and_replay_exactly() -> None:
    from tablelight.core.errors import MalformedActionError, RuleViolationError
    from tablelight.core.record import replay

    game = FarsideEncounter(2, {"dice": "press"}, seed=11)
    assert game.pending is not None and not any("chance" in e for e in game.log)  # nothing rolled yet
    assert game.legal_actions() == [{"type": "roll"}]
    with pytest.raises(MalformedActionError, match="dice = press"):
        game.apply({"type": "roll", "dice": [3]})
    with pytest.raises(RuleViolationError, match="must first enter"):
        game.apply({"type": "secret", "primary": "loot", "stratagem": "loot", "team_size": 1})
    game.apply({"type": "roll"})
    assert [e.get("chance") for e in game.log] == [None, "setup"]
    rng = Rng(2)
    while not game.is_over() and len(game.log) < 400:
        game.apply(game.random_action(rng))
    again = replay(json.loads(game.save()))
    assert again.to_record() == game.to_record() and again.chance_matches_seed
    before = len(game.log)
    game.undo()
    assert len(game.log) < before


# --------------------------------------------------------------------------- dice animation


def test_dice_rolls_land_on_pip_patterns() -> None:
    game = new_game("press")
    through = [{"type": "roll"}] * 6
    for action in through:
        game.apply(action)
    game.apply({"type": "secret", "primary": "loot", "stratagem": "loot", "team_size": 1})
    game.apply({"type": "secret", "primary": "loot", "stratagem": "loot", "team_size": 1})
    start = len(game.log)
    game.apply({"type": "roll"})
    rolls = face_for(game).dice_rolls(game.log[start:])
    assert len(rolls) == 1
    roll = rolls[0]
    values = [e["value"] for e in game.log[start:] if "chance" in e]
    assert roll.values == values and roll.color == SEAT_COLORS[0]
    red = SEATS[0]
    for die, (face_leds, value) in enumerate(zip((red["command_die"], red["manoeuvre_die"]), values)):
        group = roll.leds[die * 7:(die + 1) * 7]
        assert sorted(group) == sorted(face_leds)
        assert group[:value] == [face_leds[p] for p in PIP_PATTERNS[value]]


def test_dice_rolls_of_a_defence_roll_show_failed_dice() -> None:
    game = new_game("host", deployment="20")
    face = face_for(game)
    rolls = face.dice_rolls(game.log)
    assert [r.values for r in rolls][0] == [next(e["value"] for e in game.log if "chance" in e)]
    fake = [{"chance": "defense", "seat": 0, "model": "a1", "value": v} for v in (1, 2, 5, 6, 3)]
    (roll,) = face.dice_rolls(fake)
    assert roll.values == [3, 0] and roll.color == AMBER  # a1 saves on 4+: 1, 2, 3 fail


def test_describe_and_prompt_words() -> None:
    face = face_for(blue_turn())
    assert face.describe_action({"type": "impact", "model": "a2", "tokens": 3}) == "records 3 impact tokens on a2 (Beast)"
    assert face.describe_action({"type": "activate", "model": "b1", "action": "simple"}) == \
        "activates b1 (Trooper) for a simple action (1 action point)"
    assert face.prompt(1).startswith("4 action points")
    assert face.flash_for({"type": "secure", "zone": 1}) == face.layout.leds_to_flash(["spend", "ap1"])


# --------------------------------------------------------------------------- end to end (table service, real firmware)


def _reference(seed: int, dice: str) -> dict[str, Any]:
    """The same bot game with no board at all."""
    from tablelight.table.service import Table

    game = FarsideEncounter(2, {"dice": dice}, seed=seed)
    Table(game, ["tactician", "tactician"]).run()  # a "bot" seat gets the game's own bot
    return game.to_record()


@pytest.mark.parametrize("dice", ["host", "press"])
def test_a_bot_game_on_the_simulated_board_from_the_command_line(dice: str, tmp_path: Path, capsys: Any,
                                                                  real_board: str | None) -> None:
    if real_board:
        pytest.skip("starts its own simulated board")
    from tablelight.cli.main import main
    from tablelight.table.store import GameStore

    db = str(tmp_path / "g.sqlite")
    code = main(["play", "farside", "--seats", "bot,bot", "--board", "sim", "--view", "none", "--seed", "5",
                 "--dice", dice, "--db", db])
    assert code == 0
    captured = capsys.readouterr()
    assert "(simulated)" in captured.err
    assert "game over" in captured.out and "\nred: " in captured.out
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over"
        assert store.load(info.id).to_record() == _reference(5, dice)


def _plan(game: FarsideEncounter, done_impact: list[bool]) -> list[int]:
    """The keys a person at seat 0 presses next (a simple, legal plan through the console)."""
    if game.pending is not None:
        return [KEY["roll"]]
    if game.phase == "secrets":
        return [KEY["next"], KEY["confirm"]]
    if game.phase == "command":
        return [SEATS[0]["command_key"]]
    if game.failed is not None:
        return [KEY["next"], KEY["confirm"]]
    if game.phase == "action":
        if not done_impact[0]:
            done_impact[0] = True
            return [KEY["impact"], KEY["prev"], KEY["confirm"]]  # 1 impact token on blue's last model
        if any(a["type"] == "activate" and not a.get("group") for a in game.legal_actions()):
            return [KEY["spend"], KEY["confirm"]]
        return [KEY["advance"], KEY["advance"]] if game.action_points[0] else [KEY["advance"]]
    return [KEY["advance"]]


def test_a_person_plays_with_the_console_keys_on_the_simulated_board(real_board: str | None) -> None:
    """Seat 0 plays by pressing the simulated board's keys (roll, secrets, command die, spend,
    impact, advance); seat 1 is a bot. A refused press changes nothing and its key blinks on
    the board; at the end the board's LEDs show the face's picture."""
    if real_board:
        pytest.skip("presses keys by program: simulated board only")
    from tablelight.board.session import BoardSession
    from tablelight.sim.board import SimBoard
    from tablelight.table.service import Table

    from ..e2e.helpers import shows_scene, wait_for

    with SimBoard.start("farside") as sim:
        session = BoardSession.open(sim.port)
        try:
            game = FarsideEncounter(2, {"dice": "press", "round_limit": 2}, seed=4)
            table = Table(game, ["human", "random"], board=session, flash_seconds=5.0)
            table.refresh()
            # Confirm with nothing chosen: refused, said, the confirm key blinks white, nothing changes.
            before = snapshot(game)
            sim.press(KEY["confirm"])
            wait_for(lambda: table.step() or any("nothing chosen" in m for m in table.messages))
            assert snapshot(game) == before
            led = BUTTON_LED["confirm"]
            wait_for(lambda: min(sim.pixels()[led]) > 0, timeout=3.0, interval=0.005)
            done_impact = [False]
            presses = 0
            while not game.is_over() and presses < 300:
                if game.current_seat() != 0:
                    table.step()
                    continue
                count = len(game.log)
                for key in _plan(game, done_impact):
                    sim.press(key)
                    presses += 1
                wait_for(lambda: table.step() or len(game.log) > count)
            assert game.is_over()
            mine = [e["action"]["type"] for e in game.log if e.get("seat") == 0 and "action" in e]
            assert {"roll", "secret", "command", "impact", "activate", "end_turn"} <= set(mine)
            assert {"type": "impact", "model": "b5", "tokens": 1} in [e["action"] for e in game.log if "action" in e]
            table.flashes.clear()
            table.refresh()
            wait_for(lambda: shows_scene(sim.pixels(), table.pixels()))
        finally:
            session.close()


def test_logged_actions_are_told_with_the_host_rolls_that_followed() -> None:
    game = new_game("host", deployment="20")
    game.apply({"type": "secret", "primary": "loot", "stratagem": "loot", "team_size": 1})
    game.apply({"type": "secret", "primary": "loot", "stratagem": "loot", "team_size": 1})
    entry = next(e for e in reversed(game.log) if "action" in e)
    rolled = [e for e in game.log if e.get("chance") == "command"]
    red = ", ".join(str(e["value"]) for e in rolled if e["seat"] == 0)
    words = face_for(game).describe_action(entry["action"])
    assert words.startswith("notes its secret mission (team size 1): red's command roll " + red + "; blue's command roll")
    # An action that is not the logged one (a menu choice) gets no rolls.
    assert face_for(game).action_words(dict(entry["action"])) == "notes primary loot, stratagem loot, team size 1"


def test_the_table_has_the_board_animate_each_host_roll() -> None:
    """A roll made through the table reaches the board as a local dice animation on the logged values."""
    from tablelight.table.service import Table

    class DiceBoard:
        def __init__(self) -> None:
            self.rolls: list[tuple[list[int], list[int], tuple[int, int, int]]] = []

        def show(self, pixels: list[tuple[int, int, int, int]]) -> None:
            pass

        def poll(self, timeout: float) -> list[Any]:
            return []

        def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int]) -> None:
            self.rolls.append((list(leds), list(values), color))

        def in_sync(self) -> bool:
            return True

        connected = True

    game = new_game("press")
    board = DiceBoard()
    table = Table(game, ["random", "random"], board=board)  # type: ignore[arg-type]
    start = len(game.log)
    assert table.apply({"type": "roll"})
    expected = face_for(game).dice_rolls(game.log[start:])
    assert expected and board.rolls == [(r.leds, r.values, r.color) for r in expected]
    values = [e["value"] for e in game.log[start:] if "chance" in e]
    assert board.rolls[0][1] == values[: len(board.rolls[0][1])]
