# mypy: ignore-errors
# (a stand-in for CircuitPython's _bleio, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""_bleio for the simulated board: CircuitPython's documented API (shared-bindings/_bleio) with
the limits of its nordic port (ports/nordic/common-hal/_bleio), over a bumble stack (stack.py).

Adafruit's real adafruit_ble library runs on it unchanged. Only the peripheral role is modelled
(the board advertises and serves GATT; it never scans or connects out). What the nordic port
refuses, this refuses the same way (tests/ble/test_bleio_limits.py):
- a characteristic's max_length above 512 (510 when fixed_length) -> ValueError;
- a value longer than max_length, or not exactly max_length when fixed -> ValueError;
- an unknown security mode -> ValueError; NO_ACCESS refuses every access; ENCRYPT_NO_MITM refuses
  an unencrypted link (ATT "insufficient encryption"); the *_WITH_MITM modes refuse every central,
  since the port pairs "just works" only; the CCCD's write permission is the read permission;
- a CharacteristicBuffer keeps buffer_size bytes and drops what does not fit;
- at most 4 peripheral connections (BLEIO_PERIPH_ROLE_COUNT): advertising beyond that fails;
- Connection.pair(bond=False) -> NotImplementedError; an advertisement over 31 bytes with a scan
  response -> BluetoothError; an interval outside 0.02-10.24 s -> ValueError.
