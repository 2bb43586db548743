"""BoardSession: a board session for tools, driven by a thread of its own.

The protocol (keys and their acks, scenes, heartbeats, silence, re-handshakes) is
:class:`~tablelight.board.protocol.BoardProtocol`, without I/O; this is its threaded driver: a
background thread reads the link, feeds the protocol, writes what it answers and reconnects with
backoff after an unplug or a silent board, so callers only ``show`` what the board should look
like and ``poll`` for keys. Test benches, hardware tests and ``tablelight flash`` use it;
``tablelight play`` runs the same protocol on its event loop (board/aio.py).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from tablelight.board import scene
from tablelight.board.errors import BoardError
from tablelight.board.events import Connected, Event, HandshakeFailed, KeyEvent, Reply, Silent
from tablelight.board.handshake import LONGEST_READ_S
from tablelight.board.protocol import LEASE_MS, SILENT_S, BoardProtocol
from tablelight.board.readings import ProtocolReadings
from tablelight.links.base import Link, LinkClosed
from tablelight.wire import wire

__all__ = ["EVENT_QUEUE", "LEASE_MS", "REPLY_QUEUE", "SILENT_S", "BoardSession", "BoardSilent", "KeyEvent"]

log = logging.getLogger(__name__)

READ_SLICE_S = 0.02
RECONNECT_BACKOFF_S = (0.1, 0.2, 0.5, 1.0, 2.0)
EVENT_QUEUE = 256  # key events not yet polled; past it the board keeps them (no ack) and re-sends
REPLY_QUEUE = 4  # unanswered STATUS/LOOP_REPLY frames kept for status()/loopback(); older ones go

Pixel = scene.Pixel


class BoardSilent(BoardError):
    """The board answered nothing for :data:`SILENT_S`: taken for gone until it says hello again."""


class BoardSession(ProtocolReadings):
    """A handshaken session with one board. Open with :meth:`open`; thread-safe."""

    def __init__(self, port: str, link_factory: Callable[[str], Link], timeout: float,
                 layout: str | None = None) -> None:
        self.port = port
        self.layout = layout
        self.timeout = timeout
        self._link_factory = link_factory
        self._link: Link | None = None
        self._lock = threading.RLock()  # the protocol and the link's writes
        self._protocol = BoardProtocol(port=port, layout=layout, lease_ms=LEASE_MS)
        self._events: queue.Queue[KeyEvent] = queue.Queue(EVENT_QUEUE)
        self._replies: queue.Queue[bytes] = queue.Queue(REPLY_QUEUE)
        self._awaiting: int | None = None  # the reply kind status()/loopback() waits for
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, port: str, *, timeout: float = 5.0, link_factory: Callable[[str], Link] | None = None,
             layout: str | None = None) -> BoardSession:
        """Open a serial port (a device path or any pyserial URL; ``ble://ADDRESS`` for Bluetooth
        LE), handshake, return a session. Raises BoardError with a readable reason. With
        ``layout``, a board of another layout is refused (and told why)."""
        if link_factory is None:
            from tablelight.links.connect import open_link

            link_factory = open_link
        session = cls(port, link_factory, timeout, layout)
        try:
            session._connect(timeout)
        except LinkClosed as error:
            raise BoardError(str(error)) from error
        session._thread = threading.Thread(target=session._run, daemon=True, name=f"board {port}")
        session._thread.start()
        return session

    def _connect(self, timeout: float) -> None:
        """Open the link and shake hands. Raises BoardError or LinkClosed (and closes the link)."""
        self._protocol.lease_ms = LEASE_MS  # read now: tests shorten it
        link = self._link_factory(self.port)
        try:
            link.reset_input()
            with self._lock:
                self._link = link
                self._protocol.connection_made(time.monotonic(), timeout)
                self._flush(link)
            while not self._protocol.connected:
                now = time.monotonic()
                wait = min(LONGEST_READ_S, max(0.0, self._protocol.next_deadline() - now))
                self._step(link, link.read(wait))
        except BaseException:
            self._drop_link(link)
            raise

    # --- the background thread ----------------------------------------------------------------
    def _run(self) -> None:
        backoff = 0
        while not self._stop.is_set():
            link = self._link
            if link is None:
                delay = RECONNECT_BACKOFF_S[min(backoff, len(RECONNECT_BACKOFF_S) - 1)]
                if self._stop.wait(delay):
                    return
                try:
                    self._connect(1.0)
                    backoff = 0
                    log.info("board on %s is back (boot id %08x)", self.port, self.hello.get("boot_id", 0))
                except (BoardError, LinkClosed) as error:
                    backoff += 1
                    log.debug("reconnect to %s failed: %s", self.port, error)
                continue
            try:
                self._step(link, link.read(READ_SLICE_S))
            except (LinkClosed, BoardError) as error:
                log.info("lost the board on %s: %s", self.port, error)
                self._drop_link(link)
            except Exception:  # a bug must not silently end the session: log it and start over
                log.exception("unexpected error on the link to %s; reconnecting", self.port)
                self._drop_link(link)

    def _step(self, link: Link, data: bytes) -> None:
        """Feed what ``link`` read and the time to the protocol, write its answer, deliver its
        events. BoardError when the protocol gives the board up (silent, handshake failed)."""
        with self._lock:
            if self._link is not link:
                raise LinkClosed(f"{self.port}: the link was closed")
            now = time.monotonic()
            self._protocol.key_room = EVENT_QUEUE - self._events.qsize()
            events = self._protocol.receive_bytes(data, now) if data else []
            events += self._protocol.tick(now)
            self._flush(link)
        for event in events:
            self._deliver(event)

    def _deliver(self, event: Event) -> None:
        if isinstance(event, KeyEvent):
            self._events.put_nowait(event)  # the protocol took no more than there was room for
        elif isinstance(event, Reply):
            if event.kind != self._awaiting:
                return
            try:
                self._replies.put_nowait(event.payload)
            except queue.Full:  # a board answering more than we asked: the oldest answers go
                self._replies.get_nowait()
                self._replies.put_nowait(event.payload)
        elif isinstance(event, Silent):
            raise BoardSilent(f"the board has been silent for {event.seconds:.1f} s")
        elif isinstance(event, HandshakeFailed):
            raise BoardError(event.reason)
        elif isinstance(event, Connected):
            log.debug("board on %s: welcome confirmed", self.port)

    def _flush(self, link: Link) -> None:
        """Write what the protocol has to send (lock held)."""
        data = self._protocol.bytes_to_send()
        if data:
            link.write(data)

    def _send(self, act: Callable[[float], None]) -> None:
        """Run ``act(now)`` on the protocol and write what it sends; a lost link is the reader
        thread's to notice (it reconnects, and the scene goes again then)."""
        with self._lock:
            act(time.monotonic())
            link = self._link
            if link is None:
                self._protocol.bytes_to_send()
                return
            try:
                self._flush(link)
            except LinkClosed:
                pass

    def _drop_link(self, link: Link) -> None:
        with self._lock:
            if self._link is link:
                self._link = None
                self._protocol.connection_lost()
        link.close()

    # --- the contract -------------------------------------------------------------------------
    def show(self, pixels: list[Pixel]) -> None:
        """The full desired look: one (r, g, b, effect) per LED; effect 0 solid, 1 blink, 2 pulse.
        Sends a delta when it is smaller than a full scene; after a reconnect or a reboot the whole
        scene goes again."""
        self._send(lambda now: self._protocol.show(pixels, now))

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255),
             roll_ms: int = 900, hold_ms: int = 2500) -> None:
        """The board animates a roll on ``leds`` (split evenly between the dice) landing on ``values``."""
        self._send(lambda now: self._protocol.dice(leds, values, color=color, roll_ms=roll_ms, hold_ms=hold_ms,
                                                   now=now))

    def set_brightness(self, level: float) -> None:
        """0.0-1.0 of full brightness (the board's current limiter still applies)."""
        self._send(lambda now: self._protocol.set_brightness(level, now))

    def poll(self, timeout: float) -> list[KeyEvent]:
        """Key events within ``timeout`` s (each exactly once, in order); [] on timeout."""
        try:
            first = self._events.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return []
        events = [first]
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    def in_sync(self) -> bool:
        """Whether the board has confirmed it shows the latest scene we sent (its STATUS carries
        the version). When not yet, asks it (at most every 50 ms) and says False: a caller about
        to make the next move waits, so no move is played that the board did not show."""
        answer = False

        def ask(now: float) -> None:
            nonlocal answer
            answer = self._protocol.in_sync(now)

        self._send(ask)
        return answer

    def status(self, timeout: float = 2.0) -> dict[str, Any]:
        """The board's STATUS (scene version, limiter, frame counters, ...)."""
        reply = self._request(self._protocol.ask_status, wire.MSG_STATUS, timeout)
        return wire.decode_status(reply)

    def loopback(self, data: bytes, timeout: float = 2.0) -> bytes:
        """Send ``data`` to the board and return its echo."""
        # An echo answers its own request only: a stale one still in flight carries other bytes.
        reply = self._request(lambda now: self._protocol.ask_loopback(data, now), wire.MSG_LOOP_REPLY, timeout,
                              lambda r: r[1:] == data)
        return reply[1:]

    def _request(self, ask: Callable[[float], None], kind: int, timeout: float,
                 is_answer: Callable[[bytes], bool] = lambda r: True) -> bytes:
        with self._lock:
            while not self._replies.empty():
                self._replies.get_nowait()
            self._awaiting = kind
            self._send(ask)
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    reply = self._replies.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    raise BoardError(f"no reply from the board on {self.port} within {timeout:g} s") from None
                if reply[0] == kind and is_answer(reply):
                    return reply
        finally:
            self._awaiting = None

    def test_key(self, key: int, pressed: bool) -> None:
        """Inject a key press or release as if from the board's keypad (TEST_KEY; only a board
        with TL_TEST_INPUT = 1 takes it, others answer ERROR 6 in :attr:`errors`). For test benches."""
        self._send(lambda now: self._protocol.test_key(key, pressed, now))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        with self._lock:
            link, self._link = self._link, None
            self._protocol.connection_lost()
        if link is not None:
            link.close()

    def __enter__(self) -> BoardSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what only this driver holds (the protocol's readings: ProtocolReadings) -------------
    @property
    def reading(self) -> bool:
        """Whether the thread that reads the board is running."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def unread_replies(self) -> int:
        """Replies to status or loopback requests kept for a caller (none unless one waits)."""
        return self._replies.qsize()

    @property
    def unpolled_keys(self) -> int:
        """Key events received and not yet taken by :meth:`poll`."""
        return self._events.qsize()
