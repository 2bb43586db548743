"""The board picture as SVG, drawn from a layout's generic ``drawing`` (any game, any board).

One element per LED (``class="led"``, ``id="led-N"``, ``data-led``; ``data-key`` where a
press of it presses a key), labelled buttons for keys without an LED, and optionally
place names (``labels``: LED -> text, drawn on the LED: territory ids, hex numbers).
"""

from __future__ import annotations

import html
import re
import statistics
from typing import Any

MARGIN = 0.3


def point(x: float, y: float) -> str:
    return f"{x:.4f},{y:.4f}"


def led_size(item: dict[str, Any]) -> float:
    if item["shape"] == "circle":
        return 2.0 * item["r"]
    if item["shape"] == "rect":
        return float(max(item["size"]))
    xs = [p[0] for p in item["points"]]
    ys = [p[1] for p in item["points"]]
    return float(max(max(xs) - min(xs), max(ys) - min(ys)))


def led_points(item: dict[str, Any]) -> list[tuple[float, float]]:
    if item["shape"] == "rect":
        (x, y), (w, h) = item["at"], item["size"]
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return [(p[0], p[1]) for p in item["points"]]


def led_centre(item: dict[str, Any]) -> tuple[float, float]:
    if item["shape"] == "circle":
        return float(item["at"][0]), float(item["at"][1])
    points = led_points(item)
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "key"


def button_width(label: str, unit: float) -> float:
    """A labelled button's width: room for its label at the drawing's text size."""
    return max(0.7, 0.12 * len(label) + 0.24) * unit


def row_neighbours(button: dict[str, Any], buttons: list[dict[str, Any]], height: float) -> list[tuple[dict[str, Any], float]]:
    """The other buttons in ``button``'s row (centres less than ``height`` apart vertically), with their distance."""
    x, y = button["at"]
    return [
        (other, abs(other["at"][0] - x))
        for other in buttons
        if other is not button and abs(other["at"][1] - y) < height and other["at"][0] != x
    ]


def svg(layout: dict[str, Any], labels: dict[int, str] | None = None) -> str:
    """The board drawing (see the module docstring)."""
    drawing = layout["drawing"]
    unit = statistics.median(led_size(item) for item in drawing["leds"]) if drawing["leds"] else 1.0
    parts = []
    texts = []
    for item in drawing["leds"]:
        led = item["led"]
        attributes = f'id="led-{led}" data-led="{led}"'
        css = "led"
        if "key" in item:
            attributes += f' data-key="{item["key"]}"'
        else:
            css += " status"
        title = f"<title>{html.escape(item['label'])}</title>" if item.get("label") else ""
        if item["shape"] == "circle":
            x, y = item["at"]
            parts.append(f'<circle class="{css}" {attributes} cx="{x}" cy="{y}" r="{item["r"]}">{title}</circle>')
        else:
            # Rectangles are polygons too: every LED element has points, one way to find its centre.
            points = " ".join(point(x, y) for x, y in led_points(item))
            parts.append(f'<polygon class="{css}" {attributes} points="{points}">{title}</polygon>')
        if labels and led in labels:
            x, y = led_centre(item)
            size = 0.42 * led_size(item)
            texts.append(
                f'<text class="place" x="{x:.4f}" y="{y + 0.35 * size:.4f}" font-size="{size:.4f}">{html.escape(labels[led])}</text>'
            )
    seen: set[str] = set()
    for button in drawing.get("buttons", []):
        x, y = button["at"]
        label = button["label"]
        name = slug(label)
        if name in seen:
            name = f"{name}-{button['key']}"
        seen.add(name)
        # a button narrower than its label's natural size when its neighbour in the row is closer
        size = unit * min([1.0] + [
            0.95 * room / (button_width(label, unit) / 2 + button_width(other["label"], unit) / 2)
            for other, room in row_neighbours(button, drawing["buttons"], 0.42 * unit)
        ])
        height = 0.42 * size
        width = button_width(label, size)
        parts.append(
            f'<g class="button" id="button-{name}" data-key="{button["key"]}">'
            f'<rect x="{x - width / 2:.4f}" y="{y - height / 2:.4f}" width="{width:.4f}" height="{height:.4f}" rx="{0.1 * size:.4f}"/>'
            f'<text x="{x}" y="{y + 0.07 * size:.4f}" font-size="{0.2 * size:.4f}">{html.escape(label)}</text></g>'
        )
    width, height = float(drawing["width"]), float(drawing["height"])
    return (
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{-MARGIN:.3f} {-MARGIN:.3f} {width + 2 * MARGIN:.3f} {height + 2 * MARGIN:.3f}">'
        + "".join(parts)
        + "".join(texts)
        + "</svg>"
    )
