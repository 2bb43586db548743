"""Running a table from the command line: pick the board, start the views, play on one asyncio loop, clean up.

Shared by ``tablelight play`` and ``tablelight resume``. The board is ``sim`` (a
simulated board running the real firmware, started here), ``auto`` (the first
CircuitPython board found by USB id), ``none`` (no board: bot seats only) or a port
(a device path or any pyserial URL).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablelight.cli.table_screen import TableScreen
from tablelight.core.errors import SetupError, TablelightError
from tablelight.core.inputs import number_in_range
from tablelight.table.face import face_class, make_face
from tablelight.table.layout import load_layout_data
from tablelight.table.intents import HOST_PAGE, Press
from tablelight.table.loop import read_lines
from tablelight.table.result import result_text
from tablelight.table.seats import HUMAN, has_secrets
from tablelight.table.session import TableSession, next_game
from tablelight.table.store import GameStore

__all__ = ["next_game", "run_table", "add_table_arguments", "table_settings"]

VIEWS = ("terminal", "web", "both", "none")
MAX_BOT_DELAY_S = 3600
#: What the shared screen tells a seat of a game with secrets that has no screen of its own.
JOIN_HINT = "it has no screen of its own yet: each seat of this game needs one (docs/user-guide.md)"
#: After a game with people at the pages ends, the host serves the pages this long (or until
#: Ctrl-C) so every phone receives the end and its result (seconds).
KEEP_SERVING_S = 600

#: How a game is played, kept with it in the store so ``tablelight resume ID`` needs no flags:
#: option name -> default. A flag given to ``resume`` overrides the stored value.
TABLE_SETTINGS: dict[str, Any] = {
    "board": "auto", "view": None, "web_port": 8055, "share": None, "host_link": "file", "https": False,
    "https_cert": None, "https_key": None, "bot_delay": 0.0, "brightness": None,
}


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``play`` and ``resume`` (all default to None: see :func:`table_settings`)."""
    parser.add_argument(
        "--board",
        default=None,
        help="sim (simulated board running the real firmware), auto (find a connected board), "
        "none (no board, bot seats only) or a serial port / pyserial URL (default auto)",
    )
    parser.add_argument(
        "--view",
        choices=VIEWS,
        default=None,
        help="show the LEDs in the terminal, in a local web page, both or not at all "
        "(default: terminal with --board sim or none, else none)",
    )
    parser.add_argument("--web-port", type=number_in_range(0, 65535, whole=True), default=None,
                        help="port of the web view, 1-65535, or 0 for any free port (default 8055)")
    parser.add_argument(
        "--share",
        default=None,
        metavar="lan|ADDRESS",
        help="open the web view to the local network so phones can join the seats: lan (this machine's "
        "network address) or an address of this machine (default: this computer only)",
    )
    parser.add_argument(
        "--host-link",
        choices=("file", "terminal"),
        default=None,
        help="where the host page's address goes (it presses the board's keys and drops seats' devices): "
        "file (a file only you can read, next to the game store; default) or terminal (also printed: "
        "only when nobody else sees this terminal)",
    )
    parser.add_argument(
        "--https",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="serve the pages over HTTPS so nobody else on the network reads a seat's page or token; without "
        "--https-cert a self-signed certificate is made once and kept beside the game store (phones warn the "
        "first time: the shared screen prints its fingerprint to check)",
    )
    parser.add_argument("--https-cert", metavar="FILE", default=None, type=absolute_path,
                        help="your own certificate (PEM, for example from mkcert) for --https; needs --https-key")
    parser.add_argument("--https-key", metavar="FILE", default=None, type=absolute_path, help="the private key (PEM) of --https-cert")
    parser.add_argument("--bot-delay", type=number_in_range(0, MAX_BOT_DELAY_S), default=None,
                        help=f"seconds a bot waits before it moves, 0-{MAX_BOT_DELAY_S} (default 0)")
    parser.add_argument("--brightness", type=number_in_range(0.0, 1.0), default=None, help="board brightness 0.0-1.0")
    parser.add_argument("--db", help="game store file (default $TABLELIGHT_DB or ~/.local/share/tablelight/games.sqlite)")


def absolute_path(text: str) -> str:
    """A file named on the command line, made absolute: ``resume`` may run from another folder."""
    return str(Path(text).expanduser().resolve())


