"""A virtual Bluetooth LE radio (bumble) for the simulated board and its hosts; no hardware needed.

bumble's controllers share a ``LocalLink`` in one event-loop thread. A simulated board's firmware
runs Adafruit's adafruit_ble over the ``_bleio`` stand-in (sim/fakes/_bleio), whose bumble host
stack reaches its controller here over HCI on a local TCP socket, as a SoftDevice sits under
CircuitPython. A host computer is a :class:`VirtualAdapter` (its own controller, address and bond
store); its ``client_backend`` / ``scanner_backend`` are bleak backends, so the host's real bleak
code path (tablelight.links.ble) runs against the board.

    radio = VirtualRadio()
    with SimBoard.start(settings={"TL_BLE": "1"}, radio=radio) as sim:
        link = BleLink(f"ble://{sim.ble_address}", backend=radio.adapter("host").client_backend)
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address
from bumble.keys import MemoryKeyStore
from bumble.link import LocalLink
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport.common import AsyncPipeSink
from bumble.transport.tcp_server import open_tcp_server_transport_with_socket

T = TypeVar("T")
HCI_DISCONNECT_POWER_OFF = 0x15
HCI_CONNECTION_TIMEOUT = 0x08  # "remote device terminated the connection due to power off"


class VirtualRadio:
    """The shared air: one LocalLink, boards' controllers (HCI over TCP) and hosts' adapters."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="virtual radio")
        self._thread.start()
        self.link = LocalLink()
        self._boards: dict[str, tuple[Controller, Any]] = {}
        self._adapters: dict[str, VirtualAdapter] = {}
        self._next = 0

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 15.0) -> T:
        """Run a coroutine on the radio's loop from another thread and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await a coroutine on the radio's loop from another event loop (a bleak backend's)."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, self.loop))

    def board_hci(self, address: str) -> str:
        """A new controller for a board at ``address``; returns the HCI transport spec its stack opens
        (``tcp-client:127.0.0.1:PORT``). A board that reboots gets a new one (:meth:`power_off`)."""

        async def make() -> int:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            transport = await open_tcp_server_transport_with_socket(sock)
            self._next += 1
            controller = Controller(f"board{self._next}", host_source=transport.source,
                                    host_sink=transport.sink, link=self.link)
            self._boards[address] = (controller, transport)
            return int(sock.getsockname()[1])

        self.power_off(address)
        return f"tcp-client:127.0.0.1:{self.call(make())}"

    def drop_links(self, address: str) -> int:
        """The board at ``address`` goes out of range for a moment: its links drop (both ends see a
        supervision timeout), the board stays on. Returns how many links dropped."""

        async def drop() -> int:
            from bumble import hci

            entry = self._boards.get(address)
            connections = list(entry[0].le_connections.values()) if entry else []
            for connection in connections:
                entry[0].on_hci_disconnect_command(hci.HCI_Disconnect_Command(  # type: ignore[index]
                    connection_handle=connection.handle, reason=HCI_CONNECTION_TIMEOUT))
            return len(connections)

        return self.call(drop())

    def power_off(self, address: str) -> None:
        """The board at ``address`` loses power: its links drop (the centrals see a disconnection)
        and its controller leaves the air."""

        async def off() -> None:
            entry = self._boards.pop(address, None)
            if entry is None:
                return
            controller, transport = entry
            for connection in list(controller.le_connections.values()):
                from bumble import hci

                controller.on_hci_disconnect_command(hci.HCI_Disconnect_Command(
                    connection_handle=connection.handle, reason=HCI_DISCONNECT_POWER_OFF))
            self.link.remove_controller(controller)
            await transport.close()

        self.call(off())

    def adapter(self, name: str = "host", address: str | None = None) -> VirtualAdapter:
        """A host computer's Bluetooth adapter on this radio (one per name, kept with its bonds)."""
        if name not in self._adapters:
            self._next += 1
            self._adapters[name] = self.call(VirtualAdapter.create(self, name, address
                                                                   or f"C0:DE:00:00:00:{self._next:02X}"))
        return self._adapters[name]

    def close(self) -> None:
        for address in list(self._boards):
            self.power_off(address)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)


class HostController(Controller):
    """A host's controller. bumble's Controller reports a legacy advertiser's scan response with the
    advertisement's own data (the virtual link carries no SCAN_RSP PDU); this one puts the
    advertiser's real scan response data in, so a scan finds a board's name as on the air."""

    def send_hci_packet(self, packet: Any) -> None:
        from bumble import hci

        scan_responses = (hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP,
                          hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE)
        for report in getattr(packet, "reports", None) or []:
            if getattr(report, "event_type", None) in scan_responses and self.link is not None:
                advertiser = self.link.find_le_controller(report.address)
                if advertiser is not None:
                    report.data = bytes(advertiser.le_legacy_advertiser.scan_response_data)
        super().send_hci_packet(packet)


class VirtualAdapter:
    """A host's adapter: a bumble central with its own bond store (in memory)."""

    def __init__(self, radio: VirtualRadio, name: str, device: Device) -> None:
        self.radio = radio
        self.name = name
        self.device = device
        from tablelight.sim.radio_bleak import make_client_backend, make_scanner_backend

        self.client_backend = make_client_backend(self)
        self.scanner_backend = make_scanner_backend(self)

    @classmethod
    async def create(cls, radio: VirtualRadio, name: str, address: str) -> VirtualAdapter:
        controller = HostController(name, link=radio.link, public_address=address)
        device = Device(name=name, address=Address(address), host=_host(controller))
        device.keystore = MemoryKeyStore()
        device.pairing_config_factory = lambda connection: PairingConfig(
            sc=True, mitm=False, bonding=True, identity_address_type=PairingConfig.AddressType.RANDOM,
            delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT))
        await device.power_on()
        return cls(radio, name, device)

    async def bonded(self, address: str) -> bool:
        keystore = self.device.keystore
        return keystore is not None and await keystore.get(address) is not None

    async def use_peripheral_ltk(self, address: str) -> None:
        """Re-encrypting a legacy bond, the central must use the key the peripheral distributed
        (Core spec Vol 3 Part H 2.4.4.2); bumble's Device.encrypt takes ``ltk`` first, then its own
        ``ltk_central``, which the nordic-like board does not accept. Store the right one as ``ltk``."""
        keystore = self.device.keystore
        keys = await keystore.get(address) if keystore is not None else None
        if keystore is not None and keys is not None and keys.ltk is None and keys.ltk_peripheral is not None:
            keys.ltk = keys.ltk_peripheral
            await keystore.update(address, keys)

    async def forget(self, address: str) -> None:
        keystore = self.device.keystore
        if keystore is not None and await keystore.get(address) is not None:
            await keystore.delete(address)


def _host(controller: Controller) -> Any:
    from bumble.host import Host

    return Host(controller, AsyncPipeSink(controller))
