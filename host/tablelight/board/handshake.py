"""The hello exchange (docs/protocol.md, "Handshake"), without I/O: the one handshake that
``tablelight devices`` (discovery) and :class:`~tablelight.board.session.BoardSession` speak.

Built like h11: the caller owns the link and the clock. A :class:`Handshake` is fed the bytes the
board sent (:meth:`Handshake.receive_data`) and the time (:meth:`Handshake.frames_due`); both
return the bytes to write, and once the exchange is over :attr:`Handshake.outcome` says how:
:class:`Accepted` with the board's hello (its LED and key counts, capabilities, layout) or
:class:`Refused` with a :class:`Cause` and a reason a person can read.

Discovery asks for the hello only (``lease_ms=None``): it never welcomes nor refuses a board,
which may be another host's, and is done at the hello. A session welcomes the board, or refuses
it (REFUSE with the reason, so the board shows the refused pattern), and is done once a STATUS
confirms the welcome: from then on a key press reaches it. :func:`drive` runs a handshake over
a :class:`~tablelight.links.base.Link`.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tablelight.links.base import Link
from tablelight.wire import wire

HELLO_RETRY_S = 0.25  # HELLO_REQ (and later WELCOME + STATUS_REQ) again after this long without an answer
LONGEST_READ_S = 0.1  # a driver never blocks longer than this in one read
# Silence is counted in time the host was listening: while the driver came late (its loop was busy,
# its process waited for a core) nobody read the board's bytes either, so lateness beyond this timer
# slack is not the board's silence (board/protocol.py counts a connected board's silence the same way).
LATE_S = 0.05


class Cause(enum.Enum):
    """Why a handshake ended without a session."""

    PROTOCOL = "protocol"  # the firmware speaks another protocol version
    LED_COUNT = "led_count"  # more or fewer LEDs than protocol 1 handles
    NOT_WIDE = "not_wide"  # over 255 LEDs, but the firmware lacks the wide-LED capability
    FRAME_SIZE = "frame_size"  # the board's largest payload cannot carry a full scene
    LAYOUT = "layout"  # the board is wired for another layout than the game needs
    BOARD_REFUSED = "board_refused"  # the board refused this host (another host has it, not paired)
    SILENT = "silent"  # no hello answering our request in time
    UNCONFIRMED = "unconfirmed"  # a hello, but no STATUS confirming the welcome in time


#: Causes where this host refuses a board it cannot drive (a session tells the board with REFUSE).
HOST_REFUSALS = frozenset({Cause.PROTOCOL, Cause.LED_COUNT, Cause.NOT_WIDE, Cause.FRAME_SIZE, Cause.LAYOUT})


@dataclass(frozen=True)
class Accepted:
    """The board said hello, and (for a session) confirmed the welcome."""

    hello: dict[str, Any]


@dataclass(frozen=True)
class Refused:
    """No session: ``reason`` says why and what to do. ``hello`` is the board's, if it sent one."""

    cause: Cause
    reason: str
    hello: dict[str, Any] | None = None


def judge_hello(hello: dict[str, Any], layout: str | None = None) -> Refused | None:
    """Why this host cannot drive the board of ``hello`` (None if it can). With ``layout``, a
    board wired for another layout is refused too."""
    protocol = hello.get("protocol")
    if protocol != wire.PROTOCOL:
        return Refused(Cause.PROTOCOL, f"firmware speaks protocol {protocol}, host needs {wire.PROTOCOL}: "
                       "run tablelight flash", hello)
    leds = hello["leds"]
    if not 0 < leds <= wire.MAX_LEDS:
        return Refused(Cause.LED_COUNT, f"the board reports {leds} LEDs; protocol {wire.PROTOCOL} handles "
                       f"1..{wire.MAX_LEDS}", hello)
    if wire.wide(leds) and not hello["caps"] & wire.CAP_WIDE:
        return Refused(Cause.NOT_WIDE, f"the board reports {leds} LEDs, but its firmware {hello.get('firmware', '?')} "
                       f"drives at most {wire.NARROW_LEDS} (no wide-LED capability): run tablelight flash", hello)
    largest = wire.scene_payload_size(leds, wire.MAX_PALETTE)
    if largest > hello["max_frame"]:
        return Refused(Cause.FRAME_SIZE, f"the board accepts payloads of {hello['max_frame']} bytes, a full scene of "
                       f"{leds} LEDs needs {largest}: run tablelight flash", hello)
    if layout is not None and hello.get("layout") != layout:
        return Refused(Cause.LAYOUT, f"the board is wired for layout {hello.get('layout')!r}, this game needs "
                       f"{layout!r}: use a {layout} board, or set TL_LAYOUT in the board's settings.toml if it is "
                       "wired for it", hello)
    return None


