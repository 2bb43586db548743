"""``tablelight app serve`` keeps below the process's limit on open files (:mod:`tablelight.web.budget`).

The server runs with a limit of 128 open files and gets 300 silent connections from 50
loopback addresses. Before the budget it stopped answering for good and printed thousands of
"Too many open files" tracebacks; now it answers while they are held and after they close, and
prints nothing about them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import httpx

from tablelight.app.build import Built

from ..web.test_descriptor_budget import SILENT, low_limit, silent_connections
from .conftest import ROOT


def test_app_serve_answers_through_more_silent_connections_than_open_files(built_app: Built) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"), PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "tablelight", "app", "serve", str(built_app.folder), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=low_limit)
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        line = process.stdout.readline()  # type: ignore[union-attr]
        assert " at http://" in line, line
        url = line.split(" at ", 1)[1].split()[0]
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        assert httpx.get(url, timeout=10).status_code == 200
        held = silent_connections(host, int(port), SILENT)
        try:
            assert httpx.get(url + "app.json", timeout=10).status_code == 200
        finally:
            for sock in held:
                sock.close()
        assert httpx.get(url, timeout=10).status_code == 200
        assert process.poll() is None
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a server that stopped answering may not stop either
            process.kill()
            process.wait(timeout=20)
        reader.join(timeout=10)
    printed = "".join(errors)
    assert "Traceback" not in printed and "Too many open files" not in printed, printed[-3000:]
