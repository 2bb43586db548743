"""A terminal picture of any lit board, drawn from its layout's generic ``drawing``.

Each LED is a two-character cell. The cells stand where the drawing's ``grid`` puts
them (``LED -> [column, row]`` on a character grid); LEDs without a grid place (or all
of them, when the layout has no grid) are either placed from their drawing
coordinates or, when they carry a ``label``, listed under the picture as
``label cell`` (LEDs in a row with the same label share it: ``turn ▓▓ ·· ··``). A
message line comes last.

Lit LEDs are coloured blocks (24-bit ANSI colour), LEDs that are off are dim dots so the
board's shape stays visible. When the pixels carry effects, blinking cells are drawn
``▒▒`` and pulsing ones ``▓▓``. Without colour (a log file) each lit LED is the letter of
its nearest colour (R red, G green, B blue, Y yellow, C cyan, M magenta, W white),
upper case when bright, lower case when dim, followed by ``*`` when it blinks and ``~``
when it pulses.

A face may name places (``led_labels``: LED -> a name of at most two characters, such as
Farlander's territory ids): the named LED shows its name, on the LED's colour; without
colour a lit named LED keeps its letter and only a dark one shows the name. Prompts and
typed input use the same names.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from tablelight.view.colors import display_color

_RESET = "\033[0m"
LEGEND_WIDTH = 76
_GLYPHS = {0: "██", 1: "▒▒", 2: "▓▓"}


_NAMES = {"R": (1, 0, 0), "G": (0, 1, 0), "B": (0, 0, 1), "Y": (1, 1, 0), "C": (0, 1, 1), "M": (1, 0, 1), "W": (1, 1, 1)}
_MARKS = {0: " ", 1: "*", 2: "~"}


def color_letter(pixel: Sequence[int]) -> str:
    """The nearest colour's letter of a lit LED, upper case when at least half bright."""
    top = max(pixel[:3])
    shares = [channel / top for channel in pixel[:3]]
    letter = min(_NAMES, key=lambda name: sum((a - b) ** 2 for a, b in zip(shares, _NAMES[name])))
    return letter if top >= 128 else letter.lower()


def _cell(pixel: Sequence[int], color: bool, label: str | None = None) -> str:
    r, g, b = display_color(pixel)
    effect = pixel[3] if len(pixel) > 3 else 0
    if label is not None:
        name = label[:2].ljust(2)
        if not color:
            return name if (r, g, b) == (0, 0, 0) else color_letter(pixel) + _MARKS.get(effect, " ")
        if (r, g, b) == (0, 0, 0):
            return f"\033[2m{name}\033[0m"
        ink = "30" if max(r, g, b) >= 128 else "97"  # dark text on a bright LED, white on a dim one
        blink = "\033[5m" if effect == 1 else ""
        return f"\033[{ink}m\033[48;2;{r};{g};{b}m{blink}{name}{_RESET}"
    if (r, g, b) == (0, 0, 0):
        return "\033[2m··\033[0m" if color else "··"
    if not color:
        return color_letter(pixel) + _MARKS.get(effect, " ")
    glyph = _GLYPHS.get(effect, "██")
    return f"\033[38;2;{r};{g};{b}m{glyph}{_RESET}"


def led_centre(item: dict[str, Any]) -> tuple[float, float]:
    """The centre of one drawn LED in layout units."""
    if item["shape"] == "polygon":
        points = item["points"]
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    x, y = item["at"]
    if item["shape"] == "rect":
        w, h = item["size"]
        return x + w / 2, y + h / 2
    return float(x), float(y)


def terminal_places(layout: dict[str, Any]) -> tuple[dict[int, tuple[int, int]], list[tuple[int, str]]]:
    """(LED -> (column, row) on the character grid, [(LED, label)] listed under the picture)."""
    drawing = layout["drawing"]
    grid = drawing.get("grid") or {}
    places = {int(led): (place[0], place[1]) for led, place in (grid.get("cells") or {}).items()}
    listed: list[tuple[int, str]] = []
    loose: list[dict[str, Any]] = []
    for item in drawing["leds"]:
        if item["led"] in places:
            continue
        if grid and "label" in item:
            listed.append((item["led"], item["label"]))
        else:
            loose.append(item)
    if loose:
        # Rank the distinct centre coordinates: a matrix keeps its rows and columns.
        centres = {item["led"]: led_centre(item) for item in loose}
        xs = sorted({round(x, 2) for x, _ in centres.values()})
        ys = sorted({round(y, 2) for _, y in centres.values()})
        top = max((row for _, row in places.values()), default=-2) + 2
        taken = set(places.values())
        for led, (x, y) in sorted(centres.items()):
            column, row = xs.index(round(x, 2)) * 3, top + ys.index(round(y, 2))
            while (column, row) in taken or (column + 1, row) in taken:
                column += 3
            places[led] = (column, row)
            taken.add((column, row))
    return places, sorted(listed)  # LED order: a row of status LEDs stays in its order


def draw(
    layout: dict[str, Any],
    pixels: Sequence[Sequence[int]],
    *,
    color: bool = True,
    message: str = "",
    labels: dict[int, str] | None = None,
) -> str:
    """The board picture as text (``color=False``: plain characters only; ``labels``: LED -> place name)."""
    labels = labels or {}
    places, listed = terminal_places(layout)
    width = max((column for column, _ in places.values()), default=0) + 2
    height = max((row for _, row in places.values()), default=-1) + 1
    grid: list[list[str]] = [[" "] * width for _ in range(height)]
    for led, (column, row) in places.items():
        grid[row][column] = _cell(pixels[led], color, labels.get(led))
        grid[row][column + 1] = ""
    lines = ["  " + "".join(row).rstrip() for row in grid]
    if listed:
        # LEDs in a row with one label share it: "turn ▓▓ ·· ··   action ··".
        groups: list[tuple[str, list[int]]] = []
        for led, label in listed:
            if groups and groups[-1][0] == label:
                groups[-1][1].append(led)
            else:
                groups.append((label, [led]))
        # One line, wrapped before LEGEND_WIDTH visible characters (a cell shows 2).
        line, width = "", 0
        for label, leds in groups:
            text = f"{label} " + " ".join(_cell(pixels[led], color) for led in leds)
            size = len(label) + 3 * len(leds)
            if width and width + 3 + size > LEGEND_WIDTH:
                lines.append("  " + line)
                line, width = "", 0
            line, width = (f"{line}   {text}", width + 3 + size) if width else (text, size)
        lines.append("  " + line)
    if message:
        lines.extend(f"  {line}" for line in message.split("\n"))
    return "\n".join(lines)


class TerminalView:
    """Draws the board to a stream: in place on a terminal, one picture per change otherwise."""

    def __init__(
        self,
        layout: dict[str, Any],
        stream: TextIO | None = None,
        *,
        color: bool | None = None,
        labels: dict[int, str] | None = None,
    ) -> None:
        self.layout = layout
        self.labels = labels or {}
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty()
        self.color = self.live if color is None else color
        self.message = ""
        #: Lines drawn under the picture and message (the seats' join links and QR codes).
        self.footer = ""
        self._last: str | None = None
        self._lock = threading.Lock()

    def show(self, pixels: Sequence[Sequence[int]]) -> None:
        picture = draw(self.layout, pixels, color=self.color, message=self.message, labels=self.labels)
        if self.footer:
            picture += "\n" + self.footer
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
