"""``tablelight app build DIR`` and ``tablelight app serve DIR``: the whole table as a web app
(Pyodide in a Web Worker, offline after the first visit; see :mod:`tablelight.app`)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("app", help="the whole table in a browser: build the web app, serve it for trying")
    actions = parser.add_subparsers(dest="app_action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="write the app (page, worker, pinned Pyodide, slim wheel) into DIR")
    build.add_argument("folder", type=Path, metavar="DIR")
    build.add_argument("--pyodide", type=Path, metavar="DIR",
                       help="the npm package pyodide's folder (default: node_modules/pyodide of this checkout)")
    build.add_argument("--force", action="store_true",
                       help="build into a folder that holds files the build did not write (they stay, never served)")
    build.set_defaults(func=run_build)
    serve = actions.add_parser("serve", help="serve a built app on http://127.0.0.1 (a secure context)")
    serve.add_argument("folder", type=Path, metavar="DIR")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    serve.add_argument("--share", metavar="lan|ADDRESS",
                       help="serve it on the local network too, for the other players' phones: lan (this machine's "
                            "network address) or an address of this machine; this device keeps 127.0.0.1")
    serve.add_argument("--https", action="store_true",
                       help="serve the shared address over HTTPS (a self-signed certificate, kept with the game store)")
    serve.add_argument("--https-cert", metavar="FILE", help="the shared address's certificate (with --https-key)")
    serve.add_argument("--https-key", metavar="FILE", help="its private key")
    serve.set_defaults(func=run_serve)


def run_build(args: argparse.Namespace) -> int:
    from tablelight.app.build import build_app

    built = build_app(args.folder, args.pyodide, args.force)
    print(f"built the app in {built.folder} ({built.files} files, {built.size / 1e6:.1f} MB, Pyodide {built.pyodide}, "
          f"version {built.version})")
    if built.uncompiled:
        print(f"the engines' modules are not compiled ({built.uncompiled}): each visit compiles them, about 0.1 s slower")
    print(f"try it: tablelight app serve {built.folder}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from tablelight.app.serve import check_folder, serve
    from tablelight.core.errors import SetupError
    from tablelight.table.store import default_path
    from tablelight.web.server import share_address
    from tablelight.web.tls import HttpsChoice

    check_folder(args.folder)
    share = share_address(args.share)
    # the self-signed certificate is kept where `tablelight play --https` keeps its own (never in
    # the served folder: its key would be served with it)
    https = HttpsChoice.from_options(args.https, args.https_cert, args.https_key, default_path().parent)
    if https is not None and share is None:
        raise SetupError("--https serves the shared address: give --share lan (this device's own 127.0.0.1 needs none)")

    def ready(url: str, phones_url: str | None) -> None:
        print(f"serving {args.folder} at {url} (Ctrl-C stops): open it on this device", flush=True)
        if phones_url:
            print(f"phones open it at {phones_url}: the table's join codes point there", flush=True)

    asyncio.run(serve(args.folder, args.port, ready, share, https))
    return 0
