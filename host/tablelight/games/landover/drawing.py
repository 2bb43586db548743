"""Landover drawn for people: the islands with their pieces, and a seat's cards, as one SVG.

:func:`landover_svg` is what :meth:`LandoverFace.drawing` returns. The picture is 390 units wide
(one unit is one CSS pixel on a 390 px phone, so every font size here is at least 12 there):

* the map, cropped to the land and its harbors: each hex in its terrain's colour with the resource
  it yields in words and its number token (6 and 8 in red, the likeliest rolls), the words drawn over
  every hex so no neighbour cuts them; harbors as "2:1" hexes on the sea hex beside their side (inside
  it, covering no land); roads and bridges along the sides (a bridge dashed), villages
  and cities on the corners (a city wall as a dark band at its foot, a metro as a gold star over
  it), a catapult as a seat-coloured badge with an X, the merchant as a seat-coloured flag;
* the roll, the barbarian track, and each seat's public counts (points, cards, development cards,
  military, culture levels);
* in a seat's own drawing (``seat`` given): its resources and development cards by count, what each
  build costs, its trade rates. The shared drawing (``seat`` None) shows none of anyone's cards.

Places the seat to act may tap carry ``data-pick``: a partial choice made from the face's own
:meth:`choice_steps` of a legal action (a corner: ``{"hex_of_vertex": h, "vertex": v}``; a hex:
``{"hex": h}``, or the hex step ``{"hex_of_vertex": h}`` when the places filed under that hex are all of
one kind: the setup's corners), so a tap narrows the seat's choices as the board's keys do. Every hex, corner and
side drawn carries ``data-name`` ("hex 12", "corner 44", "side 40").

A finger needs about 40 CSS px; a hex's side is about 25 here. A tappable corner or side is an invisible
square around its dot, as large as its neighbours allow without overlapping (:data:`TAP_SQUARE` of a
side's length), a tappable hex is the rest of the hex; each says its size in ``data-tap`` and the page
zooms the map in on a tap until those squares are large enough (``drawing.js``). Nothing but a tappable
thing catches a tap (pieces, words and harbors let it through to the hex below).
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from typing import Any

from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.choice import FIELD_KINDS, HEX_STEP, LandoverChoice
from tablelight.games.landover.hexmap import CARDS, DIRECTIONS, RESOURCES, TERRAIN_RESOURCE
from tablelight.games.landover.rules import BARBARIAN_TRACK, MAX_CULTURE
from tablelight.table.drawing import DIM_INK, INK, document, wrapped
from tablelight.table.result import result_block


WIDTH = 390.0
MARGIN = 6.0
#: Room around the land in the map's frame: a tap dot or a piece on an outer corner stays whole.
MAP_PAD = 14.0
SQRT3 = math.sqrt(3)
#: Fills for the seats' pieces (darker than the LED colours, readable on every terrain) and their names.
SEAT_FILLS = ("#d7263d", "#1f5fd6", "#1a9e3a", "#f0b400")
SEAT_WORDS = ("red", "blue", "green", "yellow")
TERRAIN_FILLS = {
    "sheep": "#b5e07a", "forest": "#2e7d32", "mountain": "#a3a7b8", "field": "#f4d75e",
    "hills": "#d9804f", "gold": "#f7b32b", "mystery": "#7451b8", "water": "#a9d3ee",
}
#: What each terrain yields, in the words the cards use (gold: any resource).
TERRAIN_WORDS = {**{t: RESOURCES[i] for t, i in TERRAIN_RESOURCE.items()}, "gold": "gold", "mystery": "?"}
DARK_TERRAINS = frozenset(("forest",))
LIKELY = (6, 8)
EVENT_WORDS = {"barbarian": "barbarian ship", "science": "science gate", "commerce": "commerce gate",
               "politics": "politics gate"}
PIECE_COSTS = ("road", "bridge", "village", "city", "wall", "military")
#: The side of a tappable corner's or side's square, in hex sides: the largest for which the squares
#: around corners and side middles never overlap (a slanted side's middle is 0.433 of a side across
#: from its corners).
TAP_SQUARE = 0.43
#: The side of the square a tappable hex keeps around its centre when all its corners and sides are
#: tappable too (their squares reach 0.53 of a side from the centre).
HEX_TAP_SQUARE = 1.0
#: Fonts of the hex words: a label's width must stay in a hex 1.73 sides wide ("wheat" is 37 px at 12).
LABEL_SIZE = 12
#: Ink of words on the map's terrain and on the cards (the drawing's ground is dark: its words use INK).
DARK = "#111"


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def text(x: float, y: float, words: str, size: int = 12, anchor: str = "middle", weight: str = "normal",
         fill: str = INK, extra: str = "") -> str:
    """A line of text; light ink for the drawing's dark ground (words on the map or a card pass ``DARK``)."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{extra}>{esc(words)}</text>')


