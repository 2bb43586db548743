"""Slowing down whoever guesses join codes, one client at a time.

A seat's code is 6 letters from a 31-letter alphabet (887,503,681 codes). Each client (an
IPv4 address, or an IPv6 /64 network: one machine can use a whole /64) may type
:data:`FREE_WRONG` wrong codes; after that it must wait before its next try, twice as long
after each further wrong code (1 s, 2 s, 4 s ... up to :data:`MAX_WAIT_S`). A right code
clears the client's record. Other clients are never slowed down by one client's guesses, so
a stranger cannot lock the players out of the join form; and at the cap a client gets 12
tries an hour, so even a few hundred addresses on a local network would need years to hit a
code (the codes live only until their seat joins). The records are bounded
(:data:`MAX_CLIENTS`): when full, the longest quiet one is forgotten.
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
    """Per-client backoff for typed codes. Thread-safe; ``clock`` is monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._records: OrderedDict[str, Record] = OrderedDict()

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

    def wrong(self, address: str | None) -> None:
        """``address`` typed a wrong code."""
        key = client_key(address)
        with self._lock:
            found = self._records.pop(key, None) or Record()
            found.wrong += 1
            found.next_try = self.clock() + wait_after(found.wrong)
            self._records[key] = found  # most recent last
            while len(self._records) > MAX_CLIENTS:
                self._records.popitem(last=False)

    def right(self, address: str | None) -> None:
        """``address`` typed a right code: its record goes."""
        with self._lock:
            self._records.pop(client_key(address), None)
