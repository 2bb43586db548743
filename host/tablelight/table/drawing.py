"""Small SVG helpers for the games' own drawings (:meth:`GameFace.drawing`).

A drawing is an SVG string sized in *page units*: :data:`PAGE_WIDTH` units are the width of a
phone's page, so a text of :data:`MIN_TEXT` units stays readable (12 CSS px or more) when the
page scales the picture to a 390 px wide phone. Tappable things carry ``data-pick`` (a JSON
object of action fields, see :meth:`GameFace.choice_steps`) and named things ``data-name``;
:func:`marks` writes both. Text gets a dark halo so it reads on any colour.
"""

from __future__ import annotations

import html
import json
import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablelight.table.face import SEAT_COLORS, SEAT_NAMES

#: Page units across a phone's page: drawings are made this wide (the page scales them).
PAGE_WIDTH = 360
#: The smallest text a drawing uses (page units), readable on a 390 px wide phone.
MIN_TEXT = 14
#: The drawings' ground and ink.
GROUND = "#1f2329"
INK = "#f2f2f2"
DIM_INK = "#b8bec7"
HALO = "#000000"


def hex_color(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


#: Seat colours as the drawings paint them (the LEDs' colours, a little lighter so they read on a dark page).
SEAT_FILLS: tuple[str, ...] = ("#e53935", "#3d7bff", "#2fb344", "#f2b600")
SEAT_WORDS: tuple[str, ...] = SEAT_NAMES
assert len(SEAT_FILLS) == len(SEAT_COLORS)


def seat_fill(seat: int) -> str:
    return SEAT_FILLS[seat % len(SEAT_FILLS)]


def seat_letter(name: str) -> str:
    """The letter that names a seat besides its colour (``red`` -> ``R``)."""
    return name[:1].upper()


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def marks(pick: Mapping[str, Any] | None = None, name: str | None = None, tap: float | None = None) -> str:
    """The ``data-pick`` and ``data-name`` attributes of a thing (leading space included); ``tap``: the
    side of the square a tap reaches a tappable thing in (``data-tap``, see :func:`tap_square`)."""
    out = ""
    if pick is not None:  # a button for keyboards and screen readers too (drawing.js takes Enter)
        out += f' data-pick="{escape(json.dumps(dict(pick), sort_keys=True))}" role="button" tabindex="0"'
        if tap is not None:
            out += f' data-tap="{fmt(tap)}"'
    if name is not None:
        out += f' data-name="{escape(name)}"' + (f' aria-label="{escape(name)}"' if pick is not None else "")
    return out


def fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def points(coords: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords)


def hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The corners of a flat-topped hexagon, clockwise from the left one (y down)."""
    return [(cx + radius * math.cos(math.radians(180 + 60 * k)), cy + radius * math.sin(math.radians(180 + 60 * k))) for k in range(6)]


def text(x: float, y: float, content: object, size: float = MIN_TEXT, *, fill: str = INK, weight: str = "normal",
         anchor: str = "middle", css: str = "") -> str:
    """A line of text centred on (x, y) with a dark halo; never smaller than :data:`MIN_TEXT`."""
    size = max(size, MIN_TEXT)
    cls = f' class="{css}"' if css else ""
    return (
        f'<text{cls} x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}" dominant-baseline="central" stroke="{HALO}" stroke-width="{fmt(size / 5)}" '
        f'stroke-linejoin="round" paint-order="stroke">{escape(content)}</text>'
    )


def document(width: float, height: float, body: Iterable[str], title: str, least_width: float | None = None) -> str:
    """The whole SVG: ``width`` x ``height`` page units on the drawings' ground. ``least_width``: CSS
    px it keeps at least (a drawing wider than :data:`PAGE_WIDTH` then scrolls sideways instead of
    shrinking its text)."""
    # a data attribute, not a style: the browser app's Content-Security-Policy refuses inline styles
    # (web/static/drawing.js applies it)
    keep = f' data-least-width="{fmt(least_width)}"' if least_width else ""
    return (
        f'<svg class="game-drawing"{keep} xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {fmt(width)} {fmt(height)}" '
        f'role="group" aria-label="{escape(title)}" font-family="system-ui, sans-serif">'
        f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(height)}" rx="8" fill="{GROUND}"/>'
        + "".join(body)
        + "</svg>"
    )


def turn_line(y: float, fill: str | None, words: str) -> str:
    """A heading row: a swatch in the acting seat's colour (``fill``; None once the game is over) and ``words``."""
    parts = []
    x = 12.0
    if fill is not None:
        parts.append(f'<rect x="{fmt(x)}" y="{fmt(y - 9)}" width="18" height="18" rx="4" fill="{fill}" stroke="{INK}"/>')
        x += 26
    parts.append(text(x, y, words, 16, anchor="start", weight="600"))
    return f'<g data-name="turn">{"".join(parts)}</g>'


def wrapped(line: str, width: int) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` characters (a longer word stays whole)."""
    return textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)


Point = tuple[float, float]


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` lies in ``polygon`` (even-odd rule)."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


def tap_square(areas: Sequence[Sequence[Point]], holes: Sequence[Sequence[Point]] = (), tries: int = 7) -> float:
    """The side of the largest upright square whose points all lie in one of ``areas`` and in none of
    ``holes`` (what is drawn over it): the room a tap has to reach a thing drawn as ``areas``. The
    square's centre is searched on a grid over the areas, its points sampled 7 by 7: a close lower
    bound. The pages zoom in until this is large enough for a finger (drawing.js, ``data-tap``)."""

    def hit(p: Point) -> bool:
        return any(inside(p, a) for a in areas) and not any(inside(p, h) for h in holes)

    def fits(c: Point, side: float) -> bool:
        return all(hit((c[0] - side / 2 + side * i / 6, c[1] - side / 2 + side * j / 6)) for i in range(7) for j in range(7))

    xs = [x for a in areas for x, _ in a]
    ys = [y for a in areas for _, y in a]
    left, top, width, height = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    best = 0.0
    for i in range(tries):
        for j in range(tries):
            c = (left + width * (i + 0.5) / tries, top + height * (j + 0.5) / tries)
            if not fits(c, best * 1.02 + 1e-9):
                continue
            low, high = best, max(width, height)
            while high - low > max(width, height) / 200:
                mid = (low + high) / 2
                low, high = (mid, high) if fits(c, mid) else (low, mid)
            best = low
    return best
