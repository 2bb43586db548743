"""What the shared screen and each seat may see, and the seats' choices, kept on the table's thread.

The :class:`~tablelight.table.service.Table` is not thread-safe, so everything here that
reads the game runs on the table's own thread: :meth:`Desk.tick` (called from the board's
``poll``) recomputes the snapshots when something changed and applies the actions the
seat pages sent (:meth:`Desk.submit` queues them from the web server's thread). An action
from a page goes through :meth:`Table.apply`, exactly as one built from key presses does,
so the board's keys and a phone can be mixed within one turn. The choices a page lists are the
face's candidates (:meth:`GameFace.candidates`: the legal actions still consistent with the keys
pressed on the board), and a partial choice tapped on a page goes to the face
(:meth:`Desk.submit_narrow`, :meth:`Table.narrow`), so the board's LEDs show it.

Snapshots are plain JSON-ready dicts, replaced whole (never mutated) so the web server's
thread may read the current one at any time:

* :meth:`Desk.public` -- what anyone may see: whose turn, the public log, scores, seats;
* :meth:`Desk.seat` -- what one human seat may see: its secrets (the engine's
  ``view(seat)``), its log (``view_log(seat)``), what to do now and its legal choices.

:meth:`Desk.tell` takes what the table says privately to a seat (a game with secrets:
prompts, press feedback, refusals; see :meth:`Table.say`) for that seat's page, and
:meth:`Desk.join_hint` is what the shared screen adds for a seat with no device yet.
"""

from __future__ import annotations

import concurrent.futures
import queue
import threading
from collections.abc import Mapping
from typing import Any

from tablelight.core.actions import Action, ActionEntry
from tablelight.core.fields import is_action_entry
from tablelight.table.face import GameFace
from tablelight.table.service import HUMAN, Table, has_secrets
from tablelight.web.places import secret_sections, words

#: How many log lines a page shows.
LOG_LINES = 40