def attrs(name: str, pick: dict[str, Any] | None, tap: float | None = None) -> str:
    """``data-name`` and, for a tappable thing, ``data-pick`` (JSON), a role for assistive tools and
    ``data-tap``: the side of the square around it a tap reaches it in (picture units); an untappable
    thing lets taps through to what is below it."""
    found = f' data-name="{esc(name)}"'
    if pick is None:
        return found + ' pointer-events="none"'
    found += f" data-pick='{esc(json.dumps(pick, sort_keys=True))}' role=\"button\" class=\"pick\""
    return found + (f' data-tap="{tap:.1f}"' if tap is not None else "")


def points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


class MapGeometry:
    """Where hexes, corners and sides of the map fall in the picture (pointy-top hexes, axial coordinates)."""

    def __init__(self, face: LandoverChoice, also: set[int]) -> None:
        """``also``: corners the view must hold besides the land's (pieces and taps out on the sea)."""
        game = face.game
        m = game.map
        self.map = m
        raw_centres = [(SQRT3 * (q + r / 2), 1.5 * r) for q, r in m.coords]
        raw_corner: dict[int, tuple[float, float]] = {}
        for h, (q, r) in enumerate(m.coords):
            for k, v in enumerate(m.hex_vertices[h]):
                a, b = DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]
                trio = [(q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1])]
                xs = [SQRT3 * (tq + tr / 2) for tq, tr in trio]
                ys = [1.5 * tr for _, tr in trio]
                raw_corner[v] = (sum(xs) / 3, sum(ys) / 3)
        land = [h for h in range(game.hex_count) if game.terrain(h) != "water"]
        # The view: the land hexes' corners and the harbor labels on the sea beside them.
        seen = [raw_corner[v] for h in land for v in m.hex_vertices[h]] + [raw_corner[v] for v in also]
        self.harbor_spots = []
        for h, side, resource in m.harbors:
            cx, cy = raw_centres[h]
            d = DIRECTIONS[side]
            nx, ny = SQRT3 * (d[0] + d[1] / 2), 1.5 * d[1]
            spot = (cx + nx, cy + ny)  # the centre of the sea hex beside the harbor's side
            seen.append((spot[0] - 0.75, spot[1] - 0.6))  # its words, whole
            seen.append((spot[0] + 0.75, spot[1] + 0.6))
            self.harbor_spots.append((h, side, resource, spot))
        left, right = min(p[0] for p in seen), max(p[0] for p in seen)
        top, bottom = min(p[1] for p in seen), max(p[1] for p in seen)
        self.size = (WIDTH - 2 * MAP_PAD) / (right - left)  # the hex's radius in picture units
        self.height = (bottom - top) * self.size + 2 * MAP_PAD
        self._left, self._top = left, top

        def at(p: tuple[float, float]) -> tuple[float, float]:
            return (MAP_PAD + (p[0] - left) * self.size, MAP_PAD + (p[1] - top) * self.size)

        self.centre = [at(c) for c in raw_centres]
        self.corner = {v: at(c) for v, c in raw_corner.items()}
        self.harbor_spots = [(h, side, resource, at(spot)) for h, side, resource, spot in self.harbor_spots]

    def inside(self, p: tuple[float, float], slack: float = 0.0) -> bool:
        return -slack <= p[0] <= WIDTH + slack and -slack <= p[1] <= self.height + slack

    def hex_outline(self, h: int) -> list[tuple[float, float]]:
        return [self.corner[v] for v in self.map.hex_vertices[h]]

    def side_ends(self, e: int) -> tuple[tuple[float, float], tuple[float, float]]:
        v, w = self.map.edge_vertices[e]
        return self.corner[v], self.corner[w]


