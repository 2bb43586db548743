"""A change counter that asyncio tasks can wait on: the pages' sockets wake when something changed."""

from __future__ import annotations

import asyncio


class Pulse:
    """``beat()`` when something changed; ``await wait(seen, timeout)`` until the count passes ``seen``.

    Lives on one event loop (the table's): ``beat`` is a plain call from a listener on that loop.
    """

    def __init__(self) -> None:
        self.count = 0
        self._event: asyncio.Event | None = None

    def beat(self) -> None:
        self.count += 1
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, seen: int, timeout: float | None = None) -> int:
        """The count once it differs from ``seen`` (or when ``timeout`` seconds passed)."""
        if self.count != seen:
            return self.count
        if self._event is None:
            self._event = asyncio.Event()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        return self.count
