"""What keeps other pages, processes and machines out: Host, Origin, body size and time.

:class:`Guard` wraps the app (pure ASGI, so it sees HTTP and WebSocket alike):

* the ``Host`` header must be one of the addresses the server bound and advertised, with
  its port (a page on another site that rebinds its DNS name to us is refused);
* a request the browser marks ``Sec-Fetch-Site: cross-site`` is refused unless it opens a whole
  page (:func:`opens_a_page`: the host page's file redirects to its address from ``file://``);
* a request that changes something (any method but GET and HEAD) and every WebSocket must
  come from one of our own origins (``Origin`` present and ours); such requests must
  also be ``application/json``, which a cross-site form cannot send without a preflight
  that we never answer (no CORS headers are ever sent);
* a body over :data:`MAX_BODY` bytes is refused (413, chunked or not), and one that does not
  arrive within ``body_timeout`` seconds of its headers too (408); the app gets the body whole,
  so it never waits on a stranger;
* with ``limits`` (:mod:`tablelight.web.limits`), a request whose token has a place at the
  table (``has_place``) moves its connection to the seats' and host's own pool, and any other
  WebSocket to the public sockets' pool, or is refused when that has no room (accepted, then
  closed with code 1013 and the words :data:`TOO_MANY_WATCHERS`, which the page shows);
* every answer carries ``Cache-Control: no-store``, ``Referrer-Policy: no-referrer`` (the
  page's address may hold a token), a strict Content-Security-Policy and no framing.

The deadline for a request's headers is the protocol's: :mod:`tablelight.web.limits`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from tablelight.web.limits import TRY_AGAIN_LATER, ConnectionLimits, connection_key

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 4096
#: The words of a public board socket refused for want of room (close code TRY_AGAIN_LATER; the page shows them).
TOO_MANY_WATCHERS = "too many watchers: this board page has no room for another screen now; it tries again by itself"
#: Seconds a request's body may take to arrive after its headers.
BODY_TIMEOUT = 5.0
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


class ClientLeft(Exception):
    pass


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class Guard:
    """ASGI middleware; ``hosts`` are the ``host:port`` values the page may be reached at."""

    def __init__(
        self, app: App, hosts: Iterable[str], scheme: str = "http", *, limits: ConnectionLimits | None = None,
        has_place: Callable[[str], bool] | None = None, body_timeout: float = BODY_TIMEOUT,
    ) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"{scheme}://{h}" for h in self.hosts}
        self.limits = limits
        self.has_place = has_place
        self.body_timeout = body_timeout

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
                await refuse(send, status, text, close=True)
            return
        if not self.sort_connection(scope):
            # accepted, then closed with words: a close before accepting reaches the page as a bare 403
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": TOO_MANY_WATCHERS})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await refuse(send, 413, f"a request body is at most {MAX_BODY} bytes", close=True)
            return
        try:
            body = await asyncio.wait_for(read_body(receive), self.body_timeout)
        except BodyTooLarge:
            await refuse(send, 413, f"a request body is at most {MAX_BODY} bytes", close=True)
            return
        except asyncio.TimeoutError:
            await refuse(send, 408, f"the request's body did not arrive within {self.body_timeout:g} s", close=True)
            return
        except ClientLeft:
            return
        handed = False

        async def replay_receive() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in SECURITY_HEADERS if h[0] not in names]
            await send(message)

        await self.app(scope, replay_receive, send_with_headers)

    def sort_connection(self, scope: Scope) -> bool:
        """Tell the pools what this connection is: placed (its token has a place), a public socket, or
        neither. False: a public socket with no room (refused)."""
        if self.limits is None:
            return True
        if self.has_place is not None and any(self.has_place(token) for token in tokens_of(scope)):
            self.limits.place(connection_key(scope))
        elif scope["type"] == "websocket":
            return self.limits.public_socket(connection_key(scope))
        return True

    def problem(self, scope: Scope) -> tuple[int, str] | None:
        """(status, reason) when the request is refused before the app sees it."""
        host = (header(scope, b"host") or "").lower()
        if host not in self.hosts:
            return 421, "unknown Host: use the address the table printed"
        if header(scope, b"sec-fetch-site") == "cross-site" and not opens_a_page(scope):
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


def opens_a_page(scope: Scope) -> bool:
    """A browser opening one of our pages as a whole (a link followed, or the host page's file
    redirecting to its address: a file's page is another site to the browser). Such a GET changes
    nothing and shows nothing to the site it came from; a part of a page (an image, a script, a
    fetch) or a frame from elsewhere stays refused."""
    return (
        scope["type"] == "http"
        and scope["method"] in SAFE_METHODS
        and header(scope, b"sec-fetch-mode") == "navigate"
        and header(scope, b"sec-fetch-dest") == "document"
    )


def tokens_of(scope: Scope) -> list[str]:
    """The tokens a request shows: the seat's and host's headers, and a socket's ``?token=``."""
    found = [value for value in (header(scope, b"x-seat-token"), header(scope, b"x-host-token")) if value]
    query = scope.get("query_string", b"").decode("latin-1")
    return found + [token for token in parse_qs(query).get("token", []) if token]


async def read_body(receive: Receive) -> bytes:
    """The whole body, at most :data:`MAX_BODY` bytes (:class:`BodyTooLarge` beyond)."""
    body = b""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientLeft()
        body += message.get("body", b"")
        if len(body) > MAX_BODY:
            raise BodyTooLarge()
        if not message.get("more_body", False):
            return body


async def refuse(send: Send, status: int, text: str, *, close: bool = False) -> None:
    """Answer ``status`` with ``{"error": text}``; ``close``: and close the connection (the
    request's body is unread, or its sender is not to be kept)."""
    body = json.dumps({"error": text}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())] + SECURITY_HEADERS
    await send({"type": "http.response.start", "status": status, "headers": headers + ([(b"connection", b"close")] if close else [])})
    await send({"type": "http.response.body", "body": body})
