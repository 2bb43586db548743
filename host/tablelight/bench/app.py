"""``tablelight bench app``: the web app in headless Chromium, against CPython in the same run.

The app is built (``tablelight app build`` into a temporary folder) and served by ``tablelight
app serve`` in a child process; Chromium (Debian's, through Playwright) opens it in a fresh
profile. Figures:

* the first visit to ``ready`` (nothing cached: Pyodide's 10 MB of WebAssembly and the stdlib are
  downloaded and compiled) and later visits (new tabs of the same profile, one open at a time: the
  service worker's cache and the compiled code cache), each from ``goto`` to ``ready`` and as the
  page counts it (from its script's start), with the worker's phases (``window.tablelight.timings``)
  and, after each, Pyodide alone from the same cache (:data:`BARE_PAGE`, started afresh: the app's
  later visits start Python from the snapshot its first visit kept, see ``worker.js``): the ratio is
  what the app adds to, or saves on, Pyodide's own start, which the shared machine's load moves much
  less than either time;
* random games' actions per second in the page's worker and in this CPython, same games, same
  seeds (``tablelight.app.engine.speed``), after a warm-up on each side, in rounds taking turns: by
  the clock (each side's best round) and by the CPU time of each side's thread;
* the memory of the browser's renderer processes (proportional set size), in a browser of its own
  with one page (a reload, then the speed games);
* a key pressed on the simulated board (the real firmware) to its LEDs showing the move, through
  the page: a stand-in ``navigator.serial`` over the board's pty (Chromium cannot open a serial
  port headless), and emulated Web Bluetooth relayed to the board on bumble's virtual radio; the
  simulated board times both ends.
"""

from __future__ import annotations

import json
import os
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tablelight.app.build import build_app
from tablelight.app.manifest import MANIFEST
from tablelight.app.engine import speed
from tablelight.bench.app_serving import Traffic, bench_folder, evaluate_within, served, wait_until

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"]
#: (game, players, games) measured for speed: about a second a round in the page on this kind of
#: machine (a round of CPU time is counted in /proc's 10 ms ticks: a short one would be coarse).
SPEED_GAMES = (("landover", 2, 36), ("farlander", 2, 1500))
#: Chromium's own navigator.serial.requestPort() never settles headless (no chooser, no CDP
#: emulation): this stand-in's one port reads and writes through window.__pty_read / __pty_write
#: (hex text), which the bench and the tests expose from Python, wired to the simulated board's pty.
SERIAL_STAND_IN = """
(() => {
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const bytes = (text) => new Uint8Array((text.match(/../g) || []).map((h) => parseInt(h, 16)));
  const serial = new EventTarget();
  // the browser's grant outlives a reload, as Chromium's does (getPorts() then lists the port)
  const granted = () => localStorage.getItem("stand-in-port") === "granted";
  let lost = null;  // errors the open port's streams: the cable pulled
  const port = {
    async open() {
      if (this.readable) throw new DOMException("The port is already open.", "InvalidStateError");
      let reading = null;
      this.readable = new ReadableStream({
        start(controller) { reading = controller; },
        async pull(controller) {
          while (reading) {
            const text = await window.__pty_read();
            if (text && reading) { controller.enqueue(bytes(text)); return; }
          }
        },
      });
      this.writable = new WritableStream({
        async write(chunk) {
          if (!reading) throw new DOMException("The device has been lost.", "NetworkError");
          await window.__pty_write(hex(chunk));
        },
      });
      lost = () => { const c = reading; reading = null; c.error(new DOMException("The device has been lost.", "NetworkError")); };
    },
    async close() { this.readable = null; this.writable = null; lost = null; },
    async forget() { localStorage.removeItem("stand-in-port"); },
  };
  const tell = (type) => {
    const event = new Event(type);
    Object.defineProperty(event, "target", { value: port });
    serial.dispatchEvent(event);
  };
  serial.requestPort = async () => { localStorage.setItem("stand-in-port", "granted"); return port; };
  serial.getPorts = async () => (granted() ? [port] : []);
  Object.defineProperty(navigator, "serial", { value: serial });
  // tests: the cable pulled out and plugged back in
  window.__unplug_port = () => { if (lost) lost(); tell("disconnect"); };
  window.__plug_port = () => tell("connect");
})();
"""


