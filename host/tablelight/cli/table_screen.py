"""The terminal of ``tablelight play``: the shared screen (public words, the board's scenes) and the
lines people type there, joined to a :class:`~tablelight.table.session.TableSession`.

The terminal is shared by the whole table: it shows what everyone may see (:class:`Said`) and
the scenes, and answers typed lines (:class:`Told` of kind ``terminal``). A game's secrets go
to each seat's own screen (its page), never here, with one exception: a table with exactly one
person, whose seat no phone (or page) joined, has nobody else at the terminal, so the terminal
is that person's own screen. It then shows what the table tells that seat alone (its prompt
with its hidden cards, why a choice was refused) in place of "see your own screen", the seat's
secrets at each of its turns (its hand: the seat's ``view`` in the face's words, as its page
shows them), and lists its choices when ``?`` is typed. With two or more people it stays shared.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from tablelight.core.inputs import printable
from tablelight.table import events as ev
from tablelight.table.seats import HUMAN
from tablelight.table.session import TableSession
from tablelight.table.typed import TypedInput

#: Added to the prompts the shared terminal shows (pages are tapped, not typed at).
TYPING_HINT = " (or type it: ? lists your choices, help shows the rules)"


class TableScreen:
    """What the terminal shows of ``session`` (``terminal``: a :class:`TerminalView`, or None to
    print lines to ``out``), and the typed lines it takes for the people's seats."""

    def __init__(self, session: TableSession, terminal: Any, out: TextIO | None = None) -> None:
        self.session = session
        self.terminal = terminal
        self.out = out or sys.stdout
        self.humans = HUMAN in session.seats
        #: The one person's seat at a table with exactly one, else None.
        self.lone = session.humans[0] if len(session.humans) == 1 else None
        #: seat -> True when a device joined it (the pages' access, once they are served).
        self.joined: Callable[[int], bool] = lambda seat: False
        self.typed: TypedInput | None = None
        session.listen(self.on_event)
        session.on_new_table(lambda _: self._new_table())
        self._new_table(first=True)

    def _new_table(self, first: bool = False) -> None:
        if self.humans:
            self.typed = TypedInput(self.session.table, self.session.layout, send=self.session.handle,
                                    own_screen=self.own_screen)
        if not first and self.terminal is not None:
            self.terminal.labels = self.session.face.led_labels() or {}

    def note(self, text: str) -> None:
        """Public words on the screen (names from files, a map's ids, never drive the terminal)."""
        text = printable(text, lines=True)
        if self.terminal is not None:
            self.terminal.note(text)
        else:
            print(text, file=self.out, flush=True)

    def note_or_print(self, text: str) -> None:
        """Words about the run (the game's header, the wait at the end): in the history under a live
        board, else on stderr (stdout keeps the game's own lines)."""
        if self.live:
            self.terminal.note(text)
        else:
            print(text, file=sys.stderr, flush=True)

    def own_screen(self, seat: int) -> bool:
        """True when the terminal is ``seat``'s own screen: its lone person, with no device joined."""
        return seat == self.lone and not self.joined(seat)

    def on_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.Said):
            if event.instead_of is not None and self.own_screen(event.instead_of):
                return  # the seat's own words are shown here instead (below)
            self.note(event.text + (TYPING_HINT if self.humans and event.kind == ev.PROMPT else ""))
        elif isinstance(event, ev.Told) and event.kind == ev.TERMINAL and self.humans:
            self.note(event.text)  # what the terminal answers a typed line is for the terminal alone
        elif isinstance(event, ev.Told) and self.own_screen(event.seat):
            if event.kind == ev.PROMPT:
                for line in self.secret_lines(event.seat):
                    self.note(line)
            self.note(event.text + (TYPING_HINT if event.kind == ev.PROMPT else ""))
        elif isinstance(event, ev.SceneChanged) and self.terminal is not None:
            # the table's scenes, not the board's animation frames: the screen changes only when the game does
            self.terminal.show(event.pixels, self.session.face.led_counts())

    def secret_lines(self, seat: int) -> list[str]:
        """What ``seat`` alone may see (its hand, its cards), in the face's words, one line a section."""
        from tablelight.web.places import secret_sections

        session = self.session
        label = session.table.seat_label(seat)
        lines = []
        for title, value in secret_sections(session.game, session.face, seat):
            text = ", ".join(value) if isinstance(value, list) else value
            lines.append(f"{label}, {title}: {text}" if text else f"{label}, {title}")
        return lines

    @property
    def live(self) -> bool:
        return self.terminal is not None and bool(self.terminal.live)

    def take_line(self, line: str) -> None:
        """A line typed at the terminal, for the seat to act."""
        assert self.typed is not None
        if self.live:
            self.typed.menu_size = max(3, self.terminal.history_rows() - 2)  # a numbered list fits under the board
        self.typed.handle(line)
        if self.live:
            self.terminal.typed()

    def tell(self, text: str) -> None:
        """Answer a typed line at the terminal alone."""
        if self.typed is not None:
            self.typed.tell(text)
        else:
            self.note(text)
