"""Making the Landover lit board's layout from a map: ``hardware/layouts/landover.json`` is
``generate_layout(builtin_map("archipelago"))``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tablelight.games.landover.layout import BUTTONS, DIE_FACES, KINDS, LAYOUT_ID
from tablelight.games.landover.rules import BARBARIAN_TRACK as BARBARIAN_STEPS

if TYPE_CHECKING:
    from tablelight.games.landover.hexmap import LandoverMap


def _sides_of(m: LandoverMap, h: int) -> list[int]:
    """The six sides of hex ``h`` in turning order (side k between corners k - 1 and k)."""
    edge_of = {frozenset(ends): e for e, ends in enumerate(m.edge_vertices)}
    corners = m.hex_vertices[h]
    return [edge_of[frozenset((corners[k - 1], corners[k]))] for k in range(6)]


def sea_key_hexes(m: LandoverMap) -> list[int]:
    """The water hexes that get a key: enough that every water side is a side of one of them.

    Every water hex starts with a key; going through them last first, a hex loses its key
    when each of its water sides is also a side of another water hex that keeps one (on the
    archipelago map this leaves 27 of the 36 water hexes, the fewest that cover its 101
    water sides). A person picks a water side by pressing a keyed water hex next to it.
    """
    water = [h for h in range(len(m.coords)) if m.hex_island[h] < 0]
    sides = {h: [e for e in _sides_of(m, h) if m.edge_kind[e] == 1] for h in water}
    keyed = set(water)
    for h in reversed(water):
        others = keyed - {h}
        if all(any(e in sides[o] for o in others) for e in sides[h]):
            keyed.discard(h)
    return sorted(keyed)


def generate_layout(m: LandoverMap) -> dict[str, Any]:
    """The lit board for map ``m`` (``hardware/layouts/landover.json`` is this for the archipelago).

    LED chain: land hexes, land corners, every side (land, coast and water), turn LEDs,
    barbarian track, white die, red die, event die, merchant. Keys: land hexes, the water
    hexes of :func:`sea_key_hexes`, turn LEDs, white and red die LEDs, card kinds, buttons.
    """
    root3 = math.sqrt(3)

    def centre(h: int) -> tuple[float, float]:
        q, r = m.coords[h]
        return root3 * (q + r / 2), 1.5 * r

    corner_at: dict[int, tuple[float, float]] = {}
    for h in range(len(m.coords)):
        cx, cy = centre(h)
        for k, v in enumerate(m.hex_vertices[h]):
            # Corner k of a hex sits between its neighbours k and k + 1 (pointy-top, y down).
            angle = math.radians(-30 - 60 * k)
            corner_at.setdefault(v, (cx + math.cos(angle), cy + math.sin(angle)))
    land_hexes = [h for h in range(len(m.coords)) if m.hex_island[h] >= 0]
    corners = sorted({v for h in land_hexes for v in m.hex_vertices[h]})
    sides = list(range(len(m.edge_kind)))
    sea_hexes = sea_key_hexes(m)
    xs = [x for x, _ in corner_at.values()]
    ys = [y for _, y in corner_at.values()]
    left, top = min(xs) - 0.6, min(ys) - 0.6

    def at(x: float, y: float) -> list[float]:
        return [round(x - left, 4), round(y - top, 4)]

    width = max(xs) - left + 0.6
    leds: list[dict[str, Any]] = []
    drawing: list[dict[str, Any]] = []
    led = key = 0
    hexes_out = []
    for h in land_hexes:
        cx, cy = centre(h)
        points = [at(cx + 0.7 * (corner_at[v][0] - cx), cy + 0.7 * (corner_at[v][1] - cy)) for v in m.hex_vertices[h]]
        hexes_out.append({"hex": h, "led": led, "key": key})
        drawing.append({"led": led, "key": key, "shape": "polygon", "points": points})
        led += 1
        key += 1
    sea_out = []
    sea_buttons = []  # keys without an LED: drawn as buttons in the middle of their water hex
    for h in sea_hexes:
        sea_out.append({"hex": h, "key": key})
        sea_buttons.append({"key": key, "at": at(*centre(h)), "label": "sea"})
        key += 1
    corners_out = []
    corner_shapes = []  # drawn after the sides, so the corners sit on top of them
    for v in corners:
        corners_out.append({"vertex": v, "led": led})
        corner_shapes.append({"led": led, "shape": "circle", "at": at(*corner_at[v]), "r": 0.16})
        led += 1
    sides_out = []
    for e in sides:
        (ax, ay), (bx, by) = (corner_at[v] for v in m.edge_vertices[e])
        dx, dy = bx - ax, by - ay
        nx, ny = -dy * 0.07, dx * 0.07
        p, q = (ax + 0.1 * dx, ay + 0.1 * dy), (ax + 0.9 * dx, ay + 0.9 * dy)
        points = [at(p[0] + nx, p[1] + ny), at(q[0] + nx, q[1] + ny), at(q[0] - nx, q[1] - ny), at(p[0] - nx, p[1] - ny)]
        sides_out.append({"edge": e, "led": led})
        drawing.append({"led": led, "shape": "polygon", "points": points})
        led += 1
    drawing += corner_shapes
    board_leds = led
    # Status column to the right of the map.
    sx = width + 0.6
    turn = []
    for seat in range(4):
        turn.append({"seat": seat, "led": led, "key": key})
        drawing.append({"led": led, "key": key, "shape": "circle", "at": [round(sx + 0.6 * seat, 3), 0.5], "r": 0.22, "label": "turn"})
        led += 1
        key += 1
    barbarians = []
    for step in range(BARBARIAN_STEPS):
        barbarians.append(led)
        drawing.append({"led": led, "shape": "rect", "at": [round(sx + 0.45 * step, 3), 1.2], "size": [0.35, 0.35], "label": "barbarians"})
        led += 1
    dice: dict[str, Any] = {}
    for row, die in enumerate(("white", "red")):
        part: dict[str, list[int]] = {"leds": [], "keys": []}
        for n in range(DIE_FACES):
            part["leds"].append(led)
            part["keys"].append(key)
            drawing.append({"led": led, "key": key, "shape": "circle", "at": [round(sx + 0.45 * n, 3), 2.1 + 0.6 * row], "r": 0.17,
                            "label": f"{die} die"})
            led += 1
            key += 1
        dice[die] = part
    dice["event_led"] = led
    drawing.append({"led": led, "shape": "circle", "at": [round(sx, 3), 3.5], "r": 0.22, "label": "event"})
    led += 1
    merchant_led = led
    drawing.append({"led": led, "shape": "circle", "at": [round(sx + 0.9, 3), 3.5], "r": 0.22, "label": "merchant"})
    led += 1
    buttons: list[dict[str, Any]] = list(sea_buttons)
    kind_keys = {}
    for n, name in enumerate(KINDS):
        kind_keys[name] = key
        buttons.append({"key": key, "at": [round(sx + 0.5 + 1.0 * (n % 4), 3), round(4.4 + 0.5 * (n // 4), 3)], "label": name})
        key += 1
    button_keys = {}
    for n, name in enumerate(BUTTONS):
        button_keys[name] = key
        buttons.append({"key": key, "at": [round(sx + 0.5 + 1.0 * (n % 4), 3), round(5.7 + 0.5 * (n // 4), 3)],
                        "label": name.replace("_", " ")})
        key += 1
    height = max(max(ys) - top + 0.6, 8.0)
    # Terminal picture: the map's LEDs on a character grid (distinct x and y ranked), status in the legend.
    centres: dict[int, tuple[float, float]] = {}
    for item in drawing:
        if item["led"] >= board_leds:
            continue
        if item["shape"] == "polygon":
            pts = item["points"]
            centres[item["led"]] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        else:
            centres[item["led"]] = (item["at"][0], item["at"][1])
    column_values = sorted({round(x, 1) for x, _ in centres.values()})
    row_values = sorted({round(y, 1) for _, y in centres.values()})
    cells = {str(n): [2 * column_values.index(round(x, 1)), row_values.index(round(y, 1))] for n, (x, y) in centres.items()}
    # The reference Feather scans at most a 10 x 10 matrix (20 free pins): ten columns, as few rows as fit.
    columns = 10
    rows = -(-key // columns)
    return {
        "id": LAYOUT_ID,
        "about": (
            f"LEDs and keys of the lit Landover board for the built-in '{m.name}' map (made by "
            "tablelight.games.landover.layoutgen.generate_layout). One LED and key per land hex (mystery hexes included), "
            "one LED per land corner (villages, cities), one LED per side of the map (land, coast and water: every "
            "road and bridge shows), a key without an LED on the water hexes listed in 'sea' (every water side is "
            "a side of one of them), turn LEDs with keys (they choose a player), the barbarian track, the white and "
            "red dice (keys: the alchemist's numbers), the event die, the merchant LED; buttons and card-kind keys. "
            "Corners and sides are picked by pressing a hex next to them (again for the next). 'map' lists the "
            "[q, r] of every hex of the map the board is built for. More than 255 LEDs: firmware 1.1.0 or later "
            "(wide LED numbers)."
        ),
        "leds": led,
        "keys": key,
        # A 5 V 2 A supply feeds the LED chain (docs/rules/landover.md, "Lit board"): USB is too little.
        "budget_ma": 1800,
        "key_matrix": {"rows": rows, "columns": columns, "note": f"key number = row * {columns} + column on the reference board"},
        "map": {"name": m.name, "coords": [list(c) for c in m.coords]},
        "hexes": hexes_out,
        "sea": sea_out,
        "corners": corners_out,
        "sides": sides_out,
        "turn": turn,
        "barbarian_leds": barbarians,
        "dice": dice,
        "merchant_led": merchant_led,
        "kind_keys": kind_keys,
        "buttons": button_keys,
        "drawing": {
            "width": round(sx + 4.1, 3),
            "height": round(height, 3),
            "leds": drawing,
            "buttons": buttons,
            "grid": {"columns": 2 * len(column_values) + 2, "rows": len(row_values), "cells": cells},
        },
    }
