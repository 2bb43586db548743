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
    build.set_defaults(func=run_build)
    serve = actions.add_parser("serve", help="serve a built app on http://127.0.0.1 (a secure context)")
    serve.add_argument("folder", type=Path, metavar="DIR")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    serve.set_defaults(func=run_serve)


def run_build(args: argparse.Namespace) -> int:
    from tablelight.app.build import build_app

    built = build_app(args.folder, args.pyodide)
    print(f"built the app in {built.folder} ({built.files} files, {built.size / 1e6:.1f} MB, Pyodide {built.pyodide}, "
          f"version {built.version})")
    if built.uncompiled:
        print(f"the engines' modules are not compiled ({built.uncompiled}): each visit compiles them, about 0.1 s slower")
    print(f"try it: tablelight app serve {built.folder}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from tablelight.app.serve import check_folder, serve

    check_folder(args.folder)
    asyncio.run(serve(args.folder, args.port, lambda url: print(f"serving {args.folder} at {url} (Ctrl-C stops)", flush=True)))
    return 0
