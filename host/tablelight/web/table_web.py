"""The web side of ``tablelight play`` and ``resume``: seat passes, the desk, the server, the join lines.

:class:`TableWeb` serves a :class:`~tablelight.table.session.TableSession`'s pages: ``tablelight
play`` starts it when the web view is on (``--view web``/``both``, ``--share``, or a game with
secrets and a human seat, whose hands can only be shown on the seats' own pages). Its desk
follows the session's games for the pages (:meth:`Desk.following`); the pages' requests and play
again go to the session itself; it serves on the table's event loop (:meth:`TableWeb.start`), and prints the public board page's address and one join line (and
QR code) per human seat. The host page's address goes to a private file only
(:mod:`tablelight.web.host_link`), unless ``host_link="terminal"`` says the terminal is private.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from tablelight.core.errors import SetupError
from tablelight.table.service import Table
from tablelight.table.session import TableSession
from tablelight.web.board_view import WebView
from tablelight.web.access import Access, KeptDevices, SeatPass
from tablelight.web.desk import Desk
from tablelight.web.host_link import HOST_LINK_CHOICES, host_page_html, remove_quietly, write_private
from tablelight.web.server import IDLE_TIMEOUT
from tablelight.web.share import JoinSheet
from tablelight.web.tls import HttpsChoice


def page_title(session: TableSession) -> str:
    """The shared page's heading: "game 12: mainland" for a kept game (none for one not kept)."""
    return f"game {session.game_id}: {session.game.name}" if session.game_id is not None else ""


class TableWeb:
    """The pages of ``session``'s board (``pixels``, ``press``) and seats; see the module docstring."""

    def __init__(
        self,
        session: TableSession,
        layout: dict[str, Any],
        pixels: Callable[[], Sequence[Sequence[int]]],
        press: Callable[[int], object],
        *,
        pixels_poll: float | None = None,
        port: int = 0,
        share: str | None = None,
        out: TextIO | None = None,
        terminal: Any = None,
        idle_timeout: int = IDLE_TIMEOUT,
        host_link: str = "file",
        host_file: Path | None = None,
        https: HttpsChoice | None = None,
        kept_devices: KeptDevices | None = None,
    ) -> None:
        if host_link not in HOST_LINK_CHOICES:
            raise SetupError(f"--host-link takes {' or '.join(HOST_LINK_CHOICES)}, not {host_link!r}")
        self.host_link = host_link
        self.host_file = host_file
        self.session = session
        self.out = out or sys.stdout
        self.terminal = terminal
        self.access = Access(session.humans, on_issue=self._issued, kept=kept_devices)  # kept: joined before resume
        self.desk = Desk.following(session, joined=self.access.joined, title=page_title)
        self.desk.on_change.append(self._refresh_footer)
        self.view = WebView(
            layout, pixels, press, port=port, share=share, title=self.desk.title, session=session, desk=self.desk,
            access=self.access, labels=session.face.place_labels(), idle_timeout=idle_timeout, https=https,
            poll=pixels_poll,
        )
        self.desk.join_url = self.view.join_url
        self.sheet = JoinSheet(self.access, self.view.join_url, session.table.seat_label)
        session.on_new_table(self._new_table)
        session.join_hint = self.desk.join_hint  # the shared screen tells a seat with no device how to join

    @property
    def table(self) -> Table:
        """The table the pages show now (the session's: a new one after play again)."""
        return self.session.table

    def _new_table(self, session: TableSession) -> None:
        """Play again made a new game at the same seats: the same server, addresses, seats' codes and
        devices; the desk moved the pages to it (:meth:`Desk.following`), the join sheet follows."""
        self.sheet.label = session.table.seat_label

    @property
    def live_terminal(self) -> bool:
        return self.terminal is not None and bool(getattr(self.terminal, "live", False))

    async def start(self) -> TableWeb:
        """Serve on the running event loop (the table's) and print where the pages are."""
        await self.view.serve_here()
        if self.host_file is not None:
            try:
                write_private(self.host_file, host_page_html(self.view.url))
            except OSError as error:
                await self.view.stop_here()
                raise SetupError(f"cannot write the host page's address to {self.host_file}: {error.strerror or error}") from None
        print(self.host_line(), file=sys.stderr, flush=True)
        print(f"board page for everyone: {self.view.public_url}", file=sys.stderr, flush=True)
        tls = self.view.server.tls
        if tls is not None:
            print(f"https certificate SHA-256 fingerprint {tls.fingerprint}: a phone that warns about the certificate "
                  "shows it under the certificate's details; go on only when they match", file=sys.stderr, flush=True)
        if self.live_terminal:
            self.terminal.footer = self.footer()
        elif self.access.seats:
            print(self.sheet.text(), file=self.out, flush=True)
        return self

    def host_line(self) -> str:
        """Where the host page is: its address only when the terminal is private (``--host-link terminal``)."""
        if self.host_link == "terminal":
            return f"web view: {self.view.url} (the host page: keep it to yourself; it presses the board's keys and drops seats' devices)"
        if self.host_file is not None:
            return f"host page (board keys, seats' codes, drop a device): open {self.host_file} in your browser (only you can read it)"
        return "host page: its address is not shown on the shared screen (--host-link terminal shows it)"

    def footer(self) -> str:
        """What a live terminal keeps under the board: where the host page is, and the join lines."""
        lines = [self.host_line()]
        if self.access.seats:
            lines.append(self.sheet.text())
        return "\n".join(lines)

    async def stop(self) -> None:
        await self.view.stop_here()
        if self.host_file is not None:
            remove_quietly(self.host_file)  # its token dies with the server

    def _refresh_footer(self) -> None:
        """The join lines under a live terminal's board follow the seats (joined, dropped)."""
        if self.live_terminal:
            self.terminal.footer = self.footer()

    def _issued(self, issued: SeatPass) -> None:
        self.desk.changed()
        if not self.live_terminal:
            label = self.table.seat_label(issued.seat)
            print(f"{label}: device dropped, new code issued", file=self.out, flush=True)
            print(self.sheet.text(), file=self.out, flush=True)
