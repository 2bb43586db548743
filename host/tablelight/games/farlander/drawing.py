"""Farlander's own picture (:meth:`FarlanderFace.drawing`): the seven hex tiles and their territories.

Each territory is drawn in its owner's colour with its id, the owner's letter and its units
(``R3``: red, 3 units), so colour is never the only sign; a garrison's units are boxed; the heading
says whose turn and which phase. Everything in Farlander is public, so every seat's drawing
shows the same board; a seat's drawing makes the territories tappable (``data-pick``: the
fields of a placement or of a conquest's target) and marks the conquest being built.
A map without tile geometry (a map file giving only neighbours) is drawn as a grid.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tablelight.games.farlander.map import slot_center
from tablelight.table.drawing import (
    DIM_INK,
    INK,
    PAGE_WIDTH,
    document,
    fmt,
    hexagon,
    tap_square,
    marks,
    seat_fill,
    seat_letter,
    text,
    turn_line,
)
from tablelight.table.face import SEAT_NAMES

if TYPE_CHECKING:
    from tablelight.games.farlander.reads import FarlanderReads

#: Hex radius and where the flower's centre lies, in page units.
RADIUS = 69.0
TOP = 40.0
CENTRE = (PAGE_WIDTH / 2, TOP + 1.5 * math.sqrt(3) * RADIUS + 4)
EMPTY_FILL = "#3a4049"
BORDER = "#101214"
INTERIOR_RADIUS = 0.42


def fort(x: float, y: float, width: float = 36) -> str:
    """The garrison mark: a white box around a territory's units (centred on (x, y)), taking no room
    beside the label (a flag there met the labels of neighbours)."""
    return (
        f'<rect x="{fmt(x - width / 2)}" y="{fmt(y - 12)}" width="{fmt(width)}" height="24" rx="5" fill="{BORDER}" '
        f'fill-opacity="0.35" stroke="{INK}" stroke-width="2"/>'
    )


def territory_label(reads: FarlanderReads, t: int, x: float, y: float) -> str:
    """Territory ``t``'s id and ``R3`` (its owner's letter and units; boxed on a garrison) at (x, y)."""
    tid = reads.territory_id(t)
    owner, units = reads.owner(t), reads.units(t)
    held = f"{seat_letter(SEAT_NAMES[owner])}{units}" if owner is not None else "-"
    parts = [text(x, y - 10, tid, 14, fill=INK)]
    if reads.map.territories[t].garrison:
        parts.append(fort(x, y + 9))
    parts.append(text(x, y + 9, held, 18, weight="700"))
    return "".join(parts)


def pick_of(reads: FarlanderReads, tid: str) -> dict[str, Any]:
    """What tapping a territory chooses: a placement, or a conquest's target."""
    if reads.phase == "distribution":
        return {"type": "place", "territory": tid}
    return {"type": "conquer", "target": tid}


def territory_words(reads: FarlanderReads, t: int) -> str:
    """``c2`` with what it holds, for ``data-name`` and the picture's title."""
    owner = reads.owner(t)
    units = reads.units(t)
    held = f"{SEAT_NAMES[owner]}, {units} unit{'s' if units != 1 else ''}" if owner is not None else "empty"
    garrison = ", garrison" if reads.map.territories[t].garrison else ""
    return f"{reads.territory_id(t)} ({held}{garrison})"


def has_geometry(reads: FarlanderReads) -> bool:
    territories = reads.map.territories
    return bool(reads.map.tiles) and all(0 <= t.tile < 7 for t in territories)


def heading(reads: FarlanderReads) -> tuple[int | None, str]:
    seat = reads.current_seat()
    if seat is None:
        winners = reads.winners()
        return None, "game over: " + " and ".join(SEAT_NAMES[w] for w in winners) + (" win" if len(winners) > 1 else " wins")
    return seat, f"{SEAT_NAMES[seat]} to act: {reads.phase} phase"


