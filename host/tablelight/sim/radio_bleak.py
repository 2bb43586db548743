"""bleak backends over a :class:`~tablelight.sim.radio.VirtualAdapter` (bumble): a custom backend
is bleak's documented way to run its client and scanner on another stack (``backend=``).

Every bumble call runs on the radio's event loop; bleak's own loop awaits it. Behaviour follows
bleak's BlueZ backend where it matters to the host: ``pair()`` on a bonded device only encrypts
the link with the stored key; ``unpair()`` forgets the bond; ``mtu_size`` is the negotiated ATT
MTU (the backend asks for ``mtu`` at connection, 23 = no exchange). With ``pair_on_demand``, an
attribute refused for want of encryption makes the host pair and try once more, as BlueZ does (a
central that never calls ``pair()``, such as Adafruit's Blinka _bleio, still reaches CircuitPython's
encrypted file transfer); without it the refusal is the caller's (tests of what a stranger gets).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError
from bleak.uuids import normalize_uuid_str
from bumble.att import ATT_Error
from bumble.core import AdvertisingData
from bumble.device import Connection, Peer
from bumble.hci import Address

if TYPE_CHECKING:
    from tablelight.sim.radio import VirtualAdapter

ATT_DEFAULT_MTU = 23
#: ATT errors after which BlueZ raises the link's security and repeats the request.
ATT_INSUFFICIENT_AUTHENTICATION = 0x05
ATT_INSUFFICIENT_ENCRYPTION = 0x0F


def _uuid(uuid: Any) -> str:
    """bleak's form of a UUID: 128-bit, lower case (a 16-bit one under the Bluetooth base)."""
    return normalize_uuid_str(uuid.to_hex_str("-"))


def _address_key(address: Any) -> str:
    return str(address).split("/")[0].upper()


def make_client_backend(adapter: VirtualAdapter, mtu: int = ATT_DEFAULT_MTU,
                        pair_on_demand: bool = False) -> type[BaseBleakClient]:
    """A bleak client backend class bound to ``adapter`` that asks for ATT MTU ``mtu``."""

    class VirtualBleakClient(BaseBleakClient):
        def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
            super().__init__(address_or_ble_device, disconnected_callback=kwargs.get("disconnected_callback"),
                             timeout=kwargs.get("timeout", 10.0))
            self._connection: Connection | None = None
            self._peer: Peer | None = None
            self._proxies: dict[int, Any] = {}

        @property
        def mtu_size(self) -> int:
            return self._connection.att_mtu if self._connection is not None else ATT_DEFAULT_MTU

        @property
        def is_connected(self) -> bool:
            return self._connection is not None

        async def connect(self, pair: bool = False, **kwargs: Any) -> None:
            await adapter.radio.run(self._connect())
            if pair:
                await self.pair()

        async def _connect(self) -> None:
            device = adapter.device
            try:
                connection = await device.connect(Address(_address_key(self.address)), timeout=self._timeout)
            except Exception as error:
                raise BleakError(f"Device with address {self.address} was not found: {error}") from error
            self._connection = connection
            connection.on("disconnection", self._on_disconnection)
            peer = Peer(connection)
            if mtu != ATT_DEFAULT_MTU:
                await peer.request_mtu(mtu)
            await peer.discover_services()
            collection = BleakGATTServiceCollection()
            for service_proxy in peer.services:
                await peer.discover_characteristics(service=service_proxy)
                service = BleakGATTService(service_proxy, service_proxy.handle, _uuid(service_proxy.uuid))
                collection.add_service(service)
                for proxy in service_proxy.characteristics:
                    names = [name.lower().replace("_", "-") for name in str(proxy.properties).split("|")]
                    char = BleakGATTCharacteristic(proxy, proxy.handle, _uuid(proxy.uuid),
                                                   names, lambda: self.mtu_size - 3, service)  # type: ignore[arg-type]
                    collection.add_characteristic(char)
                    self._proxies[proxy.handle] = proxy
            self._peer = peer
            self.services = collection

        def _on_disconnection(self, reason: int) -> None:
            self._connection = None
            self._peer = None
            if self._disconnected_callback is not None:
                self._disconnected_callback()

        async def disconnect(self) -> None:
            connection = self._connection
            if connection is not None:
                await adapter.radio.run(connection.disconnect())

        async def pair(self, *args: Any, **kwargs: Any) -> None:
            await adapter.radio.run(self._pair())

        async def _pair(self) -> None:
            connection = self._require()
            try:
                if await adapter.bonded(_address_key(self.address)):
                    await adapter.use_peripheral_ltk(_address_key(self.address))
                    await connection.encrypt()
                else:
                    await connection.pair()
            except Exception as error:
                raise BleakError(f"pairing with {self.address} failed: {error}") from error

        async def _secured(self, request: Any) -> Any:
            """``await request()``; refused for want of encryption on a plain link: pair, then again."""
            try:
                return await request()
            except ATT_Error as error:
                connection = self._connection
                if (not pair_on_demand or connection is None or connection.is_encrypted
                        or error.error_code not in (ATT_INSUFFICIENT_AUTHENTICATION, ATT_INSUFFICIENT_ENCRYPTION)):
                    raise
                await self._pair()
                return await request()

        async def unpair(self) -> None:
            await adapter.radio.run(adapter.forget(_address_key(self.address)))

        def _require(self) -> Connection:
            if self._connection is None or self._peer is None:
                raise BleakError("Not connected")
            return self._connection

        async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, **kwargs: Any) -> bytearray:
            self._require()
            assert self._peer is not None
            proxy = self._proxies[characteristic.handle]
            return bytearray(await adapter.radio.run(self._secured(lambda: self._peer.read_value(proxy))))

        async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
            raise NotImplementedError

        async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any, response: bool) -> None:
            self._require()
            assert self._peer is not None
            proxy = self._proxies[characteristic.handle]
            try:
                await adapter.radio.run(self._secured(lambda: self._peer.write_value(proxy, bytes(data),
                                                                                      with_response=response)))
            except Exception as error:
                raise BleakError(f"write to {characteristic.uuid} refused: {error}") from error

        async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
            raise NotImplementedError

        async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: Any, **kwargs: Any) -> None:
            self._require()
            assert self._peer is not None
            proxy = self._proxies[characteristic.handle]
            try:
                def notified(value: bytes) -> None:
                    callback(bytearray(value))

                # one subscriber, whether or not the first try was refused (else two would be called)
                await adapter.radio.run(self._secured(lambda: self._peer.subscribe(proxy, notified)))
            except Exception as error:
                raise BleakError(f"subscribing to {characteristic.uuid} refused: {error}") from error

        async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
            self._require()
            assert self._peer is not None
            await adapter.radio.run(self._peer.unsubscribe(self._proxies[characteristic.handle]))

    return VirtualBleakClient


