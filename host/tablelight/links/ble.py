"""A Bluetooth LE link through bleak: the Nordic UART Service (NUS), as Adafruit's UARTService
offers it on an nRF52840 board.

The link is a plain byte stream (the same COBS frames as over USB): the host writes to RX in
chunks of the negotiated ATT payload (20 bytes at the default MTU), the board notifies on TX. Port
names: ``ble://AA:BB:CC:DD:EE:FF`` (an address; on macOS a CoreBluetooth UUID). Every wait is
bounded; bleak runs in its own event-loop thread so the session's threads stay synchronous.
A custom bleak backend (``backend=``) runs the same code against another stack (the tests use a
bumble-backed one: there is no Bluetooth radio on the CI machines).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from tablelight.links.base import LinkClosed

NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # the host writes here
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # the board notifies here
PREFIX = "ble://"


class BleLink:
    def __init__(self, port: str, *, backend: type[Any] | None = None, timeout: float = 10.0) -> None:
        try:
            from bleak import BleakClient
        except ImportError as error:  # an optional dependency: pip install 'tablelight[ble]'
            raise LinkClosed("Bluetooth LE needs bleak: pip install bleak") from error
        self.name = port
        self.address = port[len(PREFIX):] if port.startswith(PREFIX) else port
        self.timeout = timeout
        self._incoming: queue.Queue[bytes] = queue.Queue()
        self._closed = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name=f"ble {self.address}")
        self._thread.start()
        kwargs: dict[str, Any] = {"disconnected_callback": self._on_disconnect, "timeout": timeout}
        if backend is not None:
            kwargs["backend"] = backend
        self._client = BleakClient(self.address, **kwargs)
        try:
            self._call(self._connect(), timeout)
        except BaseException:
            self.close()
            raise

    async def _connect(self) -> None:
        await self._client.connect()
        await self._client.start_notify(NUS_TX, self._on_notify)

    def _on_notify(self, _characteristic: Any, data: bytearray) -> None:
        self._incoming.put(bytes(data))

    def _on_disconnect(self, _client: Any) -> None:
        self._closed.set()
        self._incoming.put(b"")  # wake a reader

    def _call(self, coroutine: Any, timeout: float) -> Any:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except FutureTimeout as error:
            future.cancel()
            raise LinkClosed(f"{self.name}: no answer within {timeout:g} s") from error
        except LinkClosed:
            raise
        except Exception as error:  # bleak raises BleakError, OSError, ... by backend
            raise LinkClosed(f"{self.name}: {error}") from error

    @property
    def chunk_size(self) -> int:
        """Largest write without response: ATT MTU - 3 (20 at the default MTU of 23)."""
        try:
            return max(20, int(self._client.mtu_size) - 3)
        except Exception:
            return 20

    def read(self, timeout: float) -> bytes:
        if self._closed.is_set() and self._incoming.empty():
            raise LinkClosed(f"{self.name}: disconnected")
        try:
            data = self._incoming.get(timeout=timeout)
        except queue.Empty:
            return b""
        while not self._incoming.empty():
            data += self._incoming.get_nowait()
        if not data and self._closed.is_set():
            raise LinkClosed(f"{self.name}: disconnected")
        return data

    def write(self, data: bytes) -> None:
        if self._closed.is_set():
            raise LinkClosed(f"{self.name}: disconnected")
        size = self.chunk_size
        for start in range(0, len(data), size):
            self._call(self._client.write_gatt_char(NUS_RX, data[start:start + size], response=False), self.timeout)

    def reset_input(self) -> None:
        while not self._incoming.empty():
            self._incoming.get_nowait()

    def close(self) -> None:
        if not self._loop.is_closed():
            if self._client.is_connected:
                try:
                    self._call(self._client.disconnect(), 5.0)
                except LinkClosed:
                    pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()
        self._closed.set()


def scan(timeout: float = 5.0, backend: type[Any] | None = None) -> list[tuple[str, str]]:
    """(address, name) of devices advertising the Nordic UART Service."""
    try:
        from bleak import BleakScanner
    except ImportError as error:
        raise LinkClosed("Bluetooth LE needs bleak: pip install bleak") from error

    async def run() -> list[tuple[str, str]]:
        kwargs: dict[str, Any] = {"service_uuids": [NUS_SERVICE]}
        if backend is not None:
            kwargs["backend"] = backend
        devices = await BleakScanner.discover(timeout=timeout, **kwargs)
        return [(d.address, d.name or "") for d in devices]

    return asyncio.run(run())
