"""uvicorn serving the table's app, on the addresses it was given.

``tablelight play`` serves on the table's own event loop (:meth:`WebServer.serve_here`): one
loop, no thread. Tools with no loop of their own (``tablelight sim``) use :meth:`WebServer.start`,
which runs it in a background thread.

Loopback (``127.0.0.1``) always; with ``share`` also one local-network address (found
from the route to the network, or given). The Host header must name one of them with
the port (``localhost`` too for loopback). Idle connections are closed after
``idle_timeout`` seconds (headers and bodies alike), WebSocket messages are small, pings find
dead peers. How many connections strangers may hold, and that they never crowd out the seats'
and the host's: :mod:`tablelight.web.limits`; how many the server holds in all, below the
process's limit on open files: :mod:`tablelight.web.budget`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from tablelight.core.errors import SetupError
from tablelight.web.budget import Budget, listening_socket, quiet_accept_errors
from tablelight.web.guard import Guard
from tablelight.web.limits import ConnectionLimits, keep_server_logs_off_the_terminal, protocols
from tablelight.web.tls import HttpsChoice, TlsFiles
from tablelight.web.tls_front import server_context, tls_protocol

LOOPBACK = "127.0.0.1"
IDLE_TIMEOUT = 5
WS_MAX_BYTES = 4096
#: Request line and headers of one request (a browser sends well under 2 kB here: no cookies).
MAX_HEADER_BYTES = 8192


def lan_address() -> str:
    """This machine's address on the local network (the source address of its default route)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))  # UDP connect sends nothing: it only picks a route
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith("127.") or address == "0.0.0.0":
        raise SetupError("no local network address found: connect to a network, or give one with --share ADDRESS")
    return address


def share_address(share: str | None) -> str | None:
    """The network address for ``--share``: None (loopback only), ``lan`` (found) or an address given."""
    if share in (None, "", "loopback", "off"):
        return None
    if share == "lan":
        return lan_address()
    try:
        socket.inet_aton(share)
    except OSError:
        raise SetupError(f"--share takes lan, loopback or an IPv4 address of this machine, not {share!r}") from None
    return share


class WebServer:
    """Serve ``app`` (an ASGI app, wrapped in :class:`Guard` here) until :meth:`stop`.

    ``has_place(token)`` says whether a token belongs to the host or a joined seat: such
    requests and sockets never wait behind strangers' (:mod:`tablelight.web.limits`).
    """

    def __init__(
        self, app: Any, *, port: int = 0, share: str | None = None, idle_timeout: int = IDLE_TIMEOUT, https: HttpsChoice | None = None,
        has_place: Callable[[str], bool] | None = None,
    ) -> None:
        self.addresses = [LOOPBACK]
        lan = share_address(share)
        #: The connections this server may hold, below the process's limit on open files.
        self.budget = Budget()
        tls = https is not None
        self.sockets = [bind(LOOPBACK, port, self.budget, tls)]
        self.port = int(self.sockets[0].getsockname()[1])
        if lan is not None and lan != LOOPBACK:
            self.sockets.append(bind(lan, self.port, self.budget, tls))
            self.addresses.append(lan)
        hosts = [f"{a}:{self.port}" for a in self.addresses] + [f"localhost:{self.port}"]
        #: The certificate and key when the pages are served over HTTPS (``--https``), else None.
        self.tls: TlsFiles | None = https.files_for(self.addresses) if https is not None else None
        self.scheme = "https" if self.tls is not None else "http"
        #: The pools of this server's connections (strangers', public sockets', the seats' and host's).
        self.limits = ConnectionLimits.within(self.budget.for_pools())
        http_protocol: type[asyncio.Protocol]
        http_protocol, ws_protocol = protocols(self.limits)
        if self.tls is not None:  # TLS begun by the protocol, so the pools hold handshakes too
            http_protocol = tls_protocol(self.limits, server_context(self.tls), protocols(self.limits)[0])
        keep_server_logs_off_the_terminal()
        config = uvicorn.Config(
            Guard(app, hosts, scheme=self.scheme, limits=self.limits, has_place=has_place, body_timeout=idle_timeout),
            http=http_protocol,
            ws=ws_protocol,
            lifespan="off",
            loop="asyncio",  # the listening sockets' budget counts what asyncio's accept takes
            backlog=self.budget.burst,  # accepted in one go (the queue stays long: web.budget)
            access_log=False,
            log_config=None,  # uvicorn's loggers go to limits.SERVER_LOG, not the shared terminal
            log_level="error",
            server_header=False,
            proxy_headers=False,  # no proxy in front: X-Forwarded-For from a local process must not pick the client address
            date_header=False,
            timeout_keep_alive=idle_timeout,
            timeout_graceful_shutdown=1,
            limit_concurrency=None,  # it would count WebSockets and refuse everyone alike: limits.py instead
            h11_max_incomplete_event_size=MAX_HEADER_BYTES,
            ws_max_size=WS_MAX_BYTES,
            ws_ping_interval=10.0,
            ws_ping_timeout=10.0,
            ws_per_message_deflate=False,
        )
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        """The address printed for people: the network one when shared, else loopback."""
        return self.addresses[-1]

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.address}:{self.port}"

    def start(self) -> WebServer:
        self.thread = threading.Thread(target=asyncio.run, args=(self._serve_quietly(),), name="web", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise SetupError("the web server did not start")
            time.sleep(0.01)
        return self

    async def _serve_quietly(self) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await self.server.serve(sockets=self.sockets)

    async def serve_here(self) -> WebServer:
        """Serve on the running event loop; returns once the server listens."""
        self.task = asyncio.ensure_future(self._serve_quietly())
        deadline = time.monotonic() + 10
        while not self.server.started:
            if self.task.done() or time.monotonic() > deadline:
                raise SetupError("the web server did not start")
            await asyncio.sleep(0.01)
        return self

    async def stop_here(self) -> None:
        """Stop serving on the running loop (open pages are closed) and free the ports."""
        self.server.should_exit = True
        if self.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.task), timeout=5)
            except (asyncio.TimeoutError, Exception):
                self.task.cancel()
        for sock in self.sockets:
            sock.close()

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def bind(address: str, port: int, budget: Budget, tls: bool = False) -> socket.socket:
    try:
        sock = listening_socket(address, port, budget, tls=tls)
    except OSError as error:
        raise SetupError(f"cannot open the web view on {address}:{port}: {error.strerror} (choose another --web-port)") from None
    sock.set_inheritable(True)
    return sock
