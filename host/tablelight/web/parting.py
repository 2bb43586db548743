"""The host is stopping: every open page gets the last state before its socket closes.

The pages' sockets (:func:`tablelight.web.app.make_app`'s ``stream``) tell a :class:`Parting` that
they are open and whether they have sent their page the latest snapshot. When the host stops
(``tablelight play`` at the end of a bots-only game, or after the time it keeps the result up),
:meth:`Parting.flush` runs before the server closes anything: sockets stop pacing strangers'
pictures, send what they have not sent yet, and the server then closes them (each socket's close
frame follows its last message, and the server waits for the connections to end). Without it a
watcher's page could be left on a position a few moves before the end, saying the host is away.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

#: How long the host waits for its open pages to be sent their last state before it stops (seconds).
LAST_WORDS_S = 3.0


class Parting:
    """Open sockets, each with ``up_to_date()``: has it sent its page the latest snapshot?"""

    def __init__(self) -> None:
        #: True once the host is stopping: sockets no longer wait between pictures.
        self.leaving = False
        self._open: dict[object, Callable[[], bool]] = {}
        self._moved: asyncio.Event | None = None
        self._leave: asyncio.Event | None = None

    def opened(self, key: object, up_to_date: Callable[[], bool]) -> None:
        self._open[key] = up_to_date

    def closed(self, key: object) -> None:
        self._open.pop(key, None)
        self.moved()

    def moved(self) -> None:
        """A socket sent something (or closed): :meth:`flush` looks again."""
        if self._moved is not None:
            self._moved.set()

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds`` between two pictures, or less once the host is leaving."""
        if self.leaving:
            return
        if self._leave is None:
            self._leave = asyncio.Event()
        try:
            await asyncio.wait_for(self._leave.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    def behind(self) -> int:
        """How many open sockets have not sent their page the latest snapshot."""
        return sum(1 for up_to_date in list(self._open.values()) if not up_to_date())

    async def flush(self, timeout: float = LAST_WORDS_S) -> bool:
        """Once every open socket has sent its latest snapshot (True), or ``timeout`` seconds passed (False)."""
        self.leaving = True
        if self._leave is not None:
            self._leave.set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.behind():
            left = deadline - loop.time()
            if left <= 0:
                return False
            self._moved = asyncio.Event()
            try:
                await asyncio.wait_for(self._moved.wait(), left)
            except asyncio.TimeoutError:
                return False
        return True