def run_app_bench(chromium: str = CHROMIUM, visits: int = 3, scale: float = 1.0, presses: int = 30) -> dict[str, Any]:
    """Build, serve, measure; returns the figures (see the module docstring)."""
    from playwright.sync_api import sync_playwright

    with bench_folder() as temp:
        built = build_app(temp / "site")
        add_bare_pyodide(built.folder)
        with served(built.folder) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
            try:
                figures = _measure(browser, url, visits, scale, presses)
            finally:
                browser.close()
            figures["memory"] = page_memory(playwright, chromium, url, scale)
            try:
                figures["bluetooth_key_to_leds"] = bluetooth_key_to_leds(playwright, chromium, url, presses)
            except RuntimeError as error:  # the other figures stand; this one says what did not come
                figures["bluetooth_key_to_leds"] = {"presses": 0, "p50_ms": None, "p99_ms": None, "failed": str(error)}
    figures.update(pyodide=built.pyodide, build_mb=round(built.size / 1e6, 1), uncompiled=getattr(built, "uncompiled", "?"))
    return figures


#: Pyodide alone, for comparison: a page whose module worker loads Pyodide from the same files (the
#: service worker's cache) and nothing else; it says ``ready`` as the app does.
BARE_PAGE = """<!doctype html><html><head><meta charset="utf-8"><script type="module" src="bare.js"></script></head>
<body data-state="loading"></body></html>"""
BARE_SCRIPT = """const worker = new Worker("bare_worker.js", { type: "module" });
worker.onmessage = (event) => { window.tablelight = { timings: event.data }; document.body.dataset.state = "ready"; };"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("./pyodide/", self.location).href, fullStdLib: false });
postMessage({ pyodide: Math.round(performance.now()), worker_origin: performance.timeOrigin });"""


def add_bare_pyodide(folder: Path) -> None:
    """The comparison page (:data:`BARE_PAGE`) next to a built app: not in its offline list, in the
    list of files ``app serve`` serves."""
    pages = {"bare.html": BARE_PAGE, "bare.js": BARE_SCRIPT, "bare_worker.js": BARE_WORKER}
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    about = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    about["files"] = sorted({*about["files"], *pages})
    (folder / MANIFEST).write_text(json.dumps(about, indent=1), encoding="utf-8")


SW_READY = "() => navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true"
SPEED_CALL = "(arg) => window.tablelight.call('speed', arg)"
#: A round of speed games takes about a second at --scale 1 (far more on a loaded machine).
SPEED_TIMEOUT_S = 300


def _visit(context: Any, url: str) -> tuple[Any, float, dict[str, Any]]:
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body:not([data-state=loading])", state="attached", timeout=120_000)
    seconds = time.perf_counter() - started
    if page.get_attribute("body", "data-state") != "ready":
        raise RuntimeError(f"the app did not start: {page.inner_text('#status')}")
    evaluate_within(page, SW_READY, None, 120, "the service worker's offline copy")
    timings = dict(page.evaluate("window.tablelight.timings"))
    # the worker's marks count from its own start: moved to the page's clock
    shift = timings.pop("worker_origin", None)
    if shift is not None:
        shift -= page.evaluate("performance.timeOrigin")
        timings = {name: round(value + shift) if name != "ready_ms" else round(value) for name, value in timings.items()}
    return page, seconds, timings


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
        return _time_presses(page, sim, presses)
    finally:
        context.close()
        os.close(fd)
        sim.stop()


