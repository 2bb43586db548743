"""Room for strangers' connections that never crowds out the seats and the host.

uvicorn's own ``limit_concurrency`` answers 503 to every request once that many connections
(WebSockets included) are open, so a stranger holding 64 silent sockets stopped every seat.
Instead :class:`ConnectionLimits` keeps each connection in one of four pools:

* *strangers*: every connection until one of its requests carries a token with a place at the
  table (the host's, or a joined device's: :meth:`~tablelight.web.access.Access.has_place`);
* *public sockets*: WebSockets without such a token (the public board page's, for anyone at
  the table to watch), and apart from them a few (:data:`OWN_SCREENS`) from the table's own
  machine (a second screen beside the host's), which strangers' watchers never take;
* *placed*: connections whose requests carried such a token: the seats' and the host's;
* *handshakes*: with ``--https``, connections whose TLS handshake is under way
  (:mod:`tablelight.web.tls_front`); they join the strangers when it is done.

Each pool has a share per address (an IPv4 address or an IPv6 /64) and a total. A new
connection is always let in (nobody can tell a seat's from a stranger's before its request
arrives); a pool over a limit makes room by closing the oldest connection of the address over
its share, else of the address holding most of the pool. So a flood from one address crowds
out only itself, a flood from many addresses ages out within moments (a real client's
connection sends its request at once and is placed or answered long before it is the
oldest), and strangers never close a placed connection. A public socket costs more (it is
sent the board and the news on every change), so it is refused instead (before the app sees
it) when its address has its share, or when the pool is full and letting it in would not
even out the addresses' shares. Memory stays bounded by the pools' totals.

Also here: the h11 and WebSocket protocol classes that report to the pools (and close a
connection that does not send its request in time, or a socket that talks when the pages
never do), and :data:`SERVER_LOG`, which keeps uvicorn's complaints about what strangers send
off the shared terminal.
"""

from __future__ import annotations

import logging
import socket
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import CloseCode

from tablelight.web.throttle import client_key

#: Connections without a place, from one address and in all.
STRANGERS_PER_ADDRESS = 16
STRANGERS = 128
#: WebSockets without a place (the public board page's), from one address and in all.
PUBLIC_SOCKETS_PER_ADDRESS = 2
PUBLIC_SOCKETS = 16
#: WebSockets without a place from the table's own machine (the address the server listens on, as
#: a second screen beside the host's): room that strangers' watchers never take.
OWN_SCREENS = 4
#: Connections of the seats and the host, from one address and in all.
PLACED_PER_ADDRESS = 64
PLACED = 256
#: TLS handshakes under way (``--https``; each holds a 256 kB buffer), from one address and in all.
HANDSHAKES_PER_ADDRESS = 8
HANDSHAKES = 32
#: Messages a socket may send at once, and then per second: the pages send (next to) none, so
#: more is someone else's program, and each message costs the server a wake-up.
PEER_MESSAGES = 16
PEER_MESSAGES_PER_S = 2.0

POLICY_VIOLATION = CloseCode.POLICY_VIOLATION  # 1008
#: The close code of a public socket refused for want of room (:mod:`tablelight.web.guard` says why).
TRY_AGAIN_LATER = CloseCode.TRY_AGAIN_LATER  # 1013
#: A connection's (server address, client address), as in the ASGI scope.
Key = tuple[Any, Any]


def connection_key(scope: dict[str, Any] | Any) -> Key:
    server, client = scope.get("server"), scope.get("client")
    return (tuple(server) if server else None, tuple(client) if client else None)


def from_the_table(key: Key) -> bool:
    """Whether a connection comes from the machine the table runs on: its client's address is the
    address it reached (127.0.0.1 to 127.0.0.1, or the network address to itself)."""
    server, client = key
    return bool(server and client) and server[0] == client[0]


@dataclass
class Entry:
    key: Key
    address: str
    close: Callable[[], None]


