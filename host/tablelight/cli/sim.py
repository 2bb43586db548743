"""``tablelight sim``: a simulated board running the real firmware, with a web and/or terminal view.

It prints the pseudo-terminal the host can open (``tablelight play farlander --board PORT``
in another shell) and shows the LEDs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("sim", help="run a simulated board (the real firmware) and show its LEDs")
    parser.add_argument("--layout", default="farlander", help="board layout (default farlander)")
    parser.add_argument("--view", choices=("web", "terminal", "both", "none"), default="web", help="default web")
    parser.add_argument("--web-port", type=int, default=8055, help="port of the web view on 127.0.0.1 (default 8055)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this many seconds (default: Ctrl-C)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablelight.sim.board import SimBoard
    from tablelight.table.layout import load_layout

    layout = load_layout(args.layout)
    stop = threading.Event()
    with SimBoard.start(layout.id) as sim:
        print(f"simulated {layout.id} board on {sim.port}", flush=True)
        print(f"play on it with: tablelight play {layout.id} --board {sim.port}", flush=True)
        web = None
        if args.view in ("web", "both"):
            from tablelight.view.web import WebView

            web = WebView(layout, sim.pixels, sim.press, port=args.web_port, title=f"simulated {layout.id} board")
            web.start()
            print(f"web view: {web.url}", flush=True)
        if args.view in ("terminal", "both"):
            from tablelight.view.terminal import TerminalView

            TerminalView(layout, sys.stdout).follow(sim.pixels, stop)
        try:
            stop.wait(args.seconds)
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            if web is not None:
                web.stop()
    return 0
