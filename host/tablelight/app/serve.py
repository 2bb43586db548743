"""``tablelight app serve DIR``: a built app on http://127.0.0.1 (a secure context) for trying it.

Static files only, on one asyncio loop (uvicorn), with the MIME types the app needs (``.wasm``,
``.mjs``, ``.webmanifest``) and the app's Content-Security-Policy as a header too: the Web Worker's
script takes its policy from its own response, not from the page's meta tag.

With ``--share`` the folder is served on the local network too, for the other players' phones (see
:mod:`tablelight.app.static` ``phones.js``): the table's own device keeps 127.0.0.1 (Web Bluetooth
and Web Serial need a secure context), and there ``phones-address.json`` names the shared address,
so the page's join codes point phones at it. The files hold no secret (a seat's secret is in its
join code's fragment, which no server receives); ``--https`` serves the shared address over TLS
(a self-signed certificate unless given one), so nobody on the network can change what phones run.
"""

from __future__ import annotations

import asyncio
import mimetypes
import socket
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from tablelight.app.build import CSP
from tablelight.core.errors import SetupError
from tablelight.web.budget import Budget, listening_socket, quiet_accept_errors
from tablelight.web.limits import ConnectionLimits, protocols
from tablelight.web.tls import HttpsChoice, TlsFiles

HOST = "127.0.0.1"

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")


#: Where the table's page asks which address phones open the app at (served on 127.0.0.1 only).
PHONES_ADDRESS = "/phones-address.json"


def static_app(folder: Path, phones_url: str | None = None) -> Any:
    """The ASGI app serving ``folder`` (``/`` is index.html), with the policy headers; with
    ``phones_url``, also :data:`PHONES_ADDRESS` naming it."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.staticfiles import StaticFiles

    async def phones_address(request: Any) -> Any:
        return JSONResponse({"url": phones_url})

    files = Starlette(routes=[Route(PHONES_ADDRESS, phones_address)] if phones_url else [])
    files.mount("/", StaticFiles(directory=str(folder), html=True))

    async def app(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"cache-control", b"no-cache"), (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await files(scope, receive, with_headers)

    return app


def check_folder(folder: Path) -> None:
    if not (folder / "index.html").is_file() or not (folder / "app.json").is_file():
        raise SetupError(f"{folder} holds no built app (no index.html and app.json): run `tablelight app build {folder}`")


def open_socket(port: int, address: str = HOST, budget: Budget | None = None, *, tls: bool = False) -> socket.socket:
    """A listening socket on ``address:port`` holding at most ``budget`` connections (:mod:`tablelight.web.budget`)."""
    try:
        return listening_socket(address, port, budget if budget is not None else Budget(), tls=tls)
    except OSError as error:
        raise SetupError(f"cannot serve on {address}:{port}: {error.strerror}") from None


async def serve(folder: Path, port: int = 8000, on_ready: Callable[[str, str | None], None] | None = None,
                share: str | None = None, https: HttpsChoice | None = None) -> None:
    """Serve ``folder`` until cancelled (``port`` 0: any free one); ``on_ready(url, phones_url)``
    once the sockets listen. ``share``: an address of this machine to serve the phones on too."""
    import uvicorn

    check_folder(folder)
    # both addresses share one budget of connections; its pools close silent and crowding ones first
    budget = Budget()
    pooled_http, _ = protocols(ConnectionLimits.within(budget.for_pools()))
    quiet_accept_errors(asyncio.get_running_loop())
    local = open_socket(port, HOST, budget)
    port = local.getsockname()[1]
    sockets: list[tuple[socket.socket, TlsFiles | None]] = [(local, None)]
    phones_url = None
    if share:
        shared = open_socket(port, share, budget, tls=https is not None)
        files = https.files_for([share]) if https is not None else None
        sockets.append((shared, files))
        phones_url = f"{'https' if files else 'http'}://{share}:{port}/"
    servers = []
    for sock, files in sockets:
        # the phones' address is told on this device's own address only
        app = static_app(folder, phones_url if sock is local else None)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", http=pooled_http, backlog=budget.burst,
                                ssl_certfile=str(files.cert) if files else None, ssl_keyfile=str(files.key) if files else None)
        servers.append(uvicorn.Server(config).serve(sockets=[sock]))
    if on_ready is not None:
        asyncio.get_running_loop().call_soon(on_ready, f"http://{HOST}:{port}/", phones_url)
    await asyncio.gather(*servers)
