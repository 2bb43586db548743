"""Farlander state -> the look of every LED of the lit board.

A pixel is ``(r, g, b, effect)`` with effect 0 solid, 1 blink, 2 pulse (the board
animates blink and pulse by itself). Colours are given at full scale; the board's
brightness setting and current limiter scale them down.

What the board shows:

* each territory lights its slices in its owner's colour, brighter with more units
  (1 unit ~30 %, 5 units full); an empty territory stays dark;
* the centre LED of a slot without an interior territory stays dark;
* the turn LED of the seat to act pulses in that seat's colour, the other seats'
  turn LEDs glow dimly in theirs; once the game is over the winners' blink;
* one phase LED (white) shows the distribution or the action phase;
* while a person builds a conquest, the target blinks in the attacker's colour,
  bordering territories that can still send units pulse, and those already sending
  units shine at full brightness;
* a rejected press flashes the territory white (blink) for a moment.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from tablelight.table.layout import BoardLayout

if TYPE_CHECKING:
    from tablelight.games.farlander.engine import Farlander

Pixel = tuple[int, int, int, int]
SOLID, BLINK, PULSE = 0, 1, 2
OFF: Pixel = (0, 0, 0, SOLID)

#: Seat colours as in the box: red, blue, green, yellow.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = ((255, 0, 0), (0, 60, 255), (0, 200, 0), (255, 170, 0))
SEAT_NAMES = ("red", "blue", "green", "yellow")
FLASH_COLOR = (255, 255, 255)
PHASE_COLOR = (160, 160, 160)
#: Brightness of a territory holding 1..5 units.
UNIT_LEVELS = (0.0, 0.3, 0.45, 0.6, 0.8, 1.0)
IDLE_TURN_LEVEL = 0.12


def scaled(color: tuple[int, int, int], level: float, effect: int = SOLID) -> Pixel:
    r, g, b = color
    return (round(r * level), round(g * level), round(b * level), effect)


def territory_leds(game: Farlander, layout: BoardLayout) -> list[list[int]]:
    """Per territory index: the LEDs it lights."""
    return [layout.leds_of(t.tile, t.edges) for t in game.map.territories]


def render(
    game: Farlander,
    layout: BoardLayout,
    *,
    target: int | None = None,
    moves: Mapping[int, int] | None = None,
    sources: Collection[int] = (),
    flash: Collection[int] = (),
) -> list[Pixel]:
    """The pixels for ``game`` with an optional conquest being built and territories flashing."""
    pixels: list[Pixel] = [OFF] * layout.leds
    leds = territory_leds(game, layout)
    moves = moves or {}
    seat = game.current_seat()
    for t, owner in enumerate(game.owner):
        units = game.units[t]
        if owner < 0 or units <= 0:
            look = OFF
        else:
            look = scaled(SEAT_COLORS[owner], UNIT_LEVELS[min(units, len(UNIT_LEVELS) - 1)])
        if seat is not None:
            if t == target:
                look = scaled(SEAT_COLORS[seat], 1.0, BLINK)
            elif moves.get(t, 0) > 0:
                look = scaled(SEAT_COLORS[seat], 1.0)
            elif t in sources:
                look = scaled(SEAT_COLORS[seat], 0.8, PULSE)
        if t in flash:
            look = scaled(FLASH_COLOR, 1.0, BLINK)
        for led in leds[t]:
            pixels[led] = look
    winners = set(game.winners())
    for s, led in enumerate(layout.turn_leds):
        if s >= game.players:
            continue
        if seat is None:
            pixels[led] = scaled(SEAT_COLORS[s], 1.0, BLINK) if s in winners else scaled(SEAT_COLORS[s], IDLE_TURN_LEVEL)
        elif s == seat:
            pixels[led] = scaled(SEAT_COLORS[s], 1.0, PULSE)
        else:
            pixels[led] = scaled(SEAT_COLORS[s], IDLE_TURN_LEVEL)
    if seat is not None and game.phase in layout.phase_leds:
        pixels[layout.phase_leds[game.phase]] = scaled(PHASE_COLOR, 1.0)
    return pixels
