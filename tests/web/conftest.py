"""A Mainland table for two people served by the real web server on the table's event loop (no board)."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
from tablelight.table.session import TableSession
from tablelight.web.table_web import TableWeb
from tablelight.web.tls import HttpsChoice


class NoBoard:
    connected = True

    def show(self, pixels: Any) -> None:
        pass

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int]) -> None:
        pass

    def in_sync(self) -> bool:
        return True

    def poll(self, timeout: float) -> list[Any]:
        return []


@dataclass
class Served:
    web: TableWeb
    table: Table
    base: str
    #: The table's event loop: a test acting on the table directly does it there (:meth:`call`).
    loop: asyncio.AbstractEventLoop
    #: The session the pages serve (its one request entry, play again).
    session: TableSession

    def call(self, job: Any) -> Any:
        """Run ``job()`` on the table's loop and return its result (the table is not thread-safe)."""

        async def run() -> Any:
            return job()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=15)

    @property
    def game(self) -> Mainland:
        return self.table.game  # type: ignore[return-value]

    def join(self, seat: int) -> str:
        """Join ``seat`` with its code: the device token."""
        import httpx

        code = self.web.access.pass_of(seat).code
        # a loaded machine's server may take longer than httpx's 5 s: the tests that time it are benchmarks
        answer = httpx.post(f"{self.base}/api/join", json={"code": code}, headers={"Origin": self.base}, timeout=30)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["device"])


class LoopThread:
    """An event loop in a thread of the test's: the table and its server live on it, as in ``play``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=15)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


@contextmanager
def serving(idle_timeout: int = 1, https: HttpsChoice | None = None, seats: tuple[str, ...] = ("human", "human")) -> Iterator[Served]:
    """A two-seat Mainland table (two people unless ``seats`` says) served until the block ends, on its
    own event loop (in a thread of the test's)."""
    session = TableSession(Mainland(2, seed=5), list(seats))  # no board: the seats move from their pages
    table = session.table
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> TableWeb:
        web = TableWeb(session, table.face.layout.data, lambda: [p[:3] for p in table.pixels()], lambda key: table.press(key),
                       idle_timeout=idle_timeout, out=io.StringIO(), https=https)
        return await web.start()

    web = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=15)
    try:
        yield Served(web, table, web.view.base_url, loop, session)
    finally:
        asyncio.run_coroutine_threadsafe(web.stop(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


@pytest.fixture
def served() -> Iterator[Served]:
    with serving() as table:
        yield table
