"""CircuitPython's BLE file transfer service (16-bit UUID 0xFEBB), served from a folder that
stands in for the simulated board's CIRCUITPY drive.

A real nRF52840 board serves it from CircuitPython's supervisor (docs/workflows.md, "BLE"; the
protocol is Adafruit's open File Transfer API, adafruit/Adafruit_CircuitPython_BLE_File_Transfer,
version 4): the client writes commands to one characteristic (write without response) and the
board answers by notifications on it. Every command is little-endian; paths are absolute and
UTF-8, a folder's ends with "/". The board never takes more than it offered: a write goes in
chunks of the free space it names (WRITE_PACING), a read in chunks the client asks for
(READ_PACING), so a small board's buffers are never overrun.

:class:`FileTransferServer` is that protocol as a state machine over a folder: :meth:`receive`
takes one packet as it arrived (a command may span several) and returns the notifications to
send, each at most ``notify_size`` bytes. No radio here: the simulated board serves it on its
radio (sim/ble_workflow.py), where Adafruit's own ``FileTransferClient`` drives it
(tests/ble/test_file_transfer.py).
"""

from __future__ import annotations

import shutil
import struct
from dataclasses import dataclass
from pathlib import Path

VERSION = 4
SERVICE_UUID16 = 0xFEBB

READ, READ_DATA, READ_PACING = 0x10, 0x11, 0x12
WRITE, WRITE_PACING, WRITE_DATA = 0x20, 0x21, 0x22
DELETE, DELETE_STATUS = 0x30, 0x31
MKDIR, MKDIR_STATUS = 0x40, 0x41
LISTDIR, LISTDIR_ENTRY = 0x50, 0x51
MOVE, MOVE_STATUS = 0x60, 0x61
OK, ERROR, ERROR_NO_FILE, ERROR_PROTOCOL = 0x01, 0x02, 0x03, 0x04
DIRECTORY = 0x01

#: The most file data the board takes in one chunk of a write (a small board's buffer).
WRITE_CHUNK = 512
#: FAT keeps modification times to 2 s; CircuitPython answers with the time truncated to 3 s steps.
TIME_STEP_NS = 3 * 1_000_000_000

#: Each command's fixed header (after which come its path bytes).
HEADERS = {READ: "<BxHII", WRITE: "<BxHIQI", DELETE: "<BxH", MKDIR: "<BxHxxxxQ", LISTDIR: "<BxH", MOVE: "<BxHH"}


@dataclass
class _Writing:
    target: Path
    data: bytearray
    offset: int
    total: int
    stamp: int


@dataclass
class _Reading:
    data: bytes
    offset: int


