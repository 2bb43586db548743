"""A layout as a full-size drawing: the board's outlines (from the layout's ``drawing``), one
5 mm square per LED (a WS2812B 5050) with its number, one 6 mm square per key (a 6x6 mm switch)
with its number and key-matrix position, and the LED data line from LED 0 onwards in chain order.

Layout units have no size of their own: ``unit_mm`` says how many millimetres one is. The default
leaves 16 mm between the two closest parts (room for an LED beside a switch, and fingers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tablelight.buildsheet.shapes import BLUE, GREEN, GREY, LIGHT, RED, Circle, Line, Point, Shape, Text, rect

LED_MM = 5.0  # WS2812B 5050 body
SWITCH_MM = 6.0  # 6x6 mm tactile switch
SPACING_MM = 16.0  # between the closest two parts at the default scale
MARGIN_MM = 12.0  # around the board on the sheet
LONG_JUMP_MM = 3 * SPACING_MM  # data-line hops longer than this are drawn as light dashed wires
PALE_BLUE = (150, 180, 235)


@dataclass(frozen=True)
class Part:
    kind: str  # "led" or "key"
    number: int
    at: Point  # layout units
    label: str = ""


def centre(entry: dict[str, Any]) -> Point:
    if entry["shape"] == "polygon":
        points = entry["points"]
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    if entry["shape"] == "circle":
        return (float(entry["at"][0]), float(entry["at"][1]))
    return (entry["at"][0] + entry["size"][0] / 2, entry["at"][1] + entry["size"][1] / 2)


def parts(layout: dict[str, Any]) -> list[Part]:
    """Every LED, then every key once: a button where the layout places it, else beside the
    first LED whose area presses it."""
    drawing = layout["drawing"]
    out = [Part("led", int(e["led"]), centre(e), e.get("label", "")) for e in drawing["leds"]]
    placed: set[int] = set()
    for button in drawing.get("buttons", []):
        if int(button["key"]) not in placed:
            placed.add(int(button["key"]))
            out.append(Part("key", int(button["key"]), (float(button["at"][0]), float(button["at"][1])),
                            button.get("label", "")))
    for entry in drawing["leds"]:
        if "key" in entry and int(entry["key"]) not in placed:
            placed.add(int(entry["key"]))
            out.append(Part("key", int(entry["key"]), centre(entry), "beside"))
    return out


def default_unit_mm(layout: dict[str, Any]) -> float:
    points = list({p.at for p in parts(layout)})
    closest = min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:] if a != b), default=1.0)
    return round(SPACING_MM / closest, 1)


def matrix_position(key: int, columns: int) -> str:
    return f"R{key // columns} C{key % columns}"


def board_shapes(layout: dict[str, Any], unit_mm: float) -> tuple[list[Shape], float, float]:
    """The board drawing in mm (with a margin), and its width and height."""
    drawing = layout["drawing"]
    columns = int((layout.get("key_matrix") or {}).get("columns", 1))

    def mm(point: Any) -> Point:
        return (MARGIN_MM + float(point[0]) * unit_mm, MARGIN_MM + float(point[1]) * unit_mm)

    shapes: list[Shape] = []
    for entry in drawing["leds"]:  # outlines of what each LED lights
        if entry["shape"] == "polygon":
            shapes.append(Line(tuple(mm(p) for p in entry["points"]), LIGHT, 0.25, closed=True))
        elif entry["shape"] == "circle":
            shapes.append(Circle(mm(entry["at"]), float(entry["r"]) * unit_mm, LIGHT, 0.25))
        else:
            x, y = mm(entry["at"])
            shapes.append(rect(x, y, entry["size"][0] * unit_mm, entry["size"][1] * unit_mm, colour=LIGHT, width=0.25))
    found = parts(layout)
    leds = sorted((p for p in found if p.kind == "led"), key=lambda p: p.number)
    chain = [mm(p.at) for p in leds]
    for a, b in zip(chain, chain[1:]):
        if math.dist(a, b) > LONG_JUMP_MM:  # a long wire between far-apart LEDs: drawn light, dashed
            shapes.append(Line((a, b), PALE_BLUE, 0.25, dashed=True))
        else:
            shapes.append(Line((a, b), BLUE, 0.35))
            shapes += arrow(a, b)
    for part in found:
        x, y = mm(part.at)
        if part.kind == "led":
            half = LED_MM / 2
            shapes.append(rect(x - half, y - half, LED_MM, LED_MM, colour=BLUE, width=0.3, fill=(235, 242, 255)))
            shapes.append(Text((x, y + 0.9), str(part.number), 2.4, BLUE, "middle", bold=True))
        else:
            if part.label == "beside":  # the key under an LED's area: beside the LED, not on it
                x += LED_MM / 2 + 1.0 + SWITCH_MM / 2
            half = SWITCH_MM / 2
            shapes.append(rect(x - half, y - half, SWITCH_MM, SWITCH_MM, colour=RED, width=0.3, dashed=True))
            shapes.append(Text((x, y + 0.2), f"K{part.number}", 2.0, RED, "middle", bold=True))
            shapes.append(Text((x, y + 2.4), matrix_position(part.number, columns), 1.5, RED, "middle"))
            if part.label and part.label != "beside":
                shapes.append(Text((x, y + half + 2.2), part.label[:24], 1.8, GREY, "middle"))
    if chain:
        x, y = chain[0]
        shapes.append(Text((x - LED_MM, y - LED_MM / 2 - 1.0), "DIN <- D5 via 74AHCT125 + 330 ohm", 2.0, GREEN, "end"))
    width = 2 * MARGIN_MM + float(drawing["width"]) * unit_mm + LED_MM + SWITCH_MM
    height = 2 * MARGIN_MM + float(drawing["height"]) * unit_mm
    return shapes, width, height


def arrow(a: Point, b: Point) -> list[Shape]:
    """A small arrowhead halfway from a to b: the data line's direction (DOUT of a to DIN of b)."""
    length = math.dist(a, b)
    if length < LED_MM * 1.5:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    tip = (mx + ux * 1.2, my + uy * 1.2)
    left = (mx - ux * 1.2 - uy * 1.0, my - uy * 1.2 + ux * 1.0)
    right = (mx - ux * 1.2 + uy * 1.0, my - uy * 1.2 - ux * 1.0)
    return [Line((left, tip, right), BLUE, 0.35, closed=True, fill=BLUE)]
