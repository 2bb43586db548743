"""Slowing down whoever guesses join codes: each client, and the whole table.

A seat's code is 6 letters from a 31-letter alphabet (887,503,681 codes). Each client (an
IPv4 address, or an IPv6 /64 network: one machine can use a whole /64) may type
:data:`FREE_WRONG` wrong codes; after that it must wait before its next try, twice as long
after each further wrong code (1 s, 2 s, 4 s ... up to :data:`MAX_WAIT_S`). A right code
clears the client's record. Other clients are not slowed down by one client's guesses, so
one stranger cannot lock the players out of the join form; and at the cap a client gets 12
tries an hour, so even a few hundred addresses on a local network would need years to hit a
code (the codes live only until their seat joins). The records are bounded
(:data:`MAX_CLIENTS`): when full, the longest quiet one is forgotten.

Many addresses (a few hundred on a local network, one per loopback address on the host
itself) would multiply that, so the table as a whole also keeps a budget of wrong codes:
:data:`TABLE_FREE_WRONG` at once, one more every :data:`TABLE_REFILL_S` seconds. When it is
spent, a client that already typed a wrong code is refused unchecked until the budget refills;
a client's first try is still checked (a player who types the right code first time always
gets in; a player who mistyped can also join by the link or the QR code, which are never
throttled). So the table checks at most ``TABLE_FREE_WRONG`` + one per address + 360 an hour.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

#: Wrong codes a client may type before it has to wait.
FREE_WRONG = 5
#: The longest wait between two tries of one client (seconds).
MAX_WAIT_S = 300.0
#: Clients remembered at once.
MAX_CLIENTS = 4096
#: Wrong codes the whole table may get in a burst before clients that typed one must wait.
TABLE_FREE_WRONG = 30
#: One more wrong code is allowed to the table every this many seconds.
TABLE_REFILL_S = 10.0


@dataclass
class Record:
    wrong: int = 0
    #: When the client may try again (clock seconds).
    next_try: float = 0.0


def client_key(address: str | None) -> str:
    """The record a remote address counts against: the IPv4 address, or the IPv6 /64."""
    if not address:
        return ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        mapped = parsed.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def wait_after(wrong: int) -> float:
    """Seconds to wait after the ``wrong``-th wrong code in a row."""
    if wrong < FREE_WRONG:
        return 0.0
    return min(2.0 ** (wrong - FREE_WRONG), MAX_WAIT_S)


class CodeThrottle:
    """Per-client and table-wide backoff for typed codes. Thread-safe; ``clock`` is monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._records: OrderedDict[str, Record] = OrderedDict()
        #: Wrong codes the table may still take now, and when that was last worked out.
        self._budget = float(TABLE_FREE_WRONG)
        self._budget_at: float | None = None

    def __len__(self) -> int:
        """How many clients are remembered."""
        with self._lock:
            return len(self._records)

    def wait_left(self, address: str | None) -> int:
        """Whole seconds ``address`` must still wait before its next try (0: it may try now)."""
        with self._lock:
            found = self._records.get(client_key(address))
            if found is None:
                return 0
            return max(0, math.ceil(found.next_try - self.clock()))

    def table_wait_left(self, address: str | None) -> int:
        """Whole seconds ``address`` must wait because the table got too many wrong codes (0: none).

        Only a client with a wrong code on record waits here; its first try is always checked.
        """
        with self._lock:
            if client_key(address) not in self._records:
                return 0
            budget = self._refilled()
            return 0 if budget >= 1 else max(1, math.ceil((1 - budget) * TABLE_REFILL_S))

    def _refilled(self) -> float:
        now = self.clock()
        if self._budget_at is not None:
            self._budget = min(float(TABLE_FREE_WRONG), self._budget + (now - self._budget_at) / TABLE_REFILL_S)
        self._budget_at = now
        return self._budget

    def wrong(self, address: str | None) -> None:
        """``address`` typed a wrong code."""
        key = client_key(address)
        with self._lock:
            found = self._records.pop(key, None) or Record()
            found.wrong += 1
            found.next_try = self.clock() + wait_after(found.wrong)
            self._budget = max(0.0, self._refilled() - 1)
            self._records[key] = found  # most recent last
            while len(self._records) > MAX_CLIENTS:
                self._records.popitem(last=False)

    def right(self, address: str | None) -> None:
        """``address`` typed a right code: its record goes."""
        with self._lock:
            self._records.pop(client_key(address), None)
