"""The join links, codes and QR codes of the human seats, as the shared terminal shows them.

One line per seat, named by its colour: ``frozen: join http://192.168.1.20:8055/join?token=... or
type code K7PX2M at http://192.168.1.20:8055/join``, and under it the link as a QR code
(segno, drawn with half-block characters). A seat whose device joined shows "joined"
instead (its code is spent). Nothing here is secret from the people at the table: a
link or code opens a seat once, and the seat's own player takes it first.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import segno

from tablelight.web.access import Access


class JoinSheet:
    """The join block for ``access``'s seats; ``label(seat)`` names a seat."""

    def __init__(self, access: Access, join_url: str, label: Callable[[int], str], *, qr: bool = True) -> None:
        self.access = access
        self.join_url = join_url
        self.label = label
        self.qr = qr
        self._cache: tuple[tuple[tuple[str | None, bool], ...], str] | None = None

    def text(self) -> str:
        """The block as it stands (recomputed only when a seat joined or got a new code)."""
        passes = [self.access.pass_of(seat) for seat in self.access.seats]
        key = tuple((p.code, p.device_token is not None) for p in passes)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        lines = []
        for found in passes:
            if found.device_token is not None or not found.join_token:
                lines.append(f"{self.label(found.seat)}: joined (the host can drop the device on the board page)")
                continue
            link = f"{self.join_url}?token={found.join_token}"
            lines.append(f"{self.label(found.seat)}: join {link} or type code {found.code} at {self.join_url}")
            if self.qr:
                lines.append(qr_text(link))
        text = "\n".join(lines)
        self._cache = (key, text)
        return text


def qr_text(link: str) -> str:
    """``link`` as a QR code in text (two modules per character row)."""
    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")
