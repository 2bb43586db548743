"""Landover's face, part 2: the look (see the face's module docstring, :mod:`.face`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from tablelight.core.fields import is_whole
from tablelight.core.game import Action, LogEntry
from tablelight.games.landover.choice import FIELD_KINDS, LandoverChoice
from tablelight.table.face import (
    BLINK,
    OFF,
    PULSE,
    SEAT_COLORS,
    SOLID,
    WHITE,
    DiceRoll,
    Pixel,
    flash_over,
    light_turns,
    scaled,
)

TERRAIN_COLORS: dict[str, tuple[int, int, int]] = {
    "sheep": (140, 255, 60),
    "forest": (0, 120, 30),
    "mountain": (130, 130, 170),
    "field": (255, 220, 0),
    "hills": (210, 70, 10),
    "gold": (255, 150, 0),
    "mystery": (120, 0, 200),
}
EVENT_COLORS: dict[str, tuple[int, int, int]] = {
    "barbarian": (255, 80, 0),
    "science": (0, 200, 0),
    "commerce": (255, 200, 0),
    "politics": (0, 80, 255),
}
HEX_LEVEL = 0.2
VILLAGE_LEVEL = 0.35
ROAD_LEVEL = 0.5
BRIDGE_LEVEL = 0.5
CANDIDATE_LEVEL = 0.6
BARBARIAN_ON: Pixel = (255, 80, 0, SOLID)
BARBARIAN_OFF: Pixel = (12, 4, 0, SOLID)
WHITE_DIE: Pixel = (200, 200, 200, SOLID)
RED_DIE: Pixel = (255, 0, 0, SOLID)


def pale(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour mixed half with white (bridges, walled cities)."""
    return ((color[0] + 255) // 2, (color[1] + 255) // 2, (color[2] + 255) // 2)


class LandoverLook(LandoverChoice):
    """What every LED of the Landover board shows."""

    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        pixels: list[Pixel] = self._with_legal(lambda: self._pixels(flashing))
        return pixels

    def _pixels(self, flashing: Collection[int]) -> list[Pixel]:
        game, layout = self.game, self.layout
        pixels: list[Pixel] = [OFF] * layout.leds
        seat = game.current_seat()
        producing = set(game.producing_hexes())
        merchant = game.merchant()
        for h, led in layout.hex_led.items():
            color = TERRAIN_COLORS.get(game.terrain(h), (0, 0, 0))
            look = scaled(color, HEX_LEVEL)
            if merchant is not None and h == merchant[1]:
                look = scaled(SEAT_COLORS[merchant[0]], 1.0, PULSE)
            if h in producing:
                look = scaled(color, 1.0)
            catapult = game.catapult_on(h)
            if catapult is not None:
                look = scaled(SEAT_COLORS[catapult], 1.0, BLINK)
            pixels[led] = look
        for v, led in layout.corner_led.items():
            owner = game.corner_owner(v)
            if owner is None:
                continue
            if game.corner_piece(v) == "village":
                pixels[led] = scaled(SEAT_COLORS[owner], VILLAGE_LEVEL)
            else:
                color = pale(SEAT_COLORS[owner]) if game.has_wall(v) else SEAT_COLORS[owner]
                pixels[led] = scaled(color, 1.0, PULSE if game.metro_on(v) is not None else SOLID)
        for e, led in layout.side_led.items():
            owner = game.side_owner(e)
            if owner is None:
                continue
            if game.side_piece(e) == "road":
                pixels[led] = scaled(SEAT_COLORS[owner], ROAD_LEVEL)
            else:
                pixels[led] = scaled(pale(SEAT_COLORS[owner]), BRIDGE_LEVEL)
        light_turns(pixels, layout.turn_leds[: game.players], SEAT_COLORS, seat, set(game.winners()))
        for step, led in enumerate(layout.barbarian_leds):
            pixels[led] = BARBARIAN_ON if step < game.barbarians else BARBARIAN_OFF
        dice = game.dice()
        if dice:
            for die, look in (("white", WHITE_DIE), ("red", RED_DIE)):
                for n, led in enumerate(layout.die_leds[die]):
                    pixels[led] = look if n < dice[die] else OFF
            pixels[layout.event_led] = scaled(EVENT_COLORS[dice["event"]], 1.0)
        if merchant is not None:
            pixels[layout.merchant_led] = scaled(SEAT_COLORS[merchant[0]], 1.0)
        if seat is not None:
            self._show_choice(pixels, seat)
        return flash_over(pixels, flashing)

    def _leds_of(self, field: str, value: Any) -> list[int]:
        layout = self.layout
        slot = FIELD_KINDS[field]
        values = value if isinstance(value, list) else [value]
        found: list[int | None] = []
        for x in values:
            if slot == "corner":
                found.append(layout.corner_led.get(x))
            elif slot == "side":
                found.append(layout.side_led.get(x))
            elif slot in ("hex", "hexes"):
                found.append(layout.hex_led.get(x))
            elif slot == "seat":
                found.append(layout.turn_leds[x])
            elif slot in ("white", "red"):
                found.append(layout.die_leds[slot][x - 1])
        return [led for led in found if led is not None]

    def _show_choice(self, pixels: list[Pixel], seat: int) -> None:
        if self._mode() is None or self.secret_choice():  # a development card's choice is the seat's alone
            return
        color = SEAT_COLORS[seat]
        field = self.open_field()
        if field is not None:
            for value in self.options(field):
                for led in self._leds_of(field, value):
                    pixels[led] = scaled(color, CANDIDATE_LEVEL, PULSE)
        for name, value in self.chosen.items():
            for led in self._leds_of(name, value):
                pixels[led] = scaled(color, 1.0)
        if self.tentative is not None:
            for led in self._leds_of(*self.tentative):
                pixels[led] = scaled(color, 1.0, BLINK)

    def dice_rolls(self, entries: Sequence[LogEntry]) -> list[DiceRoll]:
        """The white and red dice rolled among new log ``entries`` (the alchemist's chosen numbers are not rolled)."""
        rolls: list[DiceRoll] = []
        entries = list(entries)
        for index, entry in enumerate(entries[:-1]):
            after = entries[index + 1]
            if entry.get("chance") == "white_die" and after.get("chance") == "red_die":
                leds = self.layout.die_leds["white"] + self.layout.die_leds["red"]
                rolls.append(DiceRoll(leds, [int(entry["value"]), int(after["value"])], WHITE))
        return rolls

    def flash_for(self, action: Action) -> list[int]:
        layout = self.layout
        leds: list[int] = []
        for name in ("vertex", "city", "edge", "to", "hex"):
            value = action.get(name)
            if not is_whole(value):
                continue
            for led in self._leds_of(name, value) if self._known(name, value) else []:
                leds.append(led)
        if leds:
            return leds
        seat = self.game.current_seat()
        return [] if seat is None else [layout.turn_leds[seat]]

    def _known(self, name: str, value: int) -> bool:
        slot = FIELD_KINDS[name]
        table = {"corner": self.layout.corner_led, "side": self.layout.side_led, "hex": self.layout.hex_led}[slot]
        return value in table
