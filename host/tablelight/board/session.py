"""BoardSession: the host's end of the protocol (docs/protocol.md) over any link.

A background thread reads frames, acknowledges key events, keeps the heartbeat lease alive,
answers the board's scene requests and reconnects (re-handshake + full scene) after an unplug or
a board reboot, so callers only ``show`` what the board should look like and ``poll`` for keys.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from tablelight.board import scene
from tablelight.board.errors import BoardError
from tablelight.board.handshake import HOST_REFUSALS, Accepted, Cause, Handshake, drive
from tablelight.links.base import Link, LinkClosed
from tablelight.wire import wire

log = logging.getLogger(__name__)

LEASE_MS = 3000  # the board shows "host lost" after this long without a frame from us
HEARTBEAT_S = 0.5
READ_SLICE_S = 0.02
RECONNECT_BACKOFF_S = (0.1, 0.2, 0.5, 1.0, 2.0)
# The board sends nothing unasked, so when it has been quiet for a heartbeat we ask for a STATUS;
# three heartbeats without a single frame and the board is taken for gone (its process died, it
# hung, the cable is half out) and the session reconnects, which re-sends the whole scene.
SILENT_S = 3 * HEARTBEAT_S
SYNC_PROBE_S = 0.05
EVENT_QUEUE = 256  # key events not yet polled; past it the board keeps them (no ack) and re-sends
REPLY_QUEUE = 4  # unanswered STATUS/LOOP_REPLY frames kept for status()/loopback(); older ones go

Pixel = scene.Pixel


class BoardSilent(BoardError):
    """The board answered nothing for :data:`SILENT_S`: taken for gone until it says hello again."""


class WelcomeLost(Exception):
    """The board rebooted or forgot our welcome: the session shakes hands again on the same link."""


class KeyEvent(NamedTuple):
    key: int  # key number 0..keys-1
    pressed: bool  # True on press, False on release
    board_ms: int  # board timestamp (ticks ms, wraps at 2**29 on CircuitPython)
    seq: int  # board sequence number: each event is delivered once


class BoardSession:
    """A handshaken session with one board. Open with :meth:`open`; thread-safe."""

    def __init__(self, port: str, link_factory: Callable[[str], Link], timeout: float,
                 layout: str | None = None) -> None:
        self.port = port
        self.layout = layout
        self.timeout = timeout
        self._link_factory = link_factory
        self._link: Link | None = None
        self._lock = threading.RLock()
        self._events: queue.Queue[KeyEvent] = queue.Queue(EVENT_QUEUE)
        self._reader = wire.FrameReader()
        self._unread: list[bytes] = []  # frames read with the handshake's last read, not handled yet
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.hello: dict[str, Any] = {}
        self.connected = False
        self.reconnects = 0
        self.errors: list[tuple[int, int, str]] = []  # ERROR messages from the board (code, about, text)
        self.frames_bad = 0
        self._expected_seq = 1
        self._boot_id: int | None = None
        self._desired: list[Pixel] | None = None
        self._shown: scene.Shown | None = None  # what the board shows if it got all we sent
        self._version = 0
        self._brightness: int | None = None
        self._last_send = 0.0
        self._replies: queue.Queue[bytes] = queue.Queue(REPLY_QUEUE)
        self._awaiting: int | None = None  # the reply kind status()/loopback() waits for
        self._last_heard = time.monotonic()
        self._last_probe = 0.0
        self.silences = 0  # times the board went silent and the session reconnected
        self._confirmed_version: int | None = None  # the scene version the board last reported
        self._last_sync_probe = 0.0
        self.bytes_sent = 0
        self.last_update_bytes = 0
        self.refused: str | None = None  # the reason, if this host refused the board
        self.lost_keys = 0  # key events the board dropped (queue overflow) before we got them
        self._ever_connected = False
        self._gap_seen = 0

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
            session._connect(time.monotonic() + timeout)
        except LinkClosed as error:
            raise BoardError(str(error)) from error
        session._thread = threading.Thread(target=session._run, daemon=True, name=f"board {port}")
        session._thread.start()
        return session

    def _connect(self, deadline: float) -> None:
        """Open the link and shake hands. Raises BoardError or LinkClosed (and closes the link)."""
        link = self._link_factory(self.port)
        try:
            link.reset_input()
            self._shake_hands(link, deadline)
        except BaseException:
            with self._lock:
                if self._link is link:
                    self._link = None
                    self.connected = False
            link.close()
            raise

    def _shake_hands(self, link: Link, deadline: float) -> None:
        """Run the handshake (board/handshake.py) on ``link``: on success the link is the session's
        and the board is brought up to date; else BoardError with the handshake's reason."""
        now = time.monotonic()
        handshake = Handshake(nonce=random.randrange(1, 0x10000), now=now, timeout=max(0.0, deadline - now),
                              layout=self.layout, lease_ms=LEASE_MS)
        outcome = drive(handshake, link)
        if not isinstance(outcome, Accepted):
            if outcome.cause in HOST_REFUSALS:
                self.refused = outcome.reason
            hint = " (`tablelight devices` lists boards)" if outcome.cause is Cause.SILENT else ""
            raise BoardError(f"{self.port}: {outcome.reason}{hint}")
        with self._lock:
            self._link = link
            self._reader = handshake.reader  # bytes of a frame cut by the last read stay
            self._unread = handshake.unread  # what came after the confirming STATUS: handled next
            self._take_hello(outcome.hello)

    def _take_hello(self, hello: dict[str, Any]) -> None:
        """The board of ``hello`` has our welcome: bring it up to date (lock held)."""
        if self.hello and hello.get("leds") != self.hello.get("leds"):
            self._desired = None  # another board (or layout) behind the same port: old scene is meaningless
        self.hello = hello
        self.refused = None
        if hello["boot_id"] != self._boot_id:
            self._boot_id = hello["boot_id"]
            self._expected_seq = hello["key_seq"]
        else:
            self._skip_lost_keys(hello["key_seq"])
        self._last_heard = time.monotonic()
        if not self.connected and self._ever_connected:
            self.reconnects += 1  # counted before ``connected`` shows it: a reader never sees one without the other
        self._ever_connected = True
        self.connected = True
        if self._brightness is not None:
            self._send(wire.encode_brightness(self._brightness))
        if self._desired is not None:
            self._send_scene()

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
                    self._connect(time.monotonic() + 1.0)
                    backoff = 0
                    log.info("board on %s is back (boot id %08x)", self.port, self.hello.get("boot_id", 0))
                except (BoardError, LinkClosed) as error:
                    backoff += 1
                    log.debug("reconnect to %s failed: %s", self.port, error)
                continue
            try:
                try:
                    data = link.read(READ_SLICE_S)
                    payloads, self._unread = self._unread + self._reader.feed(data), []
                    for payload in payloads:
                        self._last_heard = time.monotonic()
                        self._handle(payload)
                    self._keep_alive(link)
                except WelcomeLost as lost:  # the same handshake again, on the same link
                    log.info("board on %s: %s; shaking hands again", self.port, lost)
                    with self._lock:
                        if self._link is link:
                            self._link = None
                            self.connected = False
                    self._shake_hands(link, time.monotonic() + 1.0)
            except (LinkClosed, BoardError) as error:
                log.info("lost the board on %s: %s", self.port, error)
                if isinstance(error, BoardSilent):
                    self.silences += 1
                self._drop_link(link)
            except Exception:  # a bug must not silently end the session: log it and start over
                log.exception("unexpected error on the link to %s; reconnecting", self.port)
                self._drop_link(link)
        self.frames_bad = self._reader.bad

    def _keep_alive(self, link: Link) -> None:
        """Heartbeat our lease; probe a quiet board; give a silent one up (the reconnect loop
        brings it back, with the whole scene)."""
        now = time.monotonic()
        quiet = now - self._last_heard
        if quiet > SILENT_S:
            raise BoardSilent(f"the board has been silent for {quiet:.1f} s")
        with self._lock:
            if self._link is not link:
                return
            if now - self._last_send >= HEARTBEAT_S:
                self._send(wire.encode_heartbeat(self._version, LEASE_MS))
            if quiet >= HEARTBEAT_S and now - self._last_probe >= HEARTBEAT_S:
                self._last_probe = now
                self._send(wire.encode_status_req())

    def _drop_link(self, link: Link) -> None:
        with self._lock:
            if self._link is link:
                self._link = None
                self.connected = False
        link.close()

    def _handle(self, p: bytes) -> None:
        kind = p[0]
        try:
            if kind == wire.MSG_KEY:
                self._on_key(*wire.decode_key(p))
            elif kind == wire.MSG_NEED_SCENE:
                wire.decode_need_scene(p)
                with self._lock:
                    if self._desired is not None:
                        self._send_scene()
            elif kind == wire.MSG_HELLO:
                hello = wire.decode_hello(p)
                if hello.get("boot_id") != self._boot_id or hello.get("protocol") != wire.PROTOCOL:
                    raise WelcomeLost("the board rebooted")
                else:
                    with self._lock:
                        self._skip_lost_keys(hello["key_seq"])
            elif kind == wire.MSG_ERROR:
                error = wire.decode_error(p)
                self.errors = (self.errors + [error])[-20:]
                log.warning("board on %s: error %d about message 0x%02x: %s", self.port, *error)
                if error[0] == wire.ERR_NOT_NOW and self.hello:
                    raise WelcomeLost("the board forgot our welcome")
            elif kind in (wire.MSG_STATUS, wire.MSG_LOOP_REPLY):
                if kind == wire.MSG_STATUS:
                    status = wire.decode_status(p)
                    self._confirmed_version = status["version"] if status["has_scene"] else None
                if kind != self._awaiting:
                    return
                try:
                    self._replies.put_nowait(p)
                except queue.Full:  # a board answering more than we asked: the oldest answers go
                    self._replies.get_nowait()
                    self._replies.put_nowait(p)
            elif kind == wire.MSG_BOARD_REFUSE:  # another host took the board while our lease had run out
                log.warning("board on %s refused this host: %s", self.port, wire.decode_board_refuse(p))
        except wire.WireError as error:
            log.warning("malformed message 0x%02x from %s: %s", kind, self.port, error)

    def _on_key(self, seq: int, key: int, pressed: bool, board_ms: int) -> None:
        with self._lock:
            if seq == self._expected_seq:
                if self._events.full():
                    return  # nobody polls: leave it unacknowledged on the board, which re-sends it
                self._gap_seen = 0
                self._events.put(KeyEvent(key, pressed, board_ms, seq))
                self._expected_seq = wire.seq_next(seq)
                self._send(wire.encode_ack(seq))
            elif not wire.seq_after(seq, self._expected_seq):
                # a repeat of one we already have (our ack was lost): acknowledge again, apply nothing
                self._send(wire.encode_ack((self._expected_seq - 1) & 0xFFFF))
            else:
                # a later one while an earlier one is missing: the board re-sends in order, unless
                # its queue overflowed and the missing ones are gone: its hello tells where it starts
                self._gap_seen += 1
                if self._gap_seen % 4 == 0:
                    self._send(wire.encode_hello_req(0))

    def _skip_lost_keys(self, board_next: int) -> None:
        """The board's oldest pending event is ``board_next``: anything before it that we still
        wait for was dropped by a full queue on the board (counted in its STATUS), not delayed."""
        if wire.seq_after(board_next, self._expected_seq):
            log.warning("board on %s dropped key events %d..%d (its queue was full)", self.port,
                        self._expected_seq, (board_next - 1) & 0xFFFF)
            self.lost_keys += (board_next - self._expected_seq) & 0xFFFF
            self._expected_seq = board_next
            self._gap_seen = 0

    # --- sending ------------------------------------------------------------------------------
    def _send(self, frame: bytes) -> None:
        link = self._link
        if link is None:
            return
        link.write(frame)
        self.bytes_sent += len(frame)
        self._last_send = time.monotonic()

    def _send_scene(self) -> None:
        """Send the whole desired scene with a new version (lock held)."""
        assert self._desired is not None
        frame, shown = scene.full_scene(self._desired, self._version)
        self._send_update(frame, shown)

    def _send_update(self, frame: bytes, shown: scene.Shown) -> None:
        self._send(frame)
        self.last_update_bytes = len(frame)
        self._shown = shown
        self._version = shown.version

    # --- the contract -------------------------------------------------------------------------
    def show(self, pixels: list[Pixel]) -> None:
        """The full desired look: one (r, g, b, effect) per LED; effect 0 solid, 1 blink, 2 pulse.
        Sends a delta when it is smaller than a full scene; after a reconnect or a reboot the whole
        scene goes again."""
        checked = scene.check_pixels(pixels, self.hello.get("leds", len(pixels)))
        with self._lock:
            self._desired = checked
            if not self.connected:
                return
            try:
                update = scene.update(self._shown, checked, self._version)
                if update is not None:
                    self._send_update(*update)
            except LinkClosed:
                pass  # the reader thread notices and reconnects; the scene goes again then

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255),
             roll_ms: int = 900, hold_ms: int = 2500) -> None:
        """The board animates a roll on ``leds`` (split evenly between the dice) landing on ``values``."""
        count = self.hello.get("leds", 0)
        if not values or len(values) > wire.MAX_DICE or len(leds) < len(values) or len(leds) > wire.MAX_DICE_LEDS:
            raise BoardError(f"dice: 1..{wire.MAX_DICE} values, at least one LED per die, "
                             f"at most {wire.MAX_DICE_LEDS} LEDs")
        if any(not 0 <= led < count for led in leds) or any(not 0 <= v <= 255 for v in values):
            raise BoardError(f"dice: LEDs must be 0..{count - 1} and values 0..255")
        with self._lock:
            try:
                self._send(wire.encode_dice(color, roll_ms, hold_ms, values, leds, count))
            except LinkClosed:
                pass

    def set_brightness(self, level: float) -> None:
        """0.0-1.0 of full brightness (the board's current limiter still applies)."""
        if not 0.0 <= level <= 1.0:
            raise BoardError(f"brightness {level} is outside 0.0-1.0")
        with self._lock:
            self._brightness = round(level * 255)
            try:
                self._send(wire.encode_brightness(self._brightness))
            except LinkClosed:
                pass

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

    # --- diagnostics: what the link holds, for test benches and fault tests ---------------------
    @property
    def scene_version(self) -> int:
        """The version of the last scene or update sent."""
        return self._version

    @property
    def next_key_seq(self) -> int:
        """The sequence number the next key event from the board should carry."""
        return self._expected_seq

    @property
    def board_boot_id(self) -> int | None:
        """The boot id of the board's last hello (a new one means it rebooted)."""
        return self._boot_id

    @property
    def shown(self) -> scene.Shown | None:
        """What the board shows if it got everything sent."""
        return self._shown

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

    def in_sync(self) -> bool:
        """Whether the board has confirmed it shows the latest scene we sent (its STATUS carries
        the version). When not yet, asks it (at most every 50 ms) and says False: a caller about
        to make the next move waits, so no move is played that the board did not show."""
        with self._lock:
            if self._desired is None:
                return self.connected
            if self.connected and self._confirmed_version == self._version:
                return True
            now = time.monotonic()
            if self.connected and now - self._last_sync_probe >= SYNC_PROBE_S:
                self._last_sync_probe = now
                try:
                    self._send(wire.encode_status_req())
                except LinkClosed:
                    pass  # the reader thread notices and reconnects
            return False

    def status(self, timeout: float = 2.0) -> dict[str, Any]:
        """The board's STATUS (scene version, limiter, frame counters, ...)."""
        reply = self._request(wire.encode_status_req(), wire.MSG_STATUS, timeout)
        return wire.decode_status(reply)

    def loopback(self, data: bytes, timeout: float = 2.0) -> bytes:
        """Send ``data`` to the board and return its echo."""
        # An echo answers its own request only: a stale one still in flight carries other bytes.
        reply = self._request(wire.encode_loop(data), wire.MSG_LOOP_REPLY, timeout, lambda r: r[1:] == data)
        return reply[1:]

    def _request(self, frame: bytes, kind: int, timeout: float, is_answer: Callable[[bytes], bool] = lambda r: True) -> bytes:
        with self._lock:
            while not self._replies.empty():
                self._replies.get_nowait()
            self._awaiting = kind
            self._send(frame)
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
        with self._lock:
            self._send(wire.encode_test_key(key, pressed))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        with self._lock:
            link, self._link = self._link, None
            self.connected = False
        if link is not None:
            link.close()

    def __enter__(self) -> BoardSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
