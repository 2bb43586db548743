"""TLS begun by each connection's own protocol, so the pools see it from its first moment.

Given a certificate, uvicorn hands TLS to asyncio's ``create_server(ssl=...)``, which runs the
handshake before the protocol hears of the connection, allows it 60 s and gives each
connection a 256 kB buffer: 1,000 silent connections to an ``--https`` table held 300 MB for a
minute, out of reach of :mod:`tablelight.web.limits`. Here the server accepts plain TCP
instead; :class:`TlsFirstProtocol` puts the connection in the handshakes' pool at once (so a
flood crowds out its own oldest, 32 at most are under way), runs the handshake with
:meth:`asyncio.loop.start_tls` within the idle timeout, and then hands the encrypted transport
to the pooled h11 protocol, which goes on as over plain TCP.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

from uvicorn.protocols.utils import get_local_addr, get_remote_addr

from tablelight.web.limits import ConnectionLimits, Key, PooledH11Protocol, send_at_once
from tablelight.web.tls import TlsFiles


def server_context(files: TlsFiles) -> ssl.SSLContext:
    """The server side of TLS with this certificate chain and key (TLS 1.2 or later)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(files.cert), str(files.key))
    return context


class TlsFirstProtocol(asyncio.Protocol):
    """What uvicorn makes for each accepted TCP connection when the pages are served over TLS.

    ``limits``, ``context`` and ``inner`` (the pooled h11 protocol class) are set on the
    subclass :func:`tls_protocol` makes.
    """

    limits: ConnectionLimits
    context: ssl.SSLContext
    inner: type[PooledH11Protocol]

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any], _loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.config = config
        self.server_state = server_state
        self.app_state = app_state
        self.loop = _loop or asyncio.get_event_loop()
        self.key: Key = (None, None)
        self.raw: asyncio.Transport | None = None
        self.handshake: asyncio.Task[None] | None = None
        #: What arrives between the end of the handshake and the h11 protocol taking over.
        self.early: list[bytes] = []
        self.lost = False
        self.eof = False

    def connection_made(self, transport: Any) -> None:
        self.raw = transport
        transport.pause_reading()  # the ClientHello waits in the socket for start_tls
        send_at_once(transport)
        self.key = (get_local_addr(transport), get_remote_addr(transport))
        self.limits.opened(self.key, transport.close, handshake=True)
        self.server_state.connections.add(self)  # so that a shutdown closes it too
        self.handshake = self.loop.create_task(self.begin_tls(transport))

    async def begin_tls(self, raw: asyncio.Transport) -> None:
        if raw.is_closing():  # crowded out before its turn came: no TLS state is made for it
            self.server_state.connections.discard(self)
            self.limits.closed(self.key, raw.close)
            return
        try:
            encrypted = await self.loop.start_tls(
                raw, self, self.context, server_side=True, ssl_handshake_timeout=float(self.config.timeout_keep_alive)
            )
        except (OSError, ssl.SSLError, asyncio.TimeoutError, RuntimeError):  # a failed, slow or cut-off handshake
            encrypted = None
        finally:
            self.server_state.connections.discard(self)
            self.limits.closed(self.key, raw.close)  # the h11 protocol joins the pool anew
        if encrypted is None or self.lost:
            raw.close()
            return
        protocol = self.inner(config=self.config, server_state=self.server_state, app_state=self.app_state, _loop=self.loop)
        encrypted.set_protocol(protocol)
        protocol.connection_made(encrypted)
        for data in self.early:
            protocol.data_received(data)
        self.early.clear()
        if self.eof:
            protocol.eof_received()

    # Until the h11 protocol takes over, the TLS layer reports here.
    def data_received(self, data: bytes) -> None:
        self.early.append(data)

    def eof_received(self) -> bool | None:
        self.eof = True
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True

    def shutdown(self) -> None:
        """uvicorn's shutdown: a connection still shaking hands is closed."""
        if self.handshake is not None:
            self.handshake.cancel()
        if self.raw is not None:
            self.raw.close()


def tls_protocol(limits: ConnectionLimits, context: ssl.SSLContext, inner: type[PooledH11Protocol]) -> type[TlsFirstProtocol]:
    """The http protocol class for uvicorn's Config when serving TLS, reporting to ``limits``."""
    return type("TlsFirstProtocolOfServer", (TlsFirstProtocol,), {"limits": limits, "context": context, "inner": inner})
