"""AsyncBoardSession: the board protocol (board/protocol.py) driven on an asyncio event loop.

What ``tablelight play`` runs: no thread of ours. A serial device, a pty or ``socket://`` is read
by the loop itself (``loop.add_reader`` on the port's file descriptor, non-blocking writes); a
transport that only offers blocking calls (Bluetooth LE's :class:`~tablelight.links.ble.BleLink`,
which runs bleak on a loop of its own, ``loop://``, a test's link) is read in the loop's executor.
Listeners get :class:`KeyEvent`, :class:`ConnectionChanged` and :class:`SceneConfirmed` on the
loop; the board is reconnected with backoff after a loss (handshake again, then the whole scene).
A link an outside driver owns is one more pump (:meth:`AsyncBoardSession.pumped`): the app's page
holds the Web Serial or Web Bluetooth port and hands the bytes in and out
(:class:`tablelight.app.board_link.PageBoard`); it reopens the link itself.

    session = await AsyncBoardSession.open(port)
    session.listen(on_event)
    session.show(pixels)
    await session.close()
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from typing import Protocol

from tablelight.board import scene
from tablelight.board.errors import BoardError
from tablelight.board.events import (Connected, ConnectionChanged, Event, HandshakeFailed, KeyEvent, SceneConfirmed,
                                     Silent, WelcomeLost)
from tablelight.board.protocol import LEASE_MS, BoardProtocol
from tablelight.board.readings import ProtocolReadings
from tablelight.links.base import Link, LinkClosed

__all__ = ["RECONNECT_BACKOFF_S", "AsyncBoardSession", "ConnectionChanged", "KeyEvent", "SceneConfirmed", "SessionEvent"]

log = logging.getLogger(__name__)

RECONNECT_BACKOFF_S = (0.1, 0.2, 0.5, 1.0, 2.0)
BLOCKING_READ_S = 0.05  # a blocking link's read in the executor returns at least this often
READ_SIZE = 65536
TIMER_SLACK_S = 0.001
EARLY_EVENTS = 256  # events kept for the first listener (a key the board sent with the handshake)

Pixel = scene.Pixel
SessionEvent = KeyEvent | ConnectionChanged | SceneConfirmed
Listener = Callable[[SessionEvent], None]


class _Pump(Protocol):
    """A link running on the loop: it calls back with what it read, or with why it is gone."""

    def write(self, data: bytes) -> None: ...

    async def close(self) -> None: ...


class _FdPump:
    """A link whose file descriptor the loop watches (serial device, pty, socket): no thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, link: Link, fd: int, on_data: Callable[[bytes], None],
                 on_lost: Callable[[str], None]) -> None:
        self._loop = loop
        self._link = link
        self._fd = fd
        self._on_data = on_data
        self._on_lost = on_lost
        self._pending = bytearray()  # written while the port's buffer was full
        self._open = True
        os.set_blocking(fd, False)
        loop.add_reader(fd, self._readable)  # NotImplementedError on loops without it (Windows' proactor)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._lost(f"{self._link.name}: {error}")
            return
        if not data:
            self._lost(f"{self._link.name}: the port was closed")
            return
        self._on_data(data)

    def write(self, data: bytes) -> None:
        if not self._open:
            return
        if self._pending:
            self._pending += data
            return
        try:
            written = os.write(self._fd, data)
        except (BlockingIOError, InterruptedError):
            written = 0
        except OSError as error:
            self._lost(f"{self._link.name}: {error}")
            return
        if written < len(data):
            self._pending += data[written:]
            self._loop.add_writer(self._fd, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self._fd, self._pending)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._lost(f"{self._link.name}: {error}")
            return
        del self._pending[:written]
        if not self._pending:
            self._loop.remove_writer(self._fd)

    def _lost(self, reason: str) -> None:
        if self._open:
            self._stop()
            self._on_lost(reason)

    def _stop(self) -> None:
        if self._open:
            self._open = False
            self._loop.remove_reader(self._fd)
            self._loop.remove_writer(self._fd)

    async def close(self) -> None:
        self._stop()
        self._link.close()


