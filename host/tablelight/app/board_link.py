"""The board as the app's worker sees it: bytes from the page in, bytes to the page out.

Web Serial and Web Bluetooth are page APIs (a Web Worker cannot reach them), so the page owns
the device and the worker owns the protocol: :class:`PageBoard` drives the sans-I/O
:class:`~tablelight.board.protocol.BoardProtocol` (the handshake, scenes, keys, confirmations)
with the bytes the page hands it and the running asyncio loop's clock and timers, and gives the
page what to write (``write(bytes)``). It offers what a :class:`~tablelight.table.loop.BoardPort`
needs of a session (``listen``, ``show``, ``dice``, ``in_sync``), so the table drives a board in
the page exactly as ``tablelight play`` drives one on a serial port. A link that drops (the page
says so, or the board goes silent) is told to the table; the page reopens it. Over Bluetooth,
:meth:`PageBoard.forget` asks the board to forget the key the session proved (FORGET).
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from tablelight.board.events import (Connected, ConnectionChanged, Event, HandshakeFailed, KeyEvent, SceneConfirmed,
                                     Silent, WelcomeLost)
from tablelight.board.protocol import LEASE_MS, BoardProtocol
from tablelight.wire import auth, wire

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
        #: Over Bluetooth LE: the host key (None until paired) and the reader of the gate's frames
        #: (pairing, challenge-response) until the board accepts this host; None: the protocol's turn.
        self.key: bytes | None = None
        self._gate: wire.FrameReader | None = None
        self.bluetooth = False
        self._forget_timer: asyncio.TimerHandle | None = None

    # --- what the page tells ------------------------------------------------------------------
    def link_opened(self, bluetooth: bool = False, key_hex: str = "") -> None:
        """A port is open. Over Bluetooth LE the board first wants this host's proof of a paired key
        (``key_hex``), or, with none, a new key paired by a press on the board (docs/protocol.md)."""
        self.linked = True
        self.bluetooth = bool(bluetooth)
        if not bluetooth:
            self._start_protocol()
            return
        self._gate = wire.FrameReader()
        if key_hex:
            self.key = bytes.fromhex(key_hex)
            self.on_state("authenticating", "proving this browser's key to the board")
            self.write(auth.encode_auth_begin())
        else:
            self.key = secrets.token_bytes(wire.HOST_KEY_SIZE)
            self.on_state("pairing", "asking the board to pair (its pairing window must be open)")
            self.write(wire.encode_host_key(wire.MSG_PAIR, self.key))

    def received(self, data: bytes) -> None:
        if not self.linked:
            return
        if self._gate is not None:
            self._through_gate(bytes(data))
            return
        self._after(self.protocol.receive_bytes(bytes(data), time.monotonic()))

    def forget(self) -> bool:
        """Ask the board to forget the key this Bluetooth session proved (FORGET, no key on the air);
        its answer ends the session (state ``forgotten``, or ``refused`` with its reason). False
        when there is no such session (USB, or not connected): nothing is sent."""
        if not (self.linked and self.bluetooth and self.connected and self._gate is None):
            return False
        if self._timer is not None:  # the protocol stops here: the board's answer closes the session
            self._timer.cancel()
            self._timer = None
        self._gate = wire.FrameReader()
        self.on_state("forgetting", "asking the board to forget this browser")
        self.write(auth.encode_forget())
        self._forget_timer = asyncio.get_event_loop().call_later(HANDSHAKE_S, self._forget_unanswered)
        return True

    def _forget_unanswered(self) -> None:
        self._forget_timer = None
        if self.linked and self._gate is not None:
            reason = f"the board did not answer the forget in {HANDSHAKE_S:g} s"
            self.link_lost(reason)
            self.on_state("refused", reason)  # last: the page's word (link_lost says "away" first)

    def _start_protocol(self) -> None:
        self._gate = None
        self.protocol.connection_made(time.monotonic(), HANDSHAKE_S)
        self.on_state("handshake", "shaking hands with the board")
        self._after([])

    def _through_gate(self, data: bytes) -> None:
        assert self._gate is not None and self.key is not None
        for payload in self._gate.feed(data):
            try:
                kind = payload[0]
                if kind == auth.MSG_CHALLENGE:
                    version, nonce = auth.decode_challenge(payload)
                    if version != auth.AUTH_VERSION:
                        self._refused(f"the board speaks Bluetooth authentication {version}, this app {auth.AUTH_VERSION}")
                        return
                    self.write(auth.answer(self.key, nonce))
                elif kind == wire.MSG_PAIR_STATE:
                    state, code, text = wire.decode_pair_state(payload)
                    if state == wire.PAIR_WAITING:
                        names = " ".join(wire.PAIR_COLOURS[i][0] for i in code)
                        self.on_state("confirm", f"the board shows {names}: if it does, press any key on the board")
                    elif state == wire.PAIR_FORGOTTEN:
                        self.link_lost("the board forgot this browser")
                        self.on_state("forgotten", "the board forgot this browser's key: pair again to play on it")
                        return
                    elif state == wire.PAIR_ACCEPTED:
                        self.on_state("paired", self.key.hex())  # the page keeps the key (IndexedDB)
                        self._start_protocol()
                        return
                    else:
                        self._refused(f"the board refused this browser: {text}")
                        return
                elif kind == wire.MSG_BOARD_REFUSE:
                    self._refused(f"the board refused: {wire.decode_board_refuse(payload)}")
                    return
            except wire.WireError:
                continue

    def _refused(self, reason: str) -> None:
        self.on_state("refused", reason)
        self.link_lost(reason)

    def link_lost(self, reason: str) -> None:
        if not self.linked:
            return
        self.linked = False
        self._gate = None
        if self._forget_timer is not None:
            self._forget_timer.cancel()
            self._forget_timer = None
        self.protocol.connection_lost()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._set_connected(False, reason)

    # --- what a BoardPort uses ----------------------------------------------------------------
    @property
    def link_up(self) -> bool:
        """Whether the listeners were last told the board is connected (a table joined now starts so)."""
        return self.connected

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
        if data and self.linked and self._gate is None:
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
        if not self.linked or self._gate is not None or deadline == math.inf:
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
