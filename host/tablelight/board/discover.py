"""Find tablelight boards on the serial ports.

A CircuitPython board shows two CDC interfaces; the data one is picked by USB VID 0x239A and the
interface name "CircuitPython CDC2 data" (never by enumeration order), then confirmed with a hello.
The probe runs the session's own handshake (board/handshake.py) up to the hello: it does not welcome
the board or take it over from another host, and reports why this host could not drive a board
whose hello it got (another protocol, too many LEDs for its firmware, ...).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from serial.tools import list_ports

from tablelight.board.errors import NoHello
from tablelight.board.handshake import Accepted, Handshake, Refused, drive
from tablelight.links.base import Link, LinkClosed
from tablelight.links.ble_keys import HostKeys
from tablelight.links.connect import open_link

CIRCUITPYTHON_VID = 0x239A
DATA_INTERFACE = "CircuitPython CDC2 data"


@dataclass
class BoardInfo:
    port: str
    description: str = ""
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    interface: str | None = None
    hello: dict[str, Any] | None = None
    error: str | None = None
    rssi: int | None = None  # Bluetooth LE: signal strength in dBm
    paired: bool | None = None  # Bluetooth LE: this computer holds a key for the board

    def to_json(self) -> dict[str, Any]:
        out = {"port": self.port, "description": self.description, "vid": self.vid, "pid": self.pid,
               "serial_number": self.serial_number, "interface": self.interface, "hello": self.hello,
               "error": self.error}
        if self.port.startswith("ble://"):
            out |= {"rssi": self.rssi, "paired": self.paired}
        return out


def is_data_port(info: Any) -> bool:
    """A CircuitPython board's data interface (not its REPL console)."""
    interface = (getattr(info, "interface", None) or "").lower()
    return getattr(info, "vid", None) == CIRCUITPYTHON_VID and ("cdc2" in interface or "data" in interface)


def ask_hello(port: str, timeout: float = 1.0,
              link_factory: Callable[[str], Link] | None = None) -> Accepted | Refused:
    """Run the session's handshake (board/handshake.py) up to the hello, without welcoming or
    refusing the board: Accepted with its hello, or Refused saying why this host could not drive it
    (its hello kept), or that nothing answered. Raises LinkClosed if the port cannot be used."""
    link = (link_factory or open_link)(port)
    try:
        link.reset_input()
        return drive(Handshake(nonce=random.randrange(1, 0x10000), now=time.monotonic(), timeout=timeout), link)
    finally:
        link.close()


def probe(port: str, timeout: float = 1.0, link_factory: Callable[[str], Link] | None = None) -> dict[str, Any]:
    """The hello of the board on ``port``, also of one this host could not drive. Raises LinkClosed
    when the port cannot be used, NoHello (naming the port and why) when no hello came: the board
    refused this host, or nothing answered."""
    outcome = ask_hello(port, timeout, link_factory)
    if outcome.hello is None:
        assert isinstance(outcome, Refused)
        raise NoHello(port, outcome.cause.value, outcome.reason)
    return outcome.hello


def candidates(all_ports: bool = False) -> list[BoardInfo]:
    """Serial ports that may be boards: CircuitPython data interfaces (or every port)."""
    found = []
    for info in sorted(list_ports.comports(), key=lambda i: i.device):
        if all_ports or is_data_port(info):
            found.append(BoardInfo(port=info.device, description=info.description or "", vid=info.vid,
                                   pid=info.pid, serial_number=info.serial_number, interface=info.interface))
    return found


def probe_all(boards: list[BoardInfo], timeout: float = 1.0,
              link_factory: Callable[[str], Link] | None = None) -> list[BoardInfo]:
    """Ask each board for its hello: ``hello`` is what it said; ``error`` why there is none, or
    why this host could not drive the board that said it."""
    for board in boards:
        try:
            outcome = ask_hello(board.port, timeout, link_factory)
        except LinkClosed as error:
            board.error = str(error)
            continue
        board.hello = outcome.hello
        board.error = outcome.reason if isinstance(outcome, Refused) else None
    return boards


def find_boards(timeout: float = 1.0, extra_ports: list[str] | None = None) -> list[BoardInfo]:
    """Boards that answered a hello: CircuitPython data ports found by USB id, plus ``extra_ports``."""
    boards = candidates() + [BoardInfo(port=p, description="given") for p in extra_ports or []]
    return [b for b in probe_all(boards, timeout) if b.hello is not None]


def ble_candidates(timeout: float = 5.0, scanner_backend: type[Any] | None = None,
                   keys: HostKeys | None = None) -> list[BoardInfo]:
    """Bluetooth LE devices advertising the Nordic UART Service, as ``ble://ADDRESS`` ports, with
    their signal strength and whether this computer is paired with them. Raises LinkClosed with
    the reason when there is no usable Bluetooth adapter or no permission."""
    from tablelight.links.ble import scan

    keys = keys or HostKeys()
    return [BoardInfo(port=f"ble://{address}", description=name or "BLE UART", rssi=rssi,
                      paired=keys.get(address) is not None)
            for address, name, rssi in scan(timeout, backend=scanner_backend)]