class Desk:
    """The pages' view of ``table``; ``join_url`` is told to seats that have no device yet."""

    def __init__(self, table: Table, *, join_url: str = "", joined: Any = None) -> None:
        self.table = table
        self.game = table.game
        self.face = table.face
        self.secret = has_secrets(table.game)
        self.join_url = join_url
        #: seat -> bool: has a device joined (the :class:`~tablelight.web.access.Access`'s ``joined``).
        self.joined = joined or (lambda seat: False)
        self.humans = [s for s, kind in enumerate(table.seats) if kind == HUMAN]
        self.version = 0
        self._dirty = True
        self._lock = threading.Lock()
        self._public: dict[str, Any] = {}
        self._seats: dict[int, dict[str, Any]] = {}
        self._feedback: dict[int, str] = {}
        self._public_lines: list[str] = []
        self._seen_log = 0
        #: (seat, "act" or "narrow", action or partial choice, log length, answer)
        self._pending: queue.Queue[tuple[int, str, Mapping[str, Any], int, concurrent.futures.Future[tuple[bool, str]]]] = queue.Queue()

    # ------------------------------------------------ read from any thread

    def public(self) -> dict[str, Any]:
        with self._lock:
            return self._public

    def seat(self, seat: int) -> dict[str, Any] | None:
        with self._lock:
            return self._seats.get(seat)

    def submit(self, seat: int, action: Action, at: int) -> concurrent.futures.Future[tuple[bool, str]]:
        """Queue ``seat``'s ``action``, chosen when the log had ``at`` entries; the future says (applied, message)."""
        done: concurrent.futures.Future[tuple[bool, str]] = concurrent.futures.Future()
        self._pending.put((seat, "act", action, at, done))
        return done

    def submit_narrow(self, seat: int, chosen: dict[str, Any], at: int) -> concurrent.futures.Future[tuple[bool, str]]:
        """Queue ``seat``'s partial choice (field -> value; ``{}`` forgets it) for the board to show."""
        done: concurrent.futures.Future[tuple[bool, str]] = concurrent.futures.Future()
        self._pending.put((seat, "narrow", chosen, at, done))
        return done

    def changed(self) -> None:
        """Something the pages show may have changed (any thread): recompute on the next tick."""
        self._dirty = True

    # ----------------------------------------------- on the table's thread

    def tick(self) -> None:
        """Apply the queued page actions, then recompute the snapshots if anything changed."""
        while True:
            try:
                seat, kind, action, at, done = self._pending.get_nowait()
            except queue.Empty:
                break
            try:
                done.set_result(self._apply(seat, action, at, narrow=kind == "narrow"))
            except Exception as error:  # the page gets the reason; the table goes on
                done.set_result((False, f"not applied: {error}"))
            self._dirty = True
        if self._dirty:
            self._dirty = False
            self._recompute()

    def _apply(self, seat: int, action: Mapping[str, Any], at: int, *, narrow: bool = False) -> tuple[bool, str]:
        game, table = self.game, self.table
        if seat not in self.humans:
            return False, f"seat {seat} is not played from a page"
        if game.current_seat() != seat:
            return False, "it is not your turn"
        if at != len(game.log):
            return False, "the game moved on since this choice was shown: choose again"
        if not isinstance(action, dict):
            return False, "an action is a JSON object"
        before, before_private = len(table.messages), len(table.private_messages[seat])
        if table.narrow(dict(action)) if narrow else table.apply(Action.parse(action)):
            said = table.private_messages[seat][before_private:] or table.messages[before:]
            return True, said[-1] if narrow and said else "done"
        said = table.private_messages[seat][before_private:] or table.messages[before:]
        return False, said[-1] if said else "refused"

    def tell(self, seat: int, text: str) -> None:
        """The table said ``text`` to ``seat`` alone (``Table.on_private``): its page shows it.

        The seat's own prompt is not repeated: the page shows it already (the table's copy may
        carry advice for the terminal); it clears what an earlier press was told instead.
        """
        if self.game.current_seat() == seat and text.startswith(f"{self.table.seat_label(seat)}: {self.face.prompt(seat)}"):
            text = ""
        self._feedback[seat] = text
        self._dirty = True

    def join_hint(self, seat: int) -> str:
        """What the shared screen adds when it sends ``seat`` to its own screen (``Table.join_hint``)."""
        if self.joined(seat) or not self.join_url:
            return ""
        return f"join at {self.join_url} with your code"

    def turn_line(self) -> str:
        """Whose turn it is, for everyone (no secrets)."""
        seat = self.game.current_seat()
        if seat is None:
            return self.game.describe_result()
        label = self.table.seat_label(seat)
        if self.table.seats[seat] != HUMAN:
            return f"{label} to act"
        if self.joined(seat):
            return f"{label}: your turn, on your seat's page"
        if self.join_url:
            return f"{label}: your turn; your hand and choices are on your seat's page: join at {self.join_url} with your code"
        return f"{label}: your turn"

    def _for_pages(self, text: str) -> str:
        """``text`` without the advice the table adds for the terminal (pages are tapped, not typed at)."""
        hint = f" ({self.table.prompt_hint})" if self.table.prompt_hint else ""
        return text.removesuffix(hint) if hint else text

    def _new_public_lines(self) -> list[str]:
        log = self.game.log
        if self._seen_log > len(log):  # an undo
            self._seen_log = 0
            self._public_lines = []
        for entry in log[self._seen_log :]:
            if isinstance(entry, ActionEntry):
                self._public_lines.append(f"{self.table.seat_label(entry['seat'])}: {self.face.describe_action(entry['action'])}")
        self._seen_log = len(log)
        return self._public_lines[-LOG_LINES:]

    def _recompute(self) -> None:
        game, table = self.game, self.table
        seat_now = game.current_seat()
        names = list(self.face.seat_names)
        public = {
            "game": game.name,
            "turn": seat_now,
            "turn_line": self.turn_line(),
            # the table's last word for everyone: in a game without secrets that is what to press now
            "message": self.turn_line() if self.secret or not table.messages else self._for_pages(table.messages[-1]),
            "over": game.is_over(),
            "scores": game.scores(),
            "seats": [
                {"label": table.seat_label(s), "name": names[s] if s < len(names) else f"seat {s}", "kind": kind,
                 "joined": bool(self.joined(s)) if kind == HUMAN else None}
                for s, kind in enumerate(table.seats)
            ],
            "log": self._new_public_lines(),  # the moves only: prompts and refusals are in "message"
            "board": table.board_connected(),
            "join_url": self.join_url,
        }
        seats = {seat: self._seat_snapshot(seat, public) for seat in self.humans}
        with self._lock:
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
            for action in game.legal_actions() if narrowed is None else narrowed:
                steps = face.choice_steps(action)
                choices.append({"action": action, "text": face.action_words(action), "path": choice_path(face, steps),
                                "fields": [field for field, _ in steps], "values": [value for _, value in steps]})
        return {
            "seat": seat,
            "label": table.seat_label(seat),
            "game": game.name,
            "your_turn": mine,
            "prompt": face.prompt(seat) if mine else (public["turn_line"] if not game.is_over() else game.describe_result()),
            "feedback": self._feedback.get(seat, "") if mine else "",
            "secrets": [
                {"title": t, "items": x} if isinstance(x, list) else {"title": t, "text": x}
                for t, x in (secret_sections(game, face, seat) if self.secret else [])
            ],
            "choices": choices,
            "narrowed": narrowed is not None,
            "at": len(game.log),
            "log": self._seat_log(seat),
            "scores": public["scores"],
            "seats": public["seats"],
            "over": public["over"],
            "board": public["board"],
        }

    def _seat_log(self, seat: int) -> list[str]:
        lines = []
        for entry in self.game.view_log(seat)[-LOG_LINES:]:
            if is_action_entry(entry):
                forced = " (forced)" if entry.get("auto") else ""
                lines.append(f"{self.table.seat_label(entry['seat'])}: {self.face.log_words(entry['action'])}{forced}")
            elif entry.get("hidden"):
                lines.append(f"chance {entry.get('chance')}: hidden")
            else:
                lines.append(self.game.describe_entry(entry).strip())
        return lines


def choice_path(face: GameFace, steps: list[tuple[str, Any]]) -> list[str]:
    """The labels of the steps by which a page narrows a long list of choices down to one action
    (:meth:`GameFace.choice_steps`): its type, then each field."""
    return [str(value).replace("_", " ") if field == "type" else value_words(face, field, value) for field, value in steps]


def value_words(face: GameFace, field: str, value: Any) -> str:
    """One step's label: the game's own words (:meth:`GameFace.choice_value_words`), or generic ones."""
    own = face.choice_value_words(field, value)
    if own is not None:
        return own
    if field == "rotation" and isinstance(value, int):
        return f"turned {90 * value} degrees"
    return f"{field.replace('_', ' ')} {words(value)}"