def tap_picks(face: LandoverChoice, seat: int | None) -> dict[tuple[str, int], dict[str, Any]]:
    """(kind, place) -> the partial choice a tap on it makes, for the seat to act's own drawing only:
    from the face's :meth:`choice_steps` of the actions still open (the keys' narrowing, else every
    legal action), so a tap always agrees with a legal action. Kinds: "corner", "side", "hex"."""
    game = face.game
    if seat is None or game.current_seat() != seat:
        return {}
    narrowed = face.candidates()
    actions = game.legal_actions() if narrowed is None else narrowed
    picks: dict[tuple[str, int], dict[str, Any]] = {}
    hex_steps: dict[int, set[str]] = {}  # hex -> the hex steps that file a place under it
    for action in actions:
        steps = face.choice_steps(action)
        for index, (field, value) in enumerate(steps):
            kind = FIELD_KINDS.get(field)
            if kind in ("corner", "side") and isinstance(value, int):
                before = steps[index - 1] if index else None
                pick = {field: value}
                if before is not None and before[0] == HEX_STEP + field:
                    pick = {before[0]: before[1], field: value}
                    hex_steps.setdefault(before[1], set()).add(before[0])
                picks.setdefault((kind, value), pick)
            elif kind == "hex" and isinstance(value, int):
                picks.setdefault(("hex", value), {field: value})
    for h, fields in hex_steps.items():  # a hex with places of one kind around it: a tap on it narrows to them
        if len(fields) == 1:
            picks.setdefault(("hex", h), {fields.pop(): h})
    return picks


def landover_svg(face: LandoverChoice, seat: int | None) -> str:
    """The drawing of ``face``'s game as ``seat`` may see it (see the module docstring)."""
    game = face.game
    picks = tap_picks(face, seat)
    # a bridge far out on the sea, or a place to tap there, widens the view
    out_there = {e for e in range(game.side_count) if game.side_piece(e) is not None} | {p for k, p in picks if k == "side"}
    corners = {v for e in out_there for v in game.map.edge_vertices[e]} | {p for k, p in picks if k == "corner"}
    geo = MapGeometry(face, corners)
    body: list[str] = []
    y = 18.0
    body.append(text(MARGIN, y, headline(face), 14, "start", "bold"))
    y += 18
    body.append(text(MARGIN, y, roll_words(face), 13, "start"))
    y += 8
    map_top = y
    body.append(f'<g transform="translate(0,{map_top:.1f})">{draw_map(face, geo, picks)}</g>')
    y = map_top + geo.height + 6
    track, y = draw_barbarians(face, y)
    body.append(track)
    legend, y = draw_legend(y, bool(picks))
    body.append(legend)
    players, y = draw_players(face, y)
    body.append(players)
    if seat is not None:
        own, y = draw_own(face, seat, y)
        body.append(own)
    return document(WIDTH, y + 8, body, "Landover: the map and the players")


def headline(face: LandoverChoice) -> str:
    game = face.game
    now = game.current_seat()
    if now is None:
        return f"Game over: {result_block(game, face)['headline']}"
    phase = {"setup": "setting up", "roll": "to roll", "main": "to play", "lucky_raid": "lucky 7 raid",
             "take": "taking cards"}.get(game.phase, game.phase)
    return f"Landover, turn {game.turns + 1}: {SEAT_WORDS[now]} {phase}"


def roll_words(face: LandoverChoice) -> str:
    dice = face.game.dice()
    if not dice:
        return "No roll yet this turn"
    total = dice["white"] + dice["red"]
    return f"Roll: white {dice['white']} + red {dice['red']} = {total}; event: {EVENT_WORDS.get(dice['event'], dice['event'])}"


