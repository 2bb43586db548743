"""A Mainland table for two people served by the real web server (no board: a desk thread stands in
for the table's loop, ticking the desk as the board's poll would)."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
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

    @property
    def game(self) -> Mainland:
        return self.table.game  # type: ignore[return-value]

    def join(self, seat: int) -> str:
        """Join ``seat`` with its code: the device token."""
        import httpx

        code = self.web.access.pass_of(seat).code
        answer = httpx.post(f"{self.base}/api/join", json={"code": code}, headers={"Origin": self.base})
        assert answer.status_code == 200, answer.text
        return str(answer.json()["device"])


@contextmanager
def serving(idle_timeout: int = 1, https: HttpsChoice | None = None) -> Iterator[Served]:
    """A two-seat Mainland table served until the block ends, a thread ticking its desk."""
    game = Mainland(2, seed=5)
    table = Table(game, ["human", "human"], board=NoBoard())
    web = TableWeb(table, table.face.layout.data, lambda: [p[:3] for p in table.pixels()], lambda key: table.press(key),
                   idle_timeout=idle_timeout, out=io.StringIO(), https=https)
    stop = threading.Event()

    def desk_loop() -> None:  # the table's thread
        while not stop.is_set():
            web.tick()
            stop.wait(0.01)

    web.start()
    thread = threading.Thread(target=desk_loop, daemon=True)
    thread.start()
    try:
        yield Served(web, table, web.view.base_url)
    finally:
        stop.set()
        thread.join()
        web.stop()


@pytest.fixture
def served() -> Iterator[Served]:
    with serving() as table:
        yield table
