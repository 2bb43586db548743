"""One table session, whatever place it runs in: the terminal, the host's pages, the browser, phones.

A :class:`TableSession` owns everything a table is: the game and its engine, the store that
keeps it, the seats (people and bots), the board it is joined to (:class:`BoardPort`: keys in,
scenes out), the bots' turns (on the table's clock) and the listeners that show it (the
terminal, the desk behind the pages and phones). Every place asks it the same way:

* a seat's request through one entry, :meth:`TableSession.request` (``seat``, ``"act"`` or
  ``"narrow"``, the body as it came), parsed once (:mod:`tablelight.table.requests`);
* any other input through :meth:`TableSession.handle` (a key, a typed line's presses);
* :meth:`TableSession.run` plays the current game on the running asyncio loop
  (:class:`TableLoop`); :meth:`TableSession.play_through` plays it to its end and then offers
  play again (:attr:`offering_again`, told to :meth:`on_offer_changed` hooks: the pages' button)
  for a while; :meth:`TableSession.play_again`, from whichever place asks (the host page, a typed
  ``again``, the browser's button), starts the next game of the same seats (:func:`next_game`),
  kept as a new game in the store, with the same board and the same listeners (the places'
  screens follow it: :meth:`on_new_table`).

The places stay thin: ``cli/table_run.py`` (which board, the terminal, the web pages, typed
lines), the host's pages (``web/table_web.py``, ``web/app.py``: their routes call the session
itself) and ``app/engine.py`` (the browser's worker: the page's board, snapshots as JSON). The
session does no I/O and starts no thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.game import Game
from tablelight.core.inputs import SEED_LIMIT
from tablelight.core.rng import secret_seed
from tablelight.table import events as ev
from tablelight.table.face import GameFace, face_class, make_face
from tablelight.table.intents import Answer, BoardLink, Intent
from tablelight.table.layout import load_layout_data
from tablelight.table.loop import BoardPort, TableLoop
from tablelight.table.requests import Reply, answer_request
from tablelight.table.seats import HUMAN
from tablelight.table.service import Table
from tablelight.table.store import GameStore

#: Why "play again" is refused.
AGAIN_NOT_NOW = "the game is not over yet: a new game can start once this one has ended"
AGAIN_NOT_OFFERED = "this host does not start new games (it is stopping): start tablelight play again"


def next_game(game: Game, chosen_seed: int | None, number: int) -> Game:
    """Game ``number`` of a run that began with ``game``: the same game, players, options and setup
    (the map, the armies), and a new secret seed, or with a chosen seed ``N`` the seed ``N + number - 1``
    (so every game of the run can be played again on its own: docs/user-guide.md)."""
    seed = secret_seed() if chosen_seed is None else (chosen_seed + number - 1) % SEED_LIMIT
    # The setup stays (a map's tiles are laid out on the table and the board's labels name its places;
    # Farside's armies were chosen by the players); a position the first game started from does not.
    setup = {name: value for name, value in game.setup_record().items() if name != "position"}
    return type(game)(game.players, game.options, seed, setup=setup or None)


class TableSession:
    """A table in any place; see the module docstring.

    ``board_attached``: a board (or a page standing in for one) takes the people's choices; a
    table without one plays bots only. ``chosen_seed``: the seed a person chose for the first
    game (play again counts on from it), None for secret seeds. ``settings`` are kept with every
    game in the store (``tablelight resume`` reads them).
    """

    def __init__(self, game: Game, seats: Sequence[str], *, store: GameStore | None = None, game_id: int | None = None,
                 layout: dict[str, Any] | None = None, face: GameFace | None = None, bot_delay: float = 0.0,
                 board_attached: bool = True, chosen_seed: int | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        self.layout = layout if layout is not None else load_layout_data(face_class(game.name).default_layout)
        self.seats = list(seats)
        self.store = store
        self.bot_delay = bot_delay
        self.board_attached = board_attached
        self.chosen_seed = chosen_seed
        self.settings = settings
        self._join_hint: Callable[[int], str] | None = None
        #: The board both ways (an AsyncBoardSession, the page's board), once :meth:`attach_board` joined it.
        self.board: Any = None
        self.port: BoardPort | None = None
        #: How many games this session started (play again counts on).
        self.number = 1
        self._offering_again = False
        self._again_asked: asyncio.Event | None = None
        self._listeners: list[ev.Listener] = []
        self._new_table_hooks: list[Callable[[TableSession], None]] = []
        self._offer_hooks: list[Callable[[bool], None]] = []
        self.table: Table
        self.driver: TableLoop
        self._begin(game, game_id, face)

    # ------------------------------------------------------------------ what the session holds

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def game_id(self) -> int | None:
        return self.table.game_id

    @property
    def face(self) -> GameFace:
        return self.table.face

    @property
    def join_hint(self) -> Callable[[int], str] | None:
        """seat -> how that seat joins with its own device ("" once one has): for every game's table."""
        return self._join_hint

    @join_hint.setter
    def join_hint(self, hint: Callable[[int], str] | None) -> None:
        self._join_hint = hint
        self.table.join_hint = hint

    @property
    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.seats) if kind == HUMAN]

    def listen(self, listener: ev.Listener) -> None:
        """Send every event of this game and of every next one to ``listener``."""
        self._listeners.append(listener)
        self.table.listen(self._for(self.table, listener))

    def on_new_table(self, hook: Callable[[TableSession], None]) -> None:
        """Call ``hook(session)`` when play again makes the next game's table."""
        self._new_table_hooks.append(hook)

    @property
    def offering_again(self) -> bool:
        """True while the game is over and the place takes "play again" (the host page shows its button)."""
        return self._offering_again

    @offering_again.setter
    def offering_again(self, offered: bool) -> None:
        if offered == self._offering_again:
            return
        self._offering_again = offered
        for hook in self._offer_hooks:
            hook(offered)

    def on_offer_changed(self, hook: Callable[[bool], None]) -> None:
        """Call ``hook(offered)`` whenever :attr:`offering_again` changes (the pages show or hide the button)."""
        self._offer_hooks.append(hook)

    def attach_board(self, board: Any) -> None:
        """Join ``board`` to the table both ways (its keys in, the scenes out) for this game and the next."""
        self.board = board
        self._join_board()

    # ------------------------------------------------------------------ the doors

    def handle(self, intent: Intent) -> Answer:
        """Any input (a key, a typed line's choice, the board away or back), through the table's one door."""
        return self.driver.handle(intent)

    def request(self, seat: Any, what: Any, body: Any) -> Reply:
        """A seat's request as it came from any place, parsed once and taken through the one door."""
        return answer_request(self.handle, self.game.players, seat, what, body)

    async def run(self, max_actions: int | None = None) -> None:
        """Play the current game until it ends (or ``max_actions`` more player actions)."""
        await self.driver.run(max_actions)

    async def play_through(self, offer_again_s: float = 0.0, on_over: Callable[[TableSession], None] | None = None) -> None:
        """Play the current game to its end, then offer "play again" for ``offer_again_s`` seconds
        (0: not at all); a new game asked for meanwhile (:meth:`play_again`, from any place) is played
        the same way. ``on_over(session)`` is called at each game over, before the offer. Returns when
        a game stops before its end (the run was stopped), or when the offer passes unanswered."""
        while True:
            await self.run()  # "again" is offered only once the run returned: no new game starts under it
            if not self.game.is_over():
                return
            if on_over is not None:
                on_over(self)
            if offer_again_s <= 0:
                return
            self._again_asked = asyncio.Event()
            self.offering_again = True
            try:
                await asyncio.wait_for(self._again_asked.wait(), offer_again_s)
            except asyncio.TimeoutError:
                return
            finally:
                self.offering_again = False
                self._again_asked = None

    def play_again(self) -> Table:
        """The next game of the same game, seats, options and bots (:func:`next_game`), once this one
        is over and the place offers it (:attr:`offering_again`); kept as a new game in the store.
        The board and the listeners move to it. SetupError when not now."""
        if not self.game.is_over():
            raise SetupError(AGAIN_NOT_NOW)
        if not self.offering_again:
            raise SetupError(AGAIN_NOT_OFFERED)
        self.offering_again = False  # one new game per game over, however many ask at once
        self.number += 1
        game = next_game(self.game, self.chosen_seed, self.number)
        table = self._begin(game, None, make_face(game, self.layout))
        if self._again_asked is not None:
            self._again_asked.set()  # play_through plays it
        return table

    # ------------------------------------------------------------------ inside

    def _begin(self, game: Game, game_id: int | None, face: GameFace | None) -> Table:
        table = Table(game, self.seats, board_attached=self.board_attached, store=self.store, game_id=game_id,
                      face=face, layout_data=self.layout, bot_delay=self.bot_delay, join_hint=self._join_hint)
        first = not hasattr(self, "table")
        self.table = table
        self.driver = TableLoop(table)
        for listener in self._listeners:
            table.listen(self._for(table, listener))
        if not first and self.store is not None and table.game_id is not None and self.settings is not None:
            self.store.set_settings(table.game_id, self.settings)  # resume reads how it is played
        if self.board is not None:
            self._join_board()
        if not first:
            for hook in self._new_table_hooks:
                hook(self)
        return table

    def _for(self, table: Table, listener: ev.Listener) -> ev.Listener:
        """``listener`` for ``table``'s events while it is the session's table (an old game is not shown)."""
        return lambda event: listener(event) if table is self.table else None

    def _join_board(self) -> None:
        if self.port is not None:
            self.port.detach()  # the board's keys now press for this game
        self.port = BoardPort(self.driver, self.board)
        if not getattr(self.board, "link_up", True):  # as its listeners were last told
            self.driver.handle(BoardLink(False))
        if self.table.shown is not None:  # joined mid-game: the board is sent what the table shows
            self.board.show(self.table.shown)
