"""One page as SVG, sized in millimetres so it prints 1:1 (at 100 % / actual size)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from tablelight.buildsheet.pages import Page
from tablelight.buildsheet.shapes import Circle, Colour, Line, Shape, Text


def _rgb(colour: Colour | None) -> str:
    return "none" if colour is None else f"rgb({colour[0]},{colour[1]},{colour[2]})"


def _shape(shape: Shape) -> str:
    if isinstance(shape, Line):
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in shape.points)
        dash = ' stroke-dasharray="1.2,0.8"' if shape.dashed else ""
        tag = "polygon" if shape.closed else "polyline"
        return (f'<{tag} points="{points}" fill="{_rgb(shape.fill)}" stroke="{_rgb(shape.colour)}" '
                f'stroke-width="{shape.width}"{dash}/>')
    if isinstance(shape, Circle):
        return (f'<circle cx="{shape.centre[0]:.2f}" cy="{shape.centre[1]:.2f}" r="{shape.radius:.2f}" '
                f'fill="{_rgb(shape.fill)}" stroke="{_rgb(shape.colour)}" stroke-width="{shape.width}"/>')
    weight = ' font-weight="bold"' if shape.bold else ""
    return (f'<text x="{shape.at[0]:.2f}" y="{shape.at[1]:.2f}" font-size="{shape.size}" font-family="Helvetica, '
            f'Arial, sans-serif" text-anchor="{shape.anchor}" fill="{_rgb(shape.colour)}"{weight}>'
            f"{escape(shape.text)}</text>")


def page_svg(page: Page, title: str) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width}mm" height="{page.height}mm" '
        f'viewBox="0 0 {page.width} {page.height}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{page.width}" height="{page.height}" fill="white"/>',
    ]
    if page.clip is not None:
        x, y, w, h = page.clip
        lines.append(f'<clipPath id="window"><rect x="{x}" y="{y}" width="{w}" height="{h}"/></clipPath>')
        lines.append(f'<g clip-path={quoteattr("url(#window)")}>')
        lines += [_shape(s) for s in page.board]
        lines.append("</g>")
    lines += [_shape(s) for s in page.overlay]
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
