"""What the app's Web Worker runs in Pyodide: one game through the table core, snapshots as JSON.

The page talks to :class:`AppTable` with JSON text (it crosses the worker's message channel and
Pyodide's JS/Python boundary as plain strings). A game runs exactly as ``tablelight play`` runs
one: the same :class:`~tablelight.table.session.TableSession` on the running asyncio loop (in
Pyodide, the browser's own), no threads; what the page shows is the desk's snapshots
(:class:`~tablelight.web.desk.Desk`: the public one and each human seat's), and a seat's request,
from the page's own screen or a phone, goes through the session's one entry
(:meth:`TableSession.request`). A new game draws a secret seed unless the person typed one, as
``tablelight play`` does; at game over :meth:`AppTable.again` starts the next game of the same
seats (the public snapshot's ``again`` says the page may offer it). The page stands in for the board (``board_attached``): until a board is linked, a person
plays by tapping the choices the snapshot lists.

Games are kept as ``tablelight play`` keeps them, in a :class:`~tablelight.table.store.GameStore`
(each action committed before it is shown): the worker opens it on a file of Pyodide's IDBFS and
writes the file to IndexedDB after each change, so :meth:`AppTable.resume` goes on after a reload.
:meth:`AppTable.record` is what ``tablelight replay`` reads; :meth:`AppTable.import_record` keeps one.

Also here, for the tests that compare Pyodide with CPython: :func:`random_record` (a seeded
random game's record, the same on every interpreter).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from tablelight.app.board_link import PageBoard
from tablelight.core.errors import RecordError, SetupError, TablelightError
from tablelight.core.game import Game
from tablelight.core.record import replay
from tablelight.core.registry import game_class, game_entry, game_names
from tablelight.core.fields import is_number, is_whole_in
from tablelight.core.inputs import SEED_LIMIT
from tablelight.core.rng import Rng, secret_seed
from tablelight.table.layout import load_layout_data
from tablelight.table.requests import Reply
from tablelight.table.seats import HUMAN, resolve_seats
from tablelight.table.service import Table
from tablelight.table.session import TableSession
from tablelight.table.store import GameStore, StoreError
from tablelight.web.desk import Desk

#: Seconds between a page's updates while bots play fast: one snapshot per burst, not per move.
PUSH_AFTER = 0.05


class AppTable:
    """One game at a time for the page; ``notify(json_text)`` receives each update to show."""

    def __init__(self, notify: Callable[[str], None] | None = None, board_write: Callable[[str], None] | None = None,
                 board_state: Callable[[str, str], None] | None = None) -> None:
        self.notify = notify
        #: The board the page holds a port to (Web Serial, Web Bluetooth): bytes cross as hex text.
        self.board: PageBoard | None = None
        self._board_write = board_write
        self._board_state = board_state
        self.session: TableSession | None = None
        self.desk: Desk | None = None
        self._task: asyncio.Future[None] | None = None
        self._push_pending = False
        self.failure = ""
        #: The game the one shown follows by "play again" (its id), or None: phones keep their seats.
        self.again_of: int | None = None
        #: The games kept in this browser (a file the worker keeps in IndexedDB), or None.
        self.store: GameStore | None = None

    # ------------------------------------------------ what the page asks

    def open_store(self, path: str) -> str:
        """Keep games in the SQLite file ``path``; answers :meth:`saved_games` or ``{"error"}``."""
        try:
            self.store = GameStore(path)
        except StoreError as error:
            return json.dumps({"error": f"games are not kept in this browser: {error}"})
        return self.saved_games()

    def saved_games(self) -> str:
        """``{"games": [{"id", "game", "seats", "status", "actions"}]}``, newest first."""
        rows = self.store.games() if self.store is not None else []
        return json.dumps({"games": [{"id": row.id, "game": row.game, "seats": row.seats, "status": row.status,
                                      "actions": row.actions} for row in reversed(rows)]})

    def resume(self, game_id: int) -> str:
        """Continue kept game ``game_id`` where it was: its first snapshot, or ``{"error"}``."""
        if self.store is None:
            return json.dumps({"error": "no games are kept in this browser"})
        try:
            game = self.store.load(int(game_id))
            seats = self.store.seats(int(game_id))
            delay = self.store.settings(int(game_id)).get("bot_delay", 0.5)
            session = self._table_for(game, seats, float(delay) if is_number(delay) else 0.5, int(game_id))
        except (TablelightError, ValueError, TypeError) as error:
            return json.dumps({"error": getattr(error, "message", None) or str(error)})
        return self._begin(session)

    def import_record(self, text: str) -> str:
        """Keep and open a record (what ``tablelight replay`` reads; every seat a person's), or
        ``{"error": one sentence}`` when ``text`` is not one."""
        try:
            record = json.loads(text)
            game = replay(record)
        except (ValueError, RecursionError):
            return json.dumps({"error": "that file is not a tablelight game record: it is not JSON"})
        except (RecordError, SetupError) as error:
            return json.dumps({"error": f"that file is not a tablelight game record: {error}"})
        seats = [HUMAN] * game.players
        try:
            session = self._table_for(game, seats, 0.5, None)
        except TablelightError as error:
            return json.dumps({"error": str(error)})
        return self._begin(session)

    def games(self) -> str:
        """The games and their seat kinds: ``{"games": [{"name", "min", "max", "bots"}]}``."""
        found = []
        for name in game_names():
            cls = game_class(name)
            found.append({"name": name, "min": cls.min_players, "max": cls.max_players, "bots": list(cls.bot_names())})
        return json.dumps({"games": found})

    def start(self, spec_text: str) -> str:
        """Start ``{"game", "seats": ["human", "random", ...], "seed", "options", "bot_delay"}``.

        Answers the first snapshot, or ``{"error": why}`` (a bad request changes nothing).
        """
        try:
            spec = json.loads(spec_text)
            if not isinstance(spec, dict):
                raise SetupError("the request is not a JSON object")
            session = self._new_table(spec)
        except (TablelightError, ValueError, TypeError) as error:
            return json.dumps({"error": getattr(error, "message", None) or str(error)})
        return self._begin(session)

    def _begin(self, session: TableSession) -> str:
        self.stop()
        self.failure = ""
        self.again_of = None
        self.session = session
        self.desk = Desk.following(session)
        self.desk.on_change.append(self._changed)
        if self.board is not None:
            session.attach_board(self.board)
        self._run()
        return self.snapshot()

    def _run(self) -> None:
        session = self.session
        assert session is not None
        self._task = asyncio.ensure_future(session.run())
        self._task.add_done_callback(lambda task: self._ended(task, session))

    def again(self) -> str:
        """At game over: the next game of the same game, seats, options and bots (a new seed), kept as a
        new game in this browser, as ``tablelight play`` offers it; its first snapshot, or ``{"error"}``."""
        session = self.session
        if session is None:
            return json.dumps({"error": "no game is being played"})
        before = self.game_id
        try:
            session.play_again()  # offered once the run ended at game over (_ended)
        except TablelightError as error:
            return json.dumps({"error": str(error)})
        self.again_of = before
        self._run()
        return self.snapshot()

    @property
    def table(self) -> Table | None:
        return self.session.table if self.session is not None else None

    @property
    def game_id(self) -> int | None:
        return self.session.game_id if self.session is not None else None

    def snapshot(self) -> str:
        """``{"public": ..., "seats": {seat: ...}, "failure", "actions", "id", "again_of"}``: what every screen
        may show now (``again_of``: the game this one follows by play again, whose phones keep their seats)."""
        return json.dumps(self.snapshot_data())

    def act(self, request_text: str) -> str:
        """``{"seat", "action", "at"}``: a human seat's choice, through the one door; answers
        ``{"done", "words", "rule"}``."""
        return self._page_request(request_text, "act")

    def narrow(self, request_text: str) -> str:
        """``{"seat", "chosen", "at"}``: part of a seat's choice (field -> value, ``{}`` forgets it),
        for the board to show as its keys would; answers as :meth:`act` does."""
        return self._page_request(request_text, "narrow")

    def _page_request(self, request_text: str, what: str) -> str:
        if self.session is None:
            return json.dumps({"done": False, "words": "no game is being played"})
        try:
            request = json.loads(request_text)
        except ValueError:
            request = None
        if not isinstance(request, dict):
            request = {}
        reply = self._request(request.get("seat"), what, request)
        return json.dumps({"done": reply.done, "words": reply.error or reply.message, "rule": reply.rule})

    def record(self) -> str:
        """The game's record (what ``tablelight replay`` reads)."""
        return json.dumps(self.table.game.to_record() if self.table is not None else None)

    # ------------------------------------------------ the board, through the page

    def board_open(self, bluetooth: bool = False, key_hex: str = "") -> None:
        """The page opened a port to a board (``bluetooth``: with the host key it keeps, or "" to
        pair): shake hands (and show the game on it, if one is on)."""
        if self.board is None:
            self.board = PageBoard(lambda data: self._board_write(data.hex()) if self._board_write else None,
                                   self._board_state)
            if self.session is not None:
                self.session.attach_board(self.board)
        self.board.link_opened(bool(bluetooth), str(key_hex or ""))

    def board_bytes(self, hex_text: str) -> None:
        if self.board is not None:
            self.board.received(bytes.fromhex(hex_text))

    def board_forget(self) -> bool:
        """Ask the board over Bluetooth to forget this browser's key (:meth:`PageBoard.forget`);
        False when no Bluetooth session is connected (the page then forgets on its side alone)."""
        return self.board is not None and self.board.forget()

    def board_closed(self, reason: str) -> None:
        if self.board is not None:
            self.board.link_lost(reason)

    @property
    def running(self) -> bool:
        """Whether the table's loop still runs (it returns once the game is over, or when stopped)."""
        return self._task is not None and not self._task.done()

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    # ------------------------------------------------ phones: a seat's screen over a data channel
    # (the page relays a phone's requests, app/static/phones.js; docs/phones.md). Answers have the
    # shape of the host's seat requests (``/api/seat/N/act``), so one seat screen reads both.

    def seat_view(self, seat: int) -> str:
        """Seat ``seat``'s snapshot alone (:meth:`Desk.seat`: its private view), or ``null``."""
        if self.desk is None or not isinstance(seat, int) or seat not in self.desk.humans:
            return "null"
        return json.dumps(self.desk.seat(seat))

    def seat_request(self, request_text: str) -> str:
        """``{"seat", "what": "act" | "narrow", "body": {"action" | "chosen": {...}, "at"}}``: one
        seat's request (a phone's, or the page's own screen's), parsed once and taken through the one
        door (:meth:`TableSession.request`); answers ``{"applied" | "narrowed": bool, "message"}``, or
        ``{"error"}`` for a request that is not one."""
        try:
            request = json.loads(request_text)
        except ValueError:
            request = None
        if not isinstance(request, dict):
            return json.dumps({"error": 'send {"seat", "what": "act" or "narrow", "body": {"action" or "chosen": {...}, '
                                        '"at": log length}}'})
        if self.session is None:
            return json.dumps({"error": "no game is being played"})
        return json.dumps(self._request(request.get("seat"), request.get("what"), request.get("body")).to_json())

    def _request(self, seat: Any, what: Any, body: Any) -> Reply:
        """Through the session's one entry (:meth:`TableSession.request`); the screens are told after."""
        assert self.session is not None and self.desk is not None
        try:
            return self.session.request(seat, what, body)
        finally:
            self.desk.changed()  # a narrowed choice changes the seat's list without a table event

    # ------------------------------------------------ inside

    def _new_table(self, spec: dict[str, Any]) -> TableSession:
        name = spec.get("game")
        if not isinstance(name, str):
            raise SetupError(f'"game" names one of {", ".join(game_names())}')
        cls = game_class(name)
        seats = spec.get("seats") or [HUMAN, "random"]
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise SetupError('"seats" lists one kind per seat: "human" or a bot name')
        chosen = spec.get("seed")
        delay = spec.get("bot_delay", 0.5)
        options = spec.get("options") or {}
        if chosen is not None and not is_whole_in(chosen, 0, SEED_LIMIT - 1):
            raise SetupError(f'"seed" is a whole number from 0 to {SEED_LIMIT - 1} (a replay\'s or a tournament\'s), '
                             'or left out for a secret one')
        if not is_number(delay) or not isinstance(options, dict):
            raise SetupError('"bot_delay" is seconds, "options" an object')
        kinds = resolve_seats(cls, seats, len(seats))
        # a secret seed unless a person chose one, as tablelight play draws it: every game a new deal
        game = cls(len(kinds), options, secret_seed() if chosen is None else chosen)
        return self._table_for(game, kinds, float(delay), None, chosen)

    def _table_for(self, game: Game, kinds: list[str], delay: float, game_id: int | None,
                   chosen_seed: int | None = None) -> TableSession:
        """The session for ``game`` (kept in the store as ``game_id``, or as a new game when None)."""
        layout = load_layout_data(game_entry(game.name).face_class().default_layout)
        self._check_board(layout)
        # the page stands in for the board: people choose on it
        settings = {"bot_delay": delay}
        session = TableSession(game, kinds, store=self.store, game_id=game_id, layout=layout, bot_delay=delay,
                               board_attached=True, chosen_seed=chosen_seed, settings=settings)
        if self.store is not None and session.game_id is not None and game_id is None:
            self.store.set_settings(session.game_id, settings)
        return session

    def _check_board(self, layout: dict[str, Any]) -> None:
        """A board already linked must be wired for the game's layout (as ``tablelight play`` checks);
        a board linked later is judged by its handshake (the protocol knows the layout from now on)."""
        if self.board is None:
            return
        hello = self.board.protocol.hello if self.board.connected else {}
        if hello.get("layout") not in (None, layout["id"]):
            raise SetupError(f"the board has layout {hello.get('layout')!r}, this game needs {layout['id']!r}: "
                             "connect the board built for it")
        leds = hello.get("leds")
        if isinstance(leds, int) and leds < layout["leds"]:
            raise SetupError(f"the board has {leds} LEDs, the {layout['id']} layout needs {layout['leds']}")
        self.board.protocol.layout = layout["id"]

    def snapshot_data(self) -> dict[str, Any]:
        if self.desk is None or self.table is None:
            return {"public": None, "seats": {}, "failure": self.failure}
        seats = {str(seat): self.desk.seat(seat) for seat in self.desk.humans}
        return {"public": self.desk.public(), "seats": seats, "failure": self.failure,
                "actions": self.table.actions_made(), "id": self.game_id, "again_of": self.again_of}

    def _changed(self) -> None:
        if self.notify is None or self._push_pending:
            return
        self._push_pending = True
        asyncio.get_event_loop().call_later(PUSH_AFTER, self._push)

    def _push(self) -> None:
        self._push_pending = False
        if self.notify is not None:
            self.notify(self.snapshot())

    def _ended(self, task: asyncio.Future[None], session: TableSession) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failure = f"the table stopped: {task.exception()}"
        elif not task.cancelled() and session is self.session and session.game.is_over():
            session.offering_again = True  # the page's game-over panel offers play again (AppTable.again)
        self._changed()


def random_record(game: str, players: int, seed: int) -> dict[str, Any]:
    """A complete game of seeded random legal actions, as its record (the same on any interpreter)."""
    cls = game_class(game)
    played = cls(players, None, seed)
    rng = Rng(seed)
    while not played.is_over():
        played.apply(played.random_action(rng))
    return played.to_record()


def speed(game: str, players: int, games: int, seed: int) -> str:
    """Random games' actions per second on this interpreter, as JSON (``tablelight bench app``
    measures it in the page and in CPython in the same run)."""
    cls = game_class(game)
    rng = Rng(seed)
    actions = 0
    started = time.perf_counter()
    for number in range(games):
        played = cls(players, None, seed + number)
        while not played.is_over():
            played.apply(played.random_action(rng))
            actions += 1
    seconds = time.perf_counter() - started
    return json.dumps({"game": game, "games": games, "actions": actions, "seconds": round(seconds, 4),
                       "actions_per_s": round(actions / seconds, 1) if seconds > 0 else None})