class FileTransferServer:
    """The protocol over ``root`` (the board's drive); one client at a time."""

    def __init__(self, root: Path, notify_size: int = 244) -> None:
        self.root = root
        self.notify_size = notify_size
        self._pending = bytearray()
        self._writing: _Writing | None = None  # a write in progress (kept in memory until whole)
        self._reading: _Reading | None = None  # a read waiting for the client's pacing
        #: Commands that changed the drive so far (after each, CircuitPython triggers an autoreload).
        self.changes = 0

    # ------------------------------------------------ packets in, notifications out

    def receive(self, packet: bytes) -> list[bytes]:
        self._pending += packet
        out: list[bytes] = []
        while self._pending:
            answer = self._step()
            if answer is None:
                break  # the command's rest has not arrived yet
            out += answer
        return [piece for message in out for piece in self._split(message)]

    def disconnected(self) -> None:
        """The link dropped: a half-done transfer is forgotten (its file untouched)."""
        self._pending.clear()
        self._writing = None
        self._reading = None

    def _split(self, message: bytes) -> list[bytes]:
        return [message[i:i + self.notify_size] for i in range(0, len(message), self.notify_size)] or [b""]

    def _take(self, size: int) -> bytes | None:
        if len(self._pending) < size:
            return None
        taken = bytes(self._pending[:size])
        del self._pending[:size]
        return taken

    def _step(self) -> list[bytes] | None:
        if self._writing is not None:
            return self._write_data()
        if self._reading is not None:
            return self._read_pacing()
        command = self._pending[0]
        if command not in HEADERS:
            self._pending.clear()
            return []  # CircuitPython ignores what it does not know
        header = HEADERS[command]
        fixed = struct.calcsize(header)
        if len(self._pending) < fixed:
            return None
        fields = struct.unpack_from(header, self._pending)
        path_bytes = fields[1] + (1 + fields[2] if command == MOVE else 0)
        if len(self._pending) < fixed + path_bytes:
            return None
        self._take(fixed)
        paths = self._take(path_bytes) or b""
        if command == MOVE:  # two paths, split by their byte lengths (a space between them)
            return self._move(paths[:fields[1]].decode("utf-8", "replace"), paths[fields[1] + 1:].decode("utf-8", "replace"))
        handler = {READ: self._read, WRITE: self._write, DELETE: self._delete, MKDIR: self._mkdir,
                   LISTDIR: self._listdir}[command]
        return handler(fields, paths.decode("utf-8", "replace"))

    # ------------------------------------------------ paths

    def _local(self, path: str) -> Path | None:
        """The file under root that ``path`` names, or None when it leaves root."""
        parts = [p for p in path.split("/") if p]
        if any(p in (".", "..") for p in parts):
            return None
        return self.root.joinpath(*parts)

    # ------------------------------------------------ commands

    def _read(self, fields: tuple[int, ...], path: str) -> list[bytes]:
        _, _, offset, free = fields
        target = self._local(path)
        if target is None or not target.is_file():
            return [struct.pack("<BBxxIII", READ_DATA, ERROR_NO_FILE, 0, 0, 0)]
        data = target.read_bytes()
        return self._read_chunk(data, offset, free)

    def _read_chunk(self, data: bytes, offset: int, free: int) -> list[bytes]:
        size = max(0, min(free, len(data) - offset))
        chunk = struct.pack("<BBxxIII", READ_DATA, OK, offset, len(data), size) + data[offset:offset + size]
        self._reading = _Reading(data, offset + size) if offset + size < len(data) else None
        return [chunk]

    def _read_pacing(self) -> list[bytes] | None:
        packet = self._take(struct.calcsize("<BBxxII"))
        if packet is None:
            return None
        command, status, offset, free = struct.unpack("<BBxxII", packet)
        reading = self._reading
        assert reading is not None
        self._reading = None
        if command != READ_PACING or status != OK or offset != reading.offset:
            return [struct.pack("<BBxxIII", READ_DATA, ERROR_PROTOCOL, 0, 0, 0)]
        return self._read_chunk(reading.data, offset, free)

    def _write(self, fields: tuple[int, ...], path: str) -> list[bytes]:
        _, _, offset, modified, total = fields
        stamp = modified // TIME_STEP_NS * TIME_STEP_NS
        target = self._local(path)
        if target is None or not target.parent.is_dir() or target.is_dir() or path.endswith("/"):
            return [struct.pack("<BBxxIQI", WRITE_PACING, ERROR, 0, 0, 0)]
        old = target.read_bytes() if target.is_file() else b""
        data = bytearray(old[:total]) + bytearray(max(0, total - len(old)))
        self._writing = _Writing(target, data, offset, total, stamp)
        return self._pace()

    def _pace(self) -> list[bytes]:
        writing = self._writing
        assert writing is not None
        offset, total, stamp = writing.offset, writing.total, writing.stamp
        if offset >= total:
            writing.target.write_bytes(bytes(writing.data))
            self._writing = None
            self.changes += 1
            return [struct.pack("<BBxxIQI", WRITE_PACING, OK, total, stamp, 0)]
        return [struct.pack("<BBxxIQI", WRITE_PACING, OK, offset, stamp, min(WRITE_CHUNK, total - offset))]

    def _write_data(self) -> list[bytes] | None:
        fixed = struct.calcsize("<BBxxII")
        if len(self._pending) < fixed:
            return None
        command, status, offset, size = struct.unpack_from("<BBxxII", self._pending)
        writing = self._writing
        assert writing is not None
        if command != WRITE_DATA or status != OK or offset != writing.offset:
            self._pending.clear()
            self._writing = None  # the client gave up (or lost its place): the file stays as it was
            return [struct.pack("<BBxxIQI", WRITE_PACING, ERROR_PROTOCOL, 0, 0, 0)] if command == WRITE_DATA and status == OK else []
        if len(self._pending) < fixed + size:
            return None
        self._take(fixed)
        chunk = self._take(size) or b""
        writing.data[offset:offset + size] = chunk
        writing.offset = offset + size
        return self._pace()

    def _delete(self, fields: tuple[int, ...], path: str) -> list[bytes]:
        target = self._local(path)
        if target is None or target == self.root or not target.exists():
            return [struct.pack("<BB", DELETE_STATUS, ERROR)]
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
        self.changes += 1
        return [struct.pack("<BB", DELETE_STATUS, OK)]

    def _mkdir(self, fields: tuple[int, ...], path: str) -> list[bytes]:
        stamp = fields[2] // TIME_STEP_NS * TIME_STEP_NS
        target = self._local(path)
        try:
            if target is None:
                raise OSError("outside the drive")
            target.mkdir(parents=True, exist_ok=True)
            self.changes += 1
        except OSError:  # a file where a folder goes
            return [struct.pack("<BBxxxxxxQ", MKDIR_STATUS, ERROR, 0)]
        return [struct.pack("<BBxxxxxxQ", MKDIR_STATUS, OK, stamp)]

    def _listdir(self, fields: tuple[int, ...], path: str) -> list[bytes]:
        folder = self._local(path)
        if folder is None or not folder.is_dir():
            return [struct.pack("<BBHIIIQI", LISTDIR_ENTRY, ERROR, 0, 0, 0, 0, 0, 0)]
        entries = sorted(folder.iterdir())
        out = []
        for number, entry in enumerate(entries):
            name = entry.name.encode()
            is_dir = entry.is_dir()
            stat = entry.stat()
            out.append(struct.pack("<BBHIIIQI", LISTDIR_ENTRY, OK, len(name), number, len(entries),
                                   DIRECTORY if is_dir else 0, stat.st_mtime_ns // TIME_STEP_NS * TIME_STEP_NS,
                                   0 if is_dir else stat.st_size) + name)
        out.append(struct.pack("<BBHIIIQI", LISTDIR_ENTRY, OK, 0, len(entries), len(entries), 0, 0, 0))
        return out

    def _move(self, old_path: str, new_path: str) -> list[bytes]:
        old, new = self._local(old_path), self._local(new_path)
        if old is None or new is None or old == self.root or not old.exists() or new.exists() or not new.parent.is_dir():
            return [struct.pack("<BB", MOVE_STATUS, ERROR)]
        old.rename(new)
        self.changes += 1
        return [struct.pack("<BB", MOVE_STATUS, OK)]
