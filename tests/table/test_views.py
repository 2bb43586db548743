import json

from tablelight.games.farlander.face import load_layout
from tablelight.view.colors import display_color
from tablelight.view.terminal import draw
from tablelight.web.board_view import svg


def test_terminal_picture_has_every_led_once():
    layout = load_layout()
    pixels = [(0, 0, 0, 0)] * 55
    plain = draw(layout.data, pixels, color=False)
    assert plain.count("··") == 55
    pixels[0] = (255, 0, 0, 0)
    pixels[49] = (0, 0, 255, 2)
    pixels[10] = (0, 255, 0, 1)
    pixels[20] = (60, 40, 0, 0)
    plain = draw(layout.data, pixels, color=False, message="seat 0 to act")
    assert plain.count("··") == 51
    tokens = plain.split()
    assert {"R", "B~", "G*", "y"} <= set(tokens)
    assert plain.splitlines()[-1].strip() == "seat 0 to act"
    colored = draw(layout.data, pixels, color=True)
    assert "\033[38;2;255;0;0m██" in colored and "▓▓" in colored and "▒▒" in colored


def test_display_colors_lift_dim_leds_and_keep_black():
    assert display_color((0, 0, 0)) == (0, 0, 0)
    assert display_color((255, 128, 0, 1)) == (255, 186, 0)
    r, g, b = display_color((40, 0, 0))
    assert r > 80 and g == 0 and b == 0


def test_svg_has_one_element_per_led_and_the_buttons():
    layout = load_layout()
    picture = svg(layout.data)
    for led in range(55):
        assert f'data-led="{led}"' in picture
    assert 'id="button-confirm" data-key="49"' in picture and 'id="button-cancel" data-key="50"' in picture


TINY = {
    "id": "tiny",
    "leds": 4,
    "keys": 3,
    "drawing": {
        "width": 4.0,
        "height": 2.0,
        "leds": [
            {"led": 0, "key": 0, "shape": "rect", "at": [0, 0], "size": [0.9, 0.9]},
            {"led": 1, "key": 1, "shape": "rect", "at": [1, 0], "size": [0.9, 0.9]},
            {"led": 2, "shape": "circle", "at": [3, 0.5], "r": 0.3, "label": "turn"},
            {"led": 3, "shape": "polygon", "points": [[0, 1], [1, 1], [0.5, 1.8]]},
        ],
        "buttons": [{"key": 2, "at": [3, 1.5], "label": "go on"}],
    },
}


def test_views_draw_any_layout_from_its_drawing():
    from tablelight.table.layout import check_layout_data

    layout = check_layout_data(json.loads(json.dumps(TINY)))
    picture = svg(layout)
    assert picture.count('class="led') == 4
    assert 'id="led-0" data-led="0" data-key="0" points="0.0000,0.0000 0.9000,0.0000 0.9000,0.9000 0.0000,0.9000"' in picture
    assert '<circle class="led status" id="led-2" data-led="2" cx="3" cy="0.5" r="0.3"><title>turn</title>' in picture
    assert 'id="button-go-on" data-key="2"' in picture
    pixels = [(255, 0, 0, 0), (0, 0, 0, 0), (0, 0, 255, 2), (0, 255, 0, 1)]
    plain = draw(layout, pixels, color=False, message="go")
    lines = plain.splitlines()
    # No grid: LEDs placed by their centres (rows and columns kept); the labelled one too.
    assert plain.count("··") == 1 and {"R", "B~", "G*"} <= set(plain.split())
    assert lines[-1].strip() == "go"
    assert lines[0].index("R") < lines[0].index("··")
