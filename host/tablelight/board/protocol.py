"""BoardProtocol: the host's end of the board protocol (docs/protocol.md), without I/O.

Built like h11 (and like board/handshake.py, which it runs): the driver owns the link, the clock
and any thread or event loop. It tells the protocol a link opened (:meth:`connection_made`) or
went (:meth:`connection_lost`), feeds it what the board sent (:meth:`receive_bytes`) and the time
(:meth:`tick`, at :meth:`next_deadline` at the latest), writes :meth:`bytes_to_send`, and acts on
the events returned (board/events.py): a :class:`KeyEvent` for the game, :class:`Silent` or
:class:`HandshakeFailed` to drop the link and reconnect (with backoff: the driver's part).
What the protocol keeps across links: the keys' expected sequence number, the desired scene and
brightness (sent again, whole, to a board that comes back), the counters.
"""

from __future__ import annotations

import enum
import logging
import math
import random
from collections.abc import Callable
from typing import Any

from tablelight.board import scene
from tablelight.board.errors import BoardError
from tablelight.board.events import (BoardSaid, Connected, Event, HandshakeFailed, KeyEvent, Reply, SceneConfirmed,
                                     Silent, WelcomeLost)
from tablelight.board.handshake import HOST_REFUSALS, LATE_S, Accepted, Cause, Handshake, Refused
from tablelight.wire import wire

log = logging.getLogger(__name__)

LEASE_MS = 3000  # the board shows "host lost" after this long without a frame from us
HEARTBEAT_S = 0.5
# The board sends nothing unasked, so when it has been quiet for a heartbeat we ask for a STATUS;
# three heartbeats without a single frame and the board is taken for gone (its process died, it
# hung, the cable is half out): the driver reconnects, which re-sends the whole scene.
SILENT_S = 3 * HEARTBEAT_S
# Silence is counted in time the host was listening: while a tick was overdue (the driver's loop
# was busy, its process waited for a core, a page was throttled) nobody read the board's bytes
# either, so a tick's lateness beyond LATE_S (the timer slack, board/handshake.py: the handshake's
# deadline counts the same way) is not the board's silence. After a long stall the board is asked
# at once and has its whole second to answer.
SYNC_PROBE_S = 0.05  # at most one STATUS request this often to learn whether the board shows the scene
CONFIRM_AFTER_S = 0.02  # with confirm_scenes: the first such request this long after an update
RESHAKE_S = 1.0  # a handshake again on the same link (the board rebooted) gets this long

Pixel = scene.Pixel


class State(enum.Enum):
    CLOSED = "closed"  # no link
    HANDSHAKING = "handshaking"  # a link, the hello exchange under way
    CONNECTED = "connected"  # the welcome is confirmed: keys, scenes, heartbeats


def _fresh_nonce() -> int:
    return random.randrange(1, 0x10000)


