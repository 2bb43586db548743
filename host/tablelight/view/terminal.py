"""A terminal picture of the lit board: the seven tiles in their flower, status LEDs, a message.

Each tile is drawn as three rows of LED cells::

    NW  N  NE         edges 5 0 1
        C             the centre LED
    SW  S  SE         edges 4 3 2

Lit LEDs are coloured blocks (24-bit ANSI colour), LEDs that are off are dim dots so the
board's shape stays visible. When the pixels carry effects, blinking cells are drawn
``▒▒`` and pulsing ones ``▓▓``. Without colour (a log file) each lit LED is the letter of
its nearest colour (R red, G green, B blue, Y yellow, C cyan, M magenta, W white),
upper case when bright, lower case when dim, followed by ``*`` when it blinks and ``~``
when it pulses.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from typing import TextIO

from tablelight.table.layout import BoardLayout
from tablelight.view.colors import display_color

#: (row, column) of each LED cell inside a tile picture, by position 0-5 (edges) and 6 (centre).
_CELL = {5: (0, 0), 0: (0, 3), 1: (0, 6), 6: (1, 3), 4: (2, 0), 3: (2, 3), 2: (2, 6)}
_TILE_COLUMNS = 12
_RESET = "\033[0m"
_GLYPHS = {0: "██", 1: "▒▒", 2: "▓▓"}


_NAMES = {"R": (1, 0, 0), "G": (0, 1, 0), "B": (0, 0, 1), "Y": (1, 1, 0), "C": (0, 1, 1), "M": (1, 0, 1), "W": (1, 1, 1)}
_MARKS = {0: " ", 1: "*", 2: "~"}


def color_letter(pixel: Sequence[int]) -> str:
    """The nearest colour's letter of a lit LED, upper case when at least half bright."""
    top = max(pixel[:3])
    shares = [channel / top for channel in pixel[:3]]
    letter = min(_NAMES, key=lambda name: sum((a - b) ** 2 for a, b in zip(shares, _NAMES[name])))
    return letter if top >= 128 else letter.lower()


def _cell(pixel: Sequence[int], color: bool) -> str:
    r, g, b = display_color(pixel)
    effect = pixel[3] if len(pixel) > 3 else 0
    if (r, g, b) == (0, 0, 0):
        return "\033[2m··\033[0m" if color else "··"
    if not color:
        return color_letter(pixel) + _MARKS.get(effect, " ")
    glyph = _GLYPHS.get(effect, "██")
    return f"\033[38;2;{r};{g};{b}m{glyph}{_RESET}"


def draw(layout: BoardLayout, pixels: Sequence[Sequence[int]], *, color: bool = True, message: str = "") -> str:
    """The board picture as text (``color=False``: plain characters only)."""
    slots = layout.data["slots"]
    places = []
    for slot in slots:
        x, y = slot["center"]
        places.append((round(y / (3**0.5 / 2)) * 2, round(x / 1.5 * _TILE_COLUMNS)))
    top = min(row for row, _ in places)
    left = min(column for _, column in places)
    height = max(row for row, _ in places) - top + 3
    width = max(column for _, column in places) - left + _TILE_COLUMNS
    grid: list[list[str]] = [[" "] * width for _ in range(height)]
    for index, (row, column) in enumerate(places):
        for position, (dr, dc) in _CELL.items():
            led = layout.led_of(index, None if position == 6 else position)
            r, c = row - top + dr, column - left + dc
            grid[r][c] = _cell(pixels[led], color)
            grid[r][c + 1] = ""
    lines = ["  " + "".join(row).rstrip() for row in grid]
    turn = " ".join(_cell(pixels[led], color) for led in layout.turn_leds)
    phases = " ".join(f"{name} {_cell(pixels[led], color)}" for name, led in layout.phase_leds.items())
    lines.append(f"  turn {turn}   {phases}")
    if message:
        lines.append(f"  {message}")
    return "\n".join(lines)


class TerminalView:
    """Draws the board to a stream: in place on a terminal, one picture per change otherwise."""

    def __init__(self, layout: BoardLayout, stream: TextIO | None = None, *, color: bool | None = None) -> None:
        self.layout = layout
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty()
        self.color = self.live if color is None else color
        self.message = ""
        self._last: str | None = None
        self._lock = threading.Lock()

    def show(self, pixels: Sequence[Sequence[int]]) -> None:
        picture = draw(self.layout, pixels, color=self.color, message=self.message)
        with self._lock:
            if picture == self._last:
                return
            self._last = picture
            if self.live:
                self.stream.write("\033[H\033[2J" + picture + "\n")
            else:
                self.stream.write(picture + "\n\n")
            self.stream.flush()

    def follow(self, source: Callable[[], Sequence[Sequence[int]]], stop: threading.Event, interval: float = 0.1) -> threading.Thread:
        """Redraw from ``source`` (such as ``SimBoard.pixels``) every ``interval`` s until ``stop`` is set."""

        def loop() -> None:
            while not stop.is_set():
                try:
                    self.show(source())
                except Exception:  # the board went away: the caller reports that
                    pass
                stop.wait(interval)

        thread = threading.Thread(target=loop, name="terminal-view", daemon=True)
        thread.start()
        return thread
