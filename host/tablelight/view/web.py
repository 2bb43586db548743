"""A local web page showing a board's LEDs in the board's shape; clicking presses keys.

:class:`WebView` serves, on 127.0.0.1 only:

* ``GET /`` the page: an SVG of the seven hex tiles cut into slices (one element per
  LED, ``data-led``/``data-key``), the status LEDs and the confirm/cancel buttons;
* ``GET /pixels`` ``{"pixels": [[r, g, b], ...]}``, what the LEDs show now;
* ``POST /press/<key>`` presses and releases a key (204; 400 for a bad key number).

The page polls ``/pixels`` ten times a second and colours each LED element with the
same lift as :mod:`tablelight.view.colors`. It knows LEDs and keys only (from the
layout), never the game, so it works for ``tablelight sim`` as for ``tablelight play``.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tablelight.table.layout import BoardLayout
from tablelight.view.colors import DISPLAY_GAMMA

PixelSource = Callable[[], Sequence[Sequence[int]]]
Presser = Callable[[int], None]

CENTRE_RADIUS = 0.34
STATUS_RADIUS = 0.17


def _point(x: float, y: float) -> str:
    return f"{x:.4f},{y:.4f}"


def _hex_points(cx: float, cy: float, radius: float) -> str:
    return " ".join(
        _point(cx + radius * math.cos(math.radians(60 * i)), cy + radius * math.sin(math.radians(60 * i)))
        for i in range(6)
    )


def _slice_points(cx: float, cy: float, edge: int) -> str:
    """The pie slice of a flat-topped hex (radius 1) under ``edge`` (0 N, clockwise)."""
    first = math.radians(-120 + 60 * edge)
    second = math.radians(-60 + 60 * edge)
    return " ".join(
        [_point(cx, cy), _point(cx + math.cos(first), cy + math.sin(first)), _point(cx + math.cos(second), cy + math.sin(second))]
    )


def svg(layout: BoardLayout) -> str:
    """The board drawing: one element per LED (``class="led"``), buttons with ``data-key``."""
    parts = []
    for slot in layout.data["slots"]:
        cx, cy = slot["center"]
        index = slot["slot"]
        for edge in range(6):
            parts.append(
                f'<polygon class="led" id="led-{layout.edge_leds[index][edge]}" data-led="{layout.edge_leds[index][edge]}" '
                f'data-key="{layout.edge_keys[index][edge]}" points="{_slice_points(cx, cy, edge)}"/>'
            )
        parts.append(
            f'<polygon class="led centre" id="led-{layout.centre_leds[index]}" data-led="{layout.centre_leds[index]}" '
            f'data-key="{layout.centre_keys[index]}" points="{_hex_points(cx, cy, CENTRE_RADIUS)}"/>'
        )
    for item in layout.data["status_leds"]:
        x, y = item["at"]
        label = f"seat {item['seat']}" if item["role"] == "turn" else item["phase"]
        parts.append(
            f'<circle class="led status" id="led-{item["led"]}" data-led="{item["led"]}" cx="{x}" cy="{y}" '
            f'r="{STATUS_RADIUS}"><title>{label}</title></circle>'
        )
    for item in layout.data["buttons"]:
        x, y = item["at"]
        parts.append(
            f'<g class="button" id="button-{item["role"]}" data-key="{item["key"]}">'
            f'<rect x="{x - 0.3}" y="{y - 0.17}" width="0.6" height="0.34" rx="0.08"/>'
            f'<text x="{x}" y="{y + 0.06}">{item["role"]}</text></g>'
        )
    xs = [s["center"][0] for s in layout.data["slots"]] + [i["at"][0] for i in layout.data["status_leds"] + layout.data["buttons"]]
    ys = [s["center"][1] for s in layout.data["slots"]] + [i["at"][1] for i in layout.data["status_leds"] + layout.data["buttons"]]
    left, top = min(xs) - 1.2, min(ys) - 1.2
    width, height = max(xs) + 1.2 - left, max(ys) + 0.6 - top
    return (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="{left:.3f} {top:.3f} {width:.3f} {height:.3f}">'
        + "".join(parts)
        + "</svg>"
    )


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tablelight: %(title)s</title>
<style>
 body { background: #202020; color: #ddd; font-family: sans-serif; margin: 1em; }
 #board { width: min(96vw, 80vh); height: auto; display: block; }
 .led { fill: #000; stroke: #555; stroke-width: 0.015; cursor: pointer; }
 .led.status { cursor: default; }
 .button rect { fill: #444; stroke: #999; stroke-width: 0.015; cursor: pointer; }
 .button text { fill: #eee; font-size: 0.16px; text-anchor: middle; pointer-events: none; }
 #status { margin-top: 0.5em; min-height: 1.2em; }
</style></head>
<body><h1 style="font-size:1.1em">%(title)s</h1>
%(svg)s
<div id="status">connecting...</div>
<script>
const GAMMA = %(gamma)s;
const leds = new Map();
document.querySelectorAll('.led').forEach(el => leds.set(Number(el.dataset.led), el));
function lift(v) { return Math.round(255 * Math.pow(Math.max(0, Math.min(255, v)) / 255, GAMMA)); }
async function refresh() {
  try {
    const answer = await fetch('/pixels', {cache: 'no-store'});
    const data = await answer.json();
    data.pixels.forEach((p, i) => {
      const el = leds.get(i);
      if (el) el.style.fill = `rgb(${lift(p[0])}, ${lift(p[1])}, ${lift(p[2])})`;
    });
    document.getElementById('status').textContent = data.message || '';
    document.body.dataset.frames = String(Number(document.body.dataset.frames || 0) + 1);
  } catch (error) {
    document.getElementById('status').textContent = 'board not reachable: ' + error;
  }
}
document.querySelectorAll('[data-key]').forEach(el => el.addEventListener('click', () => {
  fetch('/press/' + el.dataset.key, {method: 'POST'});
}));
setInterval(refresh, 100);
refresh();
</script></body></html>
"""


