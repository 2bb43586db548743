"""``tablelight bench rules|bots GAME``, ``bench link|table|web``: print speed and strength figures."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablelight.bench.rules import random_games, win_rate
from tablelight.core.registry import game_class, game_names


def _progress(total: int, quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        if done == total or done % max(1, total // 50) == 0:
            print(f"\r{done}/{total} games", end="\n" if done == total else "", file=sys.stderr, flush=True)

    return show


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("bench", help="benchmarks that print figures")
    kinds = parser.add_subparsers(dest="bench_kind", metavar="KIND", required=True)

    rules = kinds.add_parser("rules", help="complete random games per second and actions per second (one core)")
    rules.add_argument("game", choices=game_names())
    rules.add_argument("--players", type=int, default=2)
    rules.add_argument("--games", type=int, default=1000)
    rules.add_argument("--seed", type=int, default=0)
    rules.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    rules.add_argument(
        "--vs-catanatron", action="store_true", help="landover only: 4-player games, catanatron measured in the same run"
    )
    rules.add_argument(
        "--cpu", action="store_true", help="with --vs-catanatron: time by CPU seconds of this process, not the wall clock"
    )
    rules.set_defaults(func=run_rules)

    bots = kinds.add_parser("bots", help="win rate of the first bot against the others")
    bots.add_argument("game", choices=game_names())
    bots.add_argument("--bots", default="strong,random", help="first bot, then its opponents (default strong,random)")
    bots.add_argument("--games", type=int, default=200)
    bots.add_argument("--seed", type=int, default=0)
    bots.add_argument("--json", action="store_true")
    bots.set_defaults(func=run_bots)

    link = kinds.add_parser("link", help="key press to LED bytes through the real firmware on the simulated board; "
                                         "with --board PORT: round trip and scene to acknowledgement on that board")
    link.add_argument("--presses", type=int, default=200)
    link.add_argument("--board", metavar="PORT", help="measure on this board (a real one, or `tablelight sim`'s port)")
    link.add_argument("--rounds", type=int, default=100, help="with --board: measurements of each kind (default 100)")
    link.add_argument("--json", action="store_true", help="print p50_ms, p99_ms, update_bytes, ... as one JSON object")
    link.add_argument("--ble", action="store_true",
                      help="Bluetooth LE instead (bumble's virtual radio): full scenes of the biggest board and typical "
                           "moves at ATT MTU 23 and 247")
    link.add_argument("--scenes", type=int, default=10, help="with --ble: full scenes per MTU (default 10)")
    link.add_argument("--async", dest="asynchronous", action="store_true",
                      help="through the asyncio session (AsyncBoardSession) and board on one event loop")
    link.set_defaults(func=run_link)

    table = kinds.add_parser(
        "table", help="key press to the action checked, stored in SQLite and shown, through the simulated board"
    )
    table.add_argument("--presses", type=int, default=200)
    table.add_argument("--json", action="store_true", help="print p50_ms, p99_ms, max_ms as one JSON object")
    table.add_argument("--async", dest="asynchronous", action="store_true",
                       help="the path `tablelight play` runs: the table, the board session and the simulated board on one "
                            "asyncio loop (default: the polling driver with the threaded board session tools use)")
    table.add_argument("--while-thinking", metavar="BOT", default=None,
                       help="the --async path while a search bot (mcts, mcts-deep, mcts-deep:800ms...) plays itself "
                            "on the same loop, beside the figures with no bot thinking and with the bot thinking "
                            "each move whole (as before the table thought in slices); --presses each, pressed once the "
                            "bot has moved in its game (its worker is up)")
    table.set_defaults(func=run_table)

    web = kinds.add_parser("web", help="seats' moves per 15 s, act p50/p99 and host memory while strangers hold "
                                       "hostile connections to the web port (board sockets, silent, half-sent bodies)")
    web.add_argument("--hostile", default="0,64,200,1000", help="numbers of hostile connections, comma-separated (default 0,64,200,1000)")
    web.add_argument("--seconds", type=float, default=15.0, help="how long the seats move at each number (default 15)")
    web.add_argument("--kinds", default="sockets,silent,bodies",
                     help="hostile connections in turn: public board sockets, silent ones, half-sent bodies (default all three)")
    web.add_argument("--json", action="store_true", help="print one JSON object per number")
    web.set_defaults(func=run_web)
    cost = kinds.add_parser("cost", help="each engine's CPU instructions per game under valgrind's callgrind (a count "
                                         "that does not move with the machine's load), against a record")
    cost.add_argument("--check", metavar="FILE", help="compare with this record; exit 1 if an engine left its band "
                                                      "(5%% above, 10%% below)")
    cost.add_argument("--update", metavar="FILE", help="write the figures to this record (with --check: shown against the old one, not judged)")
    cost.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    cost.set_defaults(func=run_cost)

    from tablelight.bench.app import add_parser as add_app_bench  # bench app: the web app in headless Chromium
    add_app_bench(kinds)
    from tablelight.bench.phones import add_parser as add_phones_bench  # bench phones: phones join it over WebRTC
    add_phones_bench(kinds)
    from tablelight.bench.setup_board import add_parser as add_setup_bench  # bench setup: a board set up from the page
    add_setup_bench(kinds)


def run_link(args: argparse.Namespace) -> int:
    if args.board:
        from tablelight.bench.board_link import print_board_figures

        return print_board_figures(args.board, args.rounds, args.json, _progress(args.rounds, args.json))
    if args.ble:
        return run_link_ble(args)
    from tablelight.bench.link import run_link_bench

    figures = run_link_bench(args.presses, progress=_progress(args.presses, args.json), asynchronous=args.asynchronous)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"key press -> LED bytes on the simulated board ({figures['presses']} presses, real firmware, pty"
            f"{', asyncio' if args.asynchronous else ''}): "
            f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms\n"
            f"  a typical move: {figures['update_bytes']} bytes on the wire (full scene {figures['scene_bytes']} bytes)"
        )
    return 0


#: What `bench link --ble` runs on, and how to get each (Adafruit's libraries declare Blinka, which a
#: PC does not need: the `bench` extra brings bleak and bumble, these two commands the rest).
BLE_BENCH_NEEDS = {
    "bumble": "pip install 'tablelight[bench]' (bumble's virtual radio)",
    "bleak": "pip install 'tablelight[bench]' (the host's Bluetooth LE client)",
    "adafruit_ble": "pip install --no-deps adafruit-circuitpython-ble==10.1.5 (Adafruit's BLE library, "
                    "which the simulated board's firmware runs)",
    "neopixel": "pip install --no-deps adafruit-circuitpython-neopixel adafruit-circuitpython-pixelbuf",
    "adafruit_pixelbuf": "pip install --no-deps adafruit-circuitpython-neopixel adafruit-circuitpython-pixelbuf",
}


def missing_ble_bench_parts() -> list[str]:
    """The modules of BLE_BENCH_NEEDS this Python cannot find (found without importing them:
    adafruit_ble imports CircuitPython's _bleio, which only the simulated board has)."""
    import importlib.util

    missing = []
    for name in BLE_BENCH_NEEDS:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def run_link_ble(args: argparse.Namespace) -> int:
    from tablelight.core.errors import SetupError

    missing = missing_ble_bench_parts()
    if missing:
        steps = list(dict.fromkeys(BLE_BENCH_NEEDS[name] for name in missing))
        raise SetupError(f"bench link --ble needs {', '.join(missing)}, which this Python does not have: "
                         + "; ".join(steps))
    from tablelight.bench.link_ble import MTUS, run_ble_bench

    moves = min(args.presses, 50)
    figures = run_ble_bench(args.scenes, moves, progress=_progress((args.scenes + moves) * len(MTUS), args.json))
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"Bluetooth LE through the real firmware's adafruit_ble on bumble's virtual radio ({figures['layout']} board; "
          "no air time: add about one connection interval per few ATT writes on a real radio)")
    for m in figures["mtus"]:
        print(f"  ATT MTU {m['mtu']}: full scene of {m['leds']} LEDs {m['scene_bytes']} bytes in {m['scene_writes']} "
              f"writes, p50 {m['scene_p50_ms']} ms (max {m['scene_max_ms']}); a move {m['move_bytes']} bytes in "
              f"{m['move_writes']} writes, p50 {m['move_p50_ms']} ms (max {m['move_max_ms']})")
    return 0


