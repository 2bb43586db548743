"""Drawing primitives in millimetres (x right, y down), shared by the SVG and PDF writers."""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]
Colour = tuple[int, int, int]

BLACK: Colour = (0, 0, 0)
GREY: Colour = (150, 150, 150)
LIGHT: Colour = (215, 215, 215)
BLUE: Colour = (20, 90, 200)
RED: Colour = (200, 30, 30)
GREEN: Colour = (20, 130, 60)


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    colour: Colour = BLACK
    width: float = 0.3
    closed: bool = False
    fill: Colour | None = None
    dashed: bool = False


@dataclass(frozen=True)
class Circle:
    centre: Point
    radius: float
    colour: Colour = BLACK
    width: float = 0.3
    fill: Colour | None = None


@dataclass(frozen=True)
class Text:
    at: Point  # the baseline's start (anchor "start"), middle or end
    text: str
    size: float = 2.5  # mm, cap height of about 0.7 x size
    colour: Colour = BLACK
    anchor: str = "start"  # start, middle, end
    bold: bool = False


Shape = Line | Circle | Text


def rect(x: float, y: float, w: float, h: float, **style: object) -> Line:
    return Line(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), closed=True, **style)  # type: ignore[arg-type]


def moved(shape: Shape, dx: float, dy: float) -> Shape:
    if isinstance(shape, Line):
        return Line(tuple((x + dx, y + dy) for x, y in shape.points), shape.colour, shape.width, shape.closed,
                    shape.fill, shape.dashed)
    if isinstance(shape, Circle):
        return Circle((shape.centre[0] + dx, shape.centre[1] + dy), shape.radius, shape.colour, shape.width,
                      shape.fill)
    return Text((shape.at[0] + dx, shape.at[1] + dy), shape.text, shape.size, shape.colour, shape.anchor, shape.bold)
