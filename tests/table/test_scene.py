from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import load_layout
from tablelight.games.farlander.face import BLINK, OFF, PULSE, SEAT_COLORS, SOLID, render, territory_leds


def test_empty_board_is_dark_but_for_turn_and_phase(fresh_game):
    layout = load_layout()
    pixels = render(fresh_game, layout)
    assert len(pixels) == 55
    assert all(p == OFF for p in pixels[:49])
    seat = fresh_game.current_seat()
    assert pixels[49 + seat][3] == PULSE and pixels[49 + seat][:3] == SEAT_COLORS[seat]
    other = 1 - seat
    assert pixels[49 + other][3] == SOLID and 0 < max(pixels[49 + other][:3]) < 60
    assert pixels[51] == OFF and pixels[52] == OFF  # seats 2 and 3 do not play
    assert pixels[53] != OFF and pixels[54] == OFF


def test_owned_territories_light_all_their_slices_brighter_with_more_units(fresh_game):
    layout = load_layout()
    game = fresh_game
    seat = game.current_seat()
    big = next(t for t in game.map.territories if len(t.edges) >= 2)
    game.apply({"type": "place", "territory": big.id})
    index = game.index[big.id]
    pixels = render(game, layout)
    leds = territory_leds(game, layout)[index]
    assert len(leds) == len(big.edges)
    looks = {pixels[led] for led in leds}
    assert len(looks) == 1
    (r, g, b, effect), = looks
    assert effect == SOLID and (r, g, b) != (0, 0, 0)
    # Owner colour: the dominant channel matches the seat colour's.
    channel = max(range(3), key=lambda c: SEAT_COLORS[seat][c])
    assert (r, g, b)[channel] == max(r, g, b)
    one_unit = max(r, g, b)
    while game.units[index] < 5:  # the seat fills the territory; the other places elsewhere
        if game.current_seat() == seat:
            game.apply({"type": "place", "territory": big.id})
        else:
            game.apply(next(a for a in game.legal_actions() if a["territory"] != big.id))
    assert max(render(game, layout)[leds[0]][:3]) > one_unit


def test_the_phase_led_moves_to_the_action_phase(fresh_game, action_game):
    layout = load_layout()
    assert render(fresh_game, layout)[53] != OFF and render(fresh_game, layout)[54] == OFF
    assert render(action_game, layout)[54] != OFF and render(action_game, layout)[53] == OFF


def test_selection_and_flash_effects(action_game):
    layout = load_layout()
    game = action_game
    seat = game.current_seat()
    target = game.targets(seat)[0]
    sources = list(game.spare_units(seat, target))
    leds = territory_leds(game, layout)
    pixels = render(game, layout, target=target, moves={sources[0]: 1}, sources=sources)
    assert pixels[leds[target][0]] == (*SEAT_COLORS[seat], BLINK)
    assert pixels[leds[sources[0]][0]] == (*SEAT_COLORS[seat], SOLID)
    for other in sources[1:]:
        assert pixels[leds[other][0]][3] == PULSE
    flashed = render(game, layout, flash=leds[target])
    assert flashed[leds[target][0]] == (255, 255, 255, BLINK)


def test_game_over_blinks_the_winners_turn_leds():
    layout = load_layout()
    game = Farlander(2, seed=2)
    from tablelight.core.rng import Rng

    rng = Rng(4)
    while not game.is_over():
        game.apply(game.random_action(rng))
    pixels = render(game, layout)
    for seat in range(2):
        expected_blink = seat in game.winners()
        assert (pixels[49 + seat][3] == BLINK) == expected_blink
    assert pixels[53] == OFF and pixels[54] == OFF


def test_four_seats_have_four_turn_lights():
    layout = load_layout()
    game = Farlander(4, seed=3)
    pixels = render(game, layout)
    seat = game.current_seat()
    for s in range(4):
        assert pixels[49 + s][:3] != (0, 0, 0)
        assert (pixels[49 + s][3] == PULSE) == (s == seat)
