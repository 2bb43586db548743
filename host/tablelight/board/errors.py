"""Errors of the host's side of the board link."""

from __future__ import annotations

from tablelight.core.errors import TablelightError


class BoardError(TablelightError):
    """A board could not be reached, refused, or speaks another protocol. The message says why
    and what to do, for example "firmware speaks protocol 1, host needs 2: run tablelight flash"."""


class NoHello(BoardError):
    """Discovery asked the board on :attr:`port` for its hello and got none: :attr:`cause` is the
    handshake's (``"board_refused"``: the board refused this host, ``"silent"``: nothing answered in
    time) and the message names the port and says why, in the board's own words when it gave any."""

    def __init__(self, port: str, cause: str, reason: str) -> None:
        super().__init__(f"{port}: {reason}")
        self.port = port
        self.cause = cause
        self.reason = reason