def page(layout: BoardLayout, title: str = "") -> str:
    return _PAGE % {"title": title or f"{layout.id} board", "svg": svg(layout), "gamma": repr(DISPLAY_GAMMA)}


class WebView:
    """Serves the page for ``pixels()`` and ``press(key)`` on 127.0.0.1:``port`` (0: any free port)."""

    def __init__(
        self,
        layout: BoardLayout,
        pixels: PixelSource,
        press: Presser,
        *,
        port: int = 0,
        title: str = "",
        message: Callable[[], str] | None = None,
    ) -> None:
        self.layout = layout
        html = page(layout, title).encode("utf-8")
        keys = layout.keys
        message_source = message or (lambda: "")

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # keep the terminal for the game
                pass

            def _send(self, status: int, body: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if self.path in ("/", "/index.html"):
                    self._send(200, html, "text/html; charset=utf-8")
                elif self.path == "/pixels":
                    try:
                        data = [list(p[:3]) for p in pixels()]
                        body = json.dumps({"pixels": data, "message": message_source()}).encode()
                    except Exception as error:  # the board went away: say so on the page
                        self._send(503, json.dumps({"error": str(error)}).encode(), "application/json")
                        return
                    self._send(200, body, "application/json")
                else:
                    self._send(404, b"not found", "text/plain")

            def do_POST(self) -> None:
                prefix = "/press/"
                if not self.path.startswith(prefix):
                    self._send(404, b"not found", "text/plain")
                    return
                text = self.path[len(prefix) :]
                if not text.isdigit() or not 0 <= int(text) < keys:
                    self._send(400, f"key must be 0-{keys - 1}".encode(), "text/plain")
                    return
                press(int(text))
                self._send(204, b"", "text/plain")

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> WebView:
        self._thread = threading.Thread(target=self.server.serve_forever, name="web-view", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> WebView:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