def bluetooth_key_to_leds(playwright: Any, chromium: str, url: str, presses: int) -> dict[str, Any]:
    """The same over emulated Web Bluetooth: Chromium's BluetoothEmulation relayed to the simulated
    board on bumble's virtual radio (:mod:`tablelight.bench.bluetooth_relay`), paired by a press
    first. The emulation cannot push a notification, so the page reads the board's characteristic
    every 10 ms (as in the tests): the figure holds that polling, which a real radio does not have."""
    try:
        from tablelight.bench.bluetooth_relay import BLUETOOTH_ARGS, READ_NOTIFICATIONS, Relay, choose_first_device
        from tablelight.sim.board import SimBoard
        from tablelight.sim.radio import VirtualRadio
    except ImportError as error:
        return {"presses": 0, "p50_ms": None, "p99_ms": None, "missing": str(error)}
    radio = VirtualRadio()
    browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS + BLUETOOTH_ARGS)
    relay = None
    try:
        with SimBoard.start("farlander", settings={"TL_BLE": "1", "TL_BLE_NAME": "tablelight-bench"}, radio=radio) as sim:
            sim.key(0, True)  # hold the pairing key while the board powers up: the pairing window opens
            sim.wait_pixels(lambda pixels: len(pixels) > 4 and min(p[2] for p in pixels[:4]) > 45
                            and all(p[0] == 0 == p[1] for p in pixels[:4]), timeout=20)
            sim.key(0, False)
            relay = Relay(browser.new_browser_cdp_session(), f"ble://{sim.ble_address}", radio.adapter("bench browser"))
            context = browser.new_context()
            context.add_init_script(READ_NOTIFICATIONS)
            page = context.new_page()
            choose_first_device(context, page)
            page.goto(url)
            page.wait_for_selector("body[data-state=ready]", timeout=120_000)
            page.click("#connect-ble")
            page.wait_for_selector("body[data-board=confirm]", timeout=30_000)
            sim.press(7)  # accepts the pairing (not a move)
            page.wait_for_selector("body[data-board=connected]", timeout=30_000)
            return _time_presses(page, sim, presses)
    finally:
        if relay is not None:
            relay.close()
        browser.close()
        radio.close()


