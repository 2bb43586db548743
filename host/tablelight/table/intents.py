"""What may enter a table: one typed intent per input, through :meth:`Table.handle` (the one door).

Every input the table takes is one of these values: a key of the board (or of the host page, or
named at the terminal), a whole action (a seat's page, a number from the terminal's list), part
of an action (a seat's page narrowing its choice), the board going away or coming back, and the
clock (a :class:`Tick`: bots move and flashes end on it). :meth:`Table.handle` checks each one
once, in one place (game over, the board, whose turn, the seat, the position it was chosen in),
then applies it and answers with an :class:`Answer`. Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Where a press or a choice came from (for the words a refusal uses; the gate is the same for all).
BOARD, HOST_PAGE, TERMINAL, SEAT_PAGE = "board", "host page", "terminal", "seat page"


@dataclass(frozen=True)
class Press:
    """A key went down: on the board, on the host page's drawing of it, or named at the terminal.

    It acts for the seat whose turn it is (the board is shared by everyone at the table).
    """

    key: int
    source: str = BOARD


@dataclass(frozen=True)
class Choose:
    """A whole action for ``seat``, chosen when the game's log had ``at`` entries.

    ``seat`` None acts for the seat to act (the shared terminal's numbered list); ``at`` None
    skips the staleness check (only for inputs that cannot be stale: none from outside).
    """

    action: Any
    seat: int | None = None
    at: int | None = None
    source: str = SEAT_PAGE


@dataclass(frozen=True)
class Narrow:
    """Part of an action (field -> value; ``{}`` forgets it) for the board to show as keys would."""

    chosen: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None
    at: int | None = None
    source: str = SEAT_PAGE


@dataclass(frozen=True)
class BoardLink:
    """The board went away (``connected`` False: unplugged, rebooting, silent) or came back."""

    connected: bool


@dataclass(frozen=True)
class BoardCaughtUp:
    """The board confirmed it shows the last scene sent: a bot may make the next move."""


@dataclass(frozen=True)
class Tick:
    """Time passed: a bot whose delay is over moves, flashes that are over end."""


Intent = Press | Choose | Narrow | BoardLink | BoardCaughtUp | Tick


@dataclass(frozen=True)
class Answer:
    """What the table did with an intent: ``done`` True when it was taken, and the words for whoever sent it."""

    done: bool
    words: str = ""
    #: The engine's rule id when the game refused an action (``farlander.conquer.too_weak``).
    rule: str | None = None
