"""What comes out of a table: typed events, pushed to whoever listens (board, terminal, pages, store).

A listener is any callable taking one event; :meth:`Table.listen` adds one. Each gets what
changed when it changes: nothing polls the table or parses another listener's words. A seat's
secrets travel only in :class:`Told` (for that seat); everything else is public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Pixel = tuple[int, int, int, int]

#: Kinds of words told to one seat. TERMINAL: the answer to something typed at the terminal (its
#: numbered list, the rules guide): for the terminal alone, so the pages ignore it.
PROMPT, FEEDBACK, TERMINAL = "prompt", "feedback", "terminal"


@dataclass(frozen=True)
class Said:
    """Public words for the whole table (the shared screen reads them); ``kind`` :data:`PROMPT` when
    they say what the seat to act may do now (the terminal adds how to type it)."""

    text: str
    kind: str = "feedback"
    #: The seat whose own words (a :class:`Told` just before) these stand in for on the shared
    #: screen ("red: see your own screen"), or None. A screen that is that seat's own shows the
    #: seat's words instead.
    instead_of: int | None = None


@dataclass(frozen=True)
class Told:
    """Words for one seat alone (its own screen): they may name its hidden cards.

    ``kind`` is :data:`PROMPT` (what to do now: a page that shows the prompt already clears
    earlier feedback), :data:`FEEDBACK` (what a press or a choice did, why it was refused) or
    :data:`TERMINAL` (an answer to what was typed at the shared terminal, for it alone: the pages
    ignore it; it holds nothing secret, since everyone sees the terminal).
    """

    seat: int
    text: str
    kind: str = FEEDBACK


@dataclass(frozen=True)
class ActionApplied:
    """An action entered the log: ``words`` are its public words, ``index`` its place in the log."""

    seat: int
    action: Any
    words: str
    index: int
    forced: bool = False


@dataclass(frozen=True)
class SceneChanged:
    """The board should show ``pixels`` now (one ``(r, g, b, effect)`` per LED)."""

    pixels: list[Pixel]


@dataclass(frozen=True)
class DiceRolled:
    """The board rolls dice on ``leds`` itself, landing on ``values``."""

    leds: list[int]
    values: list[int]
    color: tuple[int, int, int]


@dataclass(frozen=True)
class BoardAway:
    """The board went away: inputs wait until it is back (the game is saved)."""


@dataclass(frozen=True)
class BoardBack:
    """The board is back and shows the game again."""


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``words`` say the result; ``scores`` and ``winners`` as the engine has them."""

    words: str
    scores: Any
    winners: list[int]


Event = Said | Told | ActionApplied | SceneChanged | DiceRolled | BoardAway | BoardBack | GameOver
Listener = Callable[[Event], None]