def run_table(args: argparse.Namespace) -> int:
    from tablelight.bench.table import measure, measure_async, measure_beside

    if args.while_thinking is not None:
        from tablelight.core.errors import SetupError
        from tablelight.core.search_bot import parse_search_name

        try:
            if parse_search_name(args.while_thinking) is None:
                raise SetupError(f"--while-thinking takes a search bot (mcts, mcts-deep, mcts:64, mcts-deep:800ms), "
                                 f"not {args.while_thinking!r}")
        except SetupError as error:
            print(error, file=sys.stderr)
            return 2
        results = measure_beside(args.presses, args.while_thinking)
        if args.json:
            print(json.dumps(results))
        for mode, found in results.items():
            if not args.json:
                print(f"key press -> shown, {mode} ({args.while_thinking}): {found['presses']} presses, "
                      f"p50 {found['p50_ms']} ms, p99 {found['p99_ms']} ms, max {found['max_ms']} ms, "
                      f"board taken for lost {found['board_lost']} times")
        return 0
    figures = measure_async(args.presses) if args.asynchronous else measure(args.presses)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"key press -> checked, stored, shown: {figures['presses']} presses, "
            f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms"
        )
    return 0


def run_web(args: argparse.Namespace) -> int:
    from tablelight.bench.web import KINDS, run_web_bench

    try:
        hostile = [int(n) for n in args.hostile.split(",")]
    except ValueError:
        print(f"--hostile takes numbers separated by commas, not {args.hostile!r}", file=sys.stderr)
        return 2
    if any(not 0 <= n <= 5000 for n in hostile) or args.seconds <= 0:
        print("--hostile takes numbers from 0 to 5000, --seconds a positive number", file=sys.stderr)
        return 2
    kinds = tuple(args.kinds.split(","))
    if not kinds or any(kind not in KINDS for kind in kinds):
        print(f"--kinds takes {', '.join(KINDS)} separated by commas, not {args.kinds!r}", file=sys.stderr)
        return 2
    for row in run_web_bench(hostile, args.seconds, progress=None if args.json else print, kinds=kinds):
        if args.json:
            print(json.dumps(row), flush=True)
    return 0


