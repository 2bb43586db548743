"""The board drawing of the web pages: labelled buttons stay apart."""

from __future__ import annotations

import re

import pytest

from tablelight.table.layout import layout_names, load_layout_data
from tablelight.web.drawing import svg


def button_spans(picture: str) -> list[tuple[float, float, float]]:
    """(left, right, centre y) of every labelled button's rectangle."""
    spans = []
    for x, y, width, height in re.findall(
        r'<g class="button"[^>]*><rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"', picture
    ):
        spans.append((float(x), float(x) + float(width), float(y) + float(height) / 2))
    return spans


@pytest.mark.parametrize("layout_id", layout_names())
def test_buttons_in_a_row_do_not_overlap(layout_id):
    spans = button_spans(svg(load_layout_data(layout_id)))
    rows: dict[float, list[tuple[float, float]]] = {}
    for left, right, y in spans:
        rows.setdefault(round(y, 3), []).append((left, right))
    for row in rows.values():
        row.sort()
        for (left, right), (next_left, _) in zip(row, row[1:]):
            assert right <= next_left, f"{layout_id}: the button at {left:.2f} reaches into the next one"