def draw_map(face: LandoverChoice, geo: MapGeometry, picks: dict[tuple[str, int], dict[str, Any]]) -> str:
    game = face.game
    m = game.map
    out: list[str] = [f'<clipPath id="landover-map-clip"><rect width="{WIDTH:.0f}" height="{geo.height:.1f}" rx="6"/></clipPath>'
                      f'<g clip-path="url(#landover-map-clip)">'
                      f'<rect width="{WIDTH:.0f}" height="{geo.height:.1f}" fill="{TERRAIN_FILLS["water"]}"/>']
    producing = set(game.producing_hexes())
    for h in range(game.hex_count):
        terrain = game.terrain(h)
        cx, cy = geo.centre[h]
        if terrain == "water" and not geo.inside((cx, cy), geo.size * 0.3):
            continue
        name = f"hex {h}: {terrain}" + (f" {game.number(h)}" if game.number(h) is not None else "")
        stroke = ' stroke="#fff" stroke-width="3"' if h in producing else ' stroke="#5d6d7e" stroke-width="1"'
        if ("hex", h) in picks:
            stroke = ' stroke="#111" stroke-width="3" stroke-dasharray="6,4"'
        pick = picks.get(("hex", h))
        out.append(f'<g{attrs(f"hex {h}", pick, HEX_TAP_SQUARE * geo.size)}><title>{esc(name)}</title>'
                   f'<polygon points="{points(geo.hex_outline(h))}" fill="{TERRAIN_FILLS.get(terrain, "#ccc")}"{stroke}/>')
        if terrain != "water":
            out.append(hex_marks(face, h, geo))
        out.append("</g>")
    labels = [hex_label(face, h, geo) for h in range(game.hex_count) if game.terrain(h) != "water"]
    out.append(f'<g pointer-events="none">{"".join(labels)}</g>')  # over every hex: no neighbour cuts a word
    for h, side, resource, (x, y) in geo.harbor_spots:
        out.append(harbor(geo, m.hex_vertices[h], side, resource, x, y))
    out.append(draw_sides(face, geo, picks))
    out.append(draw_corners(face, geo, picks))
    out.append("</g>")
    return "".join(out)


def harbor(geo: MapGeometry, corners: list[int], side: int, resource: str, x: float, y: float) -> str:
    """A harbor: the sea hex beside its side drawn smaller, in sand, with its rate and resource, and
    dashed lines to the two corners that trade there. It stays inside its sea hex: it hides no land."""
    outline = [(x + 0.9 * (px - x), y + 0.9 * (py - y)) for px, py in hexagon_points(x, y, geo.size)]
    out = [f'<polygon points="{points(outline)}" fill="#fff6dc" stroke="#6b4f2a" stroke-width="1.5"/>']
    for v in (corners[side - 1], corners[side]):  # from its rim (clear of its words) to the corner
        vx, vy = geo.corner[v]
        out.append(f'<line x1="{x + 0.7 * (vx - x):.1f}" y1="{y + 0.7 * (vy - y):.1f}" x2="{vx:.1f}" y2="{vy:.1f}" '
                   'stroke="#6b4f2a" stroke-width="3" stroke-linecap="round"/>')
    out.append(text(x, y - 3, "2:1", LABEL_SIZE, weight="bold", fill=DARK))
    out.append(text(x, y + 10, resource, LABEL_SIZE, fill=DARK))
    return f'<g data-name="harbor {esc(resource)}" pointer-events="none">{"".join(out)}</g>'