def run_cost(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tablelight.bench.cost import compare, measure, read_record, record_of

    record = read_record(Path(args.check)) if args.check else None
    measured = measure()
    if args.json:
        print(json.dumps(measured))
    else:
        for name, figures in measured.items():
            before = (record or {}).get("engines", {}).get(name, {}).get("per_game")
            against = f" (record {before:,}: {figures['per_game'] / before - 1:+.1%})" if before else ""
            print(f"{name}: {figures['per_game']:,} instructions per game over {figures['games']} games{against}")
    if args.update:
        Path(args.update).write_text(json.dumps(record_of(measured), indent=1) + "\n")
        print(f"recorded in {args.update}", file=sys.stderr)
    # With --update the new figures are the record: only a check alone judges them.
    problems = compare(measured, record) if record is not None and not args.update else []
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def run_rules(args: argparse.Namespace) -> int:
    if args.cpu and not args.vs_catanatron:
        print("tablelight bench: --cpu goes with --vs-catanatron", file=sys.stderr)
        return 2
    if args.vs_catanatron:
        from tablelight.games.landover.bench import run_vs_catanatron

        return run_vs_catanatron(args)
    cls = game_class(args.game)
    figures = random_games(cls, args.players, args.games, args.seed, progress=_progress(args.games, args.json))
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['game']}, {figures['players']} players, random bots: {figures['games']} games, "
            f"{figures['actions']} actions in {figures['seconds']} s\n"
            f"  {figures['games_per_s']} games/s, {figures['actions_per_s']} actions/s"
            + (f"\n  {figures['turn_capped']} games reached the turn cap (no winner)" if figures["turn_capped"] else "")
        )
    return 0


def run_bots(args: argparse.Namespace) -> int:
    cls = game_class(args.game)
    names = [n.strip() for n in args.bots.split(",")]
    figures = win_rate(cls, names, args.games, args.seed, progress=_progress(args.games, args.json))
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['game']}: {names[0]} against {', '.join(names[1:])} over {figures['games']} games "
            f"(seats alternate): won {figures['wins'][0]} ({figures['win_rate']:.1%}), "
            f"alone {figures['sole_wins'][0]}"
        )
    return 0
