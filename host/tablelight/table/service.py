"""The table service: runs a game at a lit board, whatever the game.

The :class:`Table` owns the loop: it shows the game on the board and turns the presses
of a person whose turn it is into actions, both through the game's face
(:mod:`tablelight.table.face`, one per game in its folder, :mod:`tablelight.games.<name>.face`), lets
bot seats play by themselves, and keeps every action in the game store before the board
shows it. The host checks every move: a refused press flashes what the face names and
gives a message; nothing changes.

The board is anything with the :class:`Board` members (``show``, ``poll``, ``dice``, ``connected``):
:class:`tablelight.board.session.BoardSession` on a real or simulated board, or a fake
in tests. Without a board, bot-only games still run (the pixels are only rendered).

**Public and private words.** The board and the terminal are shared by the whole table. In a
game with secrets (one whose engine overrides :meth:`Game.view`: Mainland's hands, Landover's
cards, Farside's missions) what a face says to the seat to act (its prompt, what a press did,
why a choice is refused) may name hidden cards, so it is said *privately*: kept in
:attr:`Table.private_messages` for that seat and handed to ``on_private(seat, text)`` (a seat's
own screen shows it), while the shared screen gets only ``"seat 1 (...): see your own screen"``.
What an applied action did (:meth:`GameFace.describe_action`) is public: faces leave hidden
parts out of it. :meth:`Table.submit` lets other threads (the terminal's typed input, a seat's
page) run something in the table's loop, where actions are applied.
"""

from __future__ import annotations

import hashlib
import queue
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tablelight.core.errors import IllegalActionError, SetupError
from tablelight.core.fields import is_action_entry, is_player_action
from tablelight.core.game import Action, Game
from tablelight.core.game import has_secrets as core_has_secrets
from tablelight.table.face import GameFace, Outcome, Pixel, make_face
from tablelight.table.store import GameStore

HUMAN = "human"
DEFAULT_BOT = "bot"
FLASH_SECONDS = 1.0
SYNC_WAIT_S = 0.02  # how long a bot waits between asking whether the board shows the last move


class KeyEventLike(Protocol):
    @property
    def key(self) -> int: ...

    @property
    def pressed(self) -> bool: ...


class Board(Protocol):
    """What the table needs of a board session."""

    @property
    def connected(self) -> bool:
        """False while the board is away (unplugged, rebooting); the table waits for it."""
        ...

    def show(self, pixels: list[tuple[int, int, int, int]]) -> None: ...

    def poll(self, timeout: float) -> Sequence[KeyEventLike]: ...

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int]) -> None:
        """Animate a roll on ``leds`` landing on ``values`` (the board rolls them itself)."""
        ...

    def in_sync(self) -> bool:
        """Whether the board confirmed it shows the last scene sent (a board that cannot tell: True)."""
        ...


def default_bot(cls: type[Game]) -> str:
    """The bot a ``bot`` seat gets: the game's strongest bot that can be made, else ``random``."""
    for name in reversed(cls.bot_names()):
        try:
            cls.make_bot(name, 0)
        except (ImportError, AttributeError, SetupError):
            continue
        return name
    return "random"


