"""A Bluetooth LE link through bleak: the Nordic UART Service (NUS) of the board's adafruit_ble,
on an encrypted link, opened with this computer's key for the board (docs/protocol.md).

The link is a plain byte stream (the same COBS frames as over USB): the host writes to RX in
chunks of the negotiated ATT payload (20 bytes at the default MTU), the board notifies on TX.
Port names: ``ble://AA:BB:CC:DD:EE:FF`` (an address; on macOS a CoreBluetooth UUID) or
``ble://NAME`` (the first board advertising the UART service under that name). Opening a link
connects, pairs (a bonded board only re-encrypts), subscribes and authenticates by challenge-response
with the key that `tablelight pair` stored (tablelight.wire.auth: the key never crosses the air);
a board that does not know the key refuses with its reason.
Every wait is bounded; bleak runs in its own event-loop thread so the session's threads stay
synchronous. A custom bleak backend (``backend=``) runs the same code on another stack (the
tests and `tablelight bench link --ble` use bumble's virtual radio: tablelight.sim.radio).
"""

from __future__ import annotations

import asyncio
import queue
import re
import threading
import time
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from tablelight.links.base import LinkClosed
from tablelight.links.ble_keys import HostKeys
from tablelight.wire import auth, wire

NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # the host writes here
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # the board notifies here
PREFIX = "ble://"
# The board's RX buffer holds 512 bytes (the nordic port's limit); its main loop drains it every
# pass. A write with response after this many bytes paces a long frame at one round trip per window.
PACE_BYTES = 240
_ADDRESS = re.compile(r"^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$|^[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$")


def _bleak() -> Any:
    try:
        import bleak
    except ImportError as error:  # an optional dependency: pip install 'tablelight[ble]'
        raise LinkClosed("Bluetooth LE needs bleak: pip install 'tablelight[ble]'") from error
    return bleak


def adapter_error(error: BaseException) -> str:
    """A readable reason for a failure of the platform's Bluetooth stack."""
    text = str(error) or type(error).__name__
    lowered = text.lower()
    if "permission" in lowered or "not authorized" in lowered or "notpermitted" in lowered:
        return (f"no permission to use Bluetooth ({text}): on Linux add yourself to the 'bluetooth' group, "
                "on macOS allow Bluetooth for the terminal in System Settings > Privacy")
    no_stack = isinstance(error, FileNotFoundError)  # BlueZ: no D-Bus system bus socket
    if (no_stack or "no bluetooth adapter" in lowered or "adapter" in lowered and "not found" in lowered
            or "org.bluez" in lowered or "bluetoothd" in lowered or "powered off" in lowered):
        return f"no usable Bluetooth adapter ({text}): is Bluetooth on, and (on Linux) is BlueZ running?"
    return text


