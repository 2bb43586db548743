"""What keeps other pages, processes and machines out: Host, Origin, body size, idle connections.

:class:`Guard` wraps the app (pure ASGI, so it sees HTTP and WebSocket alike):

* the ``Host`` header must be one of the addresses the server bound and advertised, with
  its port (a page on another site that rebinds its DNS name to us is refused);
* a request that changes something (any method but GET and HEAD) and every WebSocket must
  come from one of our own origins (``Origin`` present and ours); such requests must
  also be ``application/json``, which a cross-site form cannot send without a preflight
  that we never answer (no CORS headers are ever sent);
* a body over :data:`MAX_BODY` bytes is refused (413);
* every answer carries ``Cache-Control: no-store``, ``Referrer-Policy: no-referrer`` (the
  page's address may hold a token), a strict Content-Security-Policy and no framing.

:class:`IdleClosingH11Protocol` closes a connection that sends no complete request within
the keep-alive timeout, also when it never sent a byte (uvicorn alone only times out
between requests).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 4096
SAFE_METHODS = ("GET", "HEAD")
SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class BodyTooLarge(Exception):
    pass


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class Guard:
    """ASGI middleware; ``hosts`` are the ``host:port`` values the page may be reached at."""

    def __init__(self, app: App, hosts: Iterable[str], scheme: str = "http") -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"{scheme}://{h}" for h in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem = self.problem(scope)
        if problem is not None:
            status, text = problem
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": text})
            else:
                await refuse(send, status, text)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await refuse(send, 413, f"a request body is at most {MAX_BODY} bytes")
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY:
                raise BodyTooLarge()
            return message

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in SECURITY_HEADERS if h[0] not in names]
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await refuse(send, 413, f"a request body is at most {MAX_BODY} bytes")

    def problem(self, scope: Scope) -> tuple[int, str] | None:
        """(status, reason) when the request is refused before the app sees it."""
        host = (header(scope, b"host") or "").lower()
        if host not in self.hosts:
            return 421, "unknown Host: use the address the table printed"
        if header(scope, b"sec-fetch-site") == "cross-site":
            return 403, "cross-site requests are refused"
        origin = header(scope, b"origin")
        if origin is not None and origin.lower() not in self.origins:
            return 403, "requests from other sites are refused"
        if scope["type"] == "websocket":
            return None if origin is not None else (403, "a WebSocket needs the page's Origin")
        if scope["method"] not in SAFE_METHODS:
            if origin is None:
                return 403, "a request that changes something needs the page's Origin"
            kind = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "send JSON (Content-Type: application/json)"
        return None


async def refuse(send: Send, status: int, text: str) -> None:
    body = json.dumps({"error": text}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            + SECURITY_HEADERS,
        }
    )
    await send({"type": "http.response.body", "body": body})


class IdleClosingH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that also closes a connection idle before (or trickling) its request.

    Every connection must send complete request headers within ``timeout_keep_alive``
    seconds of opening or of its last answer; uvicorn alone times out only between requests
    and restarts the clock on every byte.
    """

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.request_deadline = self.loop.time() + self.timeout_keep_alive
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def on_response_complete(self) -> None:
        self.request_deadline = self.loop.time() + self.timeout_keep_alive
        super().on_response_complete()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:  # closed, or now a WebSocket
            return
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and self.timeout_keep_alive_task is None:
            left = max(0.0, self.request_deadline - self.loop.time())
            self.timeout_keep_alive_task = self.loop.call_later(left, self.timeout_keep_alive_handler)
