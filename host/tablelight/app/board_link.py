"""The board as the app's worker sees it: bytes from the page in, bytes to the page out.

Web Serial and Web Bluetooth are page APIs (a Web Worker cannot reach them), so the page owns
the device and the worker owns the protocol: :class:`PageBoard` drives the sans-I/O
:class:`~tablelight.board.protocol.BoardProtocol` (the handshake, scenes, keys, confirmations)
with the bytes the page hands it and the running asyncio loop's clock and timers, and gives the
page what to write (``write(bytes)``). It offers what a :class:`~tablelight.table.loop.BoardPort`
needs of a session (``listen``, ``show``, ``dice``, ``in_sync``), so the table drives a board in
the page exactly as ``tablelight play`` drives one on a serial port. A link that drops (the page
says so, or the board goes silent) is told to the table; the page reopens it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

from tablelight.board.events import (Connected, ConnectionChanged, Event, HandshakeFailed, KeyEvent, SceneConfirmed,
                                     Silent, WelcomeLost)
from tablelight.board.protocol import LEASE_MS, BoardProtocol

#: Seconds the handshake may take (the page has opened the port already).
HANDSHAKE_S = 5.0
TIMER_SLACK_S = 0.001


class PageBoard:
    """One board behind the page; ``write(data)`` sends bytes to it, ``on_state(text)`` tells the page how it is."""

    def __init__(self, write: Callable[[bytes], None], on_state: Callable[[str, str], None] | None = None,
                 layout: str | None = None) -> None:
        self.write = write
        self.on_state = on_state or (lambda state, words: None)
        self.protocol = BoardProtocol(port="the page's board", layout=layout, lease_ms=LEASE_MS, confirm_scenes=True)
        self.linked = False  # the page has an open port
        self.connected = False  # the board shook hands and is welcome
        self._listeners: list[Callable[[Any], None]] = []
        self._timer: asyncio.TimerHandle | None = None

    # --- what the page tells ------------------------------------------------------------------
    def link_opened(self) -> None:
        self.linked = True
        self.protocol.connection_made(time.monotonic(), HANDSHAKE_S)
        self.on_state("handshake", "shaking hands with the board")
        self._after([])

    def received(self, data: bytes) -> None:
        if self.linked:
            self._after(self.protocol.receive_bytes(bytes(data), time.monotonic()))

    def link_lost(self, reason: str) -> None:
        if not self.linked:
            return
        self.linked = False
        self.protocol.connection_lost()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._set_connected(False, reason)

    # --- what a BoardPort uses ----------------------------------------------------------------
    def listen(self, listener: Callable[[Any], None]) -> None:
        self._listeners.append(listener)

    def forget_listeners(self) -> None:
        """A new game takes the board over: the last game's port stops hearing it."""
        self._listeners.clear()

    def show(self, pixels: list[Any]) -> None:
        self.protocol.show(pixels, time.monotonic())
        self._after([])

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255)) -> None:
        self.protocol.dice(leds, values, color=color, now=time.monotonic())
        self._after([])

    def in_sync(self) -> bool:
        answer = self.protocol.in_sync(time.monotonic())
        self._after([])
        return answer

    # --- inside -------------------------------------------------------------------------------
    def _after(self, events: list[Event]) -> None:
        data = self.protocol.bytes_to_send()
        if data and self.linked:
            self.write(data)
        for event in events:
            if isinstance(event, (KeyEvent, SceneConfirmed)):
                self._tell(event)
            elif isinstance(event, Connected):
                self._set_connected(True, f"board with {self.protocol.hello.get('leds')} LEDs connected")
            elif isinstance(event, WelcomeLost):
                self._set_connected(False, event.reason)
            elif isinstance(event, Silent):
                self.link_lost(f"the board has been silent for {event.seconds:.1f} s")
            elif isinstance(event, HandshakeFailed):
                self.on_state("refused", event.reason)
                self.link_lost(event.reason)
        self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.protocol.next_deadline()
        if not self.linked or deadline == math.inf:
            return
        delay = max(0.0, deadline - time.monotonic()) + TIMER_SLACK_S
        self._timer = asyncio.get_event_loop().call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if self.linked:
            self._after(self.protocol.tick(time.monotonic()))

    def _set_connected(self, connected: bool, reason: str) -> None:
        if connected == self.connected:
            return
        self.connected = connected
        self.on_state("connected" if connected else "away", reason)
        self._tell(ConnectionChanged(connected, reason))

    def _tell(self, event: Any) -> None:
        for listener in list(self._listeners):
            listener(event)