class Handshake:
    """One hello exchange with one board. Feed it; write what it returns; read :attr:`outcome`."""

    def __init__(self, *, nonce: int, now: float, timeout: float, layout: str | None = None,
                 lease_ms: int | None = None) -> None:
        """``nonce``: 1..65535, fresh per exchange (a hello echoing another nonce answers someone
        else). ``lease_ms`` None: discovery, done at the hello; else the lease the WELCOME gives."""
        if not 0 < nonce <= 0xFFFF:
            raise ValueError(f"nonce {nonce} is outside 1..65535")
        self.nonce = nonce
        self.layout = layout
        self.lease_ms = lease_ms
        self.timeout = timeout
        self.deadline = now + timeout
        self.outcome: Accepted | Refused | None = None
        self.hello: dict[str, Any] | None = None  # the accepted hello, once it came
        self.unread: list[bytes] = []  # payloads after the one that ended the exchange (for the session)
        self.reader = wire.FrameReader()  # a session reads on with it: bytes of a frame cut by a read stay
        self._next_send: float | None = now  # the first HELLO_REQ goes at once; None: count from the next call

    @property
    def welcoming(self) -> bool:
        """The board's hello is accepted and welcomed; the STATUS confirming it has not come yet."""
        return self.hello is not None and self.outcome is None

    def frames_due(self, now: float) -> bytes:
        """What to send at ``now``: a HELLO_REQ every :data:`HELLO_RETRY_S` until the hello, then
        WELCOME and STATUS_REQ again at that pace until confirmed (either may get lost). Past the
        deadline, ends the exchange (silent or unconfirmed) and returns nothing; the deadline counts
        only the time the host listened (a late call's lateness is not the board's silence)."""
        if self.outcome is not None:
            return b""
        self._forgive_lateness(now)
        if now >= self.deadline:
            if self.hello is None:
                self.outcome = Refused(Cause.SILENT, f"no answer from a tablelight board within {self.timeout:g} s: "
                                       "is this the board's data port (\"CircuitPython CDC2 data\"), with the "
                                       "tablelight firmware and its boot.py installed?")
            else:
                self.outcome = Refused(Cause.UNCONFIRMED, "the board said hello but did not confirm the welcome "
                                       f"within {self.timeout:g} s", self.hello)
            return b""
        if self._next_send is None:  # a welcome just went with the answer to the hello
            self._next_send = now + HELLO_RETRY_S
        if now < self._next_send:
            return b""
        self._next_send = now + HELLO_RETRY_S
        if self.hello is None:
            return wire.encode_hello_req(self.nonce)
        return self._welcome()

    def _forgive_lateness(self, now: float) -> None:
        """A call later than the next thing due (a request again, or the deadline) by more than
        :data:`LATE_S`: the host did not listen meanwhile, so the deadline moves on by as much. After
        a stall the board is asked again at once and keeps the time it had left to answer."""
        if self._next_send is None:
            return
        late = now - min(self._next_send, self.deadline)
        if late > LATE_S:
            self.deadline += late

    def wait_time(self, now: float) -> float:
        """How long a driver may block in a read before :meth:`frames_due` has something to do."""
        if self.outcome is not None or self._next_send is None:
            return 0.0
        return max(0.001, min(self._next_send, self.deadline) - now)

    def receive_data(self, data: bytes) -> bytes:
        """Take bytes from the board; return what to answer (WELCOME and STATUS_REQ for a hello
        a session accepts, REFUSE for one it refuses, else nothing)."""
        reply = b""
        for payload in self.reader.feed(data):
            if self.outcome is not None:
                self.unread.append(payload)
            else:
                reply += self._receive(payload)
        return reply

    def _receive(self, payload: bytes) -> bytes:
        kind = payload[0]
        if kind == wire.MSG_BOARD_REFUSE:  # another host has the board, or it wants a paired key
            try:
                reason = wire.decode_board_refuse(payload)
            except wire.WireError:
                return b""
            self.outcome = Refused(Cause.BOARD_REFUSED, f"the board refused this host: {reason}", self.hello)
            return b""
        if kind == wire.MSG_HELLO and self.hello is None:
            return self._on_hello(payload)
        if kind == wire.MSG_STATUS and self.welcoming:
            try:
                if wire.decode_status(payload)["lease_ok"]:
                    assert self.hello is not None
                    self.outcome = Accepted(self.hello)
            except wire.WireError:
                pass
        # Anything else (a key, a scene request) waits: the board re-sends keys until acknowledged,
        # and the session sends the whole scene once the welcome is confirmed.
        return b""

    def _on_hello(self, payload: bytes) -> bytes:
        try:
            hello = wire.decode_hello(payload)
        except wire.WireError:
            return b""
        if hello.get("nonce", self.nonce) != self.nonce:  # another protocol's hello carries no nonce
            return b""
        hello.pop("nonce", None)
        refused = judge_hello(hello, self.layout)
        if refused is not None:
            self.outcome = refused
            return b"" if self.lease_ms is None else wire.encode_refuse(refused.reason)
        self.hello = hello
        if self.lease_ms is None:
            self.outcome = Accepted(hello)
            return b""
        self._next_send = None
        return self._welcome()

    def _welcome(self) -> bytes:
        assert self.lease_ms is not None
        return wire.encode_welcome(self.lease_ms) + wire.encode_status_req()


def drive(handshake: Handshake, link: Link, clock: Callable[[], float] = time.monotonic) -> Accepted | Refused:
    """Run ``handshake`` over ``link`` until it ends; returns the outcome. Raises LinkClosed if
    the link goes away. The caller opens and closes the link."""
    while True:
        due = handshake.frames_due(clock())
        if due:
            link.write(due)
        if handshake.outcome is not None:
            return handshake.outcome
        reply = handshake.receive_data(link.read(min(LONGEST_READ_S, handshake.wait_time(clock()))))
        if reply:
            link.write(reply)
        if handshake.outcome is not None:
            return handshake.outcome
