"""A local web page showing a board's LEDs in the board's shape; clicking presses keys.

:class:`WebView` serves, on 127.0.0.1 only:

* ``GET /`` the page: an SVG drawn from the layout's generic ``drawing`` (one element
  per LED with ``data-led``, and ``data-key`` where a click presses a key; labelled
  buttons for keys without an LED);
* ``GET /pixels`` ``{"pixels": [[r, g, b], ...]}``, what the LEDs show now;
* ``POST /press/<key>`` presses and releases a key (204; 400 for a bad key number).

The page polls ``/pixels`` ten times a second and colours each LED element with the
same lift as :mod:`tablelight.view.colors`. It knows LEDs and keys only (from the
layout), never the game, so it draws any layout, for ``tablelight sim`` as for
``tablelight play``.
"""

from __future__ import annotations

import html as html_text
import json
import re
import statistics
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tablelight.view.colors import DISPLAY_GAMMA

PixelSource = Callable[[], Sequence[Sequence[int]]]
Presser = Callable[[int], None]

MARGIN = 0.3


def _point(x: float, y: float) -> str:
    return f"{x:.4f},{y:.4f}"


def _led_size(item: dict[str, Any]) -> float:
    if item["shape"] == "circle":
        return 2.0 * item["r"]
    if item["shape"] == "rect":
        return float(max(item["size"]))
    xs = [p[0] for p in item["points"]]
    ys = [p[1] for p in item["points"]]
    return float(max(max(xs) - min(xs), max(ys) - min(ys)))


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "key"


def svg(layout: dict[str, Any]) -> str:
    """The board drawing: one element per LED (``class="led"``, ``id="led-N"``), buttons with ``data-key``."""
    drawing = layout["drawing"]
    unit = statistics.median(_led_size(item) for item in drawing["leds"]) if drawing["leds"] else 1.0
    parts = []
    for item in drawing["leds"]:
        led = item["led"]
        attributes = f'id="led-{led}" data-led="{led}"'
        css = "led"
        if "key" in item:
            attributes += f' data-key="{item["key"]}"'
        else:
            css += " status"
        title = f"<title>{html_text.escape(item['label'])}</title>" if item.get("label") else ""
        if item["shape"] == "circle":
            x, y = item["at"]
            parts.append(f'<circle class="{css}" {attributes} cx="{x}" cy="{y}" r="{item["r"]}">{title}</circle>')
        else:
            if item["shape"] == "rect":
                (x, y), (w, h) = item["at"], item["size"]
                points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            else:
                points = [(p[0], p[1]) for p in item["points"]]
            # Rectangles are polygons too: every LED element has points, one way to find its centre.
            parts.append(
                f'<polygon class="{css}" {attributes} points="{" ".join(_point(x, y) for x, y in points)}">{title}</polygon>'
            )
    seen: set[str] = set()
    for button in drawing.get("buttons", []):
        x, y = button["at"]
        label = button["label"]
        name = _slug(label)
        if name in seen:
            name = f"{name}-{button['key']}"
        seen.add(name)
        height = 0.42 * unit
        width = max(0.7, 0.12 * len(label) + 0.24) * unit
        parts.append(
            f'<g class="button" id="button-{name}" data-key="{button["key"]}">'
            f'<rect x="{x - width / 2:.4f}" y="{y - height / 2:.4f}" width="{width:.4f}" height="{height:.4f}" rx="{0.1 * unit:.4f}"/>'
            f'<text x="{x}" y="{y + 0.07 * unit:.4f}" font-size="{0.2 * unit:.4f}">{html_text.escape(label)}</text></g>'
        )
    width, height = float(drawing["width"]), float(drawing["height"])
    return (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{-MARGIN:.3f} {-MARGIN:.3f} {width + 2 * MARGIN:.3f} {height + 2 * MARGIN:.3f}">'
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
 .button text { fill: #eee; text-anchor: middle; pointer-events: none; }
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


def page(layout: dict[str, Any], title: str = "") -> str:
    return _PAGE % {
        "title": html_text.escape(title or f"{layout['id']} board"),
        "svg": svg(layout),
        "gamma": repr(DISPLAY_GAMMA),
    }


class WebView:
    """Serves the page for ``pixels()`` and ``press(key)`` on 127.0.0.1:``port`` (0: any free port)."""

    def __init__(
        self,
        layout: dict[str, Any],
        pixels: PixelSource,
        press: Presser,
        *,
        port: int = 0,
        title: str = "",
        message: Callable[[], str] | None = None,
    ) -> None:
        self.layout = layout
        html = page(layout, title).encode("utf-8")
        keys = layout["keys"]
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
