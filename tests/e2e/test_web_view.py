"""The web view in a real headless browser (Debian chromium driven by Playwright): the page
shows the simulated board's LEDs in the right colours, and a click presses the key (on the
host's page, whose address carries the host token; the same page without it only shows)."""

from __future__ import annotations

import os
import struct
import zlib

import pytest

from tablelight.games.farlander.face import load_layout
from tablelight.view.colors import display_color
from tablelight.web.board_view import WebView

from .helpers import shows_scene, wait_for

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api")
BoardSession = pytest.importorskip("tablelight.board.session").BoardSession
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)


def decode_png(data: bytes) -> tuple[int, int, list[bytearray], int]:
    """(width, height, rows, bytes per pixel) of an 8-bit RGB/RGBA PNG, as a screenshot is."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, depth, color_type = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and color_type in (2, 6)
    step = 3 if color_type == 2 else 4
    raw = zlib.decompress(chunks)
    rows: list[bytearray] = []
    stride = width * step
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up = previous[x]
            corner = previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    return width, height, rows, step


CENTROID = """el => {
  let x = 0, y = 0;
  if (el.points) {
    for (const p of el.points) { x += p.x; y += p.y; }
    x /= el.points.length; y /= el.points.length;
  } else { x = el.cx.baseVal.value; y = el.cy.baseVal.value; }
  const m = el.getScreenCTM();
  return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
}"""

SCENE_LEDS = {0: (255, 0, 0), 8: (0, 200, 0), 20: (0, 60, 255), 27: (255, 170, 0), 6: (200, 200, 200), 49: (255, 0, 0)}


def test_the_page_shows_the_leds_and_clicks_press_keys(sim_board):
    layout = load_layout()
    session = BoardSession.open(sim_board.port)
    try:
        scene = [(0, 0, 0, 0)] * layout.leds
        for led, rgb in SCENE_LEDS.items():
            scene[led] = (*rgb, 0)
        session.show(scene)
        wait_for(lambda: shows_scene(sim_board.pixels(), scene))
        shown = sim_board.pixels()
        with WebView(layout.data, sim_board.pixels, sim_board.press) as view, sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=BROWSER_ARGS,
            )
            try:
                page = browser.new_page(viewport={"width": 700, "height": 860}, device_scale_factor=1, bypass_csp=True)  # its predicates are eval-ed
                page.goto(view.url)
                page.wait_for_function("Number(document.body.dataset.frames || 0) >= 1")
                width, height, rows, step = decode_png(page.screenshot())
                for led in list(SCENE_LEDS) + [1, 13, 54]:
                    x, y = page.eval_on_selector(f"#led-{led}", CENTROID)
                    row = rows[round(y)]
                    got = tuple(row[round(x) * step + c] for c in range(3))
                    want = display_color(shown[led])
                    assert all(abs(g - w) <= 2 for g, w in zip(got, want)), (led, got, want)
                    if led in SCENE_LEDS:
                        channel = max(range(3), key=lambda c: SCENE_LEDS[led][c])
                        assert got[channel] == max(got) > 60
                    else:
                        assert max(got) == 0
                session.poll(0.05)  # drop anything pending before the clicks
                page.click("#led-9")
                page.click("#button-confirm")
                keys: list[int] = []
                wait_for(lambda: keys.extend(e.key for e in session.poll(0.05) if e.pressed) or len(keys) >= 2)
                assert keys == [9, layout.confirm_key]
            finally:
                browser.close()
    finally:
        session.close()


def test_any_layout_is_drawn_from_its_drawing_mainland_mini_map(real_board):
    """The same page draws the Mainland mini-map (rect cells, status circles, many buttons)."""
    if real_board:
        pytest.skip("starts its own simulated board")
    from tablelight.sim.board import SimBoard
    from tablelight.table.layout import load_layout_data

    layout = load_layout_data("mainland")
    cells = {layout["matrix"]["leds"][0][0]: (255, 0, 0), layout["matrix"]["leds"][1][0]: (0, 200, 0),
             layout["matrix"]["leds"][15][15]: (0, 60, 255), layout["turn_leds"][1]: (255, 170, 0),
             layout["token_leds"][3][5]: (0, 200, 0)}  # the 16th row, and LEDs past 255
    with SimBoard.start("mainland") as sim:
        session = BoardSession.open(sim.port)
        try:
            scene = [(0, 0, 0, 0)] * layout["leds"]
            for led, rgb in cells.items():
                scene[led] = (*rgb, 0)
            session.show(scene)
            wait_for(lambda: shows_scene(sim.pixels(), scene))
            shown = sim.pixels()
            with WebView(layout, sim.pixels, sim.press) as view, sync_api.sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM,
                    args=BROWSER_ARGS,
                )
                try:
                    page = browser.new_page(viewport={"width": 1000, "height": 800}, device_scale_factor=1, bypass_csp=True)  # its predicates are eval-ed
                    page.goto(view.url)
                    page.wait_for_function("Number(document.body.dataset.frames || 0) >= 1")
                    width, height, rows, step = decode_png(page.screenshot())
                    for led in list(cells) + [layout["matrix"]["leds"][5][5]]:
                        x, y = page.eval_on_selector(f"#led-{led}", CENTROID)
                        got = tuple(rows[round(y)][round(x) * step + c] for c in range(3))
                        want = display_color(shown[led])
                        assert all(abs(g - w) <= 2 for g, w in zip(got, want)), (led, got, want)
                    session.poll(0.05)
                    page.click("#button-x3")
                    page.click("#button-card-1")
                    keys: list[int] = []
                    wait_for(lambda: keys.extend(e.key for e in session.poll(0.05) if e.pressed) or len(keys) >= 2)
                    assert keys == [layout["column_keys"][3], layout["hand_keys"][0]]
                finally:
                    browser.close()
        finally:
            session.close()
