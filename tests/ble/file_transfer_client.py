"""Adafruit's own FileTransferClient against the simulated board's file transfer service.

Run by tests/ble/test_file_transfer.py in a child process with the simulated board's fakes first
on sys.path (adafruit_ble and the client import CircuitPython's _bleio; the fakes' stand-in is it).
The client's service is a PacketBuffer stand-in: what it writes reaches the server in packets of
an ATT MTU of 23 (20 bytes), the server's notifications come back at most 244 bytes (MTU 247), as
between a phone and an nRF52840. Prints one JSON object: what each call returned.
usage: python file_transfer_client.py DRIVE_FOLDER
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import _bleio

from tablelight.sim.file_transfer import VERSION, FileTransferServer


class Raw:
    """The transfer characteristic's PacketBuffer, looped to the server in this process."""

    outgoing_packet_length = 20
    incoming_packet_length = 244

    def __init__(self, server: FileTransferServer) -> None:
        self.server = server
        self.notified: list[bytes] = []

    def write(self, data: Any) -> None:
        if len(data) > self.outgoing_packet_length:
            raise ValueError(f"a {len(data)}-byte packet on a link that carries {self.outgoing_packet_length}")
        self.notified += self.server.receive(bytes(data))

    def readinto(self, buffer: Any) -> int:
        if not self.notified:
            raise RuntimeError("the service did not answer")  # a real client would wait forever
        packet = self.notified[0]
        if len(packet) > len(buffer):
            raise ValueError("buffer too short")  # as PacketBuffer: the packet stays for a longer buffer
        buffer[:len(packet)] = packet
        self.notified.pop(0)
        return len(packet)


# The board's _bleio stand-in has no PacketBuffer (the firmware never uses one); the client's module
# names it in an annotation, so it gets this one.
_bleio.PacketBuffer = Raw  # type: ignore[attr-defined]
from adafruit_ble_file_transfer import FileTransferClient  # noqa: E402


class Service:
    version = VERSION

    def __init__(self, server: FileTransferServer) -> None:
        self.raw = Raw(server)


def main(folder: Path) -> None:
    client = FileTransferClient(Service(FileTransferServer(folder)))
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
    try:
        client.read("/missing.py")
        answers["read_missing"] = "read"
    except ValueError as error:
        answers["read_missing"] = str(error)
    try:
        client.move("/code.py", "/lib/tablelight/moved.bin")
        answers["move_onto_existing"] = "moved"
    except ValueError as error:
        answers["move_onto_existing"] = str(error)
    try:
        client.delete("/nothing-here")
        answers["delete_missing"] = "deleted"
    except ValueError as error:
        answers["delete_missing"] = str(error)
    answers["listdir_missing"] = client.listdir("/no-such-folder/")
    print(json.dumps(answers))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