class BoardProtocol:
    """The protocol state of one board session, across the links it gets (one at a time)."""

    def __init__(self, *, port: str = "board", layout: str | None = None, lease_ms: int = LEASE_MS,
                 confirm_scenes: bool = False, nonces: Callable[[], int] = _fresh_nonce) -> None:
        """``port`` names the board in reasons and logs. ``confirm_scenes``: after each update ask
        the board (STATUS) until it confirms the version, so a :class:`SceneConfirmed` follows
        every scene without anyone calling :meth:`in_sync`."""
        self.port = port
        self.layout = layout
        self.lease_ms = lease_ms
        self.confirm_scenes = confirm_scenes
        self._nonces = nonces
        self.state = State.CLOSED
        self._handshake: Handshake | None = None
        self._reader = wire.FrameReader()
        self._bad_before = 0  # bad frames counted by the readers of earlier links
        self._out = bytearray()
        self._now = 0.0
        self.key_room: int | None = None  # key events the driver can still take (None: any number)
        self.hello: dict[str, Any] = {}
        self.reconnects = 0
        self.silences = 0  # times the board went silent and was given up
        self.errors: list[tuple[int, int, str]] = []  # ERROR messages from the board (code, about, text)
        self.refused: str | None = None  # the reason, if this host refused the board
        self.lost_keys = 0  # key events the board dropped (queue overflow) before we got them
        self.bytes_sent = 0
        self.last_update_bytes = 0
        self._ever_connected = False
        self._expected_seq = 1
        self._gap_seen = 0
        self._boot_id: int | None = None
        self._desired: list[Pixel] | None = None
        self._shown: scene.Shown | None = None  # what the board shows if it got all we sent
        self._version = 0
        self._confirmed_version: int | None = None  # the scene version the board last reported
        self._brightness: int | None = None
        self._last_send = 0.0
        self._last_heard = 0.0
        self._listening_since = 0.0  # silence is counted from the later of this and _last_heard
        self._last_probe = 0.0
        self._last_sync_probe = -math.inf
        self._updated_at = 0.0

    # --- the link, as the driver sees it ------------------------------------------------------
    def connection_made(self, now: float, timeout: float) -> None:
        """A link is open (its unread input dropped): the handshake starts, with ``timeout`` s."""
        self._start_handshake(now, timeout)

    def connection_lost(self) -> None:
        """The link went (or the driver dropped it): nothing more to send until the next one."""
        self._close()

    def receive_bytes(self, data: bytes, now: float) -> list[Event]:
        """Take bytes the board sent at ``now``; return what they mean."""
        self._now = now
        events: list[Event] = []
        if self.state is State.HANDSHAKING:
            assert self._handshake is not None
            self._out += self._handshake.receive_data(data)
            self._handshake_progress(events)
        elif self.state is State.CONNECTED:
            self._handle_payloads(self._reader.feed(data), events)
        return events

    def tick(self, now: float) -> list[Event]:
        """Run the timers at ``now``: handshake retries, heartbeat, probing a quiet board, giving
        a silent one up (:class:`Silent`: quiet for :data:`SILENT_S` while the host listened, so a
        tick that comes late never blames the board for the host's stall), asking whether the
        scene is shown."""
        self._now = now
        events: list[Event] = []
        if self.state is State.HANDSHAKING:
            assert self._handshake is not None
            self._out += self._handshake.frames_due(now)
            self._handshake_progress(events)
        elif self.state is State.CONNECTED:
            late = now - self.next_deadline()
            if late > LATE_S:
                log.log(logging.INFO if late > HEARTBEAT_S else logging.DEBUG,
                        "the host listened to %s %.2f s late: not counted as the board's silence", self.port, late)
                self._listening_since = self._quiet_from() + late
            quiet = now - self._quiet_from()
            if quiet >= SILENT_S:
                log.info("board on %s has been silent for %.1f s", self.port, quiet)
                self.silences += 1
                self._close()
                return [Silent(quiet)]
            if now - self._last_send >= HEARTBEAT_S:
                self._send(wire.encode_heartbeat(self._version, self.lease_ms))
            if quiet >= HEARTBEAT_S and now - self._last_probe >= HEARTBEAT_S:
                self._last_probe = now
                self._send(wire.encode_status_req())
            if self._awaiting_confirmation() and now >= self._confirm_due():
                self._last_sync_probe = now
                self._send(wire.encode_status_req())
        return events

    def next_deadline(self) -> float:
        """When :meth:`tick` has something to do next (math.inf: never, until something changes)."""
        if self.state is State.HANDSHAKING:
            assert self._handshake is not None
            return self._now + self._handshake.wait_time(self._now)
        if self.state is not State.CONNECTED:
            return math.inf
        due = min(self._last_send + HEARTBEAT_S, self._quiet_from() + SILENT_S,
                  max(self._quiet_from(), self._last_probe) + HEARTBEAT_S)
        if self._awaiting_confirmation():
            due = min(due, self._confirm_due())
        return due

    def bytes_to_send(self) -> bytes:
        """What to write to the link now (and forget)."""
        data = bytes(self._out)
        self._out.clear()
        return data

    # --- state, for drivers and diagnostics ---------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.state is State.CONNECTED

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
    def frames_bad(self) -> int:
        """Frames from the board that failed their check (COBS or CRC), over every link."""
        return self._bad_before + self._reader.bad

    # --- the contract -------------------------------------------------------------------------
    def show(self, pixels: list[Pixel], now: float | None = None) -> None:
        """The full desired look: one (r, g, b, effect) per LED; effect 0 solid, 1 blink, 2 pulse.
        A delta when it is smaller than a full scene; after a reconnect the whole scene goes.
        BoardError naming the first bad pixel (and nothing changes)."""
        checked = scene.check_pixels(pixels, self.hello.get("leds", len(pixels)))
        self._at(now)
        self._desired = checked
        if self.connected:
            update = scene.update(self._shown, checked, self._version)
            if update is not None:
                self._send_update(*update)

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255),
             roll_ms: int = 900, hold_ms: int = 2500, now: float | None = None) -> None:
        """The board animates a roll on ``leds`` (split evenly between the dice) landing on ``values``."""
        count = self.hello.get("leds", 0)
        if not values or len(values) > wire.MAX_DICE or len(leds) < len(values) or len(leds) > wire.MAX_DICE_LEDS:
            raise BoardError(f"dice: 1..{wire.MAX_DICE} values, at least one LED per die, "
                             f"at most {wire.MAX_DICE_LEDS} LEDs")
        if any(not 0 <= led < count for led in leds) or any(not 0 <= v <= 255 for v in values):
            raise BoardError(f"dice: LEDs must be 0..{count - 1} and values 0..255")
        self._at(now)
        self._send(wire.encode_dice(color, roll_ms, hold_ms, values, leds, count))

    def set_brightness(self, level: float, now: float | None = None) -> None:
        """0.0-1.0 of full brightness (the board's current limiter still applies)."""
        if not 0.0 <= level <= 1.0:
            raise BoardError(f"brightness {level} is outside 0.0-1.0")
        self._at(now)
        self._brightness = round(level * 255)
        self._send(wire.encode_brightness(self._brightness))

    def in_sync(self, now: float | None = None) -> bool:
        """Whether the board has confirmed it shows the latest scene we sent (its STATUS carries
        the version). When not yet, asks it (at most every :data:`SYNC_PROBE_S`) and says False."""
        self._at(now)
        if self._desired is None:
            return self.connected
        if not self.connected:
            return False
        if self._confirmed_version == self._version:
            return True
        if self._now - self._last_sync_probe >= SYNC_PROBE_S:
            self._last_sync_probe = self._now
            self._send(wire.encode_status_req())
        return False

    def ask_status(self, now: float | None = None) -> None:
        """Ask for a STATUS (it comes as a :class:`Reply`)."""
        self._at(now)
        self._send(wire.encode_status_req())

    def ask_loopback(self, data: bytes, now: float | None = None) -> None:
        """Ask the board to echo ``data`` (it comes as a :class:`Reply` of LOOP_REPLY)."""
        self._at(now)
        self._send(wire.encode_loop(data))

    def test_key(self, key: int, pressed: bool, now: float | None = None) -> None:
        """Inject a key press or release as if from the board's keypad (TEST_KEY; only a board
        with TL_TEST_INPUT = 1 takes it, others answer ERROR 6)."""
        self._at(now)
        self._send(wire.encode_test_key(key, pressed))

    # --- inside -------------------------------------------------------------------------------
    def _at(self, now: float | None) -> None:
        if now is not None:
            self._now = now

    def _quiet_from(self) -> float:
        """Since when the board has been quiet while the host listened (see :data:`LATE_S`)."""
        return max(self._last_heard, self._listening_since)

    def _close(self) -> None:
        self.state = State.CLOSED
        self._handshake = None
        self._bad_before += self._reader.bad
        self._reader = wire.FrameReader()
        self._out.clear()

    def _start_handshake(self, now: float, timeout: float) -> None:
        self._close()
        self._now = now
        self.state = State.HANDSHAKING
        self._handshake = Handshake(nonce=self._nonces(), now=now, timeout=timeout, layout=self.layout,
                                    lease_ms=self.lease_ms)
        self._out += self._handshake.frames_due(now)

    def _handshake_progress(self, events: list[Event]) -> None:
        handshake = self._handshake
        assert handshake is not None
        outcome = handshake.outcome
        if isinstance(outcome, Accepted):
            self._bad_before += self._reader.bad
            self._reader = handshake.reader  # bytes of a frame cut by the last read stay
            self._handshake = None
            self.state = State.CONNECTED
            self._take_hello(outcome.hello)
            events.append(Connected(outcome.hello))
            self._handle_payloads(handshake.unread, events)  # what came after the confirming STATUS
        elif isinstance(outcome, Refused):
            if outcome.cause in HOST_REFUSALS:
                self.refused = outcome.reason
            hint = " (`tablelight devices` lists boards)" if outcome.cause is Cause.SILENT else ""
            refusal = bytes(self._out)  # a REFUSE telling the board why goes out before the link closes
            self._close()
            self._out += refusal
            events.append(HandshakeFailed(outcome, f"{self.port}: {outcome.reason}{hint}"))

    def _take_hello(self, hello: dict[str, Any]) -> None:
        """The board of ``hello`` has our welcome: bring it up to date."""
        if self.hello and hello.get("leds") != self.hello.get("leds"):
            self._desired = None  # another board (or layout) behind the same port: old scene is meaningless
        self.hello = hello
        self.refused = None
        if hello["boot_id"] != self._boot_id:
            self._boot_id = hello["boot_id"]
            self._expected_seq = hello["key_seq"]
        else:
            self._skip_lost_keys(hello["key_seq"])
        self._last_heard = self._now
        self._last_probe = self._now
        self._last_send = self._now  # the handshake's last frame: the heartbeats count from it
        self._confirmed_version = None
        if self._ever_connected:
            self.reconnects += 1
        self._ever_connected = True
        if self._brightness is not None:
            self._send(wire.encode_brightness(self._brightness))
        if self._desired is not None:
            self._send_scene()

    def _handle_payloads(self, payloads: list[bytes], events: list[Event]) -> None:
        for payload in payloads:
            if self.state is not State.CONNECTED:
                return  # the welcome was lost: the rest came before the board's new hello
            self._last_heard = self._now
            self._handle(payload, events)

    def _handle(self, p: bytes, events: list[Event]) -> None:
        kind = p[0]
        try:
            if kind == wire.MSG_KEY:
                seq, key, pressed, board_ms = wire.decode_key(p)
                self._on_key(seq, key, pressed, board_ms, events)
            elif kind == wire.MSG_NEED_SCENE:
                wire.decode_need_scene(p)
                if self._desired is not None:
                    self._send_scene()
            elif kind == wire.MSG_HELLO:
                hello = wire.decode_hello(p)
                if hello.get("boot_id") != self._boot_id or hello.get("protocol") != wire.PROTOCOL:
                    self._lose_welcome("the board rebooted", events)
                else:
                    self._skip_lost_keys(hello["key_seq"])
            elif kind == wire.MSG_ERROR:
                code, about, text = wire.decode_error(p)
                self.errors = (self.errors + [(code, about, text)])[-20:]
                log.warning("board on %s: error %d about message 0x%02x: %s", self.port, code, about, text)
                events.append(BoardSaid(code, about, text))
                if code == wire.ERR_NOT_NOW and self.hello:
                    self._lose_welcome("the board forgot our welcome", events)
            elif kind == wire.MSG_STATUS:
                status = wire.decode_status(p)
                confirmed = status["version"] if status["has_scene"] else None
                if (confirmed is not None and confirmed == self._version and self._desired is not None
                        and self._confirmed_version != confirmed):
                    events.append(SceneConfirmed(confirmed))
                self._confirmed_version = confirmed
                events.append(Reply(kind, p))
            elif kind == wire.MSG_LOOP_REPLY:
                events.append(Reply(kind, p))
            elif kind == wire.MSG_BOARD_REFUSE:  # another host took the board while our lease had run out
                log.warning("board on %s refused this host: %s", self.port, wire.decode_board_refuse(p))
        except wire.WireError as error:
            log.warning("malformed message 0x%02x from %s: %s", kind, self.port, error)

    def _lose_welcome(self, reason: str, events: list[Event]) -> None:
        log.info("board on %s: %s; shaking hands again", self.port, reason)
        events.append(WelcomeLost(reason))
        unsent = bytes(self._out)  # acknowledgements of keys taken before the hello still go
        self._start_handshake(self._now, RESHAKE_S)
        self._out[:0] = unsent

    def _on_key(self, seq: int, key: int, pressed: bool, board_ms: int, events: list[Event]) -> None:
        if seq == self._expected_seq:
            if self.key_room is not None:
                if self.key_room <= 0:
                    return  # the driver's queue is full: unacknowledged, the board re-sends it later
                self.key_room -= 1
            self._gap_seen = 0
            events.append(KeyEvent(key, pressed, board_ms, seq))
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

    def _awaiting_confirmation(self) -> bool:
        return (self.confirm_scenes and self._desired is not None and self._shown is not None
                and self._confirmed_version != self._version)

    def _confirm_due(self) -> float:
        return max(self._updated_at + CONFIRM_AFTER_S, self._last_sync_probe + SYNC_PROBE_S)

    def _send(self, frame: bytes) -> None:
        if self.state is not State.CONNECTED:
            return
        self._out += frame
        self.bytes_sent += len(frame)
        self._last_send = self._now

    def _send_scene(self) -> None:
        """Send the whole desired scene with a new version."""
        assert self._desired is not None
        self._send_update(*scene.full_scene(self._desired, self._version))

    def _send_update(self, frame: bytes, shown: scene.Shown) -> None:
        self._send(frame)
        self.last_update_bytes = len(frame)
        self._shown = shown
        self._version = shown.version
        self._updated_at = self._now