class Pool:
    """Connections of one kind, oldest first, with a share per address and a total."""

    def __init__(self, name: str, per_address: int, total: int) -> None:
        self.name = name
        self.per_address = per_address
        self.total = total
        self.members: OrderedDict[Key, Entry] = OrderedDict()
        self.by_address: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self.members)

    def add(self, entry: Entry) -> Entry | None:
        """Take ``entry``; the connection to close to make room for it, if any (already removed)."""
        self.members[entry.key] = entry
        self.by_address[entry.address] += 1
        if self.by_address[entry.address] > self.per_address:
            return self.remove(self.oldest_of(entry.address))
        if len(self.members) > self.total:
            most = max(self.by_address.values())
            return self.remove(next(e.key for e in self.members.values() if self.by_address[e.address] == most))
        return None

    def admit(self, entry: Entry) -> tuple[bool, Entry | None]:
        """Take ``entry`` if its address is under its share and the pool has room, or can make room
        fairly (by closing the oldest of an address holding at least two more): (taken, to close)."""
        held = self.by_address[entry.address]
        if held >= self.per_address:
            return False, None
        crowded = None
        if len(self.members) >= self.total:
            most = max(self.by_address.values())
            if held + 1 >= most:
                return False, None
            crowded = self.remove(next(e.key for e in self.members.values() if self.by_address[e.address] == most))
        self.members[entry.key] = entry
        self.by_address[entry.address] += 1
        return True, crowded

    def oldest_of(self, address: str) -> Key:
        return next(e.key for e in self.members.values() if e.address == address)

    def remove(self, key: Key) -> Entry | None:
        entry = self.members.pop(key, None)
        if entry is not None:
            self.by_address[entry.address] -= 1
            if not self.by_address[entry.address]:
                del self.by_address[entry.address]
        return entry


