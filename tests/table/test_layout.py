import copy
import json

import pytest

from tablelight.games.farlander.engine import Farlander
from tablelight.table.layout import LayoutError, load_layout, parse_layout


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
