"""The web view of a board: its LEDs in the board's shape, live, served by :mod:`tablelight.web`.

:class:`WebView` runs the table's web server (Starlette on uvicorn: on the table's event loop, or in a thread for ``tablelight sim``) for a
board: ``pixels()`` gives what the LEDs show, ``press(key)`` presses a key. The board
page (``/``) is public and shows only what everyone at the table sees; pressing keys on
it needs the host's token, which the address :attr:`WebView.url` carries (the terminal
prints it). With a :class:`~tablelight.web.desk.Desk` and an
:class:`~tablelight.web.access.Access` it also serves each human seat's page
(``tablelight play``); without, just the board (``tablelight sim``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablelight.table.session import TableSession
from tablelight.web.access import Access
from tablelight.web.app import BoardFeed, make_app
from tablelight.web.desk import Desk
from tablelight.web.drawing import svg
from tablelight.web.parting import Parting
from tablelight.web.server import IDLE_TIMEOUT, WebServer
from tablelight.web.tls import HttpsChoice

__all__ = ["WebView", "svg"]

PixelSource = Callable[[], Sequence[Sequence[int]]]
Presser = Callable[[int], object]


class WebView:
    """The board page for ``pixels()`` and ``press(key)`` (and seat pages with ``desk``/``access``)."""

    def __init__(
        self,
        layout: dict[str, Any],
        pixels: PixelSource,
        press: Presser,
        *,
        port: int = 0,
        title: str = "",
        share: str | None = None,
        session: TableSession | None = None,
        desk: Desk | None = None,
        access: Access | None = None,
        labels: dict[int, str] | None = None,
        pulse: Any = None,
        poll: float | None = None,
        idle_timeout: int = IDLE_TIMEOUT,
        https: HttpsChoice | None = None,
    ) -> None:
        self.layout = layout
        self.access = access if access is not None else Access([])
        #: The open pages' sockets: when the host stops, each is sent its last state first.
        self.parting = Parting()
        self.server = WebServer(
            make_app(BoardFeed(layout, pixels, press, title, labels or {}, pulse, poll), session=session, desk=desk,
                     access=self.access,
                     base_url=lambda: self.base_url, parting=self.parting),
            port=port,
            share=share,
            idle_timeout=idle_timeout,
            https=https,
            has_place=self.access.has_place,
        )
        self.port = self.server.port
        #: Links use the address people should use (the network one when shared).
        self.base_url = self.server.url
        self.desk = desk

    @property
    def url(self) -> str:
        """The board page with the host's token (key presses, seat codes): print it only on the host."""
        return f"{self.base_url}/?token={self.access.host_token}"

    @property
    def public_url(self) -> str:
        return f"{self.base_url}/"

    @property
    def join_url(self) -> str:
        return f"{self.base_url}/join"

    def join_link(self, token: str) -> str:
        return f"{self.base_url}/join?token={token}"

    def start(self) -> WebView:
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()

    async def serve_here(self) -> WebView:
        """Serve on the running event loop (the table's)."""
        await self.server.serve_here()
        return self

    async def stop_here(self) -> None:
        """Hand every open page its last state (a deadline bounds the wait), then stop serving."""
        await self.parting.flush()
        await self.server.stop_here()

    def __enter__(self) -> WebView:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