class ConnectionLimits:
    """The pools of one server's connections. Called on the server's event loop only."""

    def __init__(
        self,
        *,
        strangers: tuple[int, int] = (STRANGERS_PER_ADDRESS, STRANGERS),
        public_sockets: tuple[int, int] = (PUBLIC_SOCKETS_PER_ADDRESS, PUBLIC_SOCKETS),
        placed: tuple[int, int] = (PLACED_PER_ADDRESS, PLACED),
        handshakes: tuple[int, int] = (HANDSHAKES_PER_ADDRESS, HANDSHAKES),
    ) -> None:
        self.strangers = Pool("strangers", *strangers)
        self.handshakes = Pool("handshakes", *handshakes)
        self.public_sockets = Pool("public sockets", *public_sockets)
        self.own_screens = Pool("own screens", OWN_SCREENS, OWN_SCREENS)
        self.placed = Pool("placed", *placed)
        self._pool_of: dict[Key, Pool] = {}
        #: Connections closed to make room for newer ones, per pool name.
        self.crowded_out: Counter[str] = Counter()
        #: Public sockets refused for want of room.
        self.refused_sockets = 0

    @classmethod
    def within(cls, budget: int) -> ConnectionLimits:
        """The pools at their usual sizes or, when together they would hold more than ``budget``
        (:meth:`~tablelight.web.budget.Budget.for_pools`), smaller in the same proportions."""
        sizes = {"strangers": (STRANGERS_PER_ADDRESS, STRANGERS), "public_sockets": (PUBLIC_SOCKETS_PER_ADDRESS, PUBLIC_SOCKETS),
                 "placed": (PLACED_PER_ADDRESS, PLACED), "handshakes": (HANDSHAKES_PER_ADDRESS, HANDSHAKES)}
        room = budget
        whole = sum(total for _, total in sizes.values())
        if whole <= room:
            return cls()
        scaled = {}
        for name, (per_address, total) in sizes.items():
            smaller = max(2, total * room // whole)
            scaled[name] = (min(per_address, smaller), smaller)
        return cls(**scaled)

    def open_connections(self) -> int:
        return len(self._pool_of)

    def opened(self, key: Key, close: Callable[[], None], *, handshake: bool = False) -> None:
        """A new connection (a stranger until a request of it shows a place); ``handshake``: one
        whose TLS handshake is under way (it is opened again when that is done)."""
        self.closed(key)  # a connection on the same ports that is gone (its own word comes later)
        address = client_key(key[1][0] if key[1] else None)
        self._move(Entry(key, address, close), self.handshakes if handshake else self.strangers)

    def place(self, key: Key) -> None:
        """A request of this connection carried a token with a place at the table."""
        self._move_known(key, self.placed)

    def public_socket(self, key: Key) -> bool:
        """This connection asks to become a WebSocket without a place: False when there is no room
        for it (the caller refuses it; it stays a stranger until it closes)."""
        current = self._pool_of.get(key)
        if current is None or current is not self.strangers:
            return True  # closed already, or placed (a placed connection keeps its place)
        entry = self.strangers.members[key]
        pool = self.own_screens if from_the_table(key) else self.public_sockets
        taken, crowded = pool.admit(entry)
        if not taken and pool is self.own_screens:  # its own room is full: it may still watch as anyone may
            pool = self.public_sockets
            taken, crowded = pool.admit(entry)
        if not taken:
            self.refused_sockets += 1
            return False
        self.strangers.remove(key)
        self._pool_of[key] = pool
        if crowded is not None:
            self._close(crowded, pool)
        return True

    def closed(self, key: Key, close: Callable[[], None] | None = None) -> None:
        """The connection is gone; with ``close``, only if the pool's entry is still that connection's."""
        pool = self._pool_of.get(key)
        if pool is None or (close is not None and pool.members[key].close != close):
            return
        del self._pool_of[key]
        pool.remove(key)

    def _move_known(self, key: Key, pool: Pool) -> None:
        current = self._pool_of.get(key)
        if current is None or current is pool:
            return  # closed already, or there already
        entry = current.remove(key)
        if entry is not None:
            self._move(entry, pool)

    def _move(self, entry: Entry, pool: Pool) -> None:
        self._pool_of[entry.key] = pool
        crowded = pool.add(entry)
        if crowded is not None:
            self._close(crowded, pool)

    def _close(self, crowded: Entry, pool: Pool) -> None:
        del self._pool_of[crowded.key]
        self.crowded_out[pool.name] += 1
        crowded.close()


class RequestDeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that also closes a connection idle before (or trickling) its request.

    Every connection must send complete request headers within ``timeout_keep_alive``
    seconds of opening or of its last answer; uvicorn alone times out only between requests
    and restarts the clock on every byte. (The body has its own deadline: :class:`~tablelight.web.guard.Guard`.)
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


class PooledH11Protocol(RequestDeadlineH11Protocol):
    """Reports its connection to :attr:`limits` (set on the subclass :func:`protocols` makes)."""

    limits: ConnectionLimits

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        send_at_once(transport)
        self.pool_key: Key = (self.server, self.client)
        self.limits.opened(self.pool_key, transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self.limits.closed(self.pool_key, self.transport.close)
        super().connection_lost(exc)


class PooledWebSocketProtocol(WebSocketsSansIOProtocol):
    """A WebSocket (upgraded from a :class:`PooledH11Protocol`) that leaves its pool when it
    closes and is closed when its peer sends more than :data:`PEER_MESSAGES` messages at once
    or more than :data:`PEER_MESSAGES_PER_S` a second for long."""

    limits: ConnectionLimits

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.pool_key: Key = (self.server, self.client)
        self.allowance = float(PEER_MESSAGES)
        self.allowance_at = self.loop.time()

    def connection_lost(self, exc: Exception | None) -> None:
        self.limits.closed(self.pool_key, self.transport.close)
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message.get("type") == "websocket.close" and message.get("code") == TRY_AGAIN_LATER:
            self.transport.close()  # a refused watcher's close frame is written; its answer is not waited for

    def handle_text(self, event: Any) -> None:
        if self.counted():
            super().handle_text(event)

    def handle_bytes(self, event: Any) -> None:
        if self.counted():
            super().handle_bytes(event)

    def counted(self) -> bool:
        now = self.loop.time()
        self.allowance = min(float(PEER_MESSAGES), self.allowance + (now - self.allowance_at) * PEER_MESSAGES_PER_S)
        self.allowance_at = now
        if self.allowance >= 1:
            self.allowance -= 1
            return True
        if not self.close_sent:
            try:
                self.conn.send_close(POLICY_VIOLATION, "this socket takes no messages")
                self.transport.write(b"".join(self.conn.data_to_send()))
            except InvalidState:  # closing already
                pass
            self.close_sent = True
        self.transport.close()
        return False


def send_at_once(transport: Any) -> None:
    """Turn off Nagle's algorithm: an answer goes out as its head and its body, and the body
    must not wait for the peer's delayed ACK of the head (40 ms on Linux). asyncio does this
    itself only for sockets made with ``proto=IPPROTO_TCP``, and the server's listening
    sockets are made with 0."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # the peer is gone already
            pass


def protocols(limits: ConnectionLimits) -> tuple[type[PooledH11Protocol], type[PooledWebSocketProtocol]]:
    """The http and ws protocol classes for uvicorn's Config, reporting to ``limits``."""
    http = type("PooledH11ProtocolOfServer", (PooledH11Protocol,), {"limits": limits})
    ws = type("PooledWebSocketProtocolOfServer", (PooledWebSocketProtocol,), {"limits": limits})
    return http, ws


class ServerLog(logging.Handler):
    """Counts uvicorn's messages and keeps the last few instead of printing them: they are about
    what other programs send (a bad request, a dropped body), and the terminal is the table's."""

    def __init__(self, keep: int = 20) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0
        self.last: deque[str] = deque(maxlen=keep)

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        try:
            self.last.append(self.format(record)[:4000])
        except Exception:  # a record that cannot be formatted is still counted
            pass

    def note(self, text: str) -> None:
        """Count and keep a complaint that came from elsewhere than a logger (asyncio's loop)."""
        self.count += 1
        self.last.append(text[:4000])


SERVER_LOG = ServerLog()


def keep_server_logs_off_the_terminal() -> None:
    """Send uvicorn's loggers to :data:`SERVER_LOG` only (uvicorn's Config is given ``log_config=None``)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = [SERVER_LOG]
        logger.propagate = False
