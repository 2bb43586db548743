"""Tiles a full-size drawing over A4 or Letter pages, with alignment marks, and adds a wiring page.

Each tile page shows one window of the drawing inside a dashed frame; the frame's corners carry
crop marks that meet the neighbouring pages' marks: cut along the frames (or overlap them), tape
the pages together with the marks aligned. A 50 mm bar on every page checks the print scale.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

from tablelight.buildsheet.drawing import LED_MM, SWITCH_MM, board_shapes
from tablelight.buildsheet.shapes import BLACK, BLUE, GREY, RED, Circle, Line, Shape, Text, moved, rect

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
EDGE_MM = 10.0  # unprinted border most printers need
HEADER_MM = 14.0
NOTE_CHARS = 100  # the wiring notes' line length: fits A4 and Letter at 2.6 mm in any sans font


@dataclass
class Page:
    width: float
    height: float
    clip: tuple[float, float, float, float] | None  # x, y, w, h of the window onto the board
    board: list[Shape] = field(default_factory=list)  # drawn inside ``clip``
    overlay: list[Shape] = field(default_factory=list)  # marks and words, not clipped


def bounds(shape: Shape) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a shape, in mm (a text's is estimated)."""
    if isinstance(shape, Line):
        xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
        return min(xs), min(ys), max(xs), max(ys)
    if isinstance(shape, Circle):
        (x, y), r = shape.centre, shape.radius
        return x - r, y - r, x + r, y + r
    half = len(shape.text) * shape.size * 0.6
    return shape.at[0] - half, shape.at[1] - shape.size, shape.at[0] + half, shape.at[1] + shape.size


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def scale_bar(x: float, y: float) -> list[Shape]:
    return [Line(((x, y), (x + 50, y)), BLACK, 0.4), Line(((x, y - 1.5), (x, y + 1.5)), BLACK, 0.4),
            Line(((x + 50, y - 1.5), (x + 50, y + 1.5)), BLACK, 0.4),
            Text((x + 25, y - 1.2), "50 mm: measure it, print at 100 % (actual size)", 2.0, BLACK, "middle")]


def crop_marks(x: float, y: float, w: float, h: float) -> list[Shape]:
    marks: list[Shape] = []
    for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        marks += [Line(((cx - 4, cy), (cx + 4, cy)), BLACK, 0.25), Line(((cx, cy - 4), (cx, cy + 4)), BLACK, 0.25)]
    return marks


def tile(layout: dict[str, Any], unit_mm: float, paper: str, board: dict[str, Any]) -> list[Page]:
    shapes, width, height = board_shapes(layout, unit_mm)
    if shapes:  # the drawing's margin alone is not worth a page: tile what is drawn
        width = min(width, max(bounds(s)[2] for s in shapes))
        height = min(height, max(bounds(s)[3] for s in shapes))
    paper_w, paper_h = PAPERS[paper]
    window_w, window_h = paper_w - 2 * EDGE_MM, paper_h - 2 * EDGE_MM - HEADER_MM
    columns, rows = math.ceil(width / window_w), math.ceil(height / window_h)
    x0, y0 = EDGE_MM, EDGE_MM + HEADER_MM
    window = (x0, y0, x0 + window_w, y0 + window_h)
    cells: dict[tuple[int, int], list[Shape]] = {}
    for row in range(rows):
        for column in range(columns):
            drawn = [m for m in (moved(s, x0 - column * window_w, y0 - row * window_h) for s in shapes)
                     if overlaps(bounds(m), window)]
            if drawn:  # a window onto nothing (beside a round board) is not worth a sheet of paper
                cells[row, column] = drawn
    numbers = {cell: n for n, cell in enumerate(cells, start=1)}
    total = len(cells) + 1
    pages = []
    for (row, column), drawn in cells.items():
        number = numbers[row, column]
        page = Page(paper_w, paper_h, (x0, y0, window_w, window_h))
        page.board = drawn
        page.overlay.append(rect(x0, y0, window_w, window_h, colour=GREY, width=0.2, dashed=True))
        page.overlay += crop_marks(x0, y0, window_w, window_h)
        page.overlay.append(Text((EDGE_MM, EDGE_MM + 3.5), f"tablelight build sheet: {layout['id']} "
                                 f"({layout['leds']} LEDs, {layout['keys']} keys), 1 unit = {unit_mm:g} mm",
                                 3.2, BLACK, bold=True))
        page.overlay.append(Text((EDGE_MM, EDGE_MM + 8.0), f"page {number} of {total}: row {row + 1} of {rows}, "
                                 f"column {column + 1} of {columns} ({paper.upper()})", 2.6))
        page.overlay += scale_bar(paper_w - EDGE_MM - 52, EDGE_MM + 8.0)
        for dx, dy, where, at, anchor in ((1, 0, "right", (x0 + window_w, y0 - 1.0), "end"),
                                          (0, 1, "below", (x0 + window_w / 2, y0 + window_h + 4.0), "middle")):
            if (row + dy, column + dx) in numbers:
                page.overlay.append(Text(at, f"page {numbers[row + dy, column + dx]} joins {where}", 2.2, GREY, anchor))
        pages.append(page)
    pages.append(wiring_page(layout, board, paper, unit_mm, total))
    return pages


