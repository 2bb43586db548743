"""The Landover lit board's layout: what each LED and key is for (``hardware/layouts/landover.json``).

:class:`LandoverLayout` checks the Landover sections of a layout (see the face's module docstring,
:mod:`tablelight.games.landover.face`); :mod:`tablelight.games.landover.layoutgen` makes the file.
"""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.rules import BARBARIAN_TRACK as BARBARIAN_STEPS
from tablelight.table.layout import LayoutError, check_layout_data, whole

MAP_NAME = "archipelago"
LAYOUT_ID = "landover"
DIE_FACES = 6
#: The card kinds, in the engine's order (a key for each).
KINDS = CARDS
BUILD_PIECES = ("road", "bridge", "village", "city", "wall")
CULTURE_BUTTONS = ("science", "commerce", "politics")
#: Buttons that choose what to do, then confirm and cancel.
MODE_BUTTONS = BUILD_PIECES + ("military",) + CULTURE_BUTTONS + ("trade", "raid", "catapult", "card", "end_turn")
BUTTONS = MODE_BUTTONS + ("confirm", "cancel")


class LandoverLayout:
    """The Landover sections of a layout, checked (see the module docstring)."""

    def __init__(self, data: dict[str, Any], source: str = "layout") -> None:
        check_layout_data(data, source)
        leds, keys = data["leds"], data["keys"]
        self.leds = leds
        self.data = data
        map_data = data.get("map")
        if not isinstance(map_data, dict) or not isinstance(map_data.get("coords"), list):
            raise LayoutError(f"{source}: missing map (the map's name and the [q, r] of every hex the board is built for)")
        self.map_name = str(map_data.get("name", ""))
        self.coords = [tuple(c) for c in map_data["coords"] if isinstance(c, list) and len(c) == 2]
        if len(self.coords) != len(map_data["coords"]):
            raise LayoutError(f"{source}: map coords must be [q, r] pairs")
        used_leds: list[int] = []
        #: key -> (role, value): ("hex", h), ("side", e), ("seat", s), ("white"|"red", n), ("kind", name), (button, 0).
        self.roles: dict[int, tuple[str, Any]] = {}
        self.hex_led: dict[int, int] = {}
        for item in self._list(data, "hexes", source):
            h = whole(item.get("hex"), f"{source}: hexes hex", len(self.coords))
            self.hex_led[h] = whole(item.get("led"), f"{source}: hex {h} led", leds)
            self._role(whole(item.get("key"), f"{source}: hex {h} key", keys), ("hex", h), source)
        #: Water hexes with a key and no LED (they pick the sides around them); optional.
        self.sea_key: dict[int, int] = {}
        for item in self._list(data, "sea", source) if "sea" in data else []:
            h = whole(item.get("hex"), f"{source}: sea hex", len(self.coords))
            if h in self.hex_led:
                raise LayoutError(f"{source}: hex {h} is listed in both hexes and sea")
            self.sea_key[h] = whole(item.get("key"), f"{source}: sea hex {h} key", keys)
            self._role(self.sea_key[h], ("hex", h), source)
        self.corner_led: dict[int, int] = {}
        for item in self._list(data, "corners", source):
            v = whole(item.get("vertex"), f"{source}: corners vertex", 100_000)
            self.corner_led[v] = whole(item.get("led"), f"{source}: corner {v} led", leds)
        self.side_led: dict[int, int] = {}
        for item in self._list(data, "sides", source):
            e = whole(item.get("edge"), f"{source}: sides edge", 100_000)
            self.side_led[e] = whole(item.get("led"), f"{source}: side {e} led", leds)
            if "key" in item:
                self._role(whole(item["key"], f"{source}: side {e} key", keys), ("side", e), source)
        turn = self._list(data, "turn", source)
        if len(turn) != 4:
            raise LayoutError(f"{source}: turn must list 4 seats (an LED and a key each)")
        self.turn_leds: list[int] = []
        for seat, item in enumerate(turn):
            self.turn_leds.append(whole(item.get("led"), f"{source}: turn {seat} led", leds))
            self._role(whole(item.get("key"), f"{source}: turn {seat} key", keys), ("seat", seat), source)
        barbarians = data.get("barbarian_leds")
        if not isinstance(barbarians, list) or len(barbarians) != BARBARIAN_STEPS:
            raise LayoutError(f"{source}: barbarian_leds must list {BARBARIAN_STEPS} LEDs (the track)")
        self.barbarian_leds = [whole(led, f"{source}: barbarian LED", leds) for led in barbarians]
        dice = data.get("dice")
        if not isinstance(dice, dict):
            raise LayoutError(f"{source}: missing dice (white, red: leds and keys; event_led)")
        self.die_leds: dict[str, list[int]] = {}
        for die in ("white", "red"):
            part = dice.get(die)
            if not isinstance(part, dict) or not isinstance(part.get("leds"), list) or not isinstance(part.get("keys"), list):
                raise LayoutError(f"{source}: dice {die} needs leds and keys")
            if len(part["leds"]) != DIE_FACES or len(part["keys"]) != DIE_FACES:
                raise LayoutError(f"{source}: dice {die} needs {DIE_FACES} LEDs and {DIE_FACES} keys")
            self.die_leds[die] = [whole(led, f"{source}: {die} die LED", leds) for led in part["leds"]]
            for value, key in enumerate(part["keys"], start=1):
                self._role(whole(key, f"{source}: {die} die key", keys), (die, value), source)
        self.event_led = whole(dice.get("event_led"), f"{source}: dice event_led", leds)
        self.merchant_led = whole(data.get("merchant_led"), f"{source}: merchant_led", leds)
        kinds = data.get("kind_keys")
        if not isinstance(kinds, dict) or sorted(kinds) != sorted(KINDS):
            raise LayoutError(f"{source}: kind_keys must map {', '.join(KINDS)} to keys")
        for name in KINDS:
            self._role(whole(kinds[name], f"{source}: kind key {name}", keys), ("kind", name), source)
        buttons = data.get("buttons")
        if not isinstance(buttons, dict):
            raise LayoutError(f"{source}: buttons must map {', '.join(BUTTONS)} to keys")
        for name in BUTTONS:
            if name not in buttons:
                raise LayoutError(f"{source}: no {name} button")
            self._role(whole(buttons[name], f"{source}: button {name}", keys), (name, 0), source)
        used_leds = (
            list(self.hex_led.values()) + list(self.corner_led.values()) + list(self.side_led.values())
            + self.turn_leds + self.barbarian_leds + self.die_leds["white"] + self.die_leds["red"]
            + [self.event_led, self.merchant_led]
        )
        if len(set(used_leds)) != len(used_leds):
            raise LayoutError(f"{source}: an LED is given two roles")

    @staticmethod
    def _list(data: dict[str, Any], name: str, source: str) -> list[dict[str, Any]]:
        items = data.get(name)
        if not isinstance(items, list) or any(not isinstance(item, dict) for item in items):
            raise LayoutError(f"{source}: {name} must be a list of objects")
        return items

    def _role(self, key: int, role: tuple[str, Any], source: str) -> None:
        if key in self.roles:
            raise LayoutError(f"{source}: key {key} is given two roles")
        self.roles[key] = role

    @property
    def keyed_hexes(self) -> list[int]:
        """Every hex with a key: the land hexes, then the water hexes of ``sea``."""
        return list(self.hex_led) + list(self.sea_key)

    def key_of(self, role: str, value: Any = 0) -> int:
        """The key with ``role``: ``key_of("hex", 13)``, ``key_of("village")``, ``key_of("kind", "ore")``."""
        for key, found in self.roles.items():
            if found == (role, value):
                return key
        raise KeyError(f"no key for {role} {value!r} on this board")
