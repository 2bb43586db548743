"""The connections a server may hold, below the process's limit on open files.

Every connection is a file descriptor, and a process may hold only so many (``RLIMIT_NOFILE``,
1,024 on most systems). A server that accepts until the limit runs out cannot open anything
else: asyncio then prints a traceback for every failed accept (thousands a second), the table
cannot open its store or its board, and a server that hit it may never answer again.

So each server holds a :class:`Budget`: the process's limit, less the descriptors open when it
starts (the board's link, the store, a simulated board's terminal) and a reserve for what the
table opens later. Its listening sockets (:func:`listening_socket`) count every connection
they accept and release it when it is closed; past the budget a new connection is accepted
and closed at once (with a one-line ``503`` on plain HTTP), so the process never runs out, and
new connections are taken again as soon as old ones close. Nothing is printed for it:
:func:`quiet_accept_errors` keeps asyncio's own complaints (should another part of the
process use up the files) off the shared terminal, counted in :data:`~tablelight.web.limits.SERVER_LOG`.

Which connections go first when a server is busy (strangers' before the seats'): the pools of
:mod:`tablelight.web.limits`, sized to fit in the budget (:meth:`ConnectionLimits.within`).
"""

from __future__ import annotations

import asyncio
import os
import resource
import socket
import threading
from typing import Any

#: Descriptors kept for what the process opens after the server starts (the store's journal, a
#: board that comes back, a host page's file, a browser's pipes): a sixteenth of the limit, 16-64.
RESERVE_SHARE = 16
RESERVE_MIN = 16
RESERVE_MAX = 64
#: The least budget, whatever the limit (a server that holds fewer cannot serve a page).
BUDGET_MIN = 8
#: Connections accepted in one go (see :attr:`Budget.burst`).
BURST_MIN = 4
BURST_MAX = 64
#: Connections the system keeps waiting to be accepted (the listening socket's queue).
LISTEN_QUEUE = 2048
#: Connections over the budget refused in one go before the loop does something else.
REFUSALS_AT_ONCE = 64
BUSY_ANSWER = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
               b"Content-Length: 64\r\nConnection: close\r\nRetry-After: 1\r\n\r\n"
               b"this server holds all the connections it can: try again shortly\n")
assert len(BUSY_ANSWER.split(b"\r\n\r\n", 1)[1]) == 64


def open_descriptors() -> int:
    """How many files this process holds open now."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder)) - 1  # listing the folder opens one
        except OSError:
            continue
    return 32  # no way to count them here: a guess on the safe side for a table


def descriptor_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class Budget:
    """How many connections a server's listening sockets may hold at once (thread-safe)."""

    def __init__(self, total: int | None = None) -> None:
        if total is None:
            limit = descriptor_limit()
            reserve = min(RESERVE_MAX, max(RESERVE_MIN, limit // RESERVE_SHARE))
            total = max(BUDGET_MIN, limit - open_descriptors() - reserve - 1)  # one more: a refused one, for a moment
        self.total = total
        #: Connections asyncio may accept in one go (uvicorn's ``backlog``), before the pools of
        #: :mod:`tablelight.web.limits` sort them: the pools leave room for a few such bursts.
        self.burst = min(BURST_MAX, max(BURST_MIN, total // 8))
        self.held = 0
        #: Connections refused because the budget was spent.
        self.refused = 0
        self._lock = threading.Lock()

    def for_pools(self) -> int:
        """How many connections the pools may hold together: the budget less three bursts."""
        return max(BUDGET_MIN, self.total - 3 * self.burst)

    def take(self) -> bool:
        with self._lock:
            if self.held >= self.total:
                self.refused += 1
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.held -= 1


class CountedSocket(socket.socket):
    """An accepted connection that gives its place in the budget back when it is closed."""

    budget: Budget | None = None

    def close(self) -> None:
        budget, self.budget = self.budget, None
        super().close()
        if budget is not None:
            budget.give_back()


class ListeningSocket(socket.socket):
    """A listening socket whose :meth:`accept` (asyncio's, for uvicorn) keeps to :attr:`budget`."""

    budget: Budget
    #: Whether its connections speak TLS from their first byte (then a refusal is a bare close).
    tls = False

    def listen(self, backlog: int = LISTEN_QUEUE) -> None:
        """asyncio listens again with uvicorn's ``backlog`` (the burst): the queue stays long."""
        super().listen(max(backlog, LISTEN_QUEUE))

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSALS_AT_ONCE):
            fd, address = self._accept()  # type: ignore[attr-defined]  # BlockingIOError: none waiting
            if self.budget.take():
                conn = CountedSocket(self.family, self.type, self.proto, fileno=fd)
                conn.budget = self.budget
                if socket.getdefaulttimeout() is None and self.gettimeout():
                    conn.setblocking(True)  # as socket.socket.accept does
                return conn, address
            refuse(fd, self.tls)
        raise BlockingIOError("connections over the budget were refused; the rest wait their turn")


def refuse(fd: int, tls: bool) -> None:
    """Close a connection over the budget at once, telling a plain HTTP client why in one line."""
    conn = socket.socket(fileno=fd)
    try:
        conn.setblocking(False)
        if not tls:
            conn.send(BUSY_ANSWER)
    except OSError:
        pass
    finally:
        conn.close()


def listening_socket(address: str, port: int, budget: Budget, *, tls: bool = False) -> ListeningSocket:
    """A TCP socket bound to ``address:port`` and listening, holding at most ``budget`` connections.
    OSError when it cannot be bound (the caller says so in its words)."""
    sock = ListeningSocket(socket.AF_INET, socket.SOCK_STREAM)
    sock.budget = budget
    sock.tls = tls
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen()
    except OSError:
        sock.close()
        raise
    return sock


#: What asyncio says when an accept finds no file descriptor left (see :func:`quiet_accept_errors`).
ACCEPT_OUT_OF_RESOURCE = "socket.accept() out of system resource"


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Send asyncio's "out of system resource" complaints about accepting to the server log (counted,
    never printed: the terminal is the players'); everything else goes where it went."""
    from tablelight.web.limits import SERVER_LOG

    previous = loop.get_exception_handler()
    if getattr(previous, "keeps_accept_errors_quiet", False):
        return

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith(ACCEPT_OUT_OF_RESOURCE):
            SERVER_LOG.note(f"{ACCEPT_OUT_OF_RESOURCE}: {context.get('exception')!r}")
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    handler.keeps_accept_errors_quiet = True  # type: ignore[attr-defined]
    loop.set_exception_handler(handler)