def table_settings(args: argparse.Namespace, stored: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table options to use: given on the command line, else as the game was played, else the default.

    Also sets them on ``args``. Stored values are checked first (a hand-edited or damaged store):
    one clear error naming the setting, see :mod:`tablelight.table.stored_settings`.
    """
    from tablelight.table.stored_settings import check_settings

    if stored is not None:
        check_settings(stored, {name for name in TABLE_SETTINGS if getattr(args, name, None) is None})
    settings = {}
    for name, default in TABLE_SETTINGS.items():
        given = getattr(args, name, None)
        value = given if given is not None else (stored or {}).get(name, default)
        settings[name] = value
        setattr(args, name, value)
    return settings


async def open_board(spec: str, stack: AsyncExitStack, layout: dict[str, Any]) -> tuple[Any, Any]:
    """(board session, SimBoard or None) for ``--board``; everything opened is closed by ``stack``.

    ``layout`` is the layout document (:func:`tablelight.table.layout.load_layout_data`).
    """
    layout_id, layout_leds = layout["id"], layout["leds"]
    if spec == "none":
        return None, None
    sim = None
    if spec == "sim":
        from tablelight.sim.board import SimBoard

        sim = await SimBoard.start_async(layout_id)
        stack.callback(sim.stop)
        port = sim.port
    elif spec == "auto":
        port = find_port()
    else:
        port = spec
    from tablelight.board.aio import AsyncBoardSession

    session = await AsyncBoardSession.open(port)
    stack.push_async_callback(session.close)
    hello = session.hello
    if hello.get("layout") not in (None, layout_id):
        raise SetupError(f"the board on {port} has layout {hello.get('layout')!r}, this game needs {layout_id!r}")
    leds = hello.get("leds")
    if isinstance(leds, int) and leds < layout_leds:
        raise SetupError(f"the board on {port} has {leds} LEDs, the {layout_id} layout needs {layout_leds}")
    return session, sim


#: The shortest time between two pictures of a simulated board's own animations on the pages.
SIM_FRAME_S = 0.1


def frame_pacer(beat: Any) -> Any:
    """A listener that calls ``beat()`` at most once per :data:`SIM_FRAME_S` however often it is told."""
    waiting = False

    def due() -> None:
        nonlocal waiting
        waiting = False
        beat()

    def changed(*_: Any) -> None:
        nonlocal waiting
        if not waiting:
            waiting = True
            asyncio.get_running_loop().call_later(SIM_FRAME_S, due)

    return changed


def sim_presser(sim: Any, say: Any) -> Any:
    """Presses from the web page on the simulated board's keys; while its firmware is down, a message."""
    from tablelight.sim.board import SimBoardError

    def press(key: int) -> None:
        try:
            sim.press(key)
        except SimBoardError as error:
            say(f"that press was not taken: {error}")

    return press


def find_port() -> str:
    """The port of the first CircuitPython board found (``--board auto``)."""
    from tablelight.board.discover import find_boards

    boards = find_boards()
    if not boards:
        raise SetupError("no board found on the serial ports: connect one, give its port, or use --board sim")
    return boards[0].port


@dataclass
class Started:
    """What ``run_table``'s messages need: the session once it exists, and whether its game is kept
    (a resumed game always is; a new one once its table runs: a start that fails deletes it)."""

    session: TableSession | None = None
    kept: bool = False


def run_table(
    game: Any,
    seats: list[str],
    store: GameStore,
    game_id: int | None,
    args: argparse.Namespace,
) -> int:
    """Play ``game`` at the board ``args`` names, until it ends, on one asyncio loop; at game over the
    host may play again (a new game of the same seats, see :func:`next_game`) as often as it likes.

    ``game_id`` None: a new game, stored once the seats are checked; if the table then cannot
    start (no board, the web port taken) it is deleted again, so nothing is left behind (and no
    message offers to resume it). The table options are kept with the game for ``tablelight resume``.
    """
    settings = table_settings(args, None if game_id is None else store.settings(game_id))
    layout = load_layout_data(face_class(game.name).default_layout)
    face = make_face(game, layout)  # refuses a game without a face, or a layout it cannot show, up front
    started = Started(kept=game_id is not None)
    try:
        return asyncio.run(_play(game, seats, store, game_id, args, settings, layout, face, started))
    except KeyboardInterrupt:
        session = started.session
        if session is not None and session.game.is_over():  # Ctrl-C while the pages show the end: nothing to resume
            print(file=sys.stderr)
            return 0
        if session is not None and started.kept:
            print(f"\ngame {session.game_id} is saved; continue it with: tablelight resume {session.game_id}", file=sys.stderr)
        raise
    except TablelightError as error:
        if started.session is None or not started.kept:
            raise
        game_id = started.session.game_id
        raise TablelightError(f"{error}\ngame {game_id} is saved; continue it with: tablelight resume {game_id}") from None


async def _play(game: Any, seats: list[str], store: GameStore, game_id: int | None, args: argparse.Namespace,
                settings: dict[str, Any], layout: dict[str, Any], face: Any, started: Started) -> int:
    view = args.view or ("terminal" if args.board in ("sim", "none") else "none")
    # Seats with secrets can only see them on their own pages, so such a game with a person serves them.
    asked_for_web = view in ("web", "both") or bool(args.share or args.https or args.https_cert)
    web_on = asked_for_web or (has_secrets(game) and HUMAN in seats)
    humans = HUMAN in seats
    out = sys.stdout
    async with AsyncExitStack() as stack:
        unstarted: list[int] = []  # a new game's id until its table runs: deleted if starting fails

        def forget_unstarted(error_type: Any, error: Any, trace: Any) -> bool:
            for new_id in unstarted if error_type is not None else []:
                store.delete(new_id)
            return False  # the error goes on

        stack.push(forget_unstarted)  # pushed first: runs last, once the board is closed
        board, sim = await open_board(args.board, stack, layout)
        if board is not None and args.brightness is not None:
            board.set_brightness(args.brightness)
        terminal = None
        if view in ("terminal", "both"):
            from tablelight.view.terminal import PROMPT, TerminalView

            terminal = TerminalView(layout, out, labels=face.led_labels() or None, prompt=PROMPT if humans else "")
            stack.callback(terminal.close)
            if terminal.live and hasattr(signal, "SIGWINCH"):  # a resized terminal is drawn anew at its new size
                asyncio.get_running_loop().add_signal_handler(signal.SIGWINCH, terminal.render)
                stack.callback(asyncio.get_running_loop().remove_signal_handler, signal.SIGWINCH)

        resumed = game_id is not None
        session = TableSession(game, seats, store=store, game_id=game_id, layout=layout, face=face,
                               bot_delay=args.bot_delay, board_attached=board is not None or web_on,
                               chosen_seed=getattr(args, "seed", None), settings=settings)
        started.session = session
        if game_id is None:
            unstarted.append(session.game_id)  # type: ignore[arg-type]
        game_id = session.game_id
        assert game_id is not None
        session.join_hint = lambda seat: JOIN_HINT  # the web pages, when they start, tell how to join
        screen = TableScreen(session, terminal, out)
        if board is not None:
            session.attach_board(board)
        session.on_new_table(lambda new: screen.note(
            f"game {new.game_id}: a new game of {new.game.name}, the same seats ({', '.join(seats)})"))
        if web_on:
            await start_web(session, layout, sim, screen, args, store, stack)
        typing_live = humans and _typed_by_a_person(sys.stdin)
        if humans:
            stack.callback(read_lines(sys.stdin, lambda line: take_typed(session, screen, line)))
        store.set_settings(game_id, settings)
        unstarted.clear()  # the table runs: from here on the game is kept, whatever happens
        started.kept = True
        where = f"board {sim.port} (simulated)" if sim is not None else ("no board" if board is None else f"board {args.board}")
        if resumed:  # the history starts with the moves made before (the table says only new ones)
            for line in moves_so_far(session.table):
                screen.note(line)
        header = f"game {game_id}: {game.name}, seats {', '.join(seats)}, on {where}; kept in {store.path}"
        if screen.typed is not None:  # after the game's header line, before the first prompt
            header += "\n" + screen.typed.help_words()
        screen.note_or_print(header)
        # At game over the host waits a while for "play again" when people play: their pages keep
        # the result meanwhile (the phones are sent the end), or a person types at the terminal.
        waits_at_the_end = humans and (web_on or typing_live)
        minutes = KEEP_SERVING_S // 60
        where_again = "tap Play again on the host page" + (" or type again" if typing_live else "")
        waiting_words = (f"the pages show the result: the host keeps serving them for {minutes} minutes (Ctrl-C stops "
                         f"it now); for a new game with the same seats, {where_again}" if web_on else
                         f"for a new game with the same seats, type again within {minutes} minutes (Ctrl-C stops now)")

        def game_over(session: TableSession) -> None:
            if not screen.live:  # a live screen has the result in its history already
                print(result_text(session.game, session.face, headline=False), file=out, flush=True)
            if waits_at_the_end:
                screen.note_or_print(waiting_words)

        await session.play_through(KEEP_SERVING_S if waits_at_the_end else 0, on_over=game_over)
    return 0


def take_typed(session: TableSession, screen: TableScreen, line: str) -> None:
    """A line typed at the terminal: ``again`` asks the session for the next game, any other goes to the screen."""
    if line.strip().lower() != AGAIN_WORD:
        screen.take_line(line)
        return
    try:
        session.play_again()
    except SetupError as error:  # the game runs, or the host is stopping
        screen.tell(str(error))


async def start_web(session: TableSession, layout: dict[str, Any], sim: Any, screen: TableScreen,
                    args: argparse.Namespace, store: GameStore, stack: AsyncExitStack) -> Any:
    """The host's pages of ``session`` on the running loop (stopped by ``stack``): the board page, the
    host page, the seats' pages; they follow the session to each next game."""
    from tablelight.web.access import KeptDevices
    from tablelight.web.host_link import host_link_path
    from tablelight.web.table_web import TableWeb
    from tablelight.web.tls import HttpsChoice

    game_id = session.game_id
    assert game_id is not None
    if sim is not None:
        pixels_source, presser = sim.pixels, sim_presser(sim, screen.note)
    else:
        pixels_source = lambda: session.table.shown or []  # noqa: E731
        presser = lambda key: session.handle(Press(key, HOST_PAGE))  # noqa: E731
    web = TableWeb(
        session, layout, pixels_source, presser, port=args.web_port, share=args.share, out=screen.out,
        terminal=screen.terminal, host_link=args.host_link, host_file=host_link_path(store.path, game_id),
        https=HttpsChoice.from_options(args.https, args.https_cert, args.https_key, store.path.parent),
        kept_devices=KeptDevices.from_json(store.seat_devices(game_id)),  # phones that joined before resume
    )
    web.access.on_devices = lambda kept: store.set_seat_devices(session.game_id or game_id, kept.to_json())
    # phones that joined keep their seats after a resume of the next game too
    session.on_new_table(lambda new: store.set_seat_devices(new.game_id or game_id, web.access.kept().to_json()))
    if sim is not None:  # the pages follow the board's own animations, at most one picture a frame
        sim.on_pixels(frame_pacer(web.desk.pulse.beat))
    await web.start()
    stack.push_async_callback(web.stop)
    screen.joined = web.access.joined  # a phone joined: the terminal is no longer its seat's own screen
    return web


#: Typed at the terminal at game over: a new game of the same seats (:func:`next_game`).
AGAIN_WORD = "again"


#: The moves of a resumed game told again at its start, at most (the record has them all).
MOVES_RETOLD = 40


def moves_so_far(table: Any) -> list[str]:
    """A resumed game's moves so far in the table's public words (as it said them when they were made),
    the last :data:`MOVES_RETOLD` of them, after a line saying how many."""
    from tablelight.core.fields import is_action_entry

    moves = [f"{table.seat_label(entry['seat'])}: {table.face.describe_action(entry['action'])}"
             for entry in table.game.log if is_action_entry(entry)]
    if not moves:
        return []
    shown = moves[-MOVES_RETOLD:]
    left_out = f"; the {len(moves) - len(shown)} before them: tablelight games export {table.game_id}" if len(shown) < len(moves) else ""
    return [f"the game so far ({len(moves)} moves{left_out}):", *(f"  {move}" for move in shown)]


def _typed_by_a_person(stream: Any) -> bool:
    """True when ``stream`` is a terminal a person types at (not a file or a pipe of moves)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
