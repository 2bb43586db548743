import copy
import json

import pytest

from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import LayoutError, load_layout, parse_layout


def test_farlander_layout_follows_the_contract_numbers():
    layout = load_layout("farlander")
    assert layout.leds == 55 and layout.keys == 51
    for slot in range(7):
        assert layout.edge_leds[slot] == tuple(slot * 7 + p for p in range(6))
        assert layout.centre_leds[slot] == slot * 7 + 6
        assert layout.edge_keys[slot] == tuple(slot * 7 + p for p in range(6))
    assert layout.turn_leds == (49, 50, 51, 52)
    assert layout.phase_leds == {"distribution": 53, "action": 54}
    assert (layout.confirm_key, layout.cancel_key) == (49, 50)


@pytest.mark.parametrize("seed", range(6))
def test_every_territory_has_leds_and_keys_of_its_own(seed):
    layout = load_layout()
    game = Farlander(3, seed=seed)
    seen_leds: set[int] = set()
    seen_keys: set[int] = set()
    for t in game.map.territories:
        leds = layout.leds_of(t.tile, t.edges)
        keys = layout.keys_of(t.tile, t.edges)
        assert leds and keys
        assert not seen_leds & set(leds) and not seen_keys & set(keys)
        seen_leds |= set(leds)
        seen_keys |= set(keys)
    # All 42 slices belong to some territory.
    assert {led for slot in layout.edge_leds for led in slot} <= seen_leds


def _raw():
    return copy.deepcopy(load_layout().data)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.pop("slots"), "missing field"),
        (lambda d: d["slots"][2]["edge_leds"].pop(), "must list 6"),
        (lambda d: d["slots"][3].__setitem__("centre_led", 99), "0-54"),
        (lambda d: d["slots"][1]["edge_leds"].__setitem__(0, 0), "two roles"),
        (lambda d: d["buttons"].pop(), "no cancel button"),
        (lambda d: d["status_leds"][0].__setitem__("role", "sparkle"), "role 'turn'"),
        (lambda d: d.__setitem__("leds", "many"), "positive whole number"),
    ],
)
def test_bad_layouts_are_refused_with_a_reason(damage, message):
    data = _raw()
    damage(data)
    with pytest.raises(LayoutError, match=message):
        parse_layout(data)


def test_missing_and_broken_layout_files(tmp_path):
    with pytest.raises(LayoutError, match="no layout file"):
        load_layout(str(tmp_path / "nothing.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(LayoutError, match="not valid JSON"):
        load_layout(str(broken))
    good = tmp_path / "copy.json"
    good.write_text(json.dumps(_raw()))
    assert load_layout(str(good)).leds == 55


# ---------------------------------------------------------------- the generic fields


def _generic():
    from tablelight.table.layout import load_layout_data

    return copy.deepcopy(load_layout_data("farlander"))


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.pop("drawing"), "missing field 'drawing'"),
        (lambda d: d.pop("id"), "missing field 'id'"),
        (lambda d: d["drawing"]["leds"].pop(3), "every LED must be drawn once; not drawn: 3"),
        (lambda d: d["drawing"]["leds"].append(dict(d["drawing"]["leds"][0])), "LED 0 is drawn twice"),
        (lambda d: d["drawing"]["leds"][5].__setitem__("key", 51), r"LED 5 key must be a whole number 0-50"),
        (lambda d: d["drawing"]["leds"][5].__setitem__("shape", "star"), "shape must be one of polygon, circle, rect"),
        (lambda d: d["drawing"]["leds"][5].__setitem__("points", [[0, 0]]), "at least 3 points"),
        (lambda d: d["drawing"]["buttons"][0].__setitem__("key", -1), r"buttons\[0\] key must be a whole number"),
        (lambda d: d["drawing"]["grid"]["cells"].__setitem__("77", [0, 0]), "grid cell '77' is not an LED number"),
        (lambda d: d.__setitem__("key_matrix", {"rows": 2, "columns": 3}), "fewer positions than the 51 keys"),
    ],
)
def test_bad_generic_fields_are_refused_with_a_reason(damage, message, tmp_path):
    from tablelight.table.layout import load_layout_data

    data = _generic()
    damage(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LayoutError, match=message):
        load_layout_data(str(path))


def test_unknown_layout_names_the_known_ones():
    from tablelight.table.layout import load_layout_data

    with pytest.raises(LayoutError, match=r"no layout file .*nosuch.json \(layouts: .*farlander"):
        load_layout_data("nosuch")


def test_farlander_drawing_draws_every_led_with_its_key():
    data = _generic()
    drawn = {item["led"]: item for item in data["drawing"]["leds"]}
    assert sorted(drawn) == list(range(55))
    layout = load_layout()
    for slot in range(7):
        for edge in range(6):
            item = drawn[layout.edge_leds[slot][edge]]
            assert item["shape"] == "polygon" and item["key"] == layout.edge_keys[slot][edge]
        assert drawn[layout.centre_leds[slot]]["key"] == layout.centre_keys[slot]
    assert all(drawn[led]["shape"] == "circle" and "key" not in drawn[led] for led in range(49, 55))
    assert {(b["key"], b["label"]) for b in data["drawing"]["buttons"]} == {(49, "confirm"), (50, "cancel")}
