"""The _bleio stand-in refuses what CircuitPython's nordic port refuses (ports/nordic/common-hal/
_bleio, shared-bindings/_bleio), and Adafruit's real adafruit_ble runs on it: the 1,152-byte RX
characteristic the firmware once asked for fails here as it fails on a Feather nRF52840."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tablelight.sim.radio import VirtualRadio

FAKE = Path(__file__).resolve().parents[2] / "host" / "tablelight" / "sim" / "fakes" / "_bleio"
BOARD_ADDRESS = "F1:7A:B1:E0:00:FE"
NUS_RX = "6E400002-B5A3-F393-E0A9-E50E24DCCA9E"


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtualRadio]:
    radio = VirtualRadio()
    saved = {k: os.environ.get(k) for k in ("TL_SIM_BLE_HCI", "TL_SIM_BLE_ADDRESS", "TL_SIM_BLE_BONDS")}
    os.environ["TL_SIM_BLE_HCI"] = radio.board_hci(BOARD_ADDRESS)
    os.environ["TL_SIM_BLE_ADDRESS"] = BOARD_ADDRESS
    os.environ["TL_SIM_BLE_BONDS"] = str(tmp_path_factory.mktemp("flash") / "bonds.json")
    yield radio
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    radio.close()


@pytest.fixture(scope="module")
def bleio(air: VirtualRadio) -> Iterator[ModuleType]:
    """The stand-in as the top-level ``_bleio`` (only it: the other fakes stay out of this process)."""
    spec = importlib.util.spec_from_file_location("_bleio", FAKE / "__init__.py", submodule_search_locations=[str(FAKE)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_bleio"] = module
    spec.loader.exec_module(module)
    yield module
    for name in [n for n in sys.modules if n == "_bleio" or n.startswith(("_bleio.", "adafruit_ble", "tl_ble"))]:
        del sys.modules[name]


def service(bleio: ModuleType) -> Any:
    return bleio.Service(bleio.UUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))


def add(bleio: ModuleType, svc: Any, **kwargs: Any) -> Any:
    return bleio.Characteristic.add_to_service(svc, bleio.UUID(0x2A00), **kwargs)


def test_characteristic_lengths(bleio: ModuleType) -> None:
    svc = service(bleio)
    with pytest.raises(ValueError, match="max_length must be 0-512 when fixed_length is False"):
        add(bleio, svc, max_length=513)
    with pytest.raises(ValueError, match="max_length must be 0-510 when fixed_length is True"):
        add(bleio, svc, max_length=511, fixed_length=True)
    with pytest.raises(ValueError, match="max_length must be >= 0"):
        add(bleio, svc, max_length=-1)
    with pytest.raises(ValueError, match="initial_value length must be <= 4"):
        add(bleio, svc, max_length=4, initial_value=b"12345")
    with pytest.raises(ValueError, match="initial_value length must be 4"):
        add(bleio, svc, max_length=4, fixed_length=True, initial_value=b"123")
    assert add(bleio, svc, max_length=512).max_length == 512
    fixed = add(bleio, svc, max_length=510, fixed_length=True, properties=bleio.Characteristic.READ)
    assert fixed.value == bytes(510)
    with pytest.raises(ValueError, match="Value length != required fixed length"):
        fixed.value = b"x"
    short = add(bleio, svc, max_length=2)
    with pytest.raises(ValueError, match="Value length > max_length"):
        short.value = b"xyz"
    short.value = b"xy"
    assert short.value == b"xy"


def test_security_modes_and_arguments(bleio: ModuleType) -> None:
    svc = service(bleio)
    with pytest.raises(ValueError, match="Invalid security_mode"):
        add(bleio, svc, read_perm=0x99)
    with pytest.raises(TypeError):
        bleio.Characteristic()
    with pytest.raises(TypeError, match="service must be of type Service"):
        bleio.Characteristic.add_to_service(object(), bleio.UUID(1))
    with pytest.raises(ValueError, match="buffer_size must be >= 1"):
        bleio.CharacteristicBuffer(add(bleio, svc), buffer_size=0)
    with pytest.raises(ValueError, match="timeout must be >= 0.0"):
        bleio.CharacteristicBuffer(add(bleio, svc), timeout=-1)
    with pytest.raises(ValueError, match="UUID integer value must be 0-0xffff"):
        bleio.UUID(0x10000)
    with pytest.raises(ValueError, match="UUID string not"):
        bleio.UUID("6E400001-B5A3")
    with pytest.raises(ValueError, match="interval must be in range"):
        bleio.adapter.start_advertising(b"\x02\x01\x06", interval=0.01)
    with pytest.raises(bleio.BluetoothError, match="Extended advertisements with scan response"):
        bleio.adapter.start_advertising(bytes(32), scan_response=b"\x02\x01\x06")
    with pytest.raises(bleio.RoleError):
        add(bleio, svc, properties=bleio.Characteristic.NOTIFY).set_cccd(notify=True)


def test_a_packet_buffer_without_a_peer(bleio: ModuleType) -> None:
    """The supervisor's file transfer buffer (sim/ble_workflow.py) before any central connects."""
    transfer = add(bleio, service(bleio), max_length=512,
                   properties=bleio.Characteristic.WRITE_NO_RESPONSE | bleio.Characteristic.NOTIFY)
    with pytest.raises(TypeError, match="characteristic must be of type Characteristic"):
        bleio.PacketBuffer(object(), buffer_size=1)
    with pytest.raises(ValueError, match="buffer_size must be >= 1"):
        bleio.PacketBuffer(transfer, buffer_size=0)
    packets = bleio.PacketBuffer(transfer, buffer_size=544, max_packet_size=512)
    assert packets.incoming_packet_length == 512
    assert packets.outgoing_packet_length == -1  # no connection: the board's answer too
    assert packets.readinto(bytearray(20)) == 0 and packets.write(b"nobody") == 0
    packets.deinit()
    with pytest.raises(ValueError, match="deinitialized"):
        packets.readinto(bytearray(20))


