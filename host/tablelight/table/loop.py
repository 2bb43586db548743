"""The table on one asyncio loop: intents in as they come, the clock as the table asks for it.

:class:`TableLoop` is the driver ``tablelight play`` uses. Inputs call :meth:`TableLoop.handle`
(the board's key events, the terminal's lines, the pages' requests, all on the same loop), which
hands them to the table's one door and wakes :meth:`TableLoop.run`; ``run`` sleeps until the
table's next deadline (:meth:`Table.wake_at`: a bot's move, a flash ending) or the next input,
whichever comes first, then gives the table a :class:`Tick`. Nothing polls and nothing here
starts a thread, so the same driver runs a whole game in a single-threaded interpreter
(Pyodide in a browser). A search bot thinks in a process of its own where there are processes
(:mod:`tablelight.table.bot_process`), else in slices between the loop's other work.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any, TextIO

from tablelight.board.events import ConnectionChanged, KeyEvent, SceneConfirmed
from tablelight.core.search_bot import parse_search_name
from tablelight.table import events as ev
from tablelight.table.intents import Answer, BoardCaughtUp, BoardLink, Intent, Press, Tick
from tablelight.table.bot_process import BotProcess, processes_available
from tablelight.table.service import Table


class TableLoop:
    """Drives ``table`` on the running asyncio loop; see the module docstring."""

    def __init__(self, table: Table, bots_apart: bool | None = None) -> None:
        """``bots_apart``: search bots think in a process of their own (default: where there are
        processes; in Pyodide they think in slices on this loop)."""
        self.table = table
        self._wake: asyncio.Event | None = None
        self._bots: BotProcess | None = None
        if bots_apart if bots_apart is not None else processes_available():
            self._bots = BotProcess(on_decided=self.wake)
            table.think_apart = self._bots.thinking

    def handle(self, intent: Intent) -> Answer:
        """The table's one door, as its inputs use it: the answer now, the driver woken for what follows."""
        answer = self.table.handle(intent)
        self.wake()
        return answer

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def run(self, max_actions: int | None = None) -> None:
        """Play until the game is over (or ``max_actions`` more player actions were made)."""
        try:
            await self._run(max_actions)
        finally:
            if self._bots is not None:
                self._bots.close()  # a search under way is dropped with its worker

    async def _run(self, max_actions: int | None) -> None:
        table = self.table
        self._wake = asyncio.Event()
        start = table.actions_made()
        if self._bots is not None and any(parse_search_name(kind) is not None for kind in table.seats):
            self._bots.start()  # its imports take a while: before the first search, not during it
        table.refresh()
        table.prompt()
        while not table.game.is_over():
            if max_actions is not None and table.actions_made() - start >= max_actions:
                break
            self._wake.clear()
            table.handle(Tick())
            if table.game.is_over():
                break
            wake_at = table.wake_at()
            timeout = None if wake_at is None else max(0.0, wake_at - table.clock())
            if timeout == 0:
                await asyncio.sleep(0)  # a bot moves again at once: let the board and the pages run first
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        table.refresh()


class BoardPort:
    """A board session on the loop, joined to a table both ways.

    Its key presses, its going away and coming back and its confirmations enter the table as
    intents; the table's scenes and dice go to it. ``session`` is an
    :class:`~tablelight.board.aio.AsyncBoardSession` (or anything with its ``listen``, ``show``,
    ``dice`` and ``in_sync``).
    """

    def __init__(self, driver: TableLoop, session: Any) -> None:
        self.driver = driver
        self.session = session
        self.attached = True
        driver.table.waits_for_board = True
        driver.table.listen(self.on_table_event)
        session.listen(self.on_board_event)

    def detach(self) -> None:
        """Stop passing the board's events to this table (the session goes on, for another table)."""
        self.attached = False

    def on_table_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.SceneChanged):
            self.session.show(event.pixels)
        elif isinstance(event, ev.DiceRolled):
            self.session.dice(event.leds, event.values, color=event.color)

    def on_board_event(self, event: object) -> None:
        if not self.attached:
            return
        if isinstance(event, KeyEvent):
            if event.pressed:
                self.driver.handle(Press(event.key))
        elif isinstance(event, ConnectionChanged):
            self.driver.handle(BoardLink(event.connected))
        elif isinstance(event, SceneConfirmed) and self.session.in_sync():
            self.driver.handle(BoardCaughtUp())


def read_lines(stream: TextIO, on_line: Callable[[str], None], on_end: Callable[[], None] | None = None) -> Callable[[], None]:
    """Hand each line typed on ``stream`` to ``on_line`` on the running loop; returns how to stop.

    The loop watches the stream's file descriptor (no thread). A stream the loop cannot watch
    (a regular file) is read whole at once: its lines are all there already.
    """
    loop = asyncio.get_running_loop()
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        for line in stream:
            on_line(line)
        return lambda: None
    pending = bytearray()

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            stop()
            if pending:
                on_line(pending.decode(errors="replace"))
                pending.clear()
            if on_end is not None:
                on_end()
            return
        pending.extend(data)
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            on_line(line.decode(errors="replace") + "\n")

    def stop() -> None:
        try:
            loop.remove_reader(fd)
        except (ValueError, OSError):
            pass

    try:
        loop.add_reader(fd, readable)
    except (PermissionError, OSError, ValueError):  # a regular file: epoll cannot watch it
        for line in stream:
            on_line(line)
        return lambda: None
    return stop