def hexagon_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The corners of a pointy-topped hex of ``size`` (centre to corner) around (cx, cy)."""
    return [(cx + size * math.cos(math.radians(a)), cy + size * math.sin(math.radians(a))) for a in range(-90, 270, 60)]


def hex_label(face: LandoverChoice, h: int, geo: MapGeometry) -> str:
    """The resource word and the number token of a land hex, sized to stay inside it (its middle band
    is 1.73 sides wide, its slanted top and bottom narrower): the word above the middle, the token below."""
    game = face.game
    terrain = game.terrain(h)
    cx, cy = geo.centre[h]
    s = geo.size
    if terrain == "mystery":
        return text(cx, cy + 8, "?", 24, weight="bold", fill="#fff")
    ink = "#fff" if terrain in DARK_TERRAINS else DARK
    parts = [text(cx, cy - s * 0.25, TERRAIN_WORDS.get(terrain, terrain), LABEL_SIZE, fill=ink, extra=' dominant-baseline="central"')]
    number = game.number(h)
    if number is not None:
        color = "#c0001a" if number in LIKELY else "#111"
        ty = cy + s * 0.42
        parts.append(f'<circle cx="{cx:.1f}" cy="{ty:.1f}" r="{s * 0.38:.1f}" fill="#fffbe8" stroke="#333"/>')
        parts.append(text(cx, ty, str(number), 14 if number >= 10 else 16, weight="bold", fill=color,
                          extra=' dominant-baseline="central"'))
    return "".join(parts)


def hex_marks(face: LandoverChoice, h: int, geo: MapGeometry) -> str:
    """A land hex's catapult and the merchant, on the hex itself (a tap on them is a tap on the hex)."""
    game = face.game
    cx, cy = geo.centre[h]
    s = geo.size
    parts = []
    catapult = game.catapult_on(h)
    if catapult is not None:  # a badge with an X beside the number: the hex produces nothing
        bx, by = cx - s * 0.64, cy + s * 0.3
        fill = SEAT_FILLS[catapult]
        parts.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="8" fill="{fill}" stroke="#111"/>'
                     f'<path d="M{bx - 4:.1f},{by - 4:.1f} l8,8 M{bx - 4:.1f},{by + 4:.1f} l8,-8" stroke="#fff" '
                     'stroke-width="2.5" stroke-linecap="round"/>')
    merchant = game.merchant()
    if merchant is not None and h == merchant[1]:  # a flag right of the token, pointing in
        fx, fy = cx + s * 0.64, cy + s * 0.05
        parts.append(f'<line x1="{fx:.1f}" y1="{fy:.1f}" x2="{fx:.1f}" y2="{fy + 16:.1f}" stroke="#222" stroke-width="2"/>'
                     f'<polygon points="{points([(fx, fy), (fx - 9, fy + 4), (fx, fy + 8)])}" '
                     f'fill="{SEAT_FILLS[merchant[0]]}" stroke="#222"/>')
    return "".join(parts)


def draw_sides(face: LandoverChoice, geo: MapGeometry, picks: dict[tuple[str, int], dict[str, Any]]) -> str:
    game = face.game
    out: list[str] = []
    for e in range(game.side_count):
        a, b = geo.side_ends(e)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if not geo.inside(mid):
            continue
        piece = game.side_piece(e)
        line = f'x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"'
        parts = []
        if piece is not None:
            owner = SEAT_FILLS[game.side_owner(e)]
            dash = ' stroke-dasharray="6,3"' if piece == "bridge" else ""
            parts.append(f'<line {line} stroke="#222" stroke-width="8" stroke-linecap="round"/>')
            parts.append(f'<line {line} stroke="{owner}" stroke-width="5" stroke-linecap="round"{dash}/>')
        pick = picks.get(("side", e))
        tap = TAP_SQUARE * geo.size
        if pick is not None:  # a dot at the side's middle, in a square a tap reaches it in
            parts.append(f'<circle cx="{mid[0]:.1f}" cy="{mid[1]:.1f}" r="5" fill="#fff" stroke="#111" stroke-width="2"/>')
            parts = [f'<g pointer-events="none">{"".join(parts)}</g>', tap_square(mid, tap)]  # the square alone is hit
        if parts or pick is not None:
            title = f"side {e}" + (f": {SEAT_WORDS[game.side_owner(e)]} {piece}" if piece else "")
            out.append(f'<g{attrs(f"side {e}", pick, tap)}><title>{esc(title)}</title>{"".join(parts)}</g>')
        else:
            out.append(f'<g{attrs(f"side {e}", None)}/>')
    return "".join(out)


