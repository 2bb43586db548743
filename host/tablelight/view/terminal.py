"""A terminal picture of any lit board, drawn from its layout's generic ``drawing``, and the
terminal screen ``tablelight play`` keeps: the board on top, a history of what happened under it,
the line you type at the bottom.

Each LED is a two-character cell. The cells stand where the drawing's ``grid`` puts
them (``LED -> [column, row]`` on a character grid); LEDs without a grid place (or all
of them, when the layout has no grid) are either placed from their drawing
coordinates or, when they carry a ``label``, listed under the picture as
``label cell`` (LEDs in a row with the same label share it: ``turn ▓▓ ·· ··``).

Lit LEDs are coloured blocks (24-bit ANSI colour), LEDs that are off are dim dots so the
board's shape stays visible. When the pixels carry effects, blinking cells are drawn
``▒▒`` and pulsing ones ``▓▓``. Without colour (a log file) each lit LED is the letter of
its nearest colour (R red, G green, B blue, Y yellow, C cyan, M magenta, W white),
upper case when bright, lower case when dim, followed by ``*`` when it blinks and ``~``
when it pulses.

A face may name places (``led_labels``: LED -> a name of at most two characters, such as
Farlander's territory ids): the named LED shows its name, in black or white on the LED's
colour, whichever reads better (:func:`tablelight.view.colors.text_on`); without colour a lit
named LED keeps its letter and only a dark one shows the name. Prompts and typed input use the
same names. A face may also give numbers the board shows only as brightness (``led_counts``:
Farlander's units): each is written as superscript digits right after its LED's cell
(``c2³``: three units in c2).

A picture taller than the screen allows is drawn compact (:func:`squeeze`): rows are folded
together and, where two cells meet, a named LED wins over a lit one and a lit one over a dark one.
"""

from __future__ import annotations

import os
import sys
import textwrap
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from tablelight.view.colors import display_color, text_on

_RESET = "\033[0m"
LEGEND_WIDTH = 76
_GLYPHS = {0: "██", 1: "▒▒", 2: "▓▓"}
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


_NAMES = {"R": (1, 0, 0), "G": (0, 1, 0), "B": (0, 0, 1), "Y": (1, 1, 0), "C": (0, 1, 1), "M": (1, 0, 1), "W": (1, 1, 1)}
_MARKS = {0: " ", 1: "*", 2: "~"}


def color_letter(pixel: Sequence[int]) -> str:
    """The nearest colour's letter of a lit LED, upper case when at least half bright."""
    top = max(pixel[:3])
    shares = [channel / top for channel in pixel[:3]]
    letter = min(_NAMES, key=lambda name: sum((a - b) ** 2 for a, b in zip(shares, _NAMES[name])))
    return letter if top >= 128 else letter.lower()