def draw(reads: FarlanderReads, seat: int | None, target: int | None = None, sources: frozenset[int] = frozenset()) -> str:
    """The SVG (see the module docstring); ``target`` and ``sources``: the conquest being built."""
    tappable = seat is not None and reads.current_seat() is not None
    body: list[str] = []
    acting, words = heading(reads)
    body.append(turn_line(18, None if acting is None else seat_fill(acting), words))
    geometry = has_geometry(reads)
    shapes = hex_shapes(reads) if geometry else grid_shapes(reads)
    interior_tiles = frozenset(t.tile for t in reads.map.territories if not t.edges)
    labels: list[str] = []
    slices: list[str] = []
    interiors: list[str] = []  # small central hexagons: on top of the slices and their borders
    for t, (outline, (x, y)) in enumerate(shapes):
        owner = reads.owner(t)
        fill = seat_fill(owner) if owner is not None else EMPTY_FILL
        css = "territory" + (" target" if t == target else "") + (" source" if t in sources else "")
        pick = pick_of(reads, reads.territory_id(t)) if tappable else None
        sliced = geometry and bool(reads.map.territories[t].edges)
        # slices get their borders from hex_borders (none between two slices of one territory)
        rim = "" if sliced else f' stroke="{BORDER}" stroke-width="2.5"'
        (slices if sliced or not geometry else interiors).append(
            f'<g class="{css}"{marks(pick, territory_words(reads, t), territory_tap(reads, t, interior_tiles) if pick else None)}>'
            f'<path d="{outline}" fill="{fill}"{rim}/></g>'
        )
        labels.append(territory_label(reads, t, x, y))
    bottom = max(y for _, (_, y) in shapes) + 60 if not geometry else CENTRE[1] + 1.5 * math.sqrt(3) * RADIUS + 8
    body.extend(slices)
    if geometry:
        body.append(hex_borders(reads))
    body.extend(interiors)
    body.append(f'<g class="labels" pointer-events="none">{"".join(labels)}</g>')
    key, height = legend(reads, bottom)
    body.append(key)
    return document(PAGE_WIDTH, bottom + height + 6, body, "Farlander board")