def _time_presses(page: Any, sim: Any, presses: int) -> dict[str, Any]:
    """Farlander's opening with two people, one press a move: each press to the board's LEDs changing."""
    from tablelight.games.farlander.engine import Farlander
    from tablelight.games.farlander.face import InputMachine, load_layout

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
        territory = machine.reads.territory_index(seat["choices"][0]["action"]["territory"])
        assert territory is not None, "the page offered a territory the board does not have"
        key = machine.keys_for(territory)[0]
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
            page.wait_for_timeout(2)  # the page's exposed functions and CDP events run meanwhile
        wait_until(lambda: page.evaluate("window.tablelight.snapshot().actions") > snapshot["actions"],
                   "the page's count of actions after a key press", 30, lambda: page.wait_for_timeout(5))
    ordered = sorted(latencies)
    return {"presses": len(ordered),
            "p50_ms": round(ordered[len(ordered) // 2], 1) if ordered else None,
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1) if ordered else None}


def _measure(browser: Any, url: str, visits: int, scale: float, presses: int) -> dict[str, Any]:
    context = browser.new_context()
    traffic = Traffic(context)
    page, first, first_timings = _visit(context, url)
    first_bytes, first_requests = traffic.take(page)  # the service worker's copy included (it is ready)
    page.close()  # one app open at a time: a second Pyodide in the same renderer slows the next start
    # later visits, each followed by Pyodide alone from the same cache: what the app adds to Pyodide's start
    later, later_timings, bare, later_bytes = [], [], [], []
    for _ in range(visits):
        page, seconds, timings = _visit(context, url)
        later.append(seconds)
        later_timings.append(timings)
        later_bytes.append(traffic.take(page)[0])
        page.close()
        bare_page, bare_seconds, _ = _visit(context, url + "bare.html")
        bare.append(bare_seconds)
        bare_page.close()
    page, _, _ = _visit(context, url)  # the page for the speed games
    rates = [_speed(page, game, players, max(1, round(games * scale))) for game, players, games in SPEED_GAMES]
    context.close()
    keys = key_to_leds(browser, url, presses)
    phases = {name: round(statistics.median(t[name] for t in later_timings if name in t)) for name in later_timings[0]}
    return {"key_to_leds": keys, "first_visit_s": round(first, 2), "first_visit_page_ms": round(first_timings["ready_ms"]),
            "first_visit_bytes": first_bytes, "first_visit_requests": first_requests,
            "later_visit_bytes": max(later_bytes),
            "later_visit_s": round(statistics.median(later), 2), "later_visits": len(later),
            "later_visit_page_ms": phases["ready_ms"], "later_visit_phases_ms": phases,
            "bare_pyodide_s": round(statistics.median(bare), 2),
            "later_over_bare": round(statistics.median(later) / statistics.median(bare), 2),
            "speed": rates, "cpython": sys.version.split()[0]}


#: Rounds of each speed game, page and CPython taking turns; each side's best counts (the machine
#: is shared: a round slowed by another process says nothing about either interpreter).
SPEED_ROUNDS = 3


def _speed(page: Any, game: str, players: int, count: int) -> dict[str, Any]:
    """Random games' actions/s in the page's worker and in this CPython: the same games, a warm-up
    round on each side first (WebAssembly's optimising tier, CPython's caches), then rounds taking turns.
    Two figures: by the clock (each side's best round), and by the CPU time each side's thread used
    (the worker's thread from /proc, this thread's own), which other jobs on the cores do not move."""
    arg = {"game": game, "players": players, "games": count, "seed": 0}
    # a whole round first on each side, not counted: WebAssembly's optimising tier takes the
    # interpreter's loop over only after a while (under node a fourth round of Landover ran 1.3x the first)
    evaluate_within(page, SPEED_CALL, arg, SPEED_TIMEOUT_S, f"the page's {game} speed games")
    speed(game, players, count, 0)
    in_page, on_cpython, page_cpu, cpython_cpu = [], [], 0.0, 0.0
    for _ in range(SPEED_ROUNDS):
        before = worker_cpu_s()
        in_page.append(evaluate_within(page, SPEED_CALL, arg, SPEED_TIMEOUT_S, f"the page's {game} speed games"))
        page_cpu += worker_cpu_s() - before
        before = time.thread_time()
        on_cpython.append(json.loads(speed(game, players, count, 0)))
        cpython_cpu += time.thread_time() - before
    if in_page[0]["actions"] != on_cpython[0]["actions"]:
        raise RuntimeError(f"{game}: the page played {in_page[0]['actions']} actions, CPython {on_cpython[0]['actions']}")
    best_page = max(r["actions_per_s"] for r in in_page)
    best_cpython = max(r["actions_per_s"] for r in on_cpython)
    actions = in_page[0]["actions"] * SPEED_ROUNDS
    return {"game": game, "players": players, "games": count, "actions": in_page[0]["actions"], "rounds": SPEED_ROUNDS,
            "page_actions_per_s": best_page, "cpython_actions_per_s": best_cpython,
            "ratio": round(best_page / best_cpython, 2),
            "ratios_per_round": [round(a["actions_per_s"] / b["actions_per_s"], 2) for a, b in zip(in_page, on_cpython)],
            "page_actions_per_cpu_s": round(actions / page_cpu) if page_cpu > 0 else None,
            "cpython_actions_per_cpu_s": round(actions / cpython_cpu) if cpython_cpu > 0 else None,
            "cpu_ratio": round(cpython_cpu / page_cpu, 2) if page_cpu > 0 and cpython_cpu > 0 else None}


def page_memory(playwright: Any, chromium: str, url: str, scale: float) -> dict[str, Any]:
    """The app's renderer memory on its own: a browser of its own, one page, a later visit (a
    reload), after the speed games; every renderer of that browser counted, the largest (the page
    and its worker) named."""
    browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
    try:
        page = browser.new_context().new_page()
        for _ in range(2):
            page.goto(url)
            page.wait_for_selector("body[data-state=ready]", timeout=120_000)
            evaluate_within(page, SW_READY, None, 120, "the service worker's offline copy")
        for game, players, games in SPEED_GAMES:
            evaluate_within(page, SPEED_CALL, {"game": game, "players": players, "games": max(1, round(games * scale)),
                                               "seed": 0}, SPEED_TIMEOUT_S * max(1.0, scale), f"the page's {game} speed games")
        page.wait_for_timeout(500)
        processes = renderer_memory_mb(each=True)
    finally:
        browser.close()
    assert isinstance(processes, list)
    return {"renderers_mb": sorted(processes, reverse=True), "total_mb": round(sum(processes), 1) if processes else None}


def renderers() -> list[int]:
    """The process ids of this process's Chromium renderers (our descendants)."""
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
    return found


def renderer_memory_mb(each: bool = False) -> float | list[float] | None:
    """The proportional set size of this process's Chromium renderers, in MB (``each``: a list,
    one per renderer)."""
    sizes = []
    for pid in renderers():
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    sizes.append(round(int(line.split()[1]) / 1024, 1))
        except (OSError, ValueError):
            continue
    if each:
        return sizes
    return round(sum(sizes), 1) if sizes else None


def worker_cpu_s() -> float:
    """CPU seconds used so far by the Web Workers' threads of our renderers (Chromium names them
    ``DedicatedWorker``): the page's table, without the time other processes took the cores."""
    ticks = 0
    for pid in renderers():
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                if (task / "comm").read_text().strip() == "DedicatedWorker":
                    fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                    ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def print_figures(figures: dict[str, Any]) -> None:
    print(f"the app in headless Chromium (Pyodide {figures['pyodide']}, {figures['build_mb']} MB built; "
          f"CPython {figures['cpython']} in the same run)")
    if figures.get("uncompiled"):
        print(f"  (the wheel holds no bytecode: {figures['uncompiled']})")
    print(f"  first visit to ready: {figures['first_visit_s']} s (the page's own count {figures['first_visit_page_ms']} ms; "
          "target <= 3 s)")
    print(f"  later visits to ready: median {figures['later_visit_s']} s of {figures['later_visits']} (the page's own count "
          f"{figures['later_visit_page_ms']} ms; target <= 1.5 s); Pyodide alone from the same cache "
          f"{figures['bare_pyodide_s']} s (started afresh; the app's later visits start from its snapshot): the app takes "
          f"{figures['later_over_bare']}x Pyodide's own start")
    print(f"  bytes over the network: first visit {figures['first_visit_bytes'] / 1e6:.2f} MB in "
          f"{figures['first_visit_requests']} requests (the offline copy included; target <= 12 MB), a later visit "
          f"{figures['later_visit_bytes'] / 1e3:.1f} kB (the most of {figures['later_visits']})")
    phases = figures["later_visit_phases_ms"]
    print("    the worker's phases (ms from the page's start, median; Pyodide's own load is \"pyodide\", or \"pyodide_from_snapshot\" from the first visit's snapshot): " + ", ".join(
        f"{name} {value}" for name, value in sorted(phases.items(), key=lambda item: item[1]) if name != "ready_ms"))
    for rate in figures["speed"]:
        print(f"  {rate['game']} random games ({rate['games']}, {rate['actions']} actions; best of {rate['rounds']} "
              f"rounds each, taking turns, after a warm-up): page {rate['page_actions_per_s']:.0f} actions/s, "
              f"CPython {rate['cpython_actions_per_s']:.0f} ({rate['ratio']}x; target >= 0.75x; "
              f"rounds {', '.join(str(r) for r in rate['ratios_per_round'])})")
        print(f"    by CPU time (the worker's thread, CPython's): page {rate['page_actions_per_cpu_s']} actions per CPU "
              f"second, CPython {rate['cpython_actions_per_cpu_s']} ({rate['cpu_ratio']}x)")
    keys = figures["key_to_leds"]
    print(f"  key press on the simulated board to its LEDs, through the page (Web Serial stand-in over a pty): "
          f"p50 {keys['p50_ms']} ms, p99 {keys['p99_ms']} ms ({keys['presses']} presses)")
    keys = figures["bluetooth_key_to_leds"]
    if keys.get("failed"):
        print(f"  key press to LEDs over emulated Web Bluetooth: not measured ({keys['failed']})")
    elif keys.get("missing"):
        print(f"  key press to LEDs over emulated Web Bluetooth: not measured ({keys['missing']}: pip install -e '.[bench]')")
    else:
        print(f"  key press on the simulated board to its LEDs, through the page over emulated Web Bluetooth (CDP, "
              f"bumble; the page polls the board's characteristic every 10 ms, as the emulation cannot push): "
              f"p50 {keys['p50_ms']} ms, p99 {keys['p99_ms']} ms ({keys['presses']} presses)")
    memory = figures["memory"]
    print(f"  renderer memory (PSS; a browser of its own, one page after a reload and the speed games): "
          f"{memory['total_mb'] if memory['total_mb'] is not None else 'unknown'} MB (target <= 300 MB; per renderer "
          f"{', '.join(str(m) for m in memory['renderers_mb'])})")


def add_parser(kinds: Any) -> None:
    """``bench app`` among ``tablelight bench``'s kinds."""
    parser = kinds.add_parser("app", help="the web app in headless Chromium: first and later visits to ready (against "
                                          "Pyodide alone), actions/s in the page against CPython, renderer memory, "
                                          "key press to LEDs over a Web Serial stand-in and emulated Web Bluetooth")
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
