"""The board as the app's worker sees it: bytes from the page in, bytes to the page out.

Web Serial and Web Bluetooth are page APIs (a Web Worker cannot reach them), so the page owns
the device and the worker owns the protocol. The protocol's driver is the one ``tablelight
play`` runs, :class:`~tablelight.board.aio.AsyncBoardSession` (the handshake, scenes, keys,
confirmations, silence, on the running asyncio loop's clock and timers): the page's port is one
more byte pump for it (:meth:`AsyncBoardSession.pumped`), whose transport is :class:`PageBoard`'s
``write(bytes)`` to the page. :class:`PageBoard` adds what only the page's link needs: over
Bluetooth LE, pairing a new key or proving the kept one (:mod:`tablelight.wire.auth`) before the
protocol starts, and :meth:`PageBoard.forget` (FORGET); and the words the page shows of the link
(``on_state``). It offers what a :class:`~tablelight.table.loop.BoardPort` needs of a session
(``listen``, ``show``, ``dice``, ``in_sync``), so the table drives a board in the page exactly as
``tablelight play`` drives one on a serial port. A link that drops (the page says so, or the
board goes silent) is told to the table; the page reopens it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from tablelight.board.aio import AsyncBoardSession
from tablelight.board.events import ConnectionChanged
from tablelight.board.protocol import BoardProtocol
from tablelight.wire import auth, wire

#: Seconds the handshake may take (the page has opened the port already).
HANDSHAKE_S = 5.0
#: Seconds the board has to answer a FORGET.
FORGET_ANSWER_S = 5.0


class _PagePump:
    """The page's port as the session's transport: bytes to the page (none while the gate speaks)."""

    def __init__(self, board: PageBoard) -> None:
        self.board = board

    def write(self, data: bytes) -> None:
        if self.board.linked and self.board._gate is None:
            self.board.write(data)

    async def close(self) -> None:  # the page closes its own port
        return None


class PageBoard:
    """One board behind the page; ``write(data)`` sends bytes to it, ``on_state(text)`` tells the page how it is."""

    def __init__(self, write: Callable[[bytes], None], on_state: Callable[[str, str], None] | None = None,
                 layout: str | None = None) -> None:
        self.write = write
        self.on_state = on_state or (lambda state, words: None)
        self.session = AsyncBoardSession.pumped("the page's board", self._dropped, layout=layout, timeout=HANDSHAKE_S)
        self.session.listen(self._link_changed)  # first: the page hears of a change before the table
        self.linked = False  # the page has an open port
        #: Over Bluetooth LE: the host key (None until paired) and the reader of the gate's frames
        #: (pairing, challenge-response) until the board accepts this host; None: the protocol's turn.
        self.key: bytes | None = None
        self._gate: wire.FrameReader | None = None
        self.bluetooth = False
        self._forget_timer: asyncio.TimerHandle | None = None

    @property
    def protocol(self) -> BoardProtocol:
        return self.session.protocol

    @property
    def connected(self) -> bool:
        """The board shook hands and is welcome (as the table was last told)."""
        return self.session.link_up

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
        self.session.pump_received(bytes(data))

    def forget(self) -> bool:
        """Ask the board to forget the key this Bluetooth session proved (FORGET, no key on the air);
        its answer ends the session (state ``forgotten``, or ``refused`` with its reason). False
        when there is no such session (USB, or not connected): nothing is sent."""
        if not (self.linked and self.bluetooth and self.connected and self._gate is None):
            return False
        self.session.hold()  # the protocol stops here: the board's answer closes the session
        self._gate = wire.FrameReader()
        self.on_state("forgetting", "asking the board to forget this browser")
        self.write(auth.encode_forget())
        self._forget_timer = asyncio.get_event_loop().call_later(FORGET_ANSWER_S, self._forget_unanswered)
        return True

    def _forget_unanswered(self) -> None:
        self._forget_timer = None
        if self.linked and self._gate is not None:
            reason = f"the board did not answer the forget in {FORGET_ANSWER_S:g} s"
            self.link_lost(reason)
            self.on_state("refused", reason)  # last: the page's word (link_lost says "away" first)

    def _start_protocol(self) -> None:
        self._gate = None
        self.on_state("handshake", "shaking hands with the board")
        self.session.pump_opened(_PagePump(self))

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
        """The page's port is closed (or given up): the table is told the board is away."""
        if not self.linked:
            return
        self._unlink()
        self.session.pump_closed(reason)

    def _unlink(self) -> None:
        self.linked = False
        self._gate = None
        if self._forget_timer is not None:
            self._forget_timer.cancel()
            self._forget_timer = None

    def _dropped(self, reason: str, refused: bool) -> None:
        """The session dropped the link itself (silence, a refused handshake): the page reopens it."""
        self._unlink()
        if refused:
            self.on_state("refused", reason)

    def _link_changed(self, event: Any) -> None:
        if isinstance(event, ConnectionChanged):
            self.on_state("connected" if event.connected else "away", event.reason)

    # --- what a BoardPort uses (the session's own) ---------------------------------------------
    @property
    def link_up(self) -> bool:
        return self.session.link_up

    def listen(self, listener: Callable[[Any], None]) -> None:
        self.session.listen(listener)

    def show(self, pixels: list[Any]) -> None:
        self.session.show(pixels)

    def dice(self, leds: list[int], values: list[int], *, color: tuple[int, int, int] = (255, 255, 255)) -> None:
        self.session.dice(leds, values, color=color)

    def in_sync(self) -> bool:
        return self.session.in_sync()
