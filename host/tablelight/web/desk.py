"""What the shared screen and each seat may see, and the seats' choices: a listener of the table.

The desk listens to the table's events (:meth:`Table.listen`) and keeps the pages' snapshots:
each event marks them stale and beats :attr:`Desk.pulse`, which the pages' sockets wait on;
a snapshot is rebuilt when a page next reads it. A seat's action or partial choice, sent to the
session's one entry (:meth:`TableSession.request`, which the pages' routes call), enters the
table through its one door (:meth:`Table.handle` with a :class:`Choose` or :class:`Narrow`
intent), exactly as one built from key presses does, so the board's keys and a phone can be
mixed within one turn. The choices a page lists are the face's candidates
(:meth:`GameFace.candidates`: the legal actions still consistent with the keys pressed on the
board), and a partial choice tapped on a page goes to the face, so the board's LEDs show it.
Everything runs on the table's event loop: no locks, no queues.

Snapshots are plain JSON-ready dicts, replaced whole (never mutated):

* :meth:`Desk.public` -- what anyone may see: whose turn, the public log, scores, seats;
* :meth:`Desk.seat` -- what one human seat may see: its secrets (the engine's
  ``view(seat)``), its log (``view_log(seat)``), what to do now and its legal choices.

Both carry the game's rules guide (``guide``: the face's :meth:`GameFace.guide`), the log in
words (chance lines through :meth:`GameFace.describe_entry`, public parts only on the shared
page) with ``log_numbers``, each line's number in the game's log, and once the game is over ``result``
(:func:`result_block`): who won by colour, each seat's score and its breakdown.

The desk lives as long as the server and follows its :class:`~tablelight.table.session.TableSession`
(:meth:`Desk.following`): when the session plays again (a new game of the same seats, asked by
``POST /api/host/again``, a typed ``again`` or the browser's button), :meth:`Desk.use_table` points
it at the new table, and the pages' next snapshots (a higher version) show the new game; the shared
page's heading follows (``title``), and ``again`` in the public snapshot (the session's
:attr:`~tablelight.table.session.TableSession.offering_again`) tells the host's page to offer it.

Words the table tells one seat (:class:`Told`: prompts, press feedback, refusals) go to that
seat's page, except the terminal's own answers (kind ``terminal``: a typed list, the guide);
:meth:`Desk.join_hint` is what the shared screen adds for a seat with no device yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tablelight.core.actions import ActionEntry
from tablelight.core.fields import is_action_entry
from tablelight.table import events as ev
from tablelight.table.intents import SEAT_PAGE, Answer, Narrow
from tablelight.table.seats import HUMAN, has_secrets
from tablelight.table.service import Table
from tablelight.table.session import TableSession
from tablelight.table.face import GameFace
from tablelight.web.places import secret_sections, words
from tablelight.web.pulse import Pulse
from tablelight.table.result import result_block

#: How many log lines a page shows.
LOG_LINES = 40


class Desk:
    """The pages' view of ``table``; ``join_url`` is told to seats that have no device yet.

    A host makes it with :meth:`following`: it then follows its :class:`TableSession` to each next
    game and says when the session offers play again. ``Desk(table)`` alone shows one table (tests).
    """

    def __init__(self, table: Table, *, join_url: str = "", joined: Any = None, title: str = "",
                 offers_again: Callable[[], bool] = lambda: False) -> None:
        self.join_url = join_url
        #: seat -> bool: has a device joined (the :class:`~tablelight.web.access.Access`'s ``joined``).
        self.joined = joined or (lambda seat: False)
        #: The shared page's heading ("game 12: mainland"): it follows the table to a new game.
        self.title = title
        #: True while the host takes "play again" (the session's :attr:`TableSession.offering_again`).
        self.offers_again = offers_again
        #: Beats whenever what the pages show may have changed.
        self.pulse = Pulse()
        #: Called whenever what the pages show may have changed (the terminal's join lines).
        self.on_change: list[Any] = []
        self.version = 0
        self._public: dict[str, Any] = {}
        self._seats: dict[int, dict[str, Any]] = {}
        self.use_table(table)

    @classmethod
    def following(cls, session: TableSession, *, title: Callable[[TableSession], str] = lambda session: "",
                  **options: Any) -> Desk:
        """The desk of ``session``: its table now and each next game's (play again), titled ``title(session)``;
        the pages are told when the session starts or stops offering play again."""
        desk = cls(session.table, title=title(session), offers_again=lambda: session.offering_again, **options)
        session.on_new_table(lambda now: desk.use_table(now.table, title(now)))
        session.on_offer_changed(lambda offered: desk.changed())
        return desk

    def use_table(self, table: Table, title: str | None = None) -> None:
        """Show ``table`` from now on: the first one, or a new game played again at the same seats.

        The pages, their sockets and the seats' devices stay; what they show moves to the new game
        (its log starts over, the game-over panel goes) with the next snapshot, a newer version.
        """
        self.table = table
        self.game = table.game
        self.face = table.face
        self.secret = has_secrets(table.game)
        self.humans = [s for s, kind in enumerate(table.seats) if kind == HUMAN]
        if title is not None:
            self.title = title
        self._feedback: dict[int, str] = {}
        self._public_lines: list[tuple[int, str]] = []  # (the entry's number in the log, its words)
        self._seen_log = 0
        #: The rules guide, the same for every page (read once per game).
        self.guide = [{"title": heading, "text": text} for heading, text in self.face.guide()]
        table.listen(lambda event: self.on_event(event) if table is self.table else None)  # an old table is not shown
        self.changed()

    # ------------------------------------------------ what the pages read

    def public(self) -> dict[str, Any]:
        self._fresh()
        return self._public

    def seat(self, seat: int) -> dict[str, Any] | None:
        self._fresh()
        return self._seats.get(seat)

    # ------------------------------------------------ what the pages send

    def narrow(self, seat: int, chosen: Mapping[str, Any], at: int) -> Answer:
        """``seat``'s page chose part of an action (field -> value; ``{}`` forgets it) for the board to
        show, straight through the table's door (tests of what a page lists; a host's pages ask through
        :meth:`TableSession.request`)."""
        try:
            return self.table.handle(Narrow(dict(chosen), seat=seat, at=at, source=SEAT_PAGE))
        finally:
            self.changed()

    # ------------------------------------------------ what the table says

    def on_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.Told) and event.kind == ev.TERMINAL:
            return  # typed at the terminal and answered there: no page shows it
        if isinstance(event, ev.Told):
            # a page shows the seat's prompt already: a new prompt clears what an earlier press was told
            self._feedback[event.seat] = "" if event.kind == ev.PROMPT else event.text
        if not isinstance(event, ev.DiceRolled):
            self.changed()

    def changed(self) -> None:
        """Something the pages show may have changed: rebuild on the next read, wake the sockets."""
        self._dirty = True
        self.pulse.beat()
        for hook in self.on_change:
            hook()

    def join_hint(self, seat: int) -> str:
        """What the shared screen adds when it sends ``seat`` to its own screen (``Table.join_hint``)."""
        if self.joined(seat) or not self.join_url:
            return ""
        return f"join at {self.join_url} with your code"

    def turn_line(self) -> str:
        """Whose turn it is, for everyone (no secrets)."""
        seat = self.game.current_seat()
        if seat is None:
            return f"game over: {result_block(self.game, self.face)['headline']}"
        label = self.table.seat_label(seat)
        if self.table.seats[seat] != HUMAN:
            return f"{label} to act"
        if self.joined(seat):
            return f"{label}: your turn, on your seat's page"
        if self.join_url:
            return f"{label}: your turn; your hand and choices are on your seat's page: join at {self.join_url} with your code"
        return f"{label}: your turn"

    def _new_public_lines(self) -> list[tuple[int, str]]:
        log = self.game.log
        if self._seen_log > len(log):  # an undo
            self._seen_log = 0
            self._public_lines = []
        new_draws = any(not isinstance(entry, ActionEntry) for entry in log[self._seen_log :])
        views = [self.game.view_log(s) for s in range(self.game.players)] if self.secret and new_draws else []
        for index in range(self._seen_log, len(log)):
            entry = log[index]
            if isinstance(entry, ActionEntry):
                self._public_lines.append((index + 1, f"{self.table.seat_label(entry['seat'])}: {self.face.describe_action(entry['action'])}"))
                continue
            # a chance entry: what every seat may see of it (a draw some seat may not see is secret)
            hidden = any(len(view) != len(log) or view[index].get("hidden") for view in views)
            line = self.face.describe_entry({**entry, "value": None, "hidden": True} if hidden else entry, None)
            if line:
                self._public_lines.append((index + 1, line))
        self._seen_log = len(log)
        return self._public_lines[-LOG_LINES:]

    def _fresh(self) -> None:
        if self._dirty:
            self._dirty = False
            self._recompute()

    def _recompute(self) -> None:
        game, table = self.game, self.table
        seat_now = game.current_seat()
        names = list(self.face.seat_names)
        public: dict[str, Any] = {
            "game": game.name,
            "title": self.title,
            # the host may start a new game of the same seats now (the host page shows "play again")
            "again": game.is_over() and self.offers_again(),
            "turn": seat_now,
            "turn_line": self.turn_line(),
            # the table's last word for everyone: in a game without secrets that is what to press now
            "message": self.turn_line() if self.secret or not table.messages or game.is_over() else table.messages[-1],
            "over": game.is_over(),
            "scores": game.scores(),
            "seats": [
                {"label": table.seat_label(s), "name": names[s] if s < len(names) else f"seat {s}", "kind": kind,
                 "joined": bool(self.joined(s)) if kind == HUMAN else None}
                for s, kind in enumerate(table.seats)
            ],
            # moves and draws (prompts and refusals are in "message"), with their numbers in the log
            **log_lines(self._new_public_lines()),
            "board": table.board_connected(),
            "join_url": self.join_url,
            "guide": self.guide,
            "drawing": self.face.drawing(None),  # the game's own picture, public state only
        }
        if game.is_over():
            public["result"] = result_block(game, self.face)
        seats = {seat: self._seat_snapshot(seat, public) for seat in self.humans}
        unchanged = {k: v for k, v in self._public.items() if k != "version"} == public and all(
            {k: v for k, v in self._seats.get(seat, {}).items() if k != "version"} == snapshot for seat, snapshot in seats.items()
        )
        if unchanged:  # the pages keep what they show (a button being tapped stays put)
            return
        self.version += 1
        public["version"] = self.version
        for snapshot in seats.values():
            snapshot["version"] = self.version
        self._public = public
        self._seats = seats

    def _seat_snapshot(self, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        game, table, face = self.game, self.table, self.face
        mine = game.current_seat() == seat
        choices = []
        narrowed = None
        if mine:
            narrowed = face.candidates()  # what the board's keys left; None: nothing chosen there
            for action in face.legal_now() if narrowed is None else narrowed:
                steps = face.choice_steps(action)
                choices.append({"action": action, "text": face.action_words(action), "path": choice_path(face, steps),
                                "fields": [field for field, _ in steps], "values": [value for _, value in steps]})
        return {
            "seat": seat,
            "label": table.seat_label(seat),
            "game": game.name,
            "your_turn": mine,
            "prompt": face.page_prompt(seat) if mine else public["turn_line"],  # a page is tapped, not keyed
            "feedback": self._feedback.get(seat, "") if mine else "",
            "secrets": [
                {"title": t, "items": x} if isinstance(x, list) else {"title": t, "text": x}
                for t, x in (secret_sections(game, face, seat) if self.secret else [])
            ],
            "choices": choices,
            "narrowed": narrowed is not None,
            "at": len(game.log),
            "scores": public["scores"],
            "seats": public["seats"],
            "over": public["over"],
            "board": public["board"],
            "guide": self.guide,
            **({"result": public["result"]} if "result" in public else {}),
            **self._seat_log(seat),
            "drawing": face.drawing(seat),  # as this seat may see it: its hand, where its card fits
        }

    def _seat_log(self, seat: int) -> dict[str, Any]:
        """The last entries of ``seat``'s log in words, with their numbers (see :func:`log_lines`)."""
        lines = []
        entries = self.game.view_log(seat)
        first = max(0, len(entries) - LOG_LINES)
        for index, entry in enumerate(entries[first:], first + 1):
            if is_action_entry(entry):
                forced = " (forced)" if entry.get("auto") else ""
                lines.append((index, f"{self.table.seat_label(entry['seat'])}: {self.face.log_words(entry['action'])}{forced}"))
            else:
                line = self.face.describe_entry(entry, seat)
                if line:
                    lines.append((index, line))
        return log_lines(lines)


def log_lines(lines: list[tuple[int, str]]) -> dict[str, Any]:
    """``log``: the last :data:`LOG_LINES` lines in words; ``log_numbers``: each one's number in the
    game's log (1 the first entry), which the pages show beside it."""
    shown = lines[-LOG_LINES:]
    return {"log": [text for _, text in shown], "log_numbers": [number for number, _ in shown]}


def choice_path(face: GameFace, steps: list[tuple[str, Any]]) -> list[str]:
    """The labels of the steps by which a page narrows a long list of choices down to one action
    (:meth:`GameFace.choice_steps`): its type as players name it (:meth:`GameFace.type_words`), then each field."""
    return [value_words(face, field, value) for field, value in steps]


def value_words(face: GameFace, field: str, value: Any) -> str:
    """One step's label: the game's own words (:meth:`GameFace.choice_value_words`), or generic ones."""
    own = face.choice_value_words(field, value)
    if own is not None:
        return own
    if field == "type":
        return face.type_words(value)
    if field == "rotation" and isinstance(value, int):
        return f"turned {90 * value} degrees"
    return f"{field.replace('_', ' ')} {words(value)}"
