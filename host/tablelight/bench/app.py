"""``tablelight bench app``: the web app in headless Chromium, against CPython in the same run.

The app is built (``tablelight app build`` into a temporary folder) and served by ``tablelight
app serve`` in a child process; Chromium (Debian's, through Playwright) opens it in a fresh
profile. Figures:

* the first visit to ``ready`` (nothing cached: Pyodide's 10 MB of WebAssembly and the stdlib are
  downloaded and compiled) and later visits (new tabs of the same profile, one open at a time: the
  service worker's cache and the compiled code cache), each from ``goto`` to ``ready`` and as the
  page counts it (from its script's start);
* random games' actions per second in the page's worker and in this CPython, same games, same
  seeds (``tablelight.app.engine.speed``);
* the memory of the browser's renderer processes (proportional set size, the page and its worker);
* a key pressed on the simulated board (the real firmware) to its LEDs showing the move, through
  the page: a stand-in ``navigator.serial`` over the board's pty (Chromium cannot open a serial
  port headless), the worker's table and board protocol; the simulated board times both ends.
"""

from __future__ import annotations

import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tablelight.app.build import build_app
from tablelight.app.engine import speed

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"]
#: (game, players, games) measured for speed: about a second each on this kind of machine.
SPEED_GAMES = (("landover", 2, 12), ("farlander", 2, 150))
#: Chromium's own navigator.serial.requestPort() never settles headless (no chooser, no CDP
#: emulation): this stand-in's one port reads and writes through window.__pty_read / __pty_write
#: (hex text), which the bench and the tests expose from Python, wired to the simulated board's pty.
SERIAL_STAND_IN = """
(() => {
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const bytes = (text) => new Uint8Array((text.match(/../g) || []).map((h) => parseInt(h, 16)));
  const port = {
    async open() {
      this.readable = new ReadableStream({
        async pull(controller) {
          for (;;) {
            const text = await window.__pty_read();
            if (text) { controller.enqueue(bytes(text)); return; }
          }
        },
      });
      this.writable = new WritableStream({ async write(chunk) { await window.__pty_write(hex(chunk)); } });
    },
    async close() {},
  };
  Object.defineProperty(navigator, "serial", { value: { requestPort: async () => port, getPorts: async () => [port] } });
})();
"""


def run_app_bench(chromium: str = CHROMIUM, visits: int = 3, scale: float = 1.0, presses: int = 30) -> dict[str, Any]:
    """Build, serve, measure; returns the figures (see the module docstring)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tablelight-app-") as temp:
        built = build_app(Path(temp) / "site")
        server = subprocess.Popen([sys.executable, "-m", "tablelight", "app", "serve", str(built.folder), "--port", "0"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if " at http://" not in line:
                raise RuntimeError(f"tablelight app serve did not start: {line}")
            url = line.split(" at ", 1)[1].split()[0]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
                try:
                    figures = _measure(browser, url, visits, scale, presses)
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures.update(pyodide=built.pyodide, build_mb=round(built.size / 1e6, 1))
    return figures


def _visit(context: Any, url: str) -> tuple[Any, float, dict[str, Any]]:
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body:not([data-state=loading])", timeout=120_000)
    seconds = time.perf_counter() - started
    if page.get_attribute("body", "data-state") != "ready":
        raise RuntimeError(f"the app did not start: {page.inner_text('#status')}")
    page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
    return page, seconds, page.evaluate("window.tablelight.timings")


def expose_pty(context: Any, fd: int) -> None:
    """The page's stand-in serial port (:data:`SERIAL_STAND_IN`) reads and writes the pty ``fd``."""

    def pty_read() -> str:
        # a short wait: Playwright runs one exposed call at a time, so a long one would hold the
        # page's writes back (and the figures would time this harness, not the app)
        ready, _, _ = select.select([fd], [], [], 0.005)
        return os.read(fd, 4096).hex() if ready else ""

    def pty_write(text: str) -> None:
        data = bytes.fromhex(text)
        while data:
            select.select([], [fd], [], 1.0)
            data = data[os.write(fd, data):]

    context.expose_function("__pty_read", pty_read)
    context.expose_function("__pty_write", pty_write)
    context.add_init_script(SERIAL_STAND_IN)


