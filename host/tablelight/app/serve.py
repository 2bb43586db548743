"""``tablelight app serve DIR``: a built app on http://127.0.0.1 (a secure context) for trying it.

Static files only, on one asyncio loop (uvicorn), with the MIME types the app needs (``.wasm``,
``.mjs``, ``.webmanifest``) and the app's Content-Security-Policy as a header too: the Web Worker's
script takes its policy from its own response, not from the page's meta tag.
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

HOST = "127.0.0.1"

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")


def static_app(folder: Path) -> Any:
    """The ASGI app serving ``folder`` (``/`` is index.html), with the policy headers."""
    from starlette.applications import Starlette
    from starlette.staticfiles import StaticFiles

    files = Starlette()
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


def open_socket(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as error:
        sock.close()
        raise SetupError(f"cannot serve on {HOST}:{port}: {error.strerror}") from None
    sock.listen(64)
    return sock


async def serve(folder: Path, port: int = 8000, on_ready: Callable[[str], None] | None = None) -> None:
    """Serve ``folder`` until cancelled; ``on_ready(url)`` once the socket listens (``port`` 0: any free one)."""
    import uvicorn

    check_folder(folder)
    sock = open_socket(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    config = uvicorn.Config(static_app(folder), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if on_ready is not None:
        asyncio.get_running_loop().call_soon(on_ready, url)
    await server.serve(sockets=[sock])
