"""Typed input at the shared terminal: a person plays a human seat with no browser.

A line typed for the seat to act is one of:

* a place name as the terminal drawing labels it (Farlander: a territory id such as ``c2``),
  or a name of a board key (``confirm``, ``cancel``, a button's label) or ``key N``: the same
  key presses the board would send. Several may be given on one line (``c2 b1 b1 confirm``):
  they are pressed in order while the seat is still to act; when a press is refused, or the
  seat's turn ends with keys left over, those are not pressed and the seat is told which;
* ``?`` (or ``list``, ``menu``): a numbered list of the seat's legal actions in words
  (:meth:`GameFace.describe_action`), ``? WORD`` only those whose words hold ``WORD``. In a game
  whose choices name the seat's hidden cards the list is on the seat's own page only, unless the
  terminal is that seat's own screen (``own_screen``: a lone person, no phone joined);
* a number from the last list: that action, applied as it stands.

``help`` (at any time, whoever's turn it is) shows the game's rules guide (:meth:`GameFace.guide`):
its sections and the goal; ``help WORD`` the sections about ``WORD`` (``help raid``).

Keys and choices enter the table through its one door (``send``: :meth:`TableLoop.handle` or
:meth:`Table.handle`) as the intents a board or a page would send, on the table's own loop, so a
typed line and a key press never race. What the terminal answers (the list, the guide, why a
line was not taken) is a :class:`~tablelight.table.events.Told` of kind ``terminal``: for the
terminal alone, never a page (a phone is not sent a 30-line list typed for someone else).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelight.core.game import Action
from tablelight.table import events as ev
from tablelight.table.intents import TERMINAL, Answer, Choose, Intent, Press
from tablelight.table.service import Table

#: At most this many actions in one numbered list (``? WORD`` narrows a longer one).
MENU_SIZE = 30
MENU_WORDS = ("?", "list", "menu")
GUIDE_WORDS = ("help", "rules", "guide")
#: Told to the terminal in a game whose choices name the seat's hidden cards (the terminal is shared).
MENU_ON_PAGE = "your choices name your own hidden cards, so they are listed on your seat's page only"


def key_names(layout: dict[str, Any], face: Any) -> dict[str, int]:
    """Typed name -> key: the face's place names, then the drawing's labelled buttons and keyed LEDs.

    A label shared by several keys (Landover's ``sea``) names none of them: ``key N`` still works.
    """
    drawing = layout.get("drawing") or {}
    labelled: dict[str, set[int]] = {}
    for item in [*(drawing.get("buttons") or []), *(drawing.get("leds") or [])]:
        if isinstance(item.get("key"), int) and isinstance(item.get("label"), str):
            labelled.setdefault(item["label"].lower(), set()).add(item["key"])
    names = {label: next(iter(keys)) for label, keys in labelled.items() if len(keys) == 1}
    names.update({name.lower(): key for name, key in face.place_keys().items()})
    return names


class TypedInput:
    """Turns typed lines into presses or actions for the human seat to act (call from the table loop)."""

    def __init__(self, table: Table, layout: dict[str, Any], send: Callable[[Intent], Answer] | None = None,
                 own_screen: Callable[[int], bool] | None = None) -> None:
        self.table = table
        self.send = send or table.handle
        #: seat -> True when this terminal is that seat's own screen (a lone person at the table with no
        #: phone joined): its choices are listed here even when they name its hidden cards.
        self.own_screen = own_screen or (lambda seat: False)
        self.names = key_names(layout, table.face)
        self.keys = int(layout.get("keys") or 0)
        #: The last numbered list shown, and the game's log length it was made for.
        self.menu: list[Action] = []
        self.menu_at = -1
        #: At most this many choices in one numbered list (a small screen shows fewer).
        self.menu_size = MENU_SIZE

    def help_words(self) -> str:
        named = sorted(self.table.face.place_keys())
        where = f"a place ({named[0]}..{named[-1]}), " if named else ""
        buttons = [name for name in self.names if name not in set(map(str.lower, named))]
        listed = ", ".join(buttons[:6]) + (", ..." if len(buttons) > 6 else "")
        keys = f"a key name ({listed + ', ' if listed else ''}key N)"
        return f"type {where}{keys}, several in a row, ? for a numbered list of your choices, or help for the rules"

    def tell(self, text: str, seat: int | None = None) -> None:
        """Answer at the terminal alone (a :class:`Told` of kind ``terminal``; -1: no seat to act)."""
        self.table.emit(ev.Told(-1 if seat is None else seat, text, ev.TERMINAL))

    def handle(self, line: str) -> None:
        table = self.table
        text = line.strip().lower()
        words = text.split()
        if words and words[0] in GUIDE_WORDS:  # the rules: any time, whoever's turn it is
            self.tell(self.guide_words(" ".join(words[1:])), table.game.current_seat())
            return
        seat, refusal = table.check(Press(-1, TERMINAL))  # the same gate every input passes
        if seat is None:
            self.tell(refusal)
            return
        if not words or words[0] in MENU_WORDS:
            self.show_menu(seat, " ".join(words[1:]))
            return
        if text.isdigit():
            self.choose(seat, int(text))
            return
        named = self.named_keys(text)
        if isinstance(named, str):
            self.tell(named, seat)
            return
        parts = [word for _, word in named]
        for index, (key, _) in enumerate(named):
            answer = self.send(Press(key, TERMINAL))
            rest = parts[index + 1:]
            if not rest:
                return
            if not answer.done:  # the table said why; the keys after it were meant to follow it
                self.tell(f"not pressed: {' '.join(rest)}", seat)
                return
            now = table.game.current_seat()
            if now != seat:
                whose = "the game is over" if now is None else f"it is {table.seat_label(now)}'s turn now"
                self.tell(f"your move was taken; not pressed: {' '.join(rest)} ({whose}: one move per turn)", seat)
                return

    def parse_keys(self, text: str) -> list[int] | str:
        """The keys ``text`` names, or why it names none (nothing is pressed then)."""
        named = self.named_keys(text)
        return named if isinstance(named, str) else [key for key, _ in named]

    def named_keys(self, text: str) -> list[tuple[int, str]] | str:
        """(key, the words naming it) for each key ``text`` names, or why it names none."""
        keys: list[tuple[int, str]] = []
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if part in self.names:
                keys.append((self.names[part], part))
                continue
            words = part.split()
            index = 0
            while index < len(words):
                word = words[index]
                if word == "key" and index + 1 < len(words) and words[index + 1].isdigit():
                    key = int(words[index + 1])
                    if not 0 <= key < self.keys:
                        return f"no key {key}: this board has keys 0-{self.keys - 1}"
                    keys.append((key, f"key {key}"))
                    index += 2
                    continue
                if word not in self.names:
                    return f"{word!r} names nothing here: {self.help_words()}"
                keys.append((self.names[word], word))
                index += 1
        return keys

    def show_menu(self, seat: int, narrow: str) -> None:
        face, game = self.table.face, self.table.game
        private = face.words_private(seat)
        if private is None:
            private = self.table.secret_words
        if private and not self.own_screen(seat):  # the terminal is shared: a list of this seat's choices would show its hidden cards
            self.menu = []
            hint = self.table.join_hint(seat) if self.table.join_hint is not None else ""
            self.tell(f"{self.table.seat_label(seat)}: {MENU_ON_PAGE}" + (f" ({hint})" if hint else ""), seat)
            return
        keyed = face.candidates()  # what the board's keys left, like a seat's page lists
        # on the seat's own screen, its choices in its own words (they may name its hidden cards), as its page lists them
        words_for = face.action_words if private else face.describe_action
        choices = [(action, words_for(action)) for action in (face.legal_now() if keyed is None else keyed)]
        if narrow:
            choices = [(a, words) for a, words in choices if narrow in words.lower()]
        if not choices:
            self.menu = []
            self.tell(f"no choice matches {narrow!r}: type ? for all of them", seat)
            return
        shown = choices[: self.menu_size]
        self.menu = [action for action, _ in shown]
        self.menu_at = len(game.log)
        lines = [f"{number:>3}. {words}" for number, (_, words) in enumerate(shown, 1)]
        more = len(choices) - len(shown)
        tail = f"\n  ... {more} more: type ? and a word (a place name) to narrow the list" if more else ""
        self.tell("type a number to choose:\n" + "\n".join(lines) + tail, seat)

    def choose(self, seat: int, number: int) -> None:
        table = self.table
        if not self.menu or self.menu_at != len(table.game.log):
            self.tell("type ? first for a numbered list of your choices", seat)
            return
        if not 1 <= number <= len(self.menu):
            self.tell(f"no choice {number}: type 1-{len(self.menu)}, or ? for the list again", seat)
            return
        action = self.menu[number - 1]
        self.menu = []
        self.send(Choose(action, seat=seat, at=self.menu_at, source=TERMINAL))

    def guide_words(self, about: str) -> str:
        """The rules guide at the terminal: the sections and the goal, or the sections about ``about``."""
        game = self.table.game.name
        sections = self.table.face.guide()
        if not sections:
            return f"{game} has no rules guide yet: see docs/rules/{game}.md"
        titles = ", ".join(title for title, _ in sections)
        if not about:
            title, text = sections[0]
            return f"how to play {game} (sections: {titles}; type help WORD for one)\n{title}: {text}"
        found = [s for s in sections if about in s[0].lower()] or [s for s in sections if about in s[1].lower()]
        if not found:
            return f"the {game} guide says nothing about {about!r}; its sections: {titles}"
        return "\n".join(f"{title}: {text}" for title, text in found)
