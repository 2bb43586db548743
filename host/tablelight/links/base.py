"""What the board session needs from a transport."""

from __future__ import annotations

from typing import Protocol


class LinkClosed(OSError):
    """The link went away (unplugged, closed by the other side)."""


class Link(Protocol):
    name: str

    def read(self, timeout: float) -> bytes:
        """Whatever bytes arrive within ``timeout`` seconds (b"" if none); LinkClosed if gone."""
        ...

    def write(self, data: bytes) -> None:
        """Send bytes; LinkClosed if gone."""
        ...

    def reset_input(self) -> None:
        """Drop bytes received but not read yet."""
        ...

    def close(self) -> None: ...