def draw_corners(face: LandoverChoice, geo: MapGeometry, picks: dict[tuple[str, int], dict[str, Any]]) -> str:
    game = face.game
    out: list[str] = []
    for v in range(game.corner_count):
        if not game.corner_on_land(v) or not geo.inside(geo.corner[v]):
            continue
        x, y = geo.corner[v]
        piece = game.corner_piece(v)
        pick = picks.get(("corner", v))
        parts = []
        title = f"corner {v}"
        if piece is not None:
            owner = game.corner_owner(v)
            assert owner is not None
            metro = game.metro_on(v)
            title += f": {SEAT_WORDS[owner]} {piece}"
            parts.append(settlement(x, y, piece, SEAT_FILLS[owner], game.has_wall(v), metro))
            if game.has_wall(v):
                title += " with a wall"
            if metro is not None:
                title += f", {metro} metro"
        if pick is not None:
            if piece is None:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#fff" stroke="#111" stroke-width="2"/>')
            else:  # a ring around the piece, which stays visible
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="none" stroke="#fff" stroke-width="2.5"/>')
            parts = [f'<g pointer-events="none">{"".join(parts)}</g>', tap_square((x, y), TAP_SQUARE * geo.size)]
        out.append(f'<g{attrs(f"corner {v}", pick, TAP_SQUARE * geo.size)}><title>{esc(title)}</title>{"".join(parts)}</g>')
    return "".join(out)


def tap_square(centre: tuple[float, float], side: float) -> str:
    """An invisible square around a tappable dot: where a tap reaches it."""
    return (f'<rect x="{centre[0] - side / 2:.1f}" y="{centre[1] - side / 2:.1f}" width="{side:.1f}" height="{side:.1f}" '
            'fill="#fff" fill-opacity="0.01"/>')


def settlement(x: float, y: float, piece: str, fill: str, wall: bool, metro: str | None) -> str:
    """A village (a small house) or a city (a wide house with a tower), with its wall and metro."""
    parts = []
    if piece == "village":
        house = [(x - 5, y + 5), (x - 5, y - 1), (x, y - 7), (x + 5, y - 1), (x + 5, y + 5)]
    else:
        house = [(x - 8, y + 6), (x - 8, y - 1), (x - 2, y - 1), (x - 2, y - 8), (x + 3, y - 11), (x + 8, y - 8),
                 (x + 8, y + 6)]
    parts.append(f'<polygon points="{points(house)}" fill="{fill}" stroke="#111" stroke-width="1.5"/>')
    if wall:  # a dark crenellated band at the city's foot
        band = [(x - 11, y + 9), (x - 11, y + 2), (x - 7, y + 2), (x - 7, y + 5), (x - 2, y + 5), (x - 2, y + 2),
                (x + 2, y + 2), (x + 2, y + 5), (x + 7, y + 5), (x + 7, y + 2), (x + 11, y + 2), (x + 11, y + 9)]
        parts.append(f'<polygon points="{points(band)}" fill="#333" stroke="#fff" stroke-width="1"/>')
    if metro is not None:
        star = []
        for k in range(10):
            radius = 8 if k % 2 == 0 else 3.5
            angle = -math.pi / 2 + k * math.pi / 5
            star.append((x + radius * math.cos(angle), y - 14 + radius * math.sin(angle)))
        parts.append(f'<polygon points="{points(star)}" fill="#ffd700" stroke="#111"/>')
    return "".join(parts)


def draw_barbarians(face: LandoverChoice, y: float) -> tuple[str, float]:
    steps = face.game.barbarians
    out = [text(MARGIN, y + 14, f"Barbarians {steps} of {BARBARIAN_TRACK}", 13, "start", "bold")]
    x0 = 150.0
    box = (WIDTH - MARGIN - x0) / BARBARIAN_TRACK
    for k in range(BARBARIAN_TRACK):
        filled = "#e8590c" if k < steps else "#fff"
        out.append(f'<rect x="{x0 + k * box:.1f}" y="{y:.1f}" width="{box - 4:.1f}" height="20" rx="3" fill="{filled}" '
                   'stroke="#7a3300"/>')
    out.append(text(MARGIN, y + 36, "At 7 the ships attack: the least military loses a city.", 12, "start", fill=DIM_INK))
    return "".join(out), y + 52


