"""``tablelight devices``: boards found on the serial ports, with their hello."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablelight.board.discover import BoardInfo, ble_candidates, candidates, probe_all
from tablelight.core.inputs import number_in_range
from tablelight.links.base import LinkClosed


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "devices", help="list tablelight boards on the serial ports (USB VID 0x239A, data interface) with their hello")
    parser.add_argument("--port", action="append", default=[], metavar="PORT",
                        help="also probe this port or pyserial URL (repeatable), for example a simulated board's pty")
    parser.add_argument("--all", action="store_true", help="probe every serial port, not only CircuitPython data ports")
    parser.add_argument("--ble", action="store_true", help="also scan Bluetooth LE for boards (Nordic UART Service), "
                        "with signal strength and whether this computer is paired with each")
    parser.add_argument("--timeout", type=number_in_range(0.01, 600), default=1.0, help="seconds to wait for each hello (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    parser.set_defaults(func=run)


def describe(board: BoardInfo) -> str:
    radio = ""
    if board.port.startswith("ble://"):
        signal = f"signal {board.rssi} dBm" if board.rssi is not None else "signal unknown"
        radio = f" [{board.description}, {signal}, {'paired' if board.paired else 'not paired'}]"
    if board.hello is None:
        return f"{board.port}{radio}  {board.description}: no tablelight hello ({board.error})"
    h = board.hello
    text = (f"{board.port}  {h.get('board', '?')} layout {h.get('layout', '?')}, firmware {h.get('firmware', '?')}, "
            f"protocol {h.get('protocol')}, {h.get('leds', '?')} LEDs, {h.get('keys', '?')} keys, "
            f"boot {h.get('boot_id', 0):08x}")
    if board.serial_number:
        text += f", USB serial {board.serial_number}"
    if board.error:  # the same check a session makes (board/handshake.py), without a layout
        text += f"; this host cannot drive it: {board.error}"
    return text + radio


def run(args: argparse.Namespace) -> int:
    boards = candidates(all_ports=args.all) + [BoardInfo(port=p, description="given") for p in args.port]
    ble_error = None  # why the Bluetooth scan asked for could not run: said once, at the end
    if args.ble:
        try:
            boards += ble_candidates(max(args.timeout, 3.0))
        except LinkClosed as error:
            ble_error = str(error)
    probe_all(boards, max(args.timeout, 5.0) if args.ble else args.timeout)
    if args.json:
        print(json.dumps([b.to_json() for b in boards]))
    elif not boards and ble_error:
        print(f"tablelight: no board on the serial ports, and no Bluetooth LE scan: {ble_error}", file=sys.stderr)
        return 1
    elif not boards:
        print("no CircuitPython data port found (USB VID 0x239A, interface \"CircuitPython CDC2 data\"): is the board "
              "plugged in, with the tablelight boot.py copied and the board reset? (--all probes every port)")
        return 1
    else:
        for board in boards:
            print(describe(board))
    if ble_error:
        print(f"tablelight: no Bluetooth LE scan: {ble_error}", file=sys.stderr)
    if args.json:
        return 0
    return 0 if any(b.hello for b in boards) else 1