"""

import threading

from bumble import gatt
from bumble.core import UUID as BumbleUUID

from _bleio.stack import stack


class BluetoothError(Exception):
    pass


class RoleError(BluetoothError):
    pass


class SecurityError(BluetoothError):
    pass


class Attribute:
    NO_ACCESS = 0x00
    OPEN = 0x11
    ENCRYPT_NO_MITM = 0x21
    ENCRYPT_WITH_MITM = 0x31
    LESC_ENCRYPT_WITH_MITM = 0x41
    SIGNED_NO_MITM = 0x12
    SIGNED_WITH_MITM = 0x22


_MODES = (Attribute.NO_ACCESS, Attribute.OPEN, Attribute.ENCRYPT_NO_MITM, Attribute.ENCRYPT_WITH_MITM,
          Attribute.LESC_ENCRYPT_WITH_MITM, Attribute.SIGNED_NO_MITM, Attribute.SIGNED_WITH_MITM)
VAR_ATTR_LEN_MAX = 512  # BLE_GATTS_VAR_ATTR_LEN_MAX
FIX_ATTR_LEN_MAX = 510  # BLE_GATTS_FIX_ATTR_LEN_MAX
PERIPH_ROLE_COUNT = 4  # BLEIO_PERIPH_ROLE_COUNT
NRF_ERROR_CONN_COUNT = 0x12


def _check_mode(mode: int) -> None:
    if mode not in _MODES:
        raise ValueError("Invalid security_mode")
    if mode in (Attribute.SIGNED_NO_MITM, Attribute.SIGNED_WITH_MITM):
        raise NotImplementedError("_bleio stand-in: signed writes are not modelled")


class UUID:
    def __init__(self, value) -> None:
        if isinstance(value, int):
            if not 0 <= value <= 0xFFFF:
                raise ValueError("UUID integer value must be 0-0xffff")
            self.size = 16
            self._bumble = BumbleUUID.from_16_bits(value)
        elif isinstance(value, str):
            parts = value.split("-")
            if [len(p) for p in parts] != [8, 4, 4, 4, 12]:
                raise ValueError("UUID string not 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'")
            try:
                int("".join(parts), 16)
            except ValueError:
                raise ValueError("UUID string not 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'") from None
            self.size = 128
            self._bumble = BumbleUUID(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            if len(value) != 16:
                raise ValueError("Byte buffer must be 16 bytes.")
            self.size = 128
            self._bumble = BumbleUUID.from_bytes(bytes(value))
        else:
            raise ValueError("UUID value is not str, int or byte buffer")

    @property
    def uuid16(self) -> int:
        raw = bytes(self._bumble)  # little-endian
        return raw[0] | (raw[1] << 8) if self.size == 16 else raw[12] | (raw[13] << 8)

    @property
    def uuid128(self) -> bytes:
        if self.size != 128:
            raise AttributeError("not a 128-bit UUID")
        return bytes(self._bumble)

    def pack_into(self, buffer, offset: int = 0) -> None:
        raw = bytes(self._bumble)
        if len(buffer) - offset < len(raw):
            raise ValueError("Buffer + offset too small %d %d %d" % (len(buffer), offset, len(raw)))
        buffer[offset:offset + len(raw)] = raw

    def __eq__(self, other) -> bool:
        return isinstance(other, UUID) and bytes(self._bumble) == bytes(other._bumble)

    def __hash__(self) -> int:
        return hash(bytes(self._bumble))

    def __repr__(self) -> str:
        if self.size == 16:
            return "UUID(0x%04x)" % self.uuid16
        return "UUID('%s')" % self._bumble.to_hex_str("-").lower()


class Address:
    PUBLIC = 0
    RANDOM_STATIC = 1
    RANDOM_PRIVATE_RESOLVABLE = 2
    RANDOM_PRIVATE_NON_RESOLVABLE = 3

    def __init__(self, address, address_type: int) -> None:
        if len(address) != 6:
            raise ValueError("Address must be 6 bytes long")
        self.address_bytes = bytes(address)
        self.type = address_type

    def __eq__(self, other) -> bool:
        return isinstance(other, Address) and (self.address_bytes, self.type) == (other.address_bytes, other.type)

    def __hash__(self) -> int:
        return hash(self.address_bytes)

    def __repr__(self) -> str:
        return "<Address %s>" % ":".join("%02x" % b for b in reversed(self.address_bytes))


class ScanEntry:
    """Scan results exist on the real module (adafruit_ble names the class in its annotations);
    the stand-in never scans."""

    def __init__(self) -> None:
        raise NotImplementedError("_bleio stand-in: ScanEntry objects come from Adapter.start_scan")


class Service:
    def __init__(self, uuid: UUID, *, secondary: bool = False) -> None:
        if not isinstance(uuid, UUID):
            raise TypeError("uuid must be of type UUID")
        self.uuid = uuid
        self.secondary = secondary
        self.remote = False
        self._characteristics = []
        self._registered = False
        adapter._services.append(self)

    @property
    def characteristics(self) -> tuple:
        return tuple(self._characteristics)

    def _bumble_service(self):
        return gatt.Service(self.uuid._bumble, [c._make_bumble() for c in self._characteristics],
                            primary=not self.secondary)


def _permissions(mode: int, read: bool) -> int:
    if mode == Attribute.NO_ACCESS:
        return 0
    access = gatt.Attribute.READABLE if read else gatt.Attribute.WRITEABLE
    if mode == Attribute.ENCRYPT_NO_MITM:
        access |= gatt.Attribute.READ_REQUIRES_ENCRYPTION if read else gatt.Attribute.WRITE_REQUIRES_ENCRYPTION
    elif mode in (Attribute.ENCRYPT_WITH_MITM, Attribute.LESC_ENCRYPT_WITH_MITM):
        # just-works pairing never authenticates a link: such attributes are closed to every central
        access |= (gatt.Attribute.READ_REQUIRES_AUTHENTICATION if read
                   else gatt.Attribute.WRITE_REQUIRES_AUTHENTICATION)
    return access


class Characteristic:
    BROADCAST = 1 << 0
    INDICATE = 1 << 1
    NOTIFY = 1 << 2
    READ = 1 << 3
    WRITE = 1 << 4
    WRITE_NO_RESPONSE = 1 << 5

    def __init__(self) -> None:
        raise TypeError("use Characteristic.add_to_service()")

    @classmethod
    def add_to_service(cls, service, uuid, *, properties: int = 0, read_perm: int = Attribute.OPEN,
                       write_perm: int = Attribute.OPEN, max_length: int = 20, fixed_length: bool = False,
                       initial_value=None, user_description=None):
        if not isinstance(service, Service):
            raise TypeError("service must be of type Service")
        if not isinstance(uuid, UUID):
            raise TypeError("uuid must be of type UUID")
        if not 0 <= properties <= 0x3F:
            raise ValueError("Invalid properties")
        _check_mode(read_perm)
        _check_mode(write_perm)
        if max_length < 0:
            raise ValueError("max_length must be >= 0")
        if initial_value is None:
            initial_value = bytes(max_length) if fixed_length and max_length > 0 else b""
        if fixed_length and len(initial_value) != max_length:
            raise ValueError("initial_value length must be %d" % max_length)
        if not fixed_length and len(initial_value) > max_length:
            raise ValueError("initial_value length must be <= %d" % max_length)
        limit = FIX_ATTR_LEN_MAX if fixed_length else VAR_ATTR_LEN_MAX
        if max_length > limit:
            raise ValueError("max_length must be 0-%d when fixed_length is %s" % (limit, fixed_length))
        if service._registered:
            raise BluetoothError("Invalid state")  # the SoftDevice takes characteristics of the newest service only
        self = object.__new__(cls)
        self.service = service
        self.uuid = uuid
        self.properties = properties
        self.read_perm = read_perm
        self.write_perm = write_perm
        self.max_length = max_length
        self.fixed_length = fixed_length
        self.descriptors = ()
        self._value = bytes(initial_value)
        self._buffers = []
        self._bumble = None
        service._characteristics.append(self)
        return self

    def _make_bumble(self):
        p = gatt.Characteristic.Properties
        props = 0
        for ours, theirs in ((self.BROADCAST, p.BROADCAST), (self.INDICATE, p.INDICATE), (self.NOTIFY, p.NOTIFY),
                             (self.READ, p.READ), (self.WRITE, p.WRITE),
                             (self.WRITE_NO_RESPONSE, p.WRITE_WITHOUT_RESPONSE)):
            if self.properties & ours:
                props |= theirs
        permissions = _permissions(self.read_perm, True) | _permissions(self.write_perm, False)
        char = gatt.Characteristic(self.uuid._bumble, p(props), permissions,
                                   gatt.CharacteristicValue(read=self._on_read, write=self._on_write))
        if self.properties & (self.NOTIFY | self.INDICATE):
            # nordic: "Make CCCD write permission match characteristic read permission"
            cccd_write = _permissions(self.read_perm, False) if self.read_perm != Attribute.NO_ACCESS else 0
            char.descriptors = [gatt.Descriptor(gatt.GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR,
                                                gatt.Attribute.READABLE | cccd_write,
                                                stack().device.gatt_server.make_descriptor_value(char))]
        self._bumble = char
        return char

    # --- the radio's side (event-loop thread) ---
    def _on_read(self, connection) -> bytes:
        return self._value

    def _on_write(self, connection, value: bytes) -> None:
        self._value = bytes(value[:self.max_length])
        for buffer in self._buffers:
            buffer._put(bytes(value))

    # --- the firmware's side ---
    @property
    def value(self) -> bytes:
        return self._value

    @value.setter
    def value(self, value) -> None:
        data = bytes(value)
        if self.fixed_length and len(data) != self.max_length:
            raise ValueError("Value length != required fixed length")
        if len(data) > self.max_length:
            raise ValueError("Value length > max_length")
        self._value = data
        if self._bumble is None or not self.properties & (self.NOTIFY | self.INDICATE):
            return
        radio = stack()
        for connection in adapter._connections():
            # the SoftDevice truncates a notification to ATT MTU - 3, as bumble does
            if self.properties & self.NOTIFY:
                radio.call(radio.device.notify_subscriber(connection._bumble, self._bumble, data))
            elif self.properties & self.INDICATE:
                radio.call(radio.device.indicate_subscriber(connection._bumble, self._bumble, data))

    def set_cccd(self, *, notify: bool = False, indicate: bool = False) -> None:
        raise RoleError("Can't set CCCD on local Characteristic")


class CharacteristicBuffer:
    """A ring buffer of ``buffer_size`` bytes fed by the peer's writes; bytes that do not fit are
    dropped (py/ringbuf.c ringbuf_put_n)."""

    def __init__(self, characteristic, *, timeout: float = 1.0, buffer_size: int = 64) -> None:
        if not isinstance(characteristic, Characteristic):
            raise TypeError("characteristic must be of type Characteristic")
        if timeout < 0:
            raise ValueError("timeout must be >= 0.0")
        if buffer_size < 1:
            raise ValueError("buffer_size must be >= 1")
        self.characteristic = characteristic
        self.timeout = float(timeout)
        self.buffer_size = buffer_size
        self._data = bytearray()
        self._arrived = threading.Condition()
        self._deinited = False
        characteristic._buffers.append(self)

    def _put(self, data: bytes) -> None:
        with self._arrived:
            room = self.buffer_size - len(self._data)
            self._data += data[:room]
            self._arrived.notify_all()

    def _check(self) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    @property
    def in_waiting(self) -> int:
        self._check()
        with self._arrived:
            return len(self._data)

    def read(self, nbytes=None):
        self._check()
        want = self.buffer_size if nbytes is None else nbytes
        with self._arrived:
            self._arrived.wait_for(lambda: len(self._data) >= want, self.timeout)
            out = bytes(self._data[:want])
            del self._data[:want]
        return out or None

    def readinto(self, buf, nbytes=None):
        data = self.read(len(buf) if nbytes is None else min(nbytes, len(buf)))
        if data is None:
            return None
        buf[:len(data)] = data
        return len(data)

    def readline(self) -> bytes:
        self._check()
        with self._arrived:
            self._arrived.wait_for(lambda: b"\n" in self._data, self.timeout)
            end = self._data.find(b"\n") + 1 or len(self._data)
            out = bytes(self._data[:end])
            del self._data[:end]
        return out

    def reset_input_buffer(self) -> None:
        self._check()
        with self._arrived:
            self._data.clear()

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            self.characteristic._buffers.remove(self)


class Connection:
    def __init__(self) -> None:
        raise TypeError("Connections come from Adapter.connections")

    @classmethod
    def _wrap(cls, bumble_connection):
        self = object.__new__(cls)
        self._bumble = bumble_connection
        self._open = True
        return self

    @property
    def connected(self) -> bool:
        return self._open

    @property
    def paired(self) -> bool:
        return self._open and self._bumble.is_encrypted

    @property
    def connection_interval(self) -> float:
        return self._bumble.parameters.connection_interval  # ms

    @property
    def max_packet_length(self) -> int:
        return self._bumble.att_mtu - 3

    def pair(self, *, bond: bool = True) -> None:
        if not bond:
            raise NotImplementedError("bond=False")
        if not self._open:
            raise ConnectionError("Not connected")
        radio = stack()
        try:
            radio.call(radio.device.pair(self._bumble), 30.0)
        except Exception as error:
            raise SecurityError("Failed to pair: %s" % error) from None

    def disconnect(self) -> None:
        if self._open:
            radio = stack()
            radio.call(self._bumble.disconnect())

    def discover_remote_services(self, service_uuids_whitelist=None):
        raise NotImplementedError("_bleio stand-in: the board is a peripheral; it does not discover services")


class Adapter:
    def __init__(self) -> None:
        self._services = []
        self._advertising = False
        self._wrapped = {}
        self._lock = threading.Lock()
        self._name = None
        self._radio_ready = False
        # stand-in only: what the supervisor's workflow does when a peer leaves (sim/ble_workflow.py)
        self._disconnection_listeners = []
        self._workflow_advertising = False  # the supervisor's BLE workflow advertises (not code.py)
        self._program_advertised = False  # code.py used the radio: the workflow no longer advertises

    def _radio(self):
        radio = stack()
        if not self._radio_ready:
            self._radio_ready = True
            radio.device.on("connection", self._on_connection)
        return radio

    def _on_connection(self, bumble_connection) -> None:
        with self._lock:
            if bumble_connection.role == 1:  # peripheral: advertising stops on a connection
                self._advertising = False
                self._workflow_advertising = False
            self._wrapped[bumble_connection] = Connection._wrap(bumble_connection)
        bumble_connection.on("disconnection", lambda reason: self._on_disconnection(bumble_connection))

    def _on_disconnection(self, bumble_connection) -> None:
        with self._lock:
            wrapped = self._wrapped.pop(bumble_connection, None)
        if wrapped is not None:
            wrapped._open = False
        for listener in list(self._disconnection_listeners):
            listener()

    def _connections(self) -> list:
        with self._lock:
            return list(self._wrapped.values())

    @property
    def enabled(self) -> bool:
        return True

    @property
    def address(self) -> Address:
        radio = self._radio()
        return Address(bytes(radio.device.random_address), Address.RANDOM_STATIC)

    @property
    def name(self) -> str:
        if self._name is None:
            raw = self.address.address_bytes
            self._name = "CIRCUITPY%02x%02x" % (raw[1], raw[0])
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = str(value)
        self._radio().device.name = self._name

    @property
    def advertising(self) -> bool:
        # the supervisor's workflow advertising is not the program's (its first advertising stops it)
        return self._advertising and not self._workflow_advertising

    @property
    def connected(self) -> bool:
        return bool(self._connections())

    @property
    def connections(self) -> tuple:
        return tuple(self._connections())

    def start_advertising(self, data, *, scan_response=None, connectable: bool = True, anonymous: bool = False,
                          timeout: int = 0, interval: float = 0.1, tx_power: int = 0, directed_to=None) -> None:
        if self._workflow_advertising:  # a program's first advertising takes the radio from the workflow
            self.stop_advertising()
        self._program_advertised = True
        if not 0.02 <= interval <= 10.24:
            raise ValueError("interval must be in range 0.0200-10.2400")
        if timeout < 0:
            raise ValueError("timeout must be >= 0")
        if anonymous or directed_to is not None:
            raise NotImplementedError("_bleio stand-in: anonymous and directed advertising are not modelled")
        if self._advertising:
            raise BluetoothError("Already advertising.")
        if len(data) > 31 and scan_response:
            raise BluetoothError("Extended advertisements with scan response not supported.")
        if len(data) > 31 or (scan_response is not None and len(scan_response) > 31):
            raise NotImplementedError("_bleio stand-in: extended advertising is not modelled")
        peripherals = [c for c in self._connections() if c._bumble.role == 1]
        if connectable and len(peripherals) >= PERIPH_ROLE_COUNT:
            raise BluetoothError("Unknown system firmware error: %04x" % NRF_ERROR_CONN_COUNT)
        radio = self._radio()
        radio.call(self._advertise(radio, bytes(data), bytes(scan_response or b""), connectable, interval))
        self._advertising = True

    async def _advertise(self, radio, data: bytes, scan_response: bytes, connectable: bool, interval: float):
        from bumble.device import AdvertisingType

        for service in self._services:
            if not service._registered:
                service._registered = True
                radio.device.add_service(service._bumble_service())
        kind = (AdvertisingType.UNDIRECTED_CONNECTABLE_SCANNABLE if connectable
                else AdvertisingType.UNDIRECTED_SCANNABLE)
        await radio.device.start_advertising(advertising_type=kind, advertising_data=data,
                                             scan_response_data=scan_response, auto_restart=False,
                                             advertising_interval_min=interval * 1000,
                                             advertising_interval_max=interval * 1000)

    def stop_advertising(self) -> None:
        if self._advertising:
            radio = self._radio()
            radio.call(radio.device.stop_advertising())
            self._advertising = False
        self._workflow_advertising = False

    def _start_workflow_advertising(self, data, scan_response) -> None:
        """Stand-in only: the supervisor's BLE workflow advertises (tablelight.sim.ble_workflow)."""
        used = self._program_advertised
        self.start_advertising(data, scan_response=scan_response)
        self._program_advertised = used
        self._workflow_advertising = True

    def erase_bonding(self) -> None:
        self._radio().erase_bonds()

    def start_scan(self, *args, **kwargs):
        raise NotImplementedError("_bleio stand-in: the board is a peripheral; it does not scan")

    def connect(self, address, *, timeout: float):
        raise NotImplementedError("_bleio stand-in: the board is a peripheral; it does not connect out")


adapter = Adapter()

from _bleio.packet_buffer import PacketBuffer  # noqa: E402  (it reads the adapter's connections)


def set_adapter(new_adapter) -> None:
    raise NotImplementedError("_bleio stand-in: the board has its built-in adapter only")
