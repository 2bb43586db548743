"""The Farside console's layout: the ``farside`` section of ``hardware/layouts/farside.json``
(see the face's module docstring, :mod:`tablelight.games.farside.face`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablelight.core.fields import is_whole
from tablelight.table.layout import LayoutError

PHASES = ("setup", "secrets", "command", "action", "melee", "impact")
BUTTONS = ("roll", "spend", "advance", "impact", "leave", "group", "prev", "next", "field", "confirm", "cancel")
TRACK_LEDS = 10
AP_LEDS = 6


class FarsideLayoutError(LayoutError):
    """The layout's ``farside`` section is missing or inconsistent."""



def _ints(value: Any, count: int | None, leds: int, what: str) -> list[int]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise FarsideLayoutError(f"farside layout: {what} must list {count} LED/key numbers")
    for item in value:
        if not is_whole(item) or not 0 <= item < leds:
            raise FarsideLayoutError(f"farside layout: {what}: {item!r} is not a number 0-{leds - 1}")
    return list(value)


class FarsideLayout:
    """The ``farside`` section of a layout, checked: which LED and key does what."""

    def __init__(self, data: dict[str, Any]) -> None:
        section = data.get("farside")
        if not isinstance(section, dict):
            raise FarsideLayoutError("farside layout: missing section 'farside' (see hardware/layouts/farside.json)")
        leds, keys = data.get("leds"), data.get("keys")
        if not isinstance(leds, int) or not isinstance(keys, int):
            raise FarsideLayoutError("farside layout: leds and keys must be numbers")
        self.leds = leds
        seats = section.get("seats")
        if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, dict) for s in seats):
            raise FarsideLayoutError("farside layout: seats must list two objects (red, blue)")
        self.command_die = [_ints(s.get("command_die"), 7, leds, f"seat {n} command_die") for n, s in enumerate(seats)]
        self.manoeuvre_die = [_ints(s.get("manoeuvre_die"), 7, leds, f"seat {n} manoeuvre_die") for n, s in enumerate(seats)]
        self.action_points = [_ints(s.get("action_points"), AP_LEDS, leds, f"seat {n} action_points") for n, s in enumerate(seats)]
        self.turn = [_ints([s.get("turn")], 1, leds, f"seat {n} turn")[0] for n, s in enumerate(seats)]
        self.command_key = [_ints([s.get("command_key")], 1, keys, f"seat {n} command_key")[0] for n, s in enumerate(seats)]
        self.manoeuvre_key = [_ints([s.get("manoeuvre_key")], 1, keys, f"seat {n} manoeuvre_key")[0] for n, s in enumerate(seats)]
        self.track = _ints(section.get("objective_track"), TRACK_LEDS, leds, "objective_track")
        phases = section.get("phases")
        if not isinstance(phases, dict) or sorted(phases) != sorted(PHASES):
            raise FarsideLayoutError(f"farside layout: phases must map {', '.join(PHASES)} to LEDs")
        self.phases = {name: _ints([led], 1, leds, f"phase {name}")[0] for name, led in phases.items()}
        last = section.get("last_roll")
        if not isinstance(last, list) or len(last) != 2:
            raise FarsideLayoutError("farside layout: last_roll must list two dice of 7 pip LEDs")
        self.last_roll = [_ints(die, 7, leds, f"last_roll die {n}") for n, die in enumerate(last)]
        self.last_roll_keys = _ints(section.get("last_roll_keys"), 2, keys, "last_roll_keys")
        buttons = section.get("buttons")
        if not isinstance(buttons, dict) or sorted(buttons) != sorted(BUTTONS):
            raise FarsideLayoutError(f"farside layout: buttons must name {', '.join(BUTTONS)}")
        self.button_key: dict[str, int] = {}
        self.button_led: dict[str, int] = {}
        for name, item in buttons.items():
            if not isinstance(item, dict):
                raise FarsideLayoutError(f"farside layout: button {name} must be an object with key and led")
            self.button_key[name] = _ints([item.get("key")], 1, keys, f"button {name} key")[0]
            self.button_led[name] = _ints([item.get("led")], 1, leds, f"button {name} led")[0]
        all_leds = [led for group in self.command_die + self.manoeuvre_die + self.action_points + self.last_roll for led in group]
        all_leds += self.turn + self.track + list(self.phases.values()) + list(self.button_led.values())
        if len(set(all_leds)) != len(all_leds):
            raise FarsideLayoutError("farside layout: an LED is given two roles")
        all_keys = self.command_key + self.manoeuvre_key + self.last_roll_keys + list(self.button_key.values())
        if len(set(all_keys)) != len(all_keys):
            raise FarsideLayoutError("farside layout: a key is given two roles")
        #: key -> what it is: ("button", name), ("command", seat), ("manoeuvre", seat), ("last", die)
        self.key_role: dict[int, tuple[str, Any]] = {}
        for name, key in self.button_key.items():
            self.key_role[key] = ("button", name)
        for seat in (0, 1):
            self.key_role[self.command_key[seat]] = ("command", seat)
            self.key_role[self.manoeuvre_key[seat]] = ("manoeuvre", seat)
        for die, key in enumerate(self.last_roll_keys):
            self.key_role[key] = ("last", die)

    def leds_to_flash(self, things: Sequence[Any]) -> list[int]:
        """The LEDs of flash targets (see :meth:`flash_leds`), in order."""
        return [led for thing in things for led in self.flash_leds(str(thing))]

    def flash_leds(self, thing: str) -> list[int]:
        """The LEDs of a flash target: a button name, ``command0``, ``manoeuvre1``, ``ap0``, ``last``, ``track``."""
        if thing in self.button_led:
            return [self.button_led[thing]]
        for prefix, groups in (("command", self.command_die), ("manoeuvre", self.manoeuvre_die), ("ap", self.action_points)):
            if thing.startswith(prefix) and thing[len(prefix):] in ("0", "1"):
                return list(groups[int(thing[len(prefix):])])
        if thing == "last":
            return self.last_roll[0] + self.last_roll[1]
        if thing == "track":
            return list(self.track)
        return []