def make_scanner_backend(adapter: VirtualAdapter) -> type[BaseBleakScanner]:
    """A bleak scanner backend class bound to ``adapter`` (active scan, RSSI from the radio)."""

    class VirtualBleakScanner(BaseBleakScanner):
        def __init__(self, detection_callback: Any, service_uuids: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(detection_callback, service_uuids)

        async def start(self) -> None:
            self.seen_devices = {}
            await adapter.radio.run(self._start())

        async def _start(self) -> None:
            adapter.device.on("advertisement", self._on_advertisement)
            await adapter.device.start_scanning(active=True, filter_duplicates=False)

        def _on_advertisement(self, advertisement: Any) -> None:
            data = advertisement.data
            lists = []
            for kind in (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                         AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                         AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS,
                         AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS):
                lists += data.get_all(kind)
            flat = sorted({normalize_uuid_str(u.to_hex_str("-")) for item in lists
                           for u in (item if isinstance(item, list) else [item])})
            name = data.get(AdvertisingData.COMPLETE_LOCAL_NAME) or data.get(AdvertisingData.SHORTENED_LOCAL_NAME)
            if isinstance(name, bytes):
                name = name.decode("utf-8", "replace")
            address = _address_key(advertisement.address)
            previous = self.seen_devices.get(address)
            if previous is not None:  # the scan response carries the name, the advert the services
                flat = flat or previous[1].service_uuids
                name = name or previous[1].local_name
            if not self.is_allowed_uuid(flat):
                return
            adv = AdvertisementData(local_name=name, manufacturer_data={}, service_data={}, service_uuids=flat,
                                    tx_power=None, rssi=advertisement.rssi, platform_data=(advertisement,))
            device = self.create_or_update_device(address, address, name, advertisement, adv)
            self.call_detection_callbacks(device, adv)

        async def stop(self) -> None:
            await adapter.radio.run(self._stop())

        async def _stop(self) -> None:
            adapter.device.remove_listener("advertisement", self._on_advertisement)
            await adapter.device.stop_scanning()

    return VirtualBleakScanner

