"""The table: a game at a lit board, whatever the game, with one door in and typed events out.

Every input enters through :meth:`Table.handle` as one typed intent (:mod:`tablelight.table.intents`:
a key press, a whole action, part of an action, the board away or back, a tick of the clock)
and is checked once, in :meth:`Table.check`: game over, the board, whose turn, the seat, the
position it was chosen in. Then it is applied and announced: the table emits typed events
(:mod:`tablelight.table.events`) to its listeners (the board, the terminal, the pages, the store;
:meth:`Table.listen`). The table does no I/O and starts no thread: a driver feeds it intents
(:mod:`tablelight.table.loop` on asyncio for ``tablelight play``; :meth:`Table.run` polls a
board for tools and tests).

The game's look and input go through its face (:mod:`tablelight.table.face`). The host checks
every move: a refused press flashes what the face names and gives a message; nothing changes.

**Public and private words.** The board and the terminal are shared by the whole table. In a
game with secrets (:func:`tablelight.core.game.has_secrets`: Mainland's hands, Landover's cards,
Farside's missions) what a face says to the seat to act (its prompt, what a press did, why a
choice is refused) may name hidden cards, so it is said *privately*: a :class:`Told` event for
that seat (its own screen shows it), while the shared screen reads only ``"blue: see your own
screen"``. What an applied action did (:meth:`GameFace.describe_action`) is public. Seats are
named by colour (:meth:`Table.seat_label`), as players name them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from tablelight.core.bots import Thinking
from tablelight.core.search_bot import parse_search_name
from tablelight.core.errors import IllegalActionError, MalformedActionError, SetupError
from tablelight.core.fields import is_action_entry, is_player_action
from tablelight.core.game import Action, Game
from tablelight.table import events as ev
from tablelight.table.face import GameFace, Outcome, Pixel, make_face
from tablelight.table.intents import BOARD, Answer, BoardCaughtUp, BoardLink, Choose, Intent, Narrow, Press, Tick
from tablelight.table.result import result_line
from tablelight.table.seats import HUMAN, DEFAULT_BOT, bot_seed, default_bot, has_secrets, resolve_seats
from tablelight.table.store import GameStore
from tablelight.table.polled import Board, KeyEventLike, run_polling, step_polling

__all__ = ["DEFAULT_BOT", "HUMAN", "OWN_SCREEN", "Board", "KeyEventLike", "Table", "bot_seed", "default_bot",
           "has_secrets", "resolve_seats"]

FLASH_SECONDS = 1.0
#: A bot thinks in slices this long, the loop's other work (the board, pages, typed lines) between them.
THINK_SLICE_S = 0.004
#: What the shared screen tells a seat in place of words meant for it alone.
OWN_SCREEN = "see your own screen"
BOARD_AWAY_WORDS = "the board is not connected: waiting for it to come back (the game is saved)"


class Table:
    """A game at a board: :meth:`handle` intents, :meth:`listen` to its events."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        *,
        board: Board | None = None,
        store: GameStore | None = None,
        game_id: int | None = None,
        face: GameFace | None = None,
        layout_data: dict[str, Any] | None = None,
        bot_delay: float = 0.0,
        flash_seconds: float = FLASH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        join_hint: Callable[[int], str] | None = None,
        poll_interval: float = 0.25,
        board_attached: bool | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise SetupError(f"{len(seats)} seats for {game.players} players")
        #: True when a board (or a page standing in for one) takes presses and shows the game.
        self.board_attached = board is not None if board_attached is None else board_attached
        if not self.board_attached and HUMAN in seats:
            raise SetupError("a human seat needs a board to press keys on")
        #: The game's look and input (its own layout, or ``layout_data``); made first so a game
        #: without a face is refused before anything is stored.
        self.face: GameFace = face if face is not None else make_face(game, layout_data)
        if store is not None and game_id is None:
            game_id = store.create(game, list(seats))
        self.game = game
        self.seats = list(seats)
        self.board = board  # only for the polling driver (run/step); events reach it as a listener
        self.store = store
        self.game_id = game_id
        self.bot_delay = bot_delay
        self.flash_seconds = flash_seconds
        self.clock = clock
        #: seat -> how that seat can join with its own device, or "" when one is joined (a web view sets it).
        self.join_hint = join_hint
        #: True when words for the seat to act may name hidden cards (see the module docstring); a face
        #: whose game hides only at times says when with ``words_private(seat)``.
        self.secret_words = has_secrets(game)
        #: Per seat: the private words said to it, in order (a transcript; its own screen shows them).
        self.private_messages: dict[int, list[str]] = {seat: [] for seat in range(game.players)}
        #: Every public message given, in order (a transcript: the last one is what the table should read now).
        self.messages: list[str] = []
        self.poll_interval = poll_interval
        #: LEDs flashing after a refusal -> clock time the flash ends.
        self.flashes: dict[int, float] = {}
        self.shown: list[Pixel] | None = None
        self.board_up = True
        #: True when a board reports which scene it shows (:class:`BoardCaughtUp`): bots then wait for it.
        self.waits_for_board = board is not None
        #: The board has not confirmed the last scene yet: bots wait, so people see every move.
        self.board_behind = False
        self._next_bot_at = clock() + bot_delay
        #: The bot's decision under way (a search, a slice per tick), for the position it began in.
        self._thinking: Any = None
        #: Where search bots think when not here in slices: ``(name, game, seat, seed)`` -> a thinking
        #: like :class:`Thinking` (a driver that has processes sets it: :mod:`tablelight.table.bot_process`).
        self.think_apart: Callable[[str, Game, int, int], Any] | None = None
        self._reported = len(game.log)
        self._answer: list[str] = []  # words said to the sender while an intent is handled
        self._listeners: list[ev.Listener] = []
        if store is not None and game_id is not None:
            self.listen(_Saver(store, game_id, game))  # first: stored before anyone shows it
        if board is not None:
            self.listen(_BoardShows(board))

    # ------------------------------------------------------------------ events out

    def listen(self, listener: ev.Listener) -> None:
        """Send every event from now on to ``listener`` (called in order of listening)."""
        self._listeners.append(listener)

    def emit(self, event: ev.Event) -> None:
        for listener in self._listeners:
            listener(event)

    def say(self, text: str, seat: int | None = None, public: str | None = None, kind: str = ev.FEEDBACK) -> None:
        """Say ``text`` to the table, or to ``seat`` alone when the game has secrets.

        Words for one seat in a game with secrets go to that seat's own screen; the table then
        reads ``public`` (default: the seat is sent to its own screen, and told how to join).
        """
        private_now = None if seat is None else self.face.words_private(seat)
        private = self.secret_words if private_now is None else private_now
        self._answer.append(text)
        if seat is None or not private:
            self.messages.append(text)
            self.emit(ev.Said(text, kind))
            return
        self.private_messages[seat].append(text)
        self.emit(ev.Told(seat, text, kind))
        shown = public if public is not None else f"{self.seat_label(seat)}: {OWN_SCREEN}"
        hint = self.join_hint(seat) if self.join_hint is not None else ""
        self.messages.append(f"{shown} ({hint})" if hint else shown)
        self.emit(ev.Said(self.messages[-1], instead_of=seat))

    def pixels(self) -> list[Pixel]:
        """What the board should show now."""
        now = self.clock()
        return self.face.pixels([t for t, until in self.flashes.items() if until > now])

    def refresh(self) -> None:
        """Announce the look when it changed (flashes that are over end here)."""
        now = self.clock()
        for t, until in list(self.flashes.items()):
            if until <= now:
                del self.flashes[t]
        pixels = self.pixels()
        if pixels == self.shown:
            return
        self.shown = pixels
        if self.waits_for_board:
            self.board_behind = True
        self.emit(ev.SceneChanged(pixels))

    def seat_label(self, seat: int) -> str:
        """``seat`` in the players' words: its colour ("red"), as the result names it
        (:meth:`GameFace.seat_word`); "seat N" only for a game whose face names no colours."""
        return self.face.seat_word(seat)

    # ------------------------------------------------------------------ the one door

    def handle(self, intent: Intent) -> Answer:
        """Take one input: check it once (:meth:`check`), apply it, announce what changed."""
        self._answer = []
        if isinstance(intent, Tick):
            self._tick()
            return Answer(True)
        if isinstance(intent, BoardLink):
            self._board_link(intent.connected)
            return Answer(True)
        if isinstance(intent, BoardCaughtUp):
            self.board_behind = False
            return Answer(True)
        seat, refusal = self.check(intent)
        if seat is None:
            if isinstance(intent, Press) or intent.seat is None:
                self.say(refusal)  # the shared board or terminal: the whole table hears why
            return Answer(False, refusal)
        if isinstance(intent, Press):
            return self._take_outcome(self.face.press(intent.key), seat)
        if isinstance(intent, Narrow):
            return self._take_outcome(self.face.narrow(dict(intent.chosen)), seat, narrowing=True)
        try:
            action = Action.parse(intent.action, "the action")
        except MalformedActionError as error:
            return self._refused(Outcome(f"{error.message} [{error.rule}]", refused=True), seat, error.rule)
        return self._apply(action, seat)

    def check(self, intent: Press | Choose | Narrow) -> tuple[int | None, str]:
        """The seat an input acts for, or None and why it is refused: the one "who may act" check."""
        seat_now = self.game.current_seat()
        if seat_now is None:
            return None, "the game is over"
        if not self.board_up:
            what = "press" if isinstance(intent, Press) else "choice"
            return None, f"the board is not connected: that {what} was not taken (try again once it is back)"
        asked = None if isinstance(intent, Press) else intent.seat
        if asked is not None:
            if not 0 <= asked < len(self.seats):
                return None, f"seat {asked} is not played by a person"
            if self.seats[asked] != HUMAN:
                return None, f"{self.seat_label(asked)} is not played by a person"
            if asked != seat_now:
                return None, "it is not your turn"
        if self.seats[seat_now] != HUMAN:
            return None, f"it is {self.seat_label(seat_now)}'s turn: it plays by itself"
        at = None if isinstance(intent, Press) else intent.at
        if at is not None and at != len(self.game.log):
            return None, "the game moved on since this choice was shown: choose again"
        return seat_now, ""

    def _take_outcome(self, outcome: Outcome, seat: int, *, narrowing: bool = False) -> Answer:
        if outcome.action is not None and not narrowing:
            return self._apply(outcome.action, seat)
        if outcome.refused:
            return self._refused(outcome, seat)
        self.say(outcome.message, seat)
        self.refresh()
        return Answer(True, outcome.message)

    def _refused(self, outcome: Outcome, seat: int | None, rule: str | None = None) -> Answer:
        until = self.clock() + self.flash_seconds
        for t in outcome.flash:
            self.flashes[t] = until
        why = self.face.seats_in_words(outcome.message)  # an engine's "seat 1", as players name it: "blue"
        self.say(why, seat)
        self.refresh()
        return Answer(False, why, rule)

    def _apply(self, action: Action, seat: int | None) -> Answer:
        """Apply ``action`` for the seat to act, then announce it (the store listens first)."""
        before = len(self.game.log)
        try:
            self.game.apply(action, seat=seat)
        except IllegalActionError as error:
            outcome = Outcome(f"{error.message} [{error.rule}]", refused=True, flash=self.face.flash_for(action))
            return self._refused(outcome, seat, error.rule)
        self.face.reset()
        self._report_log()
        self._next_bot_at = self.clock() + self.bot_delay
        self.refresh()
        for roll in self.face.dice_rolls(self.game.log[before:]):
            self.emit(ev.DiceRolled(roll.leds, roll.values, roll.color))
        return Answer(True, "done")

    def _report_log(self) -> None:
        log = self.game.log
        for index in range(self._reported, len(log)):
            entry = log[index]
            if is_action_entry(entry):  # forced skips too: people should hear why a seat was passed
                words = self.face.describe_action(entry["action"])
                self.emit(ev.ActionApplied(entry["seat"], entry["action"], words, index, bool(entry.get("auto"))))
                self.say(f"{self.seat_label(entry['seat'])}: {words}")
        self._reported = len(log)
        if self.game.is_over():
            result = f"game over: {result_line(self.game, self.face)}"  # by colour, every screen alike
            self.say(result)
            self.emit(ev.GameOver(result, self.game.scores(), list(self.game.winners())))
        else:
            self.prompt()

    def prompt(self) -> None:
        """Tell a person whose turn it is what to press (bots need no prompt)."""
        seat = self.game.current_seat()
        if seat is None or self.seats[seat] != HUMAN:
            return
        label = self.seat_label(seat)
        self.say(f"{label}: {self.face.prompt(seat)}", seat, f"{label}: your turn, {OWN_SCREEN}", kind=ev.PROMPT)

    # ------------------------------------------------------------------ the clock and the board

    def _board_link(self, connected: bool) -> None:
        if connected == self.board_up:
            return
        self.board_up = connected
        if not connected:
            self.emit(ev.BoardAway())
            self.say(BOARD_AWAY_WORDS)
            return
        self._next_bot_at = self.clock() + self.bot_delay
        self.board_behind = self.waits_for_board  # the board is sent the whole look again
        self.emit(ev.BoardBack())
        self.say("the board is back")

    def wake_at(self) -> float | None:
        """When the table next has something to do by itself (a bot's move or a slice of its
        thinking, a flash ending), or None."""
        times = list(self.flashes.values())
        seat = self.game.current_seat()
        if seat is not None and self.seats[seat] != HUMAN and self.board_up:
            thinking = self._thinking
            if thinking is None or not thinking.is_for(self.game, seat):
                times.append(self.clock())  # a bot starts thinking now
            elif not thinking.decided:
                if thinking.here:
                    times.append(self.clock())  # a slice at a time (apart, its answer wakes the driver)
            elif not self.board_behind:
                times.append(self._next_bot_at)
        return min(times) if times else None

    def _tick(self) -> None:
        self.refresh()
        seat = self.game.current_seat()
        if seat is None or self.seats[seat] == HUMAN or not self.board_up:
            return
        thinking = self._thinking
        if thinking is None or not thinking.is_for(self.game, seat):
            # A new position (or the game moved on under an older search: it is dropped, never applied).
            if thinking is not None:
                thinking.drop()
            thinking = self._thinking = self._start_thinking(seat)
        # A bot thinks while the last move is shown and the bot's delay runs; it moves after both.
        if thinking.run(THINK_SLICE_S) and not self.board_behind and self.clock() >= self._next_bot_at:
            self._thinking = None
            self._apply_bot(seat, thinking.action)

    def _start_thinking(self, seat: int) -> Any:
        name, seed = self.seats[seat], bot_seed(self.game, seat)
        if self.think_apart is not None and parse_search_name(name) is not None:
            return self.think_apart(name, self.game, seat, seed)
        return Thinking(type(self.game).make_bot(name, seed), self.game, seat)

    def bot_move(self, seat: int) -> None:
        """The bot of ``seat`` moves now, thinking to the end at once (tools and tests)."""
        bot: Any = type(self.game).make_bot(self.seats[seat], bot_seed(self.game, seat))
        if self._thinking is not None:
            self._thinking.drop()
            self._thinking = None
        self._apply_bot(seat, bot.choose(self.game))

    def _apply_bot(self, seat: int, action: Any) -> None:
        if not self._apply(Action.parse(action, "the bot's action"), seat).done:
            raise RuntimeError(f"bot {self.seats[seat]} chose an illegal action: {action}")

    # ------------------------------------------------------------------ conveniences

    def press(self, key: int) -> Answer:
        """A key went down on the board."""
        return self.handle(Press(key, BOARD))

    def apply(self, action: Any) -> bool:
        """Play ``action`` for the seat to act, person or bot, as a bot's move is played.

        For tools and tests that play a seat themselves; every input from people goes through :meth:`handle`.
        """
        seat = self.game.current_seat()
        if seat is None:
            return False
        return self._apply(Action.parse(action, "the action"), seat).done

    def narrow(self, chosen: dict[str, Any]) -> bool:
        """The seat to act chose part of an action (:meth:`GameFace.narrow`): the board shows it."""
        seat = self.game.current_seat()
        return self.handle(Narrow(chosen, seat=seat, at=len(self.game.log))).done

    def board_connected(self) -> bool:
        return self.board_up

    def step(self) -> None:
        """One turn of the polling driver (:mod:`tablelight.table.polled`)."""
        step_polling(self)

    def run(self, max_actions: int | None = None) -> Game:
        """Play until the game is over (or ``max_actions`` more player actions), polling the board."""
        return run_polling(self, max_actions)

    def actions_made(self) -> int:
        return sum(1 for e in self.game.log if is_player_action(e))


class _Saver:
    """The store as a listener: each applied action is committed before the board shows it."""

    def __init__(self, store: GameStore, game_id: int, game: Game) -> None:
        self.store, self.game_id, self.game = store, game_id, game

    def __call__(self, event: ev.Event) -> None:
        if isinstance(event, ev.ActionApplied):
            self.store.save(self.game_id, self.game)


class _BoardShows:
    """A board session as a listener: it shows every scene and rolls every die."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def __call__(self, event: ev.Event) -> None:
        if isinstance(event, ev.SceneChanged):
            self.board.show(event.pixels)
        elif isinstance(event, ev.DiceRolled):
            self.board.dice(event.leds, event.values, color=event.color)
