"""``tablelight app serve DIR``: a built app on http://127.0.0.1 (a secure context) for trying it.

Static files only, on one asyncio loop (uvicorn): exactly the files the build wrote (its list in
``app.json``; anything else in the folder, dotfiles included, is 404), a file's gzip form where the
build wrote one and the browser accepts it (``Content-Encoding: gzip``), the MIME types the app
needs (``.wasm``, ``.mjs``, ``.webmanifest``) and the app's Content-Security-Policy as a header too:
the Web Worker's script takes its policy from its own response, not from the page's meta tag. A
request naming a ``Host`` other than the addresses served is refused (421), as the play server does.

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
import os
import socket
import stat
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablelight.app.build import CSP
from tablelight.app.manifest import GZIP, MANIFEST, listed
from tablelight.core.errors import SetupError
from tablelight.web.budget import Budget, listening_socket, quiet_accept_errors
from tablelight.web.guard import Guard
from tablelight.web.limits import ConnectionLimits, protocols
from tablelight.web.tls import HttpsChoice, TlsFiles

if TYPE_CHECKING:
    from starlette.datastructures import Headers

HOST = "127.0.0.1"

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")


#: Where the table's page asks which address phones open the app at: the shared one on this
#: device's own address, none elsewhere (the build also writes the file, for plain static hosts).
PHONES_ADDRESS = "/phones-address.json"


class BuiltFiles:
    """The files the build wrote in ``folder`` (its manifest, :mod:`tablelight.app.manifest`),
    read again when the manifest changes (a new build while serving)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seen: tuple[int, int] | None = None
        self.names: frozenset[str] = frozenset()

    def current(self) -> frozenset[str]:
        try:
            state = (self.folder / MANIFEST).stat()
            key = (state.st_mtime_ns, state.st_size)
        except OSError:
            return frozenset()
        if key != self.seen:
            self.names = frozenset(listed(self.folder) or ())
            self.seen = key
        return self.names

    def file(self, name: str) -> tuple[Path, os.stat_result] | None:
        """The regular file ``name`` (listed, not a link), with its stat; None otherwise."""
        if name not in self.current():
            return None
        path = self.folder / name
        try:
            state = path.lstat()
        except OSError:
            return None
        return (path, state) if stat.S_ISREG(state.st_mode) else None


def accepts_gzip(headers: Headers) -> bool:
    for part in headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            quality = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
            try:
                return float(quality) > 0
            except ValueError:
                return False
    return False


def static_app(folder: Path, hosts: list[str], phones_url: str | None = None, scheme: str = "http") -> Any:
    """The ASGI app serving the files the build wrote in ``folder`` (``/`` is index.html) and no
    other, their gzip forms to browsers that take them, with the policy headers; requests naming
    another ``Host`` than ``hosts`` are refused (:class:`tablelight.web.guard.Guard`).
    :data:`PHONES_ADDRESS` names ``phones_url`` (None: none)."""
    from starlette.datastructures import Headers
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response

    built = BuiltFiles(folder)
    policy = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "cache-control": "no-cache",
              "referrer-policy": "no-referrer", "vary": "Accept-Encoding"}

    def answer(scope: MutableMapping[str, Any]) -> Any:
        if scope["method"] not in ("GET", "HEAD"):
            return PlainTextResponse("the app's files are read only", 405, headers={**policy, "allow": "GET, HEAD"})
        path = scope["path"]
        if path == PHONES_ADDRESS:
            return JSONResponse({"url": phones_url}, headers=policy)
        name = "index.html" if path == "/" else path.removeprefix("/")
        found = built.file(name)
        if found is None:
            return PlainTextResponse("not found", 404, headers=policy)
        request = Headers(scope=scope)
        packed = built.file(name + GZIP) if accepts_gzip(request) else None
        path_sent, state = packed or found
        headers = {**policy, **({"content-encoding": "gzip"} if packed else {})}
        response = FileResponse(path_sent, headers=headers, stat_result=state,
                                media_type=mimetypes.guess_type(name)[0] or "application/octet-stream")
        if request.get("if-none-match") == response.headers["etag"]:
            # a 304's headers replace the kept copy's: the policy goes with it (the guard's own
            # policy, stricter, would stop the worker's WebAssembly)
            return Response(status_code=304, headers={**headers, "etag": response.headers["etag"]})
        return response

    async def app(scope: MutableMapping[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "no sockets here"})
            return
        if scope["type"] == "http":
            await answer(scope)(scope, receive, send)

    return Guard(app, hosts, scheme=scheme)


def check_folder(folder: Path) -> None:
    if not (folder / "index.html").is_file() or not (folder / MANIFEST).is_file():
        raise SetupError(f"{folder} holds no built app (no index.html and app.json): run `tablelight app build {folder}`")
    if listed(folder) is None:
        raise SetupError(f"{folder} was built by an older tablelight (its app.json lists no files): run "
                         f"`tablelight app build {folder}` again")


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
        if sock is local:
            app = static_app(folder, [f"{HOST}:{port}", f"localhost:{port}"], phones_url)
        else:
            app = static_app(folder, [f"{share}:{port}"], None, "https" if files else "http")
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", http=pooled_http, backlog=budget.burst,
                                ssl_certfile=str(files.cert) if files else None, ssl_keyfile=str(files.key) if files else None)
        servers.append(uvicorn.Server(config).serve(sockets=[sock]))
    if on_ready is not None:
        asyncio.get_running_loop().call_soon(on_ready, f"http://{HOST}:{port}/", phones_url)
    await asyncio.gather(*servers)
