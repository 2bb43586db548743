"""Interim: the threaded BoardSession seen through the asyncio session's interface (to be replaced
by tablelight.board.aio.AsyncBoardSession)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, NamedTuple

POLL_S = 0.01


class ConnectionChanged(NamedTuple):
    connected: bool
    reason: str = ""


class SceneConfirmed(NamedTuple):
    version: int


class PolledSession:
    def __init__(self, session: Any) -> None:
        self.session = session
        self.hello = session.hello
        self.port = session.port
        self._listeners: list[Callable[[Any], None]] = []
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, port: str) -> PolledSession:
        from tablelight.board.session import BoardSession

        polled = cls(BoardSession.open(port))
        polled._task = asyncio.ensure_future(polled._pump())
        return polled

    @property
    def connected(self) -> bool:
        return bool(self.session.connected)

    def listen(self, callback: Callable[[Any], None]) -> None:
        self._listeners.append(callback)

    def _emit(self, event: Any) -> None:
        for callback in self._listeners:
            callback(event)

    async def _pump(self) -> None:
        connected = True
        synced = True
        while True:
            for event in self.session.poll(0):
                self._emit(event)
            if self.session.connected != connected:
                connected = self.session.connected
                self._emit(ConnectionChanged(connected))
            now_synced = self.session.in_sync()
            if now_synced and not synced:
                self._emit(SceneConfirmed(0))
            synced = now_synced
            await asyncio.sleep(POLL_S)

    def show(self, pixels: list[tuple[int, int, int, int]]) -> None:
        self.session.show(pixels)

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int]) -> None:
        self.session.dice(leds, values, color=color)

    def set_brightness(self, level: float) -> None:
        self.session.set_brightness(level)

    def in_sync(self) -> bool:
        return bool(self.session.in_sync())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self.session.close()
