"""What the app benches share: a temporary folder and an ``app serve`` child that go away however
the bench ends, waits with deadlines that name what did not come, and the bytes a visit moved.

A bench stopped by SIGTERM or SIGHUP unwinds as on Ctrl-C (its ``finally`` blocks run: browser,
server and folder go); the server child also dies with the bench if the bench is killed outright
(Linux's parent-death signal), and the next bench removes the folders such a killed bench left.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: The bench's temporary folders are named with this and the bench's process id.
PREFIX = "tablelight-bench-"


class Stopped(BaseException):
    """The bench was asked to stop (SIGTERM, SIGHUP): raised where it runs, so everything unwinds."""


def _stop(signum: int, _frame: Any) -> None:
    raise Stopped(f"stopped by signal {signum}")


@contextlib.contextmanager
def bench_folder() -> Iterator[Path]:
    """A temporary folder for one bench run, removed however the run ends; folders left by benches
    that were killed outright are removed first."""
    root = Path(tempfile.gettempdir())
    for old in root.glob(f"{PREFIX}*"):
        pid = old.name[len(PREFIX):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(old, ignore_errors=True)
    handlers = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError):  # not the main thread: signals stay as they were
            handlers[signum] = signal.signal(signum, _stop)
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the bench dies (Linux; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


SERVE_START_S = 30.0


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """``tablelight app serve folder`` in a child process; its address while the block runs."""
    server = subprocess.Popen([sys.executable, "-m", "tablelight", "app", "serve", str(folder), "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    try:
        assert server.stdout is not None
        line = read_line(server.stdout, SERVE_START_S)
        if " at http://" not in line:
            raise RuntimeError(f"tablelight app serve did not start within {SERVE_START_S:g} s: {line!r}")
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def read_line(stream: Any, timeout: float) -> str:
    """A line of a child's output, or "" when none comes within ``timeout`` seconds."""
    import select

    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else ""


def wait_until(check: Callable[[], bool], what: str, timeout: float, poll: Callable[[], None]) -> None:
    """Call ``poll`` (the page's own short wait, so its events run) until ``check()`` holds; a
    :class:`RuntimeError` naming ``what`` did not come after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come within {timeout:g} s")
        poll()


def evaluate_within(page: Any, function: str, arg: Any, timeout: float, what: str) -> Any:
    """``page.evaluate(function, arg)`` (a function of one argument, maybe async), or a
    :class:`RuntimeError` naming ``what`` did not come after ``timeout`` seconds (Playwright's
    evaluate itself waits for ever)."""
    raced = (f"([arg, ms]) => Promise.race([Promise.resolve(({function})(arg)), new Promise((_, reject) => "
             f"setTimeout(() => reject(new Error('timed out')), ms))])")
    try:
        return page.evaluate(raced, [arg, int(timeout * 1000)])
    except Exception as error:
        if "timed out" in str(error):
            raise RuntimeError(f"{what} did not come within {timeout:g} s") from None
        raise


class Traffic:
    """The bytes a browser context moved over the network (headers and bodies as sent, so compressed),
    from Playwright's request sizes; what the service worker answered from its cache moved none."""

    def __init__(self, context: Any) -> None:
        self.bytes = 0
        self.requests = 0
        self.open = 0
        context.on("request", self._started)
        context.on("requestfinished", self._finished)
        context.on("requestfailed", lambda request: self._ended())

    def _started(self, request: Any) -> None:
        self.open += 1

    def _ended(self) -> None:
        self.open -= 1

    def _finished(self, request: Any) -> None:
        self._ended()
        response = request.response()
        if response is None or response.from_service_worker:
            return
        sizes = request.sizes()
        self.bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        self.requests += 1

    def take(self, page: Any, timeout: float = 60.0) -> tuple[int, int]:
        """(bytes, requests) since the last take, once no request is open."""
        wait_until(lambda: self.open <= 0, "the end of the page's requests", timeout, lambda: page.wait_for_timeout(20))
        taken = (self.bytes, self.requests)
        self.bytes = self.requests = 0
        return taken