def draw_legend(y: float, tappable: bool) -> tuple[str, float]:
    out = [settlement(MARGIN + 8, y + 8, "village", "#888", False, -1), text(MARGIN + 20, y + 13, "village", 12, "start"),
           settlement(MARGIN + 82, y + 8, "city", "#888", False, -1), text(MARGIN + 96, y + 13, "city", 12, "start"),
           settlement(MARGIN + 146, y + 8, "city", "#888", True, -1), text(MARGIN + 163, y + 13, "walled", 12, "start"),
           settlement(MARGIN + 230, y + 10, "city", "#888", False, 0), text(MARGIN + 244, y + 13, "metro", 12, "start")]
    y2 = y + 32
    out += [f'<line x1="{MARGIN:.1f}" y1="{y2:.1f}" x2="{MARGIN + 24:.1f}" y2="{y2:.1f}" stroke="#888" stroke-width="5"/>',
            text(MARGIN + 30, y2 + 4, "road", 12, "start"),
            f'<line x1="{MARGIN + 70:.1f}" y1="{y2:.1f}" x2="{MARGIN + 94:.1f}" y2="{y2:.1f}" stroke="#888" stroke-width="5" '
            'stroke-dasharray="6,3"/>',
            text(MARGIN + 100, y2 + 4, "bridge", 12, "start"),
            f'<circle cx="{MARGIN + 157:.1f}" cy="{y2:.1f}" r="8" fill="#888" stroke="#111"/>'
            f'<path d="M{MARGIN + 153:.1f},{y2 - 4:.1f} l8,8 M{MARGIN + 153:.1f},{y2 + 4:.1f} l8,-8" stroke="#fff" '
            'stroke-width="2.5"/>',
            text(MARGIN + 170, y2 + 4, "catapult", 12, "start"),
            f'<polygon points="{points([(MARGIN + 240, y2 - 6), (MARGIN + 251, y2 - 2), (MARGIN + 240, y2 + 2)])}" fill="#888"/>',
            text(MARGIN + 256, y2 + 4, "merchant", 12, "start")]
    out.append(text(MARGIN, y2 + 24, "White edge: the hex produces on this roll.", 12, "start", fill=DIM_INK))
    if not tappable:
        return "".join(out), y2 + 32
    out.append(f'<circle cx="{MARGIN + 7:.1f}" cy="{y2 + 38:.1f}" r="7" fill="#fff" stroke="#111" stroke-width="2"/>')
    out.append(text(MARGIN + 20, y2 + 42, "White dot, dashed hex: yours to choose. Tap the", 12, "start", fill=DIM_INK))
    out.append(text(MARGIN + 20, y2 + 58, "map to zoom in, then tap it.", 12, "start", fill=DIM_INK))
    return "".join(out), y2 + 66


def draw_players(face: LandoverChoice, y: float) -> tuple[str, float]:
    """Each seat's public counts: two lines a seat, in its colour."""
    game = face.game
    out = [text(MARGIN, y + 14, "Players", 14, "start", "bold")]
    y += 20
    now = game.current_seat()
    for s in range(game.players):
        mark = " (to act)" if s == now else ""
        extras = []
        if game.route_holder() == s:
            extras.append("longest route")
        if game.port_holder() == s:
            extras.append("port authority")
        merchant = game.merchant()
        if merchant is not None and merchant[0] == s:
            extras.append("merchant")
        extras += [f"{culture} metro" for culture in CULTURES if game.metro_holder(culture) == s]
        out.append(f'<rect x="{MARGIN:.1f}" y="{y + 3:.1f}" width="12" height="30" fill="{SEAT_FILLS[s]}"/>')
        line1 = f"{SEAT_WORDS[s]}{mark}: {game.vp(s)} points, {plural(game.hand_size(s), 'card')}, {len(game.dev_cards(s))} dev cards"
        out.append(text(MARGIN + 18, y + 15, line1, 13, "start", "bold" if s == now else "normal"))
        culture = ", ".join(f"{c} {level}" for c, level in game.culture(s).items())
        line2 = f"military {game.military(s)}; {culture}"
        out.append(text(MARGIN + 18, y + 31, line2, 12, "start"))
        y += 38
        if extras:
            out.append(text(MARGIN + 18, y + 9, "holds " + ", ".join(extras), 12, "start", fill=DIM_INK))
            y += 16
    return "".join(out), y


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def cost_words(cost: dict[str, int]) -> str:
    return " + ".join(f"{n} {name}" for name, n in cost.items())


