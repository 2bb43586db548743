"""The polling driver: a table played by asking a board for its key presses (tools and tests).

``tablelight play`` drives its table on one asyncio loop (:mod:`tablelight.table.loop`), with the
board's events pushed to it. Tools that hold a blocking board session (the table bench, the
hardware tests) and tests with a fake board use this driver instead: :meth:`Table.run` and
:meth:`Table.step`. It turns what it reads from the board into the same intents.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tablelight.core.game import Game
from tablelight.table.intents import BoardCaughtUp, BoardLink, Press, Tick
from tablelight.table.seats import HUMAN

if TYPE_CHECKING:
    from tablelight.table.service import Table

#: How long a bot waits between asking whether the board shows the last move.
SYNC_WAIT_S = 0.02


class KeyEventLike(Protocol):
    @property
    def key(self) -> int: ...

    @property
    def pressed(self) -> bool: ...


class Board(Protocol):
    """What the polling driver needs of a board session."""

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


def step_polling(table: Table) -> None:
    """Read the board's state and presses once (waiting at most a poll interval) and hand them in."""
    board = table.board
    if board is not None:
        table.handle(BoardLink(board.connected))
        if table.board_behind and board.in_sync():
            table.handle(BoardCaughtUp())
    table.handle(Tick())
    seat = table.game.current_seat()
    if seat is None:
        return
    timeout = table.poll_interval
    wake = table.wake_at()
    if wake is not None:
        timeout = min(timeout, wake - table.clock())
    if table.board_behind and table.seats[seat] != HUMAN:
        timeout = min(timeout, SYNC_WAIT_S)  # a bot waits only for the board to show the last move
    timeout = max(0.0, timeout)
    if board is None:
        if timeout > 0:
            time.sleep(timeout)
        return
    for event in board.poll(timeout):
        if event.pressed:
            table.handle(Press(event.key))


def run_polling(table: Table, max_actions: int | None = None) -> Game:
    """Play until the game is over (or ``max_actions`` more player actions were made)."""
    start = table.actions_made()
    table.refresh()
    table.prompt()
    while not table.game.is_over():
        if max_actions is not None and table.actions_made() - start >= max_actions:
            break
        step_polling(table)
    table.refresh()
    return table.game