def test_the_real_library_meets_the_nordic_limit(bleio: ModuleType) -> None:
    """adafruit_ble 10.x: StreamIn's buffer_size is its characteristic's max_length."""
    from adafruit_ble.characteristics.stream import StreamIn
    from adafruit_ble.services.nordic import UARTService
    from adafruit_ble.uuid import VendorUUID

    class BigUART(UARTService):  # what tl_ble asked for before: MAX_PAYLOAD + 128 bytes
        _server_rx = StreamIn(uuid=VendorUUID(NUS_RX), timeout=1.0, buffer_size=1152)

    with pytest.raises(ValueError, match="max_length must be 0-512"):
        BigUART()


def test_the_board_uart_limits_on_the_air(bleio: ModuleType, air: VirtualRadio) -> None:
    """The firmware's SecureUART on the radio: a full RX buffer drops, four peripheral links at
    most, pair(bond=False) refused, no second advertisement."""
    from tl_ble import BleTransport

    board = BleTransport("limits")
    (rx,) = [c for c in board.uart.bleio_service.characteristics if c.uuid == bleio.UUID(NUS_RX)]
    assert rx.max_length == 512 and rx.write_perm == bleio.Attribute.ENCRYPT_NO_MITM
    assert board.read() is None  # starts advertising
    with pytest.raises(bleio.BluetoothError, match="Already advertising"):
        bleio.adapter.start_advertising(bytes(board.advertisement))

    hosts = [air.adapter(f"limits-host-{i}") for i in range(4)]

    async def connect_and_write(client_backend: Any, data: bytes) -> Any:
        from bleak import BleakClient

        client = BleakClient(BOARD_ADDRESS, backend=client_backend, timeout=10)
        await client.connect()
        await client.pair()
        for start in range(0, len(data), 20):
            await client.write_gatt_char(NUS_RX.lower(), data[start:start + 20], response=True)
        return client

    loop = asyncio.new_event_loop()
    clients = [loop.run_until_complete(connect_and_write(hosts[0].client_backend, bytes(range(200)) * 3))]
    assert board.uart.in_waiting == 512  # 600 sent, nothing read: the last 88 bytes were dropped
    assert board.uart.read(600) == (bytes(range(200)) * 3)[:512]
    connection = bleio.adapter.connections[0]
    assert connection.paired
    with pytest.raises(NotImplementedError, match="bond=False"):
        connection.pair(bond=False)
    for host in hosts[1:]:
        bleio.adapter.start_advertising(bytes(board.advertisement))
        clients.append(loop.run_until_complete(connect_and_write(host.client_backend, b"")))
    assert len(bleio.adapter.connections) == 4
    with pytest.raises(bleio.BluetoothError, match="0012"):  # NRF_ERROR_CONN_COUNT
        bleio.adapter.start_advertising(bytes(board.advertisement))
    for client in clients:
        loop.run_until_complete(client.disconnect())
    loop.close()