def shown_name(text: str) -> str:
    """A name from a file (a map's id, a layout's label) as drawn: a character that is not printable
    (an escape, a line break) is drawn as ``?``, so a file cannot drive the terminal."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _cell(pixel: Sequence[int], color: bool, label: str | None = None) -> str:
    r, g, b = display_color(pixel)
    effect = pixel[3] if len(pixel) > 3 else 0
    if label is not None:
        name = shown_name(label[:2]).ljust(2)
        if not color:
            return name if (r, g, b) == (0, 0, 0) else color_letter(pixel) + _MARKS.get(effect, " ")
        if (r, g, b) == (0, 0, 0):
            return f"\033[2m{name}\033[0m"
        ink = ";".join(map(str, text_on((r, g, b))))
        blink = "\033[5m" if effect == 1 else ""
        return f"\033[38;2;{ink}m\033[48;2;{r};{g};{b}m{blink}{name}{_RESET}"
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


def squeeze(
    places: dict[int, tuple[int, int]], rows: int, rank: Callable[[int], int]
) -> dict[int, tuple[int, int]]:
    """``places`` folded into at most ``rows`` rows: every ``k`` rows become one (the least ``k``
    that fits). Where two cells then overlap, the LED with the higher ``rank`` stays; dark nameless
    LEDs (rank 0) stay only from the first row of each fold."""
    height = max((row for _, row in places.values()), default=-1) + 1
    if height <= rows or rows < 1:
        return places
    fold = -(-height // rows)
    kept: dict[int, tuple[int, int]] = {}
    used: set[tuple[int, int]] = set()
    for led in sorted(places, key=lambda led: (-rank(led), led)):
        column, row = places[led]
        if rank(led) == 0 and row % fold:
            continue  # a dark, nameless LED from a folded-in row: the shape shows without it
        spot = (column, row // fold)
        if {spot, (column + 1, spot[1]), (column - 1, spot[1])} & used:
            continue
        kept[led] = spot
        used.add(spot)
    return kept


def _legend(listed: list[tuple[int, str]], pixels: Sequence[Sequence[int]], color: bool) -> list[str]:
    """The listed LEDs, one line wrapped before LEGEND_WIDTH visible characters (a cell shows 2).

    LEDs in a row with one label share it: "turn ▓▓ ·· ··   action ··"."""
    if not listed:
        return []
    groups: list[tuple[str, list[int]]] = []
    for led, label in listed:
        if groups and groups[-1][0] == label:
            groups[-1][1].append(led)
        else:
            groups.append((label, [led]))
    lines: list[str] = []
    line, width = "", 0
    for label, leds in groups:
        label = shown_name(label)
        text = f"{label} " + " ".join(_cell(pixels[led], color) for led in leds)
        size = len(label) + 3 * len(leds)
        if width and width + 3 + size > LEGEND_WIDTH:
            lines.append("  " + line)
            line, width = "", 0
        line, width = (f"{line}   {text}", width + 3 + size) if width else (text, size)
    lines.append("  " + line)
    return lines


def draw(
    layout: dict[str, Any],
    pixels: Sequence[Sequence[int]],
    *,
    color: bool = True,
    message: str = "",
    labels: dict[int, str] | None = None,
    counts: dict[int, int] | None = None,
    max_rows: int | None = None,
) -> str:
    """The board picture as text (``color=False``: plain characters only; ``labels``: LED -> place
    name; ``counts``: LED -> a number written after its cell; ``max_rows``: draw compact to fit)."""
    labels = labels or {}
    counts = counts or {}
    places, listed = terminal_places(layout)
    legend = _legend(listed, pixels, color)
    if max_rows is not None:
        def rank(led: int) -> int:  # a named place first, then a lit LED, then a dark one
            return 2 if led in labels else int(any(pixels[led][:3]))

        places = squeeze(places, max_rows - len(legend) - (message.count("\n") + 1 if message else 0), rank)
    width = max((column for column, _ in places.values()), default=0) + 3
    height = max((row for _, row in places.values()), default=-1) + 1
    grid: list[list[str]] = [[" "] * width for _ in range(height)]
    starts = set(places.values())
    for led, (column, row) in places.items():
        grid[row][column] = _cell(pixels[led], color, labels.get(led))
        grid[row][column + 1] = ""
    for led, count in counts.items():
        if led not in places or count <= 0:
            continue
        column, row = places[led]
        if grid[row][column + 2] == " " and (column + 2, row) not in starts:
            digits = str(count).translate(_SUPERSCRIPT)
            if len(digits) == 1 or (column + 3 < width and grid[row][column + 3] == " " and (column + 3, row) not in starts):
                grid[row][column + 2] = f"\033[1m{digits}\033[0m" if color else digits
                if len(digits) > 1:
                    grid[row][column + 3] = ""
    lines = ["  " + "".join(row).rstrip() for row in grid]
    lines.extend(legend)
    if message:
        lines.extend(f"  {line}" for line in message.split("\n"))
    return "\n".join(lines)


_QR_CHARACTERS = frozenset(" █▀▄")


def _is_qr_row(line: str) -> bool:
    """A row of a QR code drawn in text (block characters only), as the join lines carry them."""
    return bool(line.strip()) and set(line) <= _QR_CHARACTERS


#: The least number of history rows a live screen keeps under the board.
MIN_HISTORY_ROWS = 4
#: How many history lines are kept (more than any screen shows).
HISTORY_KEPT = 200
#: The prompt `tablelight play` writes where a person types.
PROMPT = "> "


class TerminalView:
    """Draws the board to a stream.

    Not a terminal (a log file, a pipe): one picture per change, and each line of words as it comes.
    A terminal: one screen (see the module docstring): the rows above the last two are drawn here,
    only when what they show changed, with the cursor saved and restored around each drawing, so the
    line being typed at the bottom stays where it is. The last two rows are a scroll region
    (DECSTBM): the line just typed moves up one when Enter is pressed, and the board stays put.
    """

    def __init__(
        self,
        layout: dict[str, Any],
        stream: TextIO | None = None,
        *,
        color: bool | None = None,
        labels: dict[int, str] | None = None,
        size: tuple[int, int] | None = None,
        prompt: str = "",
    ) -> None:
        self.layout = layout
        self.labels = labels or {}
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty()
        self.color = self.live if color is None else color
        #: (columns, rows) to draw for; None: the terminal's own size, read at each drawing.
        self.size = size
        #: Written at the start of the bottom row, where a person types (none when nobody types).
        self.prompt = prompt
        #: Only used when not live: a line drawn under each picture.
        self.message = ""
        self.history: deque[str] = deque(maxlen=HISTORY_KEPT)
        #: How many times the screen (or, not live, a picture) was written: a test counts them.
        self.redraws = 0
        self._footer = ""
        self._pixels: Sequence[Sequence[int]] | None = None
        self._counts: dict[int, int] = {}
        self._last: str | None = None
        self._rows_shown: list[str] = []
        self._screen: tuple[int, int] | None = None
        self._lock = threading.Lock()

    @property
    def footer(self) -> str:
        """Lines drawn under the picture (the seats' join links and QR codes)."""
        return self._footer

    @footer.setter
    def footer(self, text: str) -> None:
        self._footer = text
        if self._pixels is not None:
            self.render()

    def screen_size(self) -> tuple[int, int]:
        if self.size is not None:
            return self.size
        try:
            size = os.get_terminal_size(self.stream.fileno())
        except (OSError, ValueError, AttributeError):
            return 80, 24
        # A terminal that does not know its size (a pty nobody sized) says 0: take the usual 80x24.
        return size.columns or 80, size.lines or 24

    def show(self, pixels: Sequence[Sequence[int]], counts: dict[int, int] | None = None) -> None:
        """What the board shows now (``counts``: LED -> a number written after it, see :func:`draw`)."""
        self._pixels = list(pixels)
        if counts is not None:
            self._counts = dict(counts)
        self.render()

    def note(self, text: str) -> None:
        """Words for everyone: into the history on a terminal, printed as a line otherwise."""
        if not self.live:
            self.stream.write(text + "\n")
            self.stream.flush()
            return
        self.history.extend(text.split("\n"))
        self.render()

    def history_rows(self) -> int:
        """How many history lines the screen shows now (a numbered list of choices fits in it)."""
        return max(MIN_HISTORY_ROWS, self._frame()[2])

    def render(self) -> None:
        with self._lock:
            if self.live:
                self._render_screen()
            elif self._pixels is not None:
                picture = draw(self.layout, self._pixels, color=self.color, message=self.message,
                               labels=self.labels, counts=self._counts)
                if self._footer:
                    picture += "\n" + self._footer
                if picture != self._last:
                    self._last = picture
                    self.redraws += 1
                    self.stream.write(picture + "\n\n")
                    self.stream.flush()

    def _frame(self) -> tuple[list[str], list[str], int]:
        """(board and footer rows, history rows, how many history rows there is room for)."""
        columns, rows = self.screen_size()
        room = rows - 2  # the last two rows: the line typed before and the line being typed
        most = room - 1 - MIN_HISTORY_ROWS  # the board and the footer; then a rule and the history
        width = max(20, columns - 1)
        # Footer lines are wrapped to the screen (a terminal's own wrapping would shift every row).
        footer = [part for line in (self._footer.split("\n") if self._footer else [])
                  for part in ([line] if _is_qr_row(line) else textwrap.wrap(line, width, subsequent_indent="  ") or [""])]
        words = [line for line in footer if not _is_qr_row(line)]
        board: list[str] = []
        if self._pixels is not None:
            picture = draw(self.layout, self._pixels, color=self.color, labels=self.labels,
                           counts=self._counts, max_rows=max(3, most - len(words)))
            board = picture.split("\n")
        # QR codes only where they fit: their join lines (link and code) always stay.
        top = board + (footer if len(board) + len(footer) <= most else words)
        top = top[: max(0, most)]
        wrapped = [part for line in self.history for part in (textwrap.wrap(line, width, subsequent_indent="  ") or [""])]
        space = room - len(top) - 1
        return top, wrapped[-space:] if space > 0 else [], space

    def _render_screen(self) -> None:
        columns, rows = self.screen_size()
        top, history, _ = self._frame()
        rule = "\033[2m" + "─" * min(columns - 1, 79) + _RESET if self.color else "-" * min(columns - 1, 79)
        wanted = top + [rule] + history
        wanted += [""] * (rows - 2 - len(wanted))
        out: list[str] = []
        if self._screen != (columns, rows):
            # A new screen (or a resized one): clear it, keep the last two rows scrolling, prompt at the bottom.
            out.append(f"\033[2J\033[{rows - 1};{rows}r\033[{rows};1H{self.prompt}")
            self._screen = (columns, rows)
            self._rows_shown = []
        changed = [(i, line) for i, line in enumerate(wanted) if i >= len(self._rows_shown) or self._rows_shown[i] != line]
        if not changed and not out:
            return
        out.append("\0337")  # DECSC: the cursor (on the line being typed) comes back after the drawing
        out.extend(f"\033[{i + 1};1H{line}\033[K" for i, line in changed)
        out.append("\0338")
        self._rows_shown = wanted
        self.redraws += 1
        self.stream.write("".join(out))
        self.stream.flush()

    def typed(self) -> None:
        """A line was typed and taken: a fresh prompt on the bottom row."""
        if self.live and self._screen is not None:
            rows = self._screen[1]
            with self._lock:
                self.stream.write(f"\033[{rows};1H\033[K{self.prompt}")
                self.stream.flush()

    def close(self) -> None:
        """Give the terminal back: the whole screen scrolls again, the cursor under everything."""
        if self.live and self._screen is not None:
            rows = self._screen[1]
            with self._lock:
                self.stream.write(f"\033[r\033[{rows};1H\n")
                self.stream.flush()
            self._screen = None

    def follow(self, source: Callable[[], Sequence[Sequence[int]]], stop: threading.Event, interval: float = 0.1) -> threading.Thread:
        """Redraw from ``source`` (such as ``SimBoard.pixels``) every ``interval`` s until ``stop`` is set
        (``tablelight sim``: it watches a board's own animations)."""

        def loop() -> None:
            while not stop.is_set():
                try:
                    self.show(source())
                except Exception:  # the board went away: the caller reports that
                    pass
                stop.wait(interval)
            self.close()

        thread = threading.Thread(target=loop, name="terminal-view", daemon=True)
        thread.start()
        return thread
