"""What the board protocol (board/protocol.py) tells its driver: small named event types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Union

from tablelight.board.handshake import Refused


class KeyEvent(NamedTuple):
    key: int  # key number 0..keys-1
    pressed: bool  # True on press, False on release
    board_ms: int  # board timestamp (ticks ms, wraps at 2**29 on CircuitPython)
    seq: int  # board sequence number: each event is delivered once


@dataclass(frozen=True)
class Connected:
    """The handshake ended with the board's welcome confirmed: keys and scenes flow."""
    hello: dict[str, Any]


@dataclass(frozen=True)
class HandshakeFailed:
    """The handshake ended without a session: the driver closes the link (``reason`` says why)."""
    refused: Refused
    reason: str


@dataclass(frozen=True)
class WelcomeLost:
    """The board rebooted or forgot our welcome: the protocol shakes hands again on the same link."""
    reason: str


@dataclass(frozen=True)
class Silent:
    """The board answered nothing for ``seconds``: taken for gone, the driver drops the link."""
    seconds: float


@dataclass(frozen=True)
class SceneConfirmed:
    """The board reported (STATUS) that it shows scene ``version``, the latest one sent."""
    version: int


@dataclass(frozen=True)
class BoardSaid:
    """An ERROR message from the board: its ``code``, the message type it is ``about``, its text."""
    code: int
    about: int
    text: str


@dataclass(frozen=True)
class Reply:
    """A STATUS or LOOP_REPLY payload (``kind`` is its message type), for a caller who asked."""
    kind: int
    payload: bytes


@dataclass(frozen=True)
class ConnectionChanged:
    """A driver's news for its listeners: the board is reachable (again) or not, and why."""
    connected: bool
    reason: str


Event = Union[KeyEvent, Connected, HandshakeFailed, WelcomeLost, Silent, SceneConfirmed, BoardSaid, Reply]