def wiring_page(layout: dict[str, Any], board: dict[str, Any], paper: str, unit_mm: float, total: int) -> Page:
    """The key matrix as a grid: rows down (with their pins), columns across, a key number in each
    crossing; and the data line's order and the parts."""
    from tablelight.flash.settings import layout_values

    values = layout_values(layout, board)
    rows, columns = values["TL_ROW_PINS"].split(","), values["TL_COLUMN_PINS"].split(",")
    paper_w, paper_h = PAPERS[paper]
    page = Page(paper_w, paper_h, None)
    out = page.overlay
    x, y = EDGE_MM, EDGE_MM + 4
    out.append(Text((x, y), f"{layout['id']}: key matrix and data line (page {total} of {total})", 4.0, bold=True))
    labels = {int(b["key"]): b.get("label", "") for b in layout["drawing"].get("buttons", [])}
    cell = min(16.0, (paper_w - 2 * EDGE_MM - 22) / len(columns), (paper_h - 120) / len(rows))
    gx, gy = x + 22, y + 18
    for c, pin in enumerate(columns):
        out.append(Text((gx + c * cell + cell / 2, gy - 2), f"C{c} {pin}", 2.2, RED, "middle", bold=True))
    for r, pin in enumerate(rows):
        out.append(Text((gx - 2, gy + r * cell + cell / 2 + 0.8), f"R{r} {pin}", 2.2, BLUE, "end", bold=True))
        for c in range(len(columns)):
            key = r * len(columns) + c
            cx, cy = gx + c * cell, gy + r * cell
            out.append(rect(cx, cy, cell, cell, colour=GREY, width=0.2))
            if key < layout["keys"]:
                out.append(Text((cx + cell / 2, cy + cell / 2), f"K{key}", 2.4, BLACK, "middle", bold=True))
                if labels.get(key):
                    out.append(Text((cx + cell / 2, cy + cell / 2 + 3), labels[key][:10], 1.6, GREY, "middle"))
            else:
                out.append(Text((cx + cell / 2, cy + cell / 2 + 0.8), "-", 2.4, GREY, "middle"))
    ty = gy + len(rows) * cell + 8
    notes = [
        f"Key number = row x {len(columns)} + column (CircuitPython keypad.KeyMatrix, columns_to_anodes=True).",
        "Each switch: one side to its column pin, the other to a 1N4148 diode's anode; the diode's cathode (band) "
        "to its row pin. One diode per switch, so several keys held at once never ghost.",
        f"LED data line: {board['pixels']['pin']} -> 74AHCT125 -> 330 ohm -> DIN of LED 0, then DOUT -> DIN in number "
        f"order up to LED {layout['leds'] - 1} (the blue line on the tile pages; light dashes: a long wire).",
        f"Budget: TL_BUDGET_MA = {values['TL_BUDGET_MA']} (settings.toml, written by "
        f"`tablelight flash --layout {layout['id']}`).",
        f"Parts: {layout['leds']} WS2812B ({LED_MM:g} mm squares, blue), {layout['keys']} switches "
        f"({SWITCH_MM:g} mm dashed squares, red, 'R r C c' = matrix row and column), {layout['keys']} 1N4148.",
        f"Scale: 1 layout unit = {unit_mm:g} mm (`--unit-mm` to match your board).",
    ]
    lines = [part for note in notes for part in textwrap.wrap(note, NOTE_CHARS)]
    for n, line in enumerate(lines):
        out.append(Text((x, ty + n * 5), line, 2.6))
    return page
