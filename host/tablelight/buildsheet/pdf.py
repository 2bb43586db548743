"""All pages of a build sheet as one PDF (fpdf2), in millimetres: prints 1:1 at actual size."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from tablelight.buildsheet.pages import Page
from tablelight.buildsheet.shapes import Circle, Line, Shape

PT_PER_MM = 72 / 25.4


def _draw(pdf: FPDF, shape: Shape) -> None:
    if isinstance(shape, Line):
        pdf.set_draw_color(*shape.colour)
        pdf.set_line_width(shape.width)
        pdf.set_dash_pattern(dash=1.2, gap=0.8) if shape.dashed else pdf.set_dash_pattern()
        if shape.fill is not None:
            pdf.set_fill_color(*shape.fill)
        style = "DF" if shape.fill is not None else "D"
        if shape.closed:
            pdf.polygon(list(shape.points), style=style)
        else:
            pdf.polyline(list(shape.points), style="D")
        return
    if isinstance(shape, Circle):
        pdf.set_dash_pattern()
        pdf.set_draw_color(*shape.colour)
        pdf.set_line_width(shape.width)
        if shape.fill is not None:
            pdf.set_fill_color(*shape.fill)
        pdf.circle(x=shape.centre[0], y=shape.centre[1], radius=shape.radius,
                   style="DF" if shape.fill is not None else "D")
        return
    pdf.set_text_color(*shape.colour)
    pdf.set_font("helvetica", "B" if shape.bold else "", shape.size * PT_PER_MM)
    text = shape.text.encode("latin-1", "replace").decode("latin-1")  # the core fonts are Latin-1
    width = pdf.get_string_width(text)
    x = shape.at[0] - (width / 2 if shape.anchor == "middle" else width if shape.anchor == "end" else 0)
    pdf.text(x, shape.at[1], text)


def write_pdf(pages: list[Page], path: Path, title: str) -> None:
    pdf = FPDF(unit="mm")
    pdf.set_title(title)
    pdf.set_creator("tablelight build-sheet")
    pdf.set_auto_page_break(False)
    for page in pages:
        pdf.add_page(format=(page.width, page.height))
        if page.clip is not None:
            x, y, w, h = page.clip
            with pdf.rect_clip(x, y, w, h):
                for shape in page.board:
                    _draw(pdf, shape)
        for shape in page.overlay:
            _draw(pdf, shape)
    pdf.output(str(path))
