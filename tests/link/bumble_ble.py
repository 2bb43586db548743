"""A bleak client backend over bumble, and a bumble peripheral that offers the Nordic UART
Service with the firmware's own board logic (BoardLink) behind it.

There is no Bluetooth radio here: bumble runs a central and a peripheral controller in this
process, joined by a virtual link, so the host's real bleak code path (BleLink) talks GATT to a
peripheral at the default 23-byte ATT MTU (20-byte writes and notifications).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bumble import gatt
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Device, Peer
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink
from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_link import BoardLink  # type: ignore[import-not-found]
from tl_scene import Renderer, Scene  # type: ignore[import-not-found]

from tablelight.links.ble import NUS_RX, NUS_SERVICE, NUS_TX

CENTRAL_ADDRESS = "F0:F0:F0:F0:F0:F0"
SCANNER_ADDRESS = "F2:F2:F2:F2:F2:F2"
PERIPHERAL_ADDRESS = "F1:F1:F1:F1:F1:F1"


def ticks() -> int:
    return int(time.monotonic() * 1000) & ((1 << 29) - 1)


class NusBoard:
    """The peripheral: NUS on a bumble device, the firmware's BoardLink behind RX/TX."""

    def __init__(self, link: LocalLink, leds: int = 55) -> None:
        controller = Controller("peripheral", link=link, public_address=PERIPHERAL_ADDRESS)
        self.device = Device(address=Address(PERIPHERAL_ADDRESS), host=Host(controller, AsyncPipeSink(controller)))
        self.rx = gatt.Characteristic(
            NUS_RX, gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            gatt.Characteristic.WRITEABLE, gatt.CharacteristicValue(write=self._on_rx))
        self.tx = gatt.Characteristic(NUS_TX, gatt.Characteristic.Properties.NOTIFY, gatt.Characteristic.READABLE, b"")
        self.device.add_service(gatt.Service(NUS_SERVICE, [self.rx, self.tx]))
        self.scene = Scene(leds)
        self.renderer = Renderer(self.scene, CurrentLimiter(450, leds))
        self.outgoing: asyncio.Queue[bytes] = asyncio.Queue()
        self.rx_chunks: list[int] = []
        info = {"firmware": (1, 0, 0), "board": "ble-test", "layout": "farlander", "keys": 51, "caps": 15}
        self.board = BoardLink(self.outgoing.put_nowait, self.scene, self.renderer, info, 0xB1E, ticks())
        self.sender: asyncio.Task[None] | None = None

    def _on_rx(self, connection: Any, value: bytes) -> None:
        self.rx_chunks.append(len(value))
        self.board.feed(value, ticks())

    async def start(self) -> None:
        await self.device.power_on()
        advertising = AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(NUS_SERVICE))),
        ])
        scan_response = AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, b"tablelight")])
        await self.device.start_advertising(auto_restart=True, advertising_interval_min=20.0,
                                            advertising_data=bytes(advertising),
                                            scan_response_data=bytes(scan_response))
        self.sender = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        # like Adafruit's UARTService: the stream goes out in 20-byte notifications
        while True:
            data = await self.outgoing.get()
            for start in range(0, len(data), 20):
                await self.device.notify_subscribers(self.tx, data[start:start + 20])

    def press(self, key: int) -> None:
        self.board.key_event(key, True, ticks(), ticks())
        self.board.key_event(key, False, ticks(), ticks())


class World:
    """One virtual radio link per event loop, with the NUS board on it."""

    boards: dict[int, NusBoard] = {}

    @classmethod
    async def board(cls) -> NusBoard:
        loop = asyncio.get_running_loop()
        key = id(loop)
        if key not in cls.boards:
            cls.link = LocalLink()
            board = NusBoard(cls.link)
            await board.start()
            cls.boards[key] = board
        return cls.boards[key]


class BumbleBleakClient(BaseBleakClient):
    """bleak's client interface implemented with a bumble central on the virtual link."""

    def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, disconnected_callback=kwargs.get("disconnected_callback"),
                         timeout=kwargs.get("timeout", 10.0))
        self._peer: Peer | None = None
        self._proxies: dict[int, Any] = {}

    @property
    def mtu_size(self) -> int:
        return self._peer.connection.att_mtu if self._peer else 23

    def is_connected(self) -> bool:  # type: ignore[override]
        return self._peer is not None

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        board = await World.board()
        controller = Controller("central", link=World.link, public_address=CENTRAL_ADDRESS)
        central = Device(address=Address(CENTRAL_ADDRESS), host=Host(controller, AsyncPipeSink(controller)))
        await central.power_on()
        connection = await central.connect(board.device.random_address)
        self._peer = Peer(connection)
        await self._peer.discover_services([UUID(NUS_SERVICE)])
        collection = BleakGATTServiceCollection()
        for service_proxy in self._peer.services:
            await self._peer.discover_characteristics(service=service_proxy)
            service = BleakGATTService(service_proxy, service_proxy.handle, str(service_proxy.uuid).lower())
            collection.add_service(service)
            for proxy in service_proxy.characteristics:
                names = [name.lower().replace("_", "-") for name in str(proxy.properties).split("|")]
                char = BleakGATTCharacteristic(proxy, proxy.handle, str(proxy.uuid).lower(), names,  # type: ignore[arg-type]
                                               lambda: self.mtu_size - 3, service)
                collection.add_characteristic(char)
                self._proxies[proxy.handle] = proxy
        self.services = collection

    async def disconnect(self) -> None:
        if self._peer is not None:
            await self._peer.connection.disconnect()
            self._peer = None

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError

    async def unpair(self) -> None:
        raise NotImplementedError

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, **kwargs: Any) -> bytearray:
        assert self._peer is not None
        return bytearray(await self._peer.read_value(self._proxies[characteristic.handle]))

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise NotImplementedError

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any, response: bool) -> None:
        assert self._peer is not None
        await self._peer.write_value(self._proxies[characteristic.handle], bytes(data), with_response=response)

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise NotImplementedError

    async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: Any, **kwargs: Any) -> None:
        assert self._peer is not None
        await self._peer.subscribe(self._proxies[characteristic.handle], lambda value: callback(bytearray(value)))

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        assert self._peer is not None
        await self._peer.unsubscribe(self._proxies[characteristic.handle])


class BumbleBleakScanner(BaseBleakScanner):
    """bleak's scanner interface implemented with a bumble observer on the virtual link."""

    def __init__(self, detection_callback: Any, service_uuids: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self._device: Device | None = None

    async def start(self) -> None:
        self.seen_devices = {}
        await World.board()
        controller = Controller("scanner", link=World.link, public_address=SCANNER_ADDRESS)
        self._device = Device(address=Address(SCANNER_ADDRESS), host=Host(controller, AsyncPipeSink(controller)))
        self._device.on("advertisement", self._on_advertisement)
        await self._device.power_on()
        await self._device.start_scanning(active=True)

    def _on_advertisement(self, advertisement: Any) -> None:
        data = advertisement.data
        lists = data.get_all(AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS)
        flat = sorted({u.to_hex_str("-").lower() for item in lists for u in (item if isinstance(item, list) else [item])})
        name = data.get(AdvertisingData.COMPLETE_LOCAL_NAME)
        address = str(advertisement.address).split("/")[0]
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
        if self._device is not None:
            await self._device.stop_scanning()
