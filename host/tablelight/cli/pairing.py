"""``tablelight pair`` and ``tablelight forget``: Bluetooth LE pairing with a board.

Pairing needs someone at the board: hold key 0 while powering the board up (its LEDs 0-3 pulse
blue: the pairing window), run ``tablelight pair``, check that the board shows the colour code
printed here, and press any key on the board (docs/user-guide.md, docs/protocol.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tablelight.links.base import LinkClosed
from tablelight.links.ble import PREFIX, scan
from tablelight.links.ble_keys import HostKeys, KeyStoreError
from tablelight.links.ble_pairing import forget, pair


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("pair", help="pair this computer with a board over Bluetooth LE (hold key 0 while "
                                           "powering the board up first)")
    p.add_argument("port", nargs="?", help="ble://ADDRESS or ble://NAME (default: the one board advertising)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds for each Bluetooth step (default 10)")
    p.set_defaults(func=run_pair)
    f = subparsers.add_parser("forget", help="unpair a board: it forgets this computer and this computer forgets it")
    f.add_argument("port", help="ble://ADDRESS or ble://NAME")
    f.add_argument("--local-only", action="store_true",
                   help="only forget the board on this computer (a board that is lost or reset)")
    f.add_argument("--timeout", type=float, default=10.0, help="seconds for each Bluetooth step (default 10)")
    f.set_defaults(func=run_forget)


def _error(text: str) -> int:
    print(f"tablelight: {text}", file=sys.stderr)
    return 1


def _only_board(timeout: float) -> str:
    found = scan(min(timeout, 5.0))
    if len(found) == 1:
        return PREFIX + found[0][0]
    if not found:
        raise LinkClosed("no board is advertising the tablelight (Nordic UART) service: is it on, in range and "
                         "not connected to another computer?")
    names = ", ".join(f"{PREFIX}{address} ({name or 'no name'})" for address, name, _ in found)
    raise LinkClosed(f"several boards are advertising; name one: {names}")


def show_code(names: list[str]) -> None:
    print(f"The board shows this colour code on LEDs 0-3: {' '.join(names)}")
    print("If it matches, press any key on the board to accept (60 s). If not, do nothing: someone else is pairing.")
    sys.stdout.flush()


def run_pair(args: argparse.Namespace) -> int:
    try:
        port = args.port if args.port else _only_board(args.timeout)
        if not port.startswith(PREFIX):
            return _error(f"{port}: pairing is for Bluetooth LE boards: give ble://ADDRESS or ble://NAME")
        address = pair(port, on_code=show_code, timeout=args.timeout)
    except (LinkClosed, KeyStoreError) as error:
        return _error(str(error))
    print(f"paired with {PREFIX}{address}: `tablelight play ... --board {PREFIX}{address}` uses it")
    return 0


def run_forget(args: argparse.Namespace) -> int:
    port = args.port if args.port.startswith(PREFIX) else PREFIX + args.port
    keys = HostKeys()
    try:
        if args.local_only:
            if not keys.remove(port):
                return _error(f"{port}: this computer has no key for that board (`tablelight devices --ble` lists "
                              "boards; forget takes the address shown there)")
            print(f"forgot {port} on this computer (the board still lists this computer until it is reset or "
                  "forgets it)")
            return 0
        address = forget(port, keys=keys, timeout=args.timeout)
    except (LinkClosed, KeyStoreError) as error:
        return _error(f"{error} (--local-only forgets the board on this computer alone)")
    print(f"{PREFIX}{address} forgot this computer, and this computer forgot it")
    return 0
