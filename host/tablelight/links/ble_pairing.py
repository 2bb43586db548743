"""Pairing this computer with a board over Bluetooth LE, and forgetting it (`tablelight pair`,
`tablelight forget`; the protocol is in docs/protocol.md, "Bluetooth LE").

Pairing: connect and encrypt (the board's "just works" bond), send a new host key (MSG_PAIR). If
the board's pairing window is open it shows the key's colour code on LEDs 0-3; the host prints the
same code, and a press of any key on the board accepts it. Only then is the key stored here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelight.links.base import LinkClosed
from tablelight.links.ble import PREFIX, BleLink
from tablelight.links.ble_keys import HostKeys, new_key
from tablelight.wire import auth, wire

CONFIRM_TIMEOUT_S = 65.0  # the board waits 60 s for a press


def code_names(code: bytes) -> list[str]:
    return [wire.PAIR_COLOURS[i][0] for i in code]


def pair(port: str, *, keys: HostKeys | None = None, on_code: Callable[[list[str]], None] = lambda names: None,
         backend: type[Any] | None = None, scanner_backend: type[Any] | None = None, timeout: float = 10.0,
         confirm_timeout: float = CONFIRM_TIMEOUT_S) -> str:
    """Pair with the board on ``port``; returns its address. LinkClosed with the board's reason if
    it refuses (window closed, nobody pressed a key)."""
    keys = keys or HostKeys()
    link = BleLink(port, backend=backend, scanner_backend=scanner_backend, timeout=timeout, authenticate=False)
    try:
        key = new_key()
        state, code, text = link.exchange(wire.encode_host_key(wire.MSG_PAIR, key), timeout)
        if state == wire.PAIR_WAITING:
            on_code(code_names(code))
            state, code, text = link.next_pair_state(confirm_timeout)
        if state != wire.PAIR_ACCEPTED:
            raise LinkClosed(f"{port}: the board did not pair: {text}")
        if text != "already paired":
            keys.put(link.address, key)
        return link.address
    finally:
        link.close()


def forget(port: str, *, keys: HostKeys | None = None, backend: type[Any] | None = None,
           scanner_backend: type[Any] | None = None, timeout: float = 10.0) -> str:
    """Make the board on ``port`` forget this computer, then forget the board here (key and bond).
    Returns the address. If the board cannot be reached, LinkClosed (nothing is forgotten)."""
    keys = keys or HostKeys()
    link = BleLink(port, backend=backend, scanner_backend=scanner_backend, timeout=timeout, keys=keys)
    try:
        # no key on the air: the board forgets the key this session proved it holds
        state, _code, text = link.exchange(auth.encode_forget(), timeout)
        if state != wire.PAIR_FORGOTTEN:
            raise LinkClosed(f"{port}: the board did not forget this computer: {text}")
        keys.remove(link.address)
        link.unpair()
        return link.address
    finally:
        link.close()


def port_of(address: str) -> str:
    return address if address.startswith(PREFIX) else PREFIX + address
