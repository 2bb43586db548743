"""A serial link through pyserial: a device path (/dev/ttyACM1, COM5, a pty) or any pyserial URL
(loop://, socket://host:port)."""

from __future__ import annotations

import serial

from tablelight.links.base import LinkClosed


class SerialLink:
    def __init__(self, port: str) -> None:
        self.name = port
        try:
            if "://" in port:
                self._serial = serial.serial_for_url(port, baudrate=115200, timeout=0)
            else:
                # exclusive: a second program on the same port would corrupt both streams.
                # 115200 only for form: USB CDC ignores it (never 1200: that reboots a board
                # into its bootloader).
                self._serial = serial.Serial(port, baudrate=115200, timeout=0, write_timeout=2, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkClosed(f"cannot open {port}: {error}") from error

    def read(self, timeout: float) -> bytes:
        try:
            self._serial.timeout = timeout
            first = self._serial.read(1)
            if not first:
                return b""
            waiting = self._serial.in_waiting
            return first + (self._serial.read(waiting) if waiting else b"")
        except (serial.SerialException, OSError, TypeError) as error:
            raise LinkClosed(f"{self.name}: {error}") from error

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as error:
            raise LinkClosed(f"{self.name}: {error}") from error

    def fileno(self) -> int | None:
        """The file descriptor an event loop can watch (a device, a pty, socket://); None for
        transports without one (loop://, ...), which a driver reads with blocking calls."""
        try:
            return int(self._serial.fileno())
        except (AttributeError, NotImplementedError, OSError, ValueError):
            return None

    def reset_input(self) -> None:
        try:
            self._serial.reset_input_buffer()
        except (serial.SerialException, OSError) as error:
            raise LinkClosed(f"{self.name}: {error}") from error

    def close(self) -> None:
        try:
            self._serial.close()
        except (serial.SerialException, OSError):
            pass


def open_link(port: str) -> SerialLink:
    return SerialLink(port)
