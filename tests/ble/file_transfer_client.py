"""Adafruit's own FileTransferClient, on Adafruit's Blinka _bleio over bleak, against the simulated
board's BLE workflow on bumble's virtual radio (run by tests/ble/test_file_transfer.py in a child
process whose path has Blinka's _bleio: the test process must keep the board's stand-in).

What runs unchanged: adafruit_ble's BLERadio (scan, connect), adafruit_ble_file_transfer 4.0.14,
Blinka's _bleio 4.1.2 (scan entries, connection, service discovery, characteristic writes), bleak's
client and scanner, with bleak's custom-backend hook pointed at the host's virtual adapter (there is
no BlueZ here), which pairs "just works" when the board refuses an unencrypted link, as BlueZ does.

Blinka's _bleio cannot run the client as it is, for two reasons this file works around (SHIMS):
- its PacketBuffer takes no ``max_packet_size`` (the client passes 512: TypeError);
- its PacketBuffer never subscribes to the remote characteristic, so no notification ever arrives
  and the client waits forever for the board's first answer; CircuitPython's own PacketBuffer
  writes the CCCD when it is made on a remote characteristic (ports/*/common-hal/_bleio).

usage: python file_transfer_client.py DRIVE_FOLDER  (prints one JSON object: what each call returned)
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import _bleio
import bleak

from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualRadio
from tablelight.sim.radio_bleak import make_client_backend

#: BlueZ asks for the largest ATT MTU at connection; the nordic board answers 512.
BLUEZ_MTU = 517


class PacketBuffer(_bleio.PacketBuffer):  # type: ignore[misc,name-defined]
    """SHIMS (see the module's docstring): Blinka's PacketBuffer, with what CircuitPython's does."""

    def __init__(self, characteristic: Any, *, buffer_size: int, max_packet_size: int | None = None) -> None:
        super().__init__(characteristic, buffer_size=buffer_size)
        characteristic.set_cccd(notify=True)


def main(drive: Path) -> dict[str, Any]:
    radio = VirtualRadio()
    phone = radio.adapter("host")
    board = SimBoard.start(None, firmware=drive, radio=radio, ble_workflow=True)
    try:
        bleak.get_platform_scanner_backend_type = lambda: (phone.scanner_backend, "tablelight-virtual")
        bleak.get_platform_client_backend_type = lambda: (make_client_backend(phone, BLUEZ_MTU, pair_on_demand=True),
                                                         "tablelight-virtual")
        _bleio.PacketBuffer = PacketBuffer  # type: ignore[attr-defined]
        from adafruit_ble import BLERadio
        from adafruit_ble.advertising.standard import ProvideServicesAdvertisement
        from adafruit_ble_file_transfer import FileTransferClient, FileTransferService

        ble = BLERadio()
        connection = None
        for advertisement in ble.start_scan(ProvideServicesAdvertisement, timeout=20):
            if FileTransferService in advertisement.services:
                connection = ble.connect(advertisement)
                break
        ble.stop_scan()
        if connection is None:
            return {"error": "no board advertised the file transfer service within 20 s"}
        answers = run(FileTransferClient(connection[FileTransferService]))
        answers["paired"] = bool(board.radio and phone.radio.call(phone.bonded(board.ble_address or "")))
        boots = board.boots
        connection.disconnect()
        # the drive changed: the board restarts into it once the phone let go (sim/ble_workflow.py)
        restarted = threading.Event()
        for _ in range(200):
            if board.boots > boots:
                restarted.set()
                break
            restarted.wait(0.05)
        answers["restarted"] = restarted.is_set() and board.reloads == 1
        return answers
    finally:
        board.stop()
        radio.close()


def run(client: Any) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    big = bytes(range(256)) * 13  # 3,328 bytes: several write chunks and read chunks
    answers["mkdir"] = client.mkdir("/lib/tablelight/", modification_time=10 * 1_000_000_000)
    answers["write_big"] = client.write("/lib/tablelight/big.bin", big, modification_time=7 * 1_000_000_000)
    client.write("/code.py", b"print('hello')\n")
    client.write("/empty.txt", b"")
    answers["listdir_root"] = sorted((name, size, flags) for name, size, flags, _ in client.listdir("/"))
    answers["listdir_lib"] = [(name, size, flags) for name, size, flags, _ in client.listdir("/lib/tablelight/")]
    answers["read_big_matches"] = bytes(client.read("/lib/tablelight/big.bin")) == big
    answers["read_from_offset"] = bytes(client.read("/code.py", offset=6)).decode()
    answers["read_empty"] = bytes(client.read("/empty.txt")).decode()
    client.move("/lib/tablelight/big.bin", "/lib/tablelight/moved.bin")
    client.delete("/empty.txt")
    for name, call in (("read_missing", lambda: client.read("/missing.py")),
                       ("move_onto_existing", lambda: client.move("/code.py", "/lib/tablelight/moved.bin")),
                       ("delete_missing", lambda: client.delete("/nothing-here"))):
        try:
            call()
            answers[name] = "done"
        except ValueError as error:
            answers[name] = str(error)
    answers["listdir_missing"] = client.listdir("/no-such-folder/")
    return answers


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