def draw_own(face: LandoverChoice, seat: int, y: float) -> tuple[str, float]:
    """``seat``'s own cards, what each build costs and its trade rates (its own drawing only)."""
    game = face.game
    out = [f'<line x1="{MARGIN:.1f}" y1="{y + 4:.1f}" x2="{WIDTH - MARGIN:.1f}" y2="{y + 4:.1f}" stroke="#999"/>',
           text(MARGIN, y + 24, f"Your cards ({SEAT_WORDS[seat]})", 14, "start", "bold")]
    y += 32
    hand = game.hand(seat)
    chip = (WIDTH - 2 * MARGIN) / 4
    for row in (CARDS[:4], CARDS[4:]):
        for k, name in enumerate(row):
            count = hand[name]
            x = MARGIN + k * chip
            fill = "#fff3c4" if count else "#f0f0f0"
            out.append(f'<g data-name="card {name}"><rect x="{x:.1f}" y="{y:.1f}" width="{chip - 4:.1f}" height="26" rx="4" '
                       f'fill="{fill}" stroke="#8a7a4a"/>' + text(x + 6, y + 18, name, 13, "start", fill=DARK) +
                       text(x + chip - 10, y + 18, str(count), 15, "end", "bold", fill=DARK) + "</g>")
        y += 30
    held = Counter(game.dev_cards(seat))
    dev = ", ".join(f"{name.replace('_', ' ')}" + (f" x{n}" if n > 1 else "") for name, n in sorted(held.items()))
    for k, line in enumerate(wrapped(f"Development cards: {dev or 'none'}", 50)):
        out.append(text(MARGIN, y + 16, line, 13, "start", extra=' data-name="development cards"' if k == 0 else ""))
        y += 17
    y += 10
    out.append(text(MARGIN, y + 14, "Costs", 14, "start", "bold"))
    y += 18
    for piece in PIECE_COSTS:
        left = game.pieces_left(seat, piece) if piece != "military" else None
        note = f" ({left} left)" if left is not None and left < 100 else ""
        out.append(text(MARGIN, y + 13, f"{piece}{note}", 13, "start", "bold") + text(MARGIN + 130, y + 13, cost_words(game.cost(piece)), 13, "start"))
        y += 17
    for culture, level in game.culture(seat).items():
        if level >= MAX_CULTURE:
            cost = "at the top"
        else:
            commodity, count = game.improve_cost(seat, culture)
            cost = f"{count} {commodity} for level {level + 1}"
        out.append(text(MARGIN, y + 13, f"{culture} {level}", 13, "start", "bold") + text(MARGIN + 130, y + 13, cost, 13, "start"))
        y += 17
    y += 8
    out.append(text(MARGIN, y + 14, "Trade with the bank (give : get 1)", 14, "start", "bold"))
    y += 18
    rates = [f"{name} {game.trade_rate(seat, CARDS.index(name))}:1" for name in CARDS]
    for line in (", ".join(rates[:4]), ", ".join(rates[4:])):
        out.append(text(MARGIN, y + 13, line, 13, "start"))
        y += 17
    cap = game.military_cap(seat)
    out.append(text(MARGIN, y + 13, f"Military {game.military(seat)} ({f'at most {cap}' if cap < 100 else 'no limit'}); "
                                    f"safe hand {game.safe_hand(seat)} cards", 13, "start"))
    return "".join(out), y + 20