class _BlockingPump:
    """A link with blocking calls only, read and written in the loop's executor (in order)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, link: Link, on_data: Callable[[bytes], None],
                 on_lost: Callable[[str], None]) -> None:
        self._loop = loop
        self._link = link
        self._on_data = on_data
        self._on_lost = on_lost
        self._open = True
        self._writes: asyncio.Queue[bytes] = asyncio.Queue()
        self._tasks = [loop.create_task(self._read_forever()), loop.create_task(self._write_forever())]

    async def _read_forever(self) -> None:
        while self._open:
            try:
                data = await self._loop.run_in_executor(None, self._link.read, BLOCKING_READ_S)
            except LinkClosed as error:
                self._lost(str(error))
                return
            if data and self._open:
                self._on_data(data)

    async def _write_forever(self) -> None:
        while True:
            data = await self._writes.get()
            try:
                await self._loop.run_in_executor(None, self._link.write, data)
            except LinkClosed as error:
                self._lost(str(error))
                return

    def write(self, data: bytes) -> None:
        if self._open:
            self._writes.put_nowait(data)

    def _lost(self, reason: str) -> None:
        if self._open:
            self._open = False
            self._on_lost(reason)

    async def close(self) -> None:
        self._open = False
        for task in self._tasks:
            if task is not asyncio.current_task():
                task.cancel()
        await self._loop.run_in_executor(None, self._link.close)


def _default_link(port: str) -> Link:
    from tablelight.links.connect import open_link

    return open_link(port)


class AsyncBoardSession(ProtocolReadings):
    """A handshaken session with one board, on the running event loop. Open with :meth:`open`.
    Its methods are called on the loop; none of them blocks."""

    def __init__(self, port: str, link_factory: Callable[[str], Link] | None, timeout: float,
                 layout: str | None = None, *, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.port = port
        self.layout = layout
        self.timeout = timeout
        self._link_factory = link_factory
        self._protocol = BoardProtocol(port=port, layout=layout, lease_ms=LEASE_MS, confirm_scenes=True)
        self._loop = loop or asyncio.get_running_loop()
        #: With an outside driver's pump (:meth:`pumped`): told when its link drops (reason, whether
        #: the board refused), and no reconnect of our own.
        self._on_drop: Callable[[str, bool], None] | None = None
        self._held = False  # an outside driver holds the link for a while (no protocol timers)
        self._pump: _Pump | None = None
        self._listeners: list[Listener] = []
        self._early: list[SessionEvent] = []  # events before anyone listened
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = float("inf")
        self._shaking: asyncio.Future[None] | None = None  # the handshake of _connect, until it ends
        self._reconnecting: asyncio.Task[None] | None = None
        self._announced = False  # what listeners were last told: connected or not
        self._closed = False
        self._closing: set[asyncio.Task[None]] = set()  # links being closed after a loss

    # --- opening and closing ------------------------------------------------------------------
    @classmethod
    async def open(cls, port: str, *, timeout: float = 5.0, link_factory: Callable[[str], Link] | None = None,
                   layout: str | None = None) -> AsyncBoardSession:
        """Open a serial port (a device path or any pyserial URL; ``ble://ADDRESS`` for Bluetooth
        LE), handshake, return a session. BoardError with a readable reason. With ``layout``, a
        board of another layout is refused (and told why)."""
        session = cls(port, link_factory, timeout, layout)
        await session._connect(timeout)
        session._announced = True
        return session

    @classmethod
    def pumped(cls, port: str, on_drop: Callable[[str, bool], None], *, layout: str | None = None,
               timeout: float = 5.0) -> AsyncBoardSession:
        """A session whose link an outside driver opens and pumps (the app's page: Web Serial and Web
        Bluetooth are page APIs): it calls :meth:`pump_opened` with a transport (``write(data)``,
        ``async close()``), :meth:`pump_received` with each read and :meth:`pump_closed` when the link
        is gone. The session shakes hands, keeps time and tells ``on_drop(reason, refused)`` when it
        drops the link itself (silence, a refused handshake); the outside driver reopens it."""
        session = cls(port, None, timeout, layout, loop=asyncio.get_event_loop())
        session._on_drop = on_drop
        return session

    def pump_opened(self, pump: _Pump) -> None:
        """The outside driver's link is open: shake hands over ``pump``."""
        self._pump = pump
        self._held = False
        self._protocol.lease_ms = LEASE_MS
        self._protocol.connection_made(time.monotonic(), self.timeout)
        self._after([])

    def pump_received(self, data: bytes) -> None:
        if self._pump is not None and not self._held:
            self._on_data(data)

    def pump_closed(self, reason: str) -> None:
        """The outside driver's link is gone (closed, unplugged, or taken for something else)."""
        self._lose(reason)

    def hold(self) -> None:
        """The outside driver uses the link for a while (Bluetooth's forget): no more protocol timers,
        reads or writes until it is closed."""
        self._held = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer, self._timer_at = None, float("inf")

    async def _open_link(self) -> Link:
        factory = self._link_factory or _default_link
        try:
            if self.port.startswith("ble://"):  # BleLink connects (seconds) before it returns
                link = await self._loop.run_in_executor(None, factory, self.port)
            else:
                link = factory(self.port)
            link.reset_input()
            return link
        except LinkClosed as error:
            raise BoardError(str(error)) from error

    def _start_pump(self, link: Link) -> _Pump:
        fileno = getattr(link, "fileno", None)
        fd = fileno() if callable(fileno) else None
        if isinstance(fd, int):
            try:
                return _FdPump(self._loop, link, fd, self._on_data, self._on_lost)
            except NotImplementedError:  # a loop that cannot watch descriptors: the executor reads
                pass
        return _BlockingPump(self._loop, link, self._on_data, self._on_lost)

    async def _connect(self, timeout: float) -> None:
        """Open the link and shake hands; BoardError (the link closed) if that fails."""
        link = await self._open_link()
        if self._closed:
            link.close()
            raise BoardError(f"{self.port}: the session was closed")
        shaking: asyncio.Future[None] = self._loop.create_future()
        self._shaking = shaking
        self._pump = self._start_pump(link)
        self._protocol.lease_ms = LEASE_MS
        self._protocol.connection_made(time.monotonic(), timeout)
        self._after([])
        try:
            await shaking
        except BaseException:
            await self._drop()
            raise
        finally:
            self._shaking = None

    async def close(self) -> None:
        """Stop reconnecting and close the link."""
        self._closed = True
        if self._reconnecting is not None and self._reconnecting is not asyncio.current_task():
            self._reconnecting.cancel()
        await self._drop()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    async def _drop(self) -> None:
        pump = self._detach()
        if pump is not None:
            await pump.close()

    def _detach(self) -> _Pump | None:
        """Stop using the link (the caller closes it): no more reads, writes or timers."""
        pump, self._pump = self._pump, None
        self._protocol.connection_lost()
        if self._timer is not None:
            self._timer.cancel()
            self._timer, self._timer_at = None, float("inf")
        return pump

    # --- the loop's calls ---------------------------------------------------------------------
    def _on_data(self, data: bytes) -> None:
        self._after(self._protocol.receive_bytes(data, time.monotonic()))

    def _on_timer(self) -> None:
        self._timer, self._timer_at = None, float("inf")
        self._after(self._protocol.tick(time.monotonic()))

    def _on_lost(self, reason: str) -> None:
        self._lose(reason)

    def _after(self, events: list[Event]) -> None:
        """Write what the protocol sends, act on its events, set the timer for its next deadline."""
        data = self._protocol.bytes_to_send()
        if data and self._pump is not None:
            self._pump.write(data)
        for event in events:
            if isinstance(event, (KeyEvent, SceneConfirmed)):
                self._tell(event)
            elif isinstance(event, Connected):
                if self._shaking is not None and not self._shaking.done():
                    self._shaking.set_result(None)
                elif self._on_drop is not None:  # an outside driver's link: shaken hands
                    self._announce(True, f"board with {self.hello.get('leds')} LEDs connected")
                else:  # a handshake again on the same link, after the board rebooted
                    self._announce(True, "the board shook hands again")
            elif isinstance(event, WelcomeLost):
                self._announce(False, event.reason)
            elif isinstance(event, Silent):
                self._lose(f"the board has been silent for {event.seconds:.1f} s")
            elif isinstance(event, HandshakeFailed):
                self._lose(event.reason, refused=True)
        self._schedule()

    def _schedule(self) -> None:
        if self._pump is None or self._held:
            return
        deadline = self._protocol.next_deadline()
        if deadline >= self._timer_at:
            return  # the timer set fires first; its tick sets the next one
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = deadline
        # a little late rather than early: a timer that fires before the deadline finds nothing to do
        self._timer = self._loop.call_later(max(0.0, deadline - time.monotonic()) + TIMER_SLACK_S, self._on_timer)

    def _lose(self, reason: str, refused: bool = False) -> None:
        """The link is gone (or given up): drop it, tell the listeners, reconnect with backoff (an
        outside driver's link: tell it, it reopens the link)."""
        if self._pump is None:
            return
        log.info("lost the board on %s: %s", self.port, reason)
        pump = self._detach()
        if self._on_drop is not None:
            self._announce(False, reason)
            self._on_drop(reason, refused)
            return
        if pump is not None:
            closing = self._loop.create_task(pump.close())
            self._closing.add(closing)  # kept until done: the loop holds tasks weakly
            closing.add_done_callback(self._closing.discard)
        if self._shaking is not None and not self._shaking.done():
            self._shaking.set_exception(BoardError(reason))
            return  # the handshake's caller decides what comes next
        self._announce(False, reason)
        if not self._closed and (self._reconnecting is None or self._reconnecting.done()):
            self._reconnecting = self._loop.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        backoff = 0
        while not self._closed:
            await asyncio.sleep(RECONNECT_BACKOFF_S[min(backoff, len(RECONNECT_BACKOFF_S) - 1)])
            try:
                await self._connect(1.0)
            except BoardError as error:
                backoff += 1
                log.debug("reconnect to %s failed: %s", self.port, error)
                continue
            log.info("board on %s is back (boot id %08x)", self.port, self.hello.get("boot_id", 0))
            self._announce(True, "the board is back")
            return

    def _announce(self, connected: bool, reason: str) -> None:
        if connected != self._announced:
            self._announced = connected
            self._tell(ConnectionChanged(connected, reason))

    def _tell(self, event: SessionEvent) -> None:
        if not self._listeners:
            if len(self._early) < EARLY_EVENTS:
                self._early.append(event)
            return
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # one listener's bug must not cut the board off from the others
                log.exception("a listener of the board on %s failed on %r", self.port, event)

    # --- the contract -------------------------------------------------------------------------
    @property
    def protocol(self) -> BoardProtocol:
        """The sans-I/O protocol this session drives (a page's link reads its hello and sets its layout)."""
        return self._protocol

    @property
    def link_up(self) -> bool:
        """Whether the listeners were last told the board is connected (a table joined now starts so)."""
        return self._announced

    def listen(self, callback: Listener) -> None:
        """Call ``callback(event)`` on the loop for each :class:`KeyEvent`,
        :class:`ConnectionChanged` and :class:`SceneConfirmed`. The first listener also gets,
        soon after, what came before it listened (a key the board re-sent with the handshake:
        acknowledged, so it would not come again)."""
        self._listeners.append(callback)
        early, self._early = self._early, []
        for event in early:
            self._loop.call_soon(self._tell, event)

    def show(self, pixels: list[Pixel]) -> None:
        """The full desired look: one (r, g, b, effect) per LED; effect 0 solid, 1 blink, 2 pulse.
        A delta when it is smaller than a full scene; after a reconnect the whole scene goes again.
        A :class:`SceneConfirmed` follows once the board reports it shows it."""
        self._protocol.show(pixels, time.monotonic())
        self._after([])

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255),
             roll_ms: int = 900, hold_ms: int = 2500) -> None:
        """The board animates a roll on ``leds`` (split evenly between the dice) landing on ``values``."""
        self._protocol.dice(leds, values, color=color, roll_ms=roll_ms, hold_ms=hold_ms, now=time.monotonic())
        self._after([])

    def set_brightness(self, level: float) -> None:
        """0.0-1.0 of full brightness (the board's current limiter still applies)."""
        self._protocol.set_brightness(level, time.monotonic())
        self._after([])

    def in_sync(self) -> bool:
        """Whether the board has confirmed it shows the latest scene sent; if not yet, asks it."""
        answer = self._protocol.in_sync(time.monotonic())
        self._after([])
        return answer
