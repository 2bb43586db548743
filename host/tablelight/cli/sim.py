"""``tablelight sim``: a simulated board running the real firmware, with a web and/or terminal view.

Any layout whose game has a face (``--layout NAME``, default farlander). It prints the
pseudo-terminal the host can open (``tablelight play GAME --board PORT`` in another shell)
and shows the LEDs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from tablelight.core.inputs import number_in_range


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("sim", help="run a simulated board (the real firmware) and show its LEDs")
    parser.add_argument(
        "--layout", default="farlander", help="board layout: the layout of any game that has a lit-board face (default farlander)"
    )
    parser.add_argument("--view", choices=("web", "terminal", "both", "none"), default="web", help="default web")
    parser.add_argument("--web-port", type=number_in_range(0, 65535, whole=True), default=8055,
                        help="port of the web view on 127.0.0.1 (default 8055; 0: any free port)")
    parser.add_argument("--test-input", action=argparse.BooleanOptionalAction, default=True,
                        help="accept key presses by message (TEST_KEY), as a test bench does for `pytest --board` "
                             "(default on)")
    parser.add_argument("--seconds", type=number_in_range(0, 10**7), default=None, help="stop after this many seconds (default: Ctrl-C)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablelight.sim.board import SimBoard
    from tablelight.table.layout import load_layout_data

    games = games_for_layout(args.layout)
    layout = load_layout_data(args.layout)
    layout_id = layout["id"]
    stop = threading.Event()
    with SimBoard.start(layout_id, settings={"TL_TEST_INPUT": "1" if args.test_input else "0"}) as sim:
        print(f"simulated {layout_id} board on {sim.port}", flush=True)
        print(f"console (Ctrl-C stops the firmware, Ctrl-D reloads it): {sim.console_port}", flush=True)
        for game in games:
            print(f"play on it with: tablelight play {game} --board {sim.port}", flush=True)
        web = None
        if args.view in ("web", "both"):
            from tablelight.web.board_view import WebView

            web = WebView(layout, sim.pixels, sim.press, port=args.web_port, title=f"simulated {layout_id} board")
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


def games_for_layout(name: str) -> list[str]:
    """The games whose face uses the layout ``name``; a clear error when none does."""
    from tablelight.core.errors import SetupError
    from tablelight.core.registry import game_entries
    from tablelight.table.face import face_class

    faces: dict[str, str] = {}
    for game, entry in sorted(game_entries().items()):
        if entry.face is None:
            continue
        try:
            faces[game] = face_class(game).default_layout
        except (ImportError, AttributeError, SetupError):  # a face that cannot be loaded: skip it
            continue
    games = [game for game, layout in faces.items() if layout == name]
    if not games:
        known = ", ".join(f"{layout} ({game})" for game, layout in faces.items())
        raise SetupError(f"no game with a lit-board face uses the layout {name!r}; layouts with one: {known}")
    return games