def legend(reads: FarlanderReads, y: float) -> tuple[str, float]:
    """Who is who (two seats a row), what ``R3`` means, the units still in hand and the garrison
    box: (svg, its height)."""
    parts = []
    for s in range(reads.players):
        row, column = divmod(s, 2)
        x, top = 12.0 + column * 172, y + row * 24
        name = SEAT_NAMES[s]
        parts.append(f'<rect x="{fmt(x)}" y="{fmt(top + 2)}" width="16" height="16" rx="3" fill="{seat_fill(s)}" stroke="{INK}"/>')
        in_hand = f": {reads.reserve(s)} in hand" if reads.phase == "distribution" else ""
        parts.append(text(x + 21, top + 10, f"{seat_letter(name)} {name}{in_hand}", 14, anchor="start"))
    top = y + 24 * ((reads.players + 1) // 2) + 12
    parts.append(text(12, top, "R3: red holds it with 3 units", 14, fill=DIM_INK, anchor="start"))
    if any(t.garrison for t in reads.map.territories):
        parts.append(fort(PAGE_WIDTH - 108, top) + text(PAGE_WIDTH - 108, top, "R3", 16, weight="700")
                     + text(PAGE_WIDTH - 84, top, "garrison", 14, fill=DIM_INK, anchor="start"))
    return f'<g data-name="legend">{"".join(parts)}</g>', top + 16 - y


def territory_tap(reads: FarlanderReads, t: int, interior_tiles: frozenset[int]) -> float | None:
    """The side of the square a tap reaches territory ``t`` in (page units), on the flower of tiles."""
    if not has_geometry(reads):
        return None
    territory = reads.map.territories[t]
    return RADIUS * slice_tap(tuple(territory.edges), territory.tile in interior_tiles)


@lru_cache(maxsize=64)
def slice_tap(edges: tuple[int, ...], under_interior: bool) -> float:
    """:func:`territory_tap` on a tile of radius 1: its slices (none: the central hexagon) less the
    central hexagon drawn over them."""
    corners = hexagon(0, 0, 1)
    inner = hexagon(0, 0, INTERIOR_RADIUS)
    if not edges:
        return tap_square([inner])
    slices = [[(0.0, 0.0), corners[(e + 1) % 6], corners[(e + 2) % 6]] for e in edges]
    return tap_square(slices, [inner] if under_interior else [])


def hex_shapes(reads: FarlanderReads) -> list[tuple[str, tuple[float, float]]]:
    """Per territory: its outline (an SVG path: its pie slices, or the small central hexagon) and
    where its label goes, on the flower of seven tiles."""
    cx0, cy0 = CENTRE
    shapes = []
    for territory in reads.map.territories:
        tx, ty = slot_center(territory.tile)
        cx, cy = cx0 + RADIUS * tx, cy0 + RADIUS * ty
        corners = hexagon(cx, cy, RADIUS)
        if territory.edges:
            # the slice of edge e runs from the centre to corners e+1 and e+2 (corner 0 is the left one)
            path = "".join(
                f"M{fmt(cx)} {fmt(cy)} L{spot(corners[(e + 1) % 6])} L{spot(corners[(e + 2) % 6])} Z" for e in territory.edges
            )
        else:
            inner = hexagon(cx, cy, INTERIOR_RADIUS * RADIUS)
            path = "M" + " L".join(spot(corner) for corner in inner) + " Z"
        ax, ay = territory.anchor
        label = (cx0 + RADIUS * ax, cy0 + RADIUS * ay)
        if territory.edges and len(territory.edges) in (2, 4) and abs(ax - tx) + abs(ay - ty) < 1e-6:
            label = band_label(cx, cy, territory.edges)
        elif territory.edges:
            label = toward(cx, cy, label, 0.62 if len(territory.edges) == 1 else 0.55)
        shapes.append((path, label))
    return shapes


def hex_borders(reads: FarlanderReads) -> str:
    """The lines between territories: each tile's outline and the spokes between slices of two
    territories (an interior territory draws its own rim)."""
    cx0, cy0 = CENTRE
    lines = []
    owner_of: dict[tuple[int, int], str] = {}
    for territory in reads.map.territories:
        for e in territory.edges:
            owner_of[(territory.tile, e)] = territory.id
    for slot in sorted({t.tile for t in reads.map.territories}):
        tx, ty = slot_center(slot)
        cx, cy = cx0 + RADIUS * tx, cy0 + RADIUS * ty
        corners = hexagon(cx, cy, RADIUS)
        lines.append(f'<path d="M{" L".join(spot(c) for c in corners)} Z" fill="none" stroke="{BORDER}" stroke-width="4"/>')
        for e in range(6):  # slices e and e + 1 share the spoke to corner e + 2
            if owner_of.get((slot, e)) != owner_of.get((slot, (e + 1) % 6)):
                lines.append(f'<path d="M{spot((cx, cy))} L{spot(corners[(e + 2) % 6])}" stroke="{BORDER}" stroke-width="2.5"/>')
    return f'<g pointer-events="none">{"".join(lines)}</g>'


def spot(point: tuple[float, float]) -> str:
    return f"{fmt(point[0])} {fmt(point[1])}"


def toward(cx: float, cy: float, anchor: tuple[float, float], share: float) -> tuple[float, float]:
    """The label point ``share`` of a radius from the tile's centre towards ``anchor``."""
    dx, dy = anchor[0] - cx, anchor[1] - cy
    length = math.hypot(dx, dy) or 1.0
    return cx + share * RADIUS * dx / length, cy + share * RADIUS * dy / length


def band_label(cx: float, cy: float, edges: tuple[int, ...]) -> tuple[float, float]:
    """A territory of opposite slices (a band across its tile): label it in its first slice."""
    e = edges[0]
    angle = math.radians(-90 + 60 * e)
    return cx + 0.6 * RADIUS * math.cos(angle), cy + 0.6 * RADIUS * math.sin(angle)


def grid_shapes(reads: FarlanderReads) -> list[tuple[str, tuple[float, float]]]:
    """A map without geometry: rounded squares in rows of four."""
    shapes = []
    size, gap = 78.0, 10.0
    for t in range(reads.territory_count):
        row, column = divmod(t, 4)
        x, y = 12 + column * (size + gap), 40 + row * (size + gap)
        path = f"M{fmt(x + 8)} {fmt(y)} h{fmt(size - 16)} q8 0 8 8 v{fmt(size - 16)} q0 8 -8 8 h{fmt(16 - size)} q-8 0 -8 -8 v{fmt(16 - size)} q0 -8 8 -8 Z"
        shapes.append((path, (x + size / 2, y + size / 2)))
    return shapes
