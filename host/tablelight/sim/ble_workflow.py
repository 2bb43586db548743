"""CircuitPython's BLE workflow on the simulated board: the supervisor's file transfer service
(0xFEBB) on the board's radio, over its drive folder. Runs in the board's process (sim/runner.py),
beside the firmware, over the _bleio stand-in, as supervisor/shared/bluetooth/file_transfer.c runs
beside code.py on a board:

- a version characteristic (0x0100 under the file transfer base UUID, open, 4 bytes: 4) and a
  transfer characteristic (0x0200: write without response and notify, encrypted link only, so a
  central's first use makes the two pair "just works");
- a ``_bleio.PacketBuffer`` on the transfer characteristic; a background thread feeds its packets to
  :class:`~tablelight.sim.file_transfer.FileTransferServer` and notifies the answers;
- the board advertises the service (and the name ``CIRCUITPYxxxx``) while nothing is connected,
  until code.py advertises for itself (the supervisor leaves the radio to a program that uses it);
- a command that changed the drive asks for a reload. CircuitPython triggers an autoreload after
  each such command (file_transfer.c), which runs once the transfer has been quiet for a moment;
  users of real nRF52840 boards report that the link drops with it, after every save
  (circuitpython/web-editor#509, whose editor now reconnects by itself). The simulated board
  restarts once the central has let go (``on_changed`` is called when the link that changed files is
  gone); with ``autoreload_s`` it restarts, as those boards do, once the transfer has been quiet
  that long after a change, the link dropping with it (for clients that must reconnect midway).
"""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablelight.sim.file_transfer import SERVICE_UUID16, VERSION, FileTransferServer

#: CircuitPython's file transfer base UUID, little-endian ("refsnarTeliF" and 0xadaf), the 16-bit
#: value in bytes 12-13.
BASE_UUID = b"refsnarTeliF\x00\x00\xaf\xad"
#: The supervisor's PacketBuffer: 2 x 10 ring-buffer packets, a 512-byte sector and a 12-byte header.
PACKET_BUFFER_SIZE = 2 * 10 + 512 + 12
MAX_PACKET = 512


def vendor_uuid(bleio: Any, uuid16: int) -> Any:
    raw = bytearray(BASE_UUID)
    raw[12], raw[13] = uuid16 & 0xFF, uuid16 >> 8
    return bleio.UUID(bytes(raw))


def advertisement(name: str) -> tuple[bytes, bytes]:
    """Flags, the 16-bit service list with 0xFEBB; the name in the scan response."""
    data = bytes([2, 0x01, 0x06, 3, 0x03]) + struct.pack("<H", SERVICE_UUID16)
    encoded = name.encode()[:29]
    return data, bytes([len(encoded) + 1, 0x09]) + encoded


class FileTransferWorkflow:
    """The service over ``drive`` on ``bleio`` (the stand-in module); :meth:`start` its thread."""

    def __init__(self, bleio: Any, drive: Path, on_changed: Callable[[], None],
                 autoreload_s: float | None = None) -> None:
        self.bleio = bleio
        self.on_changed = on_changed
        self.autoreload_s = autoreload_s
        self.server = FileTransferServer(drive)
        service = bleio.Service(bleio.UUID(SERVICE_UUID16))
        Characteristic, Attribute = bleio.Characteristic, bleio.Attribute
        Characteristic.add_to_service(service, vendor_uuid(bleio, 0x0100), properties=Characteristic.READ,
                                      read_perm=Attribute.OPEN, write_perm=Attribute.NO_ACCESS, max_length=4,
                                      fixed_length=True, initial_value=struct.pack("<I", VERSION))
        transfer = Characteristic.add_to_service(
            service, vendor_uuid(bleio, 0x0200),
            properties=Characteristic.READ | Characteristic.WRITE_NO_RESPONSE | Characteristic.NOTIFY,
            read_perm=Attribute.ENCRYPT_NO_MITM, write_perm=Attribute.ENCRYPT_NO_MITM, max_length=MAX_PACKET)
        self.packets = bleio.PacketBuffer(transfer, buffer_size=PACKET_BUFFER_SIZE, max_packet_size=MAX_PACKET)
        self._changes_seen = 0
        self._quiet_since = time.monotonic()
        self._left = threading.Event()
        bleio.adapter._disconnection_listeners.append(self._left.set)

    def start(self) -> None:
        threading.Thread(target=self._serve, daemon=True, name="ble workflow").start()
        self.advertise()

    def advertise(self) -> None:
        """Advertise the service unless a central is connected or code.py took the radio."""
        adapter = self.bleio.adapter
        if adapter.connected or adapter._advertising or adapter._program_advertised:
            return
        adapter._start_workflow_advertising(*advertisement(adapter.name))

    def _serve(self) -> None:
        buffer = bytearray(MAX_PACKET)
        while True:
            if self._left.is_set():
                self._left.clear()
                self._on_left()
            if not self.packets._wait(0.1):
                self._maybe_autoreload()
                continue
            size = self.packets.readinto(buffer)
            if size <= 0:
                continue
            packet = bytes(buffer[:size])
            self.server.notify_size = max(20, self.packets.outgoing_packet_length)
            for answer in self.server.receive(packet):
                self.packets.write(answer)
            self._quiet_since = time.monotonic()

    def _maybe_autoreload(self) -> None:
        """With ``autoreload_s``: the drive changed and nothing came for that long: restart now."""
        quiet = time.monotonic() - self._quiet_since
        if self.autoreload_s is not None and self.server.changes > self._changes_seen and quiet >= self.autoreload_s:
            self._changes_seen = self.server.changes
            self.on_changed()

    def _on_left(self) -> None:
        self.server.disconnected()
        if self.bleio.adapter.connected:
            return
        if self.server.changes > self._changes_seen:
            self._changes_seen = self.server.changes
            self.on_changed()
            return
        self.advertise()