def key_to_leds(browser: Any, url: str, presses: int) -> dict[str, Any]:
    """A key pressed on the simulated board to its LEDs showing the move, through the page (Web
    Serial stand-in, the worker's table and BoardProtocol): Farlander's opening, one press a move."""
    from tablelight.games.farlander.engine import Farlander
    from tablelight.games.farlander.face import InputMachine, load_layout
    from tablelight.sim.board import SimBoard

    sim = SimBoard.start("farlander")
    fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    context = browser.new_context()
    try:
        expose_pty(context, fd)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        page.click("#connect-usb")
        page.wait_for_selector("body[data-board=connected]", timeout=30_000)
        page.select_option("#game", "farlander")
        page.fill("#seats", "human,human")
        page.fill("#seed", "1")
        page.click("#start")
        page.wait_for_selector("#choices button", timeout=30_000)
        machine = InputMachine(Farlander(2, None, 1), load_layout())
        latencies: list[float] = []
        for _ in range(presses):
            snapshot = page.evaluate("window.tablelight.snapshot()")
            seat = next((s for s in snapshot["seats"].values() if s and s["your_turn"]), None)
            if seat is None or not seat["choices"] or seat["choices"][0]["action"]["type"] != "place":
                break
            key = machine.keys_for(machine.game.index[seat["choices"][0]["action"]["territory"]])[0]
            count, _, before = sim.pixel_update()
            pressed = time.monotonic_ns()
            sim.press(key)
            deadline = time.monotonic() + 10
            while True:
                number, at_ns, shown = sim.pixel_update()
                if number > count and shown != before:
                    latencies.append((at_ns - pressed) / 1e6)
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError("a key press never changed the board's LEDs")
                page.wait_for_timeout(2)  # the page's exposed functions run meanwhile
            while page.evaluate("window.tablelight.snapshot().actions") <= snapshot["actions"]:
                page.wait_for_timeout(5)
    finally:
        context.close()
        os.close(fd)
        sim.stop()
    ordered = sorted(latencies)
    return {"presses": len(ordered),
            "p50_ms": round(ordered[len(ordered) // 2], 1) if ordered else None,
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1) if ordered else None}


def _measure(browser: Any, url: str, visits: int, scale: float, presses: int) -> dict[str, Any]:
    context = browser.new_context()
    page, first, first_timings = _visit(context, url)
    page.close()  # one app open at a time: a second Pyodide in the same renderer slows the next start
    later, later_page_ms = [], []
    for number in range(visits):
        page, seconds, timings = _visit(context, url)
        later.append(seconds)
        later_page_ms.append(timings["ready_ms"])
        if number < visits - 1:
            page.close()
    rates = []
    for game, players, games in SPEED_GAMES:
        count = max(1, round(games * scale))
        in_page = page.evaluate("(arg) => window.tablelight.call('speed', arg)",
                                {"game": game, "players": players, "games": count, "seed": 0})
        on_cpython = json.loads(speed(game, players, count, 0))
        if in_page["actions"] != on_cpython["actions"]:
            raise RuntimeError(f"{game}: the page played {in_page['actions']} actions, CPython {on_cpython['actions']}")
        rates.append({"game": game, "players": players, "games": count, "actions": in_page["actions"],
                      "page_actions_per_s": in_page["actions_per_s"], "cpython_actions_per_s": on_cpython["actions_per_s"],
                      "ratio": round(in_page["actions_per_s"] / on_cpython["actions_per_s"], 2)})
    memory = renderer_memory_mb()
    context.close()
    keys = key_to_leds(browser, url, presses)
    return {"key_to_leds": keys,"first_visit_s": round(first, 2), "first_visit_page_ms": round(first_timings["ready_ms"]),
            "later_visit_s": round(statistics.median(later), 2), "later_visits": len(later),
            "later_visit_page_ms": round(statistics.median(later_page_ms)),
            "speed": rates, "renderer_pss_mb": memory, "cpython": sys.version.split()[0]}


def renderer_memory_mb() -> float | None:
    """The proportional set size of this process's Chromium renderers (our descendants), in MB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            todo.append(child)
            try:
                if b"--type=renderer" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(child)
            except OSError:
                continue
    total_kb = 0
    for pid in found:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kb += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return round(total_kb / 1024, 1) if found else None


def print_figures(figures: dict[str, Any]) -> None:
    print(f"the app in headless Chromium (Pyodide {figures['pyodide']}, {figures['build_mb']} MB built; "
          f"CPython {figures['cpython']} in the same run)")
    print(f"  first visit to ready: {figures['first_visit_s']} s (the page's own count {figures['first_visit_page_ms']} ms; "
          "target <= 3 s)")
    print(f"  later visits to ready: median {figures['later_visit_s']} s of {figures['later_visits']} (the page's own count "
          f"{figures['later_visit_page_ms']} ms; target <= 1.5 s)")
    for rate in figures["speed"]:
        print(f"  {rate['game']} random games ({rate['games']}, {rate['actions']} actions): page "
              f"{rate['page_actions_per_s']:.0f} actions/s, CPython {rate['cpython_actions_per_s']:.0f} "
              f"({rate['ratio']}x; target >= 0.75x)")
    keys = figures["key_to_leds"]
    print(f"  key press on the simulated board to its LEDs, through the page (Web Serial stand-in over a pty): "
          f"p50 {keys['p50_ms']} ms, p99 {keys['p99_ms']} ms ({keys['presses']} presses)")
    memory = figures["renderer_pss_mb"]
    print(f"  renderer memory (PSS, page and worker): {memory if memory is not None else 'unknown'} MB (target <= 300 MB)")


def add_parser(kinds: Any) -> None:
    """``bench app`` among ``tablelight bench``'s kinds."""
    parser = kinds.add_parser("app", help="the web app in headless Chromium: first and later visits to ready, "
                                          "actions/s in the page against CPython, renderer memory")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium to drive (default {CHROMIUM})")
    parser.add_argument("--visits", type=int, default=3, help="later visits measured (default 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="more or fewer speed games (default 1.0: about 1 s a game)")
    parser.add_argument("--presses", type=int, default=30,
                        help="key presses on the simulated board timed to its LEDs through the page (default 30)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    from tablelight.core.errors import SetupError

    if not Path(args.chromium).exists():
        raise SetupError(f"no Chromium at {args.chromium}: install Debian's chromium or give --chromium PATH")
    if args.visits < 1 or args.scale <= 0 or args.presses < 1:
        raise SetupError("--visits and --presses take a whole number from 1, --scale a positive number")
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise SetupError("bench app drives Chromium with Playwright: pip install 'tablelight[test]'") from None
    figures = run_app_bench(args.chromium, args.visits, args.scale, args.presses)
    if args.json:
        print(json.dumps(figures))
    else:
        print_figures(figures)
    return 0