def resolve_seats(cls: type[Game], spec: str | Sequence[str], players: int | None) -> list[str]:
    """Seat kinds from ``"human,bot,random"``: ``human``, ``bot`` (the default bot) or a bot name.

    One name is used for every seat. Raises :class:`SetupError` with the reason.
    """
    names = [n.strip().lower() for n in spec.split(",")] if isinstance(spec, str) else [n.lower() for n in spec]
    if not names or any(not n for n in names):
        raise SetupError(f"--seats lists one kind per seat (human, bot or a bot name), got {spec!r}")
    if players is None:
        players = len(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SetupError(f"--seats names {len(names)} seats for {players} players")
    known = cls.bot_names()
    resolved = []
    for name in names:
        if name == DEFAULT_BOT:
            name = default_bot(cls)
        elif name != HUMAN and name not in known:
            raise SetupError(f"unknown seat kind {name!r}: use human, bot or one of {', '.join(known)}")
        resolved.append(name)
    return resolved


def bot_seed(game: Game, seat: int) -> int:
    """The seed of a bot's next move: fixed by the game so far, so a resumed game plays on identically.

    A one-way hash of the game's seed: a bot's public moves must not let anyone work the
    game's seed (and with it every hidden card) back out.
    """
    data = f"{game.seed}:{len(game.log)}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"tablelight-bot").digest(), "big") >> 33


def has_secrets(game: Game) -> bool:
    """True when the game hides something from some seat (as its engine declares)."""
    return core_has_secrets(game)


#: What the shared screen says in place of words meant for one seat.
OWN_SCREEN = "see your own screen"


class Table:
    """A game at a board. Call :meth:`run` to play to the end, or :meth:`step` in your own loop."""

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
        on_message: Callable[[str], None] | None = None,
        on_show: Callable[[list[Pixel]], None] | None = None,
        on_private: Callable[[int, str], None] | None = None,
        join_hint: Callable[[int], str] | None = None,
        poll_interval: float = 0.25,
    ) -> None:
        if len(seats) != game.players:
            raise SetupError(f"{len(seats)} seats for {game.players} players")
        if board is None and HUMAN in seats:
            raise SetupError("a human seat needs a board to press keys on")
        #: The game's look and input (its own layout, or ``layout_data``); made first so a game
        #: without a face is refused before anything is stored.
        self.face: GameFace = face if face is not None else make_face(game, layout_data)
        if store is not None and game_id is None:
            game_id = store.create(game, list(seats))
        self.game = game
        self.seats = list(seats)
        self.board = board
        self.store = store
        self.game_id = game_id
        self.bot_delay = bot_delay
        self.flash_seconds = flash_seconds
        self.clock = clock
        self.on_message = on_message or (lambda text: None)
        self.on_show = on_show
        self.on_private = on_private or (lambda seat, text: None)
        #: seat -> how that seat can join with its own device, or "" when one is joined (a web view sets it).
        self.join_hint = join_hint
        #: True when words for the seat to act may name hidden cards (see the module docstring); a face
        #: whose game hides only at times says when with ``words_private(seat)``.
        self.secret_words = has_secrets(game)
        #: Per seat: the private messages said to it, in order (its own screen shows them).
        self.private_messages: dict[int, list[str]] = {seat: [] for seat in range(game.players)}
        self._inbox: queue.Queue[Callable[[], None]] = queue.Queue()
        #: Added to every prompt (the terminal: how to type a choice).
        self.prompt_hint = ""
        self.poll_interval = poll_interval
        #: LEDs flashing after a refusal -> clock time the flash ends.
        self.flashes: dict[int, float] = {}
        #: Every public message given, in order (the last one is what the table should read now).
        self.messages: list[str] = []
        self.shown: list[Pixel] | None = None
        self._next_bot_at = clock() + bot_delay
        self._reported = len(game.log)
        self._waiting_for_board = False

    # ------------------------------------------------------------------ display

    def pixels(self) -> list[Pixel]:
        """What the board should show now."""
        now = self.clock()
        flashing = [t for t, until in self.flashes.items() if until > now]
        return self.face.pixels(flashing)

    def refresh(self) -> None:
        """Send the look to the board when it changed."""
        for t, until in list(self.flashes.items()):
            if until <= self.clock():
                del self.flashes[t]
        pixels = self.pixels()
        if pixels == self.shown:
            return
        if self.board is not None:
            self.board.show(pixels)
        self.shown = pixels
        if self.on_show is not None:
            self.on_show(pixels)

    def say(self, text: str, seat: int | None = None, public: str | None = None) -> None:
        """Say ``text`` to the table, or to ``seat`` alone when the game has secrets.

        Words for one seat in a game with secrets go to that seat's own screen; the table then
        reads ``public`` (default: the seat is sent to its own screen, and told how to join).
        """
        private_now = None if seat is None else self.face.words_private(seat)
        private = self.secret_words if private_now is None else private_now
        if seat is None or not private:
            self.messages.append(text)
            self.on_message(text)
            return
        self.private_messages[seat].append(text)
        self.on_private(seat, text)
        shown = public if public is not None else f"{self.seat_label(seat)}: {OWN_SCREEN}"
        hint = self.join_hint(seat) if self.join_hint is not None else ""
        if hint:
            shown = f"{shown} ({hint})"
        self.messages.append(shown)
        self.on_message(shown)

    def submit(self, job: Callable[[], None]) -> None:
        """Run ``job`` in the table's loop (thread-safe): typed input and seat pages act through it."""
        self._inbox.put(job)

    def _run_jobs(self) -> None:
        while True:
            try:
                job = self._inbox.get_nowait()
            except queue.Empty:
                return
            job()

    def seat_label(self, seat: int) -> str:
        kind = self.seats[seat]
        names = self.face.seat_names
        if seat < len(names):
            return f"seat {seat} ({names[seat]}, {kind})"
        return f"seat {seat} ({kind})"

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> bool:
        """Apply ``action`` for the seat to act, store it, then show it. False (and a flash) if refused."""
        seat = self.game.current_seat()
        before = len(self.game.log)
        try:
            self.game.apply(action, seat=seat)
        except IllegalActionError as error:
            outcome = Outcome(f"{error.message} [{error.rule}]", refused=True, flash=self.face.flash_for(action))
            self._refuse(outcome, seat)
            return False
        # Stored before the board shows it: a crash after this loses nothing that was shown.
        if self.store is not None and self.game_id is not None:
            self.store.save(self.game_id, self.game)
        self.face.reset()
        self._report_log()
        self._next_bot_at = self.clock() + self.bot_delay
        self.refresh()
        self._animate_dice(self.game.log[before:])
        return True

    def _animate_dice(self, entries: Sequence[Any]) -> None:
        """Let the board roll the dice of new chance entries itself, landing on the logged values."""
        if self.board is None:
            return
        for roll in self.face.dice_rolls(entries):
            self.board.dice(roll.leds, roll.values, color=roll.color)

    def _report_log(self) -> None:
        for entry in self.game.log[self._reported :]:
            if is_action_entry(entry):  # forced skips too: people should hear why a seat was passed
                self.say(f"{self.seat_label(entry['seat'])}: {self.face.describe_action(entry['action'])}")
        self._reported = len(self.game.log)
        if self.game.is_over():
            self.say(self.game.describe_result())
        else:
            self.prompt()

    def prompt(self) -> None:
        """Tell a person whose turn it is what to press (bots need no prompt)."""
        seat = self.game.current_seat()
        if seat is None or self.seats[seat] != HUMAN:
            return
        hint = f" ({self.prompt_hint})" if self.prompt_hint else ""
        self.say(f"{self.seat_label(seat)}: {self.face.prompt(seat)}{hint}", seat, f"{self.seat_label(seat)}: your turn, {OWN_SCREEN}")

    def _refuse(self, outcome: Outcome, seat: int | None) -> None:
        until = self.clock() + self.flash_seconds
        for t in outcome.flash:
            self.flashes[t] = until
        self.say(outcome.message, seat)
        self.refresh()

    def press(self, key: int) -> None:
        """A key went down on the board."""
        seat = self.game.current_seat()
        if seat is None:
            self.say("the game is over")
            return
        if self.seats[seat] != HUMAN:
            self.say(f"it is {self.seat_label(seat)}'s turn: it plays by itself")
            return
        outcome = self.face.press(key)
        if outcome.action is not None:
            self.apply(outcome.action)
        elif outcome.refused:
            self._refuse(outcome, seat)
        else:
            self.say(outcome.message, seat)
            self.refresh()

    def narrow(self, chosen: dict[str, Any]) -> bool:
        """A seat's page chose part of an action (:meth:`GameFace.narrow`): the board shows the choice
        narrowed as if keys had made it. False (and a flash) if the face refused it."""
        seat = self.game.current_seat()
        if seat is None or self.seats[seat] != HUMAN:
            return False
        outcome = self.face.narrow(chosen)
        if outcome.refused:
            self._refuse(outcome, seat)
            return False
        self.say(outcome.message, seat)
        self.refresh()
        return True

    # --------------------------------------------------------------------- loop

    def _wait(self, timeout: float, *, take_presses: bool = True) -> None:
        """Wait for key presses up to ``timeout`` (keeping the board's lease alive) and handle them."""
        self._run_jobs()
        if self.board is None:
            if timeout > 0:
                time.sleep(timeout)
            return
        for event in self.board.poll(max(0.0, timeout)):
            if not event.pressed:
                continue
            if take_presses:
                self.press(event.key)
            else:  # a press from a web page while the board is away: nobody at the table would see it
                self.say("the board is not connected: that press was not taken (press again once it is back)")
        self._run_jobs()

    def board_connected(self) -> bool:
        """False while the board session is reconnecting (unplugged, rebooting, silent)."""
        return self.board.connected if self.board is not None else True

    def board_shows_latest(self) -> bool:
        """Whether the board confirmed it shows the last move (a board that cannot tell: True)."""
        return self.board.in_sync() if self.board is not None else True

    def step(self) -> None:
        """One turn of the loop: a bot move when due, else wait a little for presses.

        While the board is away (unplugged, rebooting) bots wait too, so the people at the
        table see every move once it is back; the session re-sends the whole look itself.
        """
        self.refresh()
        seat = self.game.current_seat()
        if seat is None:
            return
        if not self.board_connected():
            if not self._waiting_for_board:
                self._waiting_for_board = True
                self.say("the board is not connected: waiting for it to come back (the game is saved)")
            self._wait(self.poll_interval, take_presses=False)
            return
        if self._waiting_for_board:
            self._waiting_for_board = False
            self._next_bot_at = self.clock() + self.bot_delay
            self.say("the board is back")
        now = self.clock()
        wake = [until - now for until in self.flashes.values()]
        if self.seats[seat] != HUMAN:
            if now >= self._next_bot_at:
                if not self._await_board_sync():  # no move before the last one was seen
                    return
                self._wait(0.0)
                if self.game.current_seat() == seat:
                    self.bot_move(seat)
                return
            wake.append(self._next_bot_at - now)
        self._wait(min([self.poll_interval, *wake]))

    def _await_board_sync(self) -> bool:
        """Wait (up to one poll interval, taking presses) until the board shows the last move."""
        for _ in range(max(1, round(self.poll_interval / SYNC_WAIT_S))):
            if self.board_shows_latest():
                return True
            self._wait(SYNC_WAIT_S)
        return self.board_shows_latest()

    def bot_move(self, seat: int) -> None:
        bot: Any = type(self.game).make_bot(self.seats[seat], bot_seed(self.game, seat))
        action = bot.choose(self.game)
        if not self.apply(action):
            raise RuntimeError(f"bot {self.seats[seat]} chose an illegal action: {action}")

    def run(self, max_actions: int | None = None) -> Game:
        """Play until the game is over (or ``max_actions`` more player actions were made)."""
        start = self._actions()
        self.refresh()
        self.prompt()
        while not self.game.is_over():
            if max_actions is not None and self._actions() - start >= max_actions:
                break
            self.step()
        self.refresh()
        return self.game

    def _actions(self) -> int:
        return sum(1 for e in self.game.log if is_player_action(e))