class BleLink:
    def __init__(self, port: str, *, backend: type[Any] | None = None, scanner_backend: type[Any] | None = None,
                 timeout: float = 10.0, keys: HostKeys | None = None, authenticate: bool = True) -> None:
        bleak = _bleak()
        self.name = port
        self.target = port[len(PREFIX):] if port.startswith(PREFIX) else port
        self.timeout = timeout
        self._incoming: queue.Queue[bytes] = queue.Queue()
        self._closed = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name=f"ble {self.target}")
        self._thread.start()
        self._client: Any = None
        try:
            self.address = self.target if _ADDRESS.match(self.target) else self._find_by_name(scanner_backend)
            kwargs: dict[str, Any] = {"disconnected_callback": self._on_disconnect, "timeout": timeout}
            if backend is not None:
                kwargs["backend"] = backend
            self._client = bleak.BleakClient(self.address, **kwargs)
            self._call(self._connect(), timeout)
            if authenticate:
                self._authenticate(keys or HostKeys())
        except BaseException:
            self.close()
            raise

    def _find_by_name(self, scanner_backend: type[Any] | None) -> str:
        for address, name, _rssi in self._call(_scan(min(self.timeout, 5.0), scanner_backend), self.timeout + 2):
            if name == self.target:
                return address
        raise LinkClosed(f"no board named {self.target!r} is advertising (is it on and in range? "
                         "`tablelight devices --ble` lists boards)")

    async def _connect(self) -> None:
        await self._client.connect()
        await self._client.pair()  # the UART needs an encrypted link; a bonded board only re-encrypts
        await self._client.start_notify(NUS_TX, self._on_notify)

    def _authenticate(self, keys: HostKeys) -> None:
        key = keys.get(self.address)
        if key is None:
            raise LinkClosed(f"{self.name}: this computer is not paired with the board: run "
                             f"`tablelight pair {PREFIX}{self.address}` (the board must be in its pairing window)")
        nonce = self.challenge(self.timeout)
        state, _code, text = self.exchange(auth.answer(key, nonce), self.timeout)
        if state != wire.PAIR_ACCEPTED:
            raise LinkClosed(f"{self.name}: the board refused this computer: {text}")

    def challenge(self, timeout: float) -> bytes:
        """Ask the board for a fresh nonce (AUTH_BEGIN -> CHALLENGE). LinkClosed with the reason if
        the board speaks another authentication version or predates challenge-response."""
        self.write(auth.encode_auth_begin())
        reader = wire.FrameReader()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for payload in reader.feed(self.read(min(0.2, max(0.01, deadline - time.monotonic())))):
                try:
                    if payload[0] == auth.MSG_CHALLENGE:
                        version, nonce = auth.decode_challenge(payload)
                        if version == auth.AUTH_VERSION:
                            return nonce
                        raise LinkClosed(f"{self.name}: the board speaks Bluetooth authentication {version}, this "
                                         f"host {auth.AUTH_VERSION}: update tablelight or the board's firmware")
                    if payload[0] == wire.MSG_PAIR_STATE:
                        raise LinkClosed(f"{self.name}: the board refused this computer: "
                                         f"{wire.decode_pair_state(payload)[2]}")
                    if payload[0] == wire.MSG_BOARD_REFUSE:
                        reason = wire.decode_board_refuse(payload)
                        if "MSG_AUTH" in reason:  # firmware before 1.2 wants the key itself: never send it
                            raise LinkClosed(f"{self.name}: the board's firmware is older than this host's Bluetooth "
                                             "authentication (it would need the host key sent over the air): "
                                             "update it over USB with `tablelight flash`")
                        raise LinkClosed(f"{self.name}: the board refused: {reason}")
                except wire.WireError:
                    continue
        raise LinkClosed(f"{self.name}: no challenge from the board within {timeout:g} s")

    def exchange(self, frame: bytes, timeout: float) -> tuple[int, bytes, str]:
        """Send a pairing message; the board's first PAIR_STATE answer (state, code, text)."""
        self.write(frame)
        return self.next_pair_state(timeout)

    def next_pair_state(self, timeout: float) -> tuple[int, bytes, str]:
        reader = wire.FrameReader()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for payload in reader.feed(self.read(min(0.2, max(0.01, deadline - time.monotonic())))):
                if payload[0] == wire.MSG_PAIR_STATE:
                    try:
                        return wire.decode_pair_state(payload)
                    except wire.WireError:
                        continue
                if payload[0] == wire.MSG_BOARD_REFUSE:
                    raise LinkClosed(f"{self.name}: the board refused: {wire.decode_board_refuse(payload)}")
        raise LinkClosed(f"{self.name}: no pairing answer from the board within {timeout:g} s")

    def _on_notify(self, _characteristic: Any, data: bytearray) -> None:
        self._incoming.put(bytes(data))

    def _on_disconnect(self, *_args: Any) -> None:
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
            raise LinkClosed(f"{self.name}: {adapter_error(error)}") from error

    @property
    def mtu(self) -> int:
        try:
            return int(self._client.mtu_size)
        except Exception:
            return 23

    @property
    def chunk_size(self) -> int:
        """Largest write without response: ATT MTU - 3 (20 at the default MTU of 23)."""
        return max(20, self.mtu - 3)

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
        self._call(self._write(bytes(data)), self.timeout)

    async def _write(self, data: bytes) -> None:
        size = self.chunk_size
        since_response = 0
        for start in range(0, len(data), size):
            piece = data[start:start + size]
            since_response += len(piece)
            paced = since_response >= PACE_BYTES and start + size < len(data)
            await self._client.write_gatt_char(NUS_RX, piece, response=paced)
            if paced:
                since_response = 0

    def reset_input(self) -> None:
        while not self._incoming.empty():
            self._incoming.get_nowait()

    def unpair(self) -> None:
        """Forget the Bluetooth bond on this computer's side."""
        self._call(self._client.unpair(), self.timeout)

    def close(self) -> None:
        if not self._loop.is_closed():
            if self._client is not None and self._client.is_connected:
                try:
                    self._call(self._client.disconnect(), 5.0)
                except LinkClosed:
                    pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()
        self._closed.set()


async def _scan(timeout: float, backend: type[Any] | None) -> list[tuple[str, str, int | None]]:
    bleak = _bleak()
    kwargs: dict[str, Any] = {"service_uuids": [NUS_SERVICE], "return_adv": True}
    if backend is not None:
        kwargs["backend"] = backend
    found = await bleak.BleakScanner.discover(timeout=timeout, **kwargs)
    return [(device.address, adv.local_name or device.name or "", adv.rssi) for device, adv in found.values()]


def scan(timeout: float = 5.0, backend: type[Any] | None = None) -> list[tuple[str, str, int | None]]:
    """(address, name, RSSI in dBm) of devices advertising the Nordic UART Service. LinkClosed with
    a readable reason when there is no usable adapter or no permission."""
    _bleak()
    try:
        return asyncio.run(asyncio.wait_for(_scan(timeout, backend), timeout + 5))
    except asyncio.TimeoutError as error:
        raise LinkClosed(f"the Bluetooth scan did not finish within {timeout + 5:g} s") from error
    except Exception as error:
        raise LinkClosed(f"Bluetooth LE scan failed: {adapter_error(error)}") from error
