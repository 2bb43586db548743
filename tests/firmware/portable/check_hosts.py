"""One host at a time (tl_hosts) and BLE pairing (tl_pairing), without a radio (portable)."""

import tablelight_wire as wire
import tl_auth
from tl_hosts import Hosts, Transport
from tl_limit import CurrentLimiter
from tl_link import BoardLink
from tl_pairing import BOOT_PRESS_MS, CONFIRM_MS, HostKeys, Pairing
from tl_scene import Renderer, Scene

INFO = {"firmware": (1, 1, 0), "board": "test", "layout": "farlander", "keys": 51, "caps": 7}
KEY_A = bytes(range(16))
KEY_B = bytes(range(100, 116))


class Out:
    def __init__(self) -> None:
        self.reader = wire.FrameReader()
        self.payloads = []

    def write(self, data) -> None:
        self.payloads.extend(self.reader.feed(data))

    def take(self) -> list:
        out = self.payloads
        self.payloads = []
        return out


class Nvm:
    """microcontroller.nvm: fixed-size bytes, 0xFF when erased."""

    def __init__(self) -> None:
        self.data = bytearray(b"\xff" * 256)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value) -> None:
        self.data[index] = value


class Counter:
    """Distinct nonces (the board's os.urandom) without a random source: MicroPython's WebAssembly
    build has none."""

    def __init__(self) -> None:
        self.n = 0

    def bytes(self, size: int) -> bytes:
        self.n += 1
        return bytes((self.n >> 8 & 0xFF, self.n & 0xFF)) + bytes(size - 2)


def authenticate(hosts, ble_t, ble, key, now: int) -> tuple:
    """The host's side of the challenge: AUTH_BEGIN, CHALLENGE, AUTH_PROOF; returns the board's
    PAIR_STATE (state, code, text) and the nonce it answered."""
    hosts.feed(ble_t, tl_auth.encode_auth_begin(), now)
    (challenge,) = ble.take()
    version, nonce = tl_auth.decode_challenge(challenge)
    assert version == tl_auth.AUTH_VERSION
    hosts.feed(ble_t, tl_auth.answer(key, nonce), now)
    (state,) = ble.take()
    return wire.decode_pair_state(state), nonce


def board(nvm=None, test_input=False):
    usb, ble = Out(), Out()
    scene = Scene(10)
    info = dict(INFO)
    info["test_input"] = test_input
    link = BoardLink(lambda frame: None, scene, Renderer(scene, CurrentLimiter(5000, 10)), info, 7, 0)
    pairing = Pairing(HostKeys(nvm or Nvm()), ble.write, Counter().bytes)
    pairing.start(0)
    usb_t = Transport("USB", usb.write, reader=link.reader, wired=True)
    ble_t = Transport("Bluetooth", ble.write, pairing)
    hosts = Hosts(link, [usb_t, ble_t])
    return link, hosts, pairing, usb_t, ble_t, usb, ble


def kinds(payloads: list) -> list:
    return [p[0] for p in payloads]


def test_an_unpaired_ble_host_gets_only_refusals() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = board()
    for frame in (wire.encode_hello_req(1), wire.encode_welcome(1000), wire.encode_status_req()):
        hosts.feed(ble_t, frame, 10)
    assert kinds(ble.take()) == [wire.MSG_BOARD_REFUSE] * 3
    assert not link.welcomed and not usb.take()


def test_pairing_needs_the_window_and_a_press() -> None:
    nvm = Nvm()
    link, hosts, pairing, usb_t, ble_t, usb, ble = board(nvm)
    hosts.feed(ble_t, wire.encode_host_key(wire.MSG_PAIR, KEY_A), 10)
    (p,) = ble.take()
    assert wire.decode_pair_state(p)[0] == wire.PAIR_REFUSED and "window is closed" in wire.decode_pair_state(p)[2]
    assert pairing.boot_key(0, True, BOOT_PRESS_MS - 1)  # key 0 held at power-up: the window opens
    assert pairing.window_open and pairing.showing()
    hosts.feed(ble_t, wire.encode_host_key(wire.MSG_PAIR, KEY_A), 20)
    (p,) = ble.take()
    state, code, text = wire.decode_pair_state(p)
    assert state == wire.PAIR_WAITING and code == wire.pair_code(KEY_A)
    frame = bytearray(30)
    pairing.overlay(frame, 20)
    colour = wire.PAIR_COLOURS[code[0]][1]
    assert list(frame[0:3]) == [colour[0] >> 2, colour[1] >> 2, colour[2] >> 2]
    assert pairing.boot_key(12, True, 30) and pairing.boot_key(12, False, 31)  # the press accepts; not a move
    (p,) = ble.take()
    assert wire.decode_pair_state(p)[0] == wire.PAIR_ACCEPTED and not pairing.window_open
    assert HostKeys(nvm).keys == [KEY_A]  # in NVM: survives a reboot
    assert not pairing.boot_key(0, True, 40)  # the window opens only at power-up


def test_a_shown_code_nobody_accepts_expires() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = board()
    pairing.boot_key(0, True, 5)
    hosts.feed(ble_t, wire.encode_host_key(wire.MSG_PAIR, KEY_A), 10)
    ble.take()
    pairing.tick(10 + CONFIRM_MS + 1)
    (p,) = ble.take()
    assert wire.decode_pair_state(p)[0] == wire.PAIR_REFUSED and pairing.keys.keys == []


def test_one_host_at_a_time() -> None:
    nvm = Nvm()
    HostKeys(nvm).add(KEY_B)
    link, hosts, pairing, usb_t, ble_t, usb, ble = board(nvm)
    hosts.feed(usb_t, wire.encode_welcome(1000), 0)
    hosts.feed(usb_t, wire.encode_scene(1, [(0, 0, 0, 0), (9, 9, 9, 0)], bytes(10)), 0)
    usb.take()
    assert authenticate(hosts, ble_t, ble, KEY_B, 10)[0][0] == wire.PAIR_ACCEPTED
    before = (bytes(link.scene.palette), link.scene.version, link.renderer.brightness)
    hosts.feed(ble_t, wire.encode_hello_req(3), 20)
    hosts.feed(ble_t, wire.encode_welcome(1000), 20)
    hosts.feed(ble_t, wire.encode_brightness(0), 20)
    hosts.feed(ble_t, wire.encode_scene(2, [(1, 2, 3, 0)], bytes(10)), 20)
    link.key_event(4, True, 20, 20)
    got = ble.take()
    assert kinds(got) == [wire.MSG_HELLO] + [wire.MSG_BOARD_REFUSE] * 3
    assert wire.decode_board_refuse(got[1]) == "in use by a host on USB"
    assert (bytes(link.scene.palette), link.scene.version, link.renderer.brightness) == before
    assert kinds(usb.take()) == [wire.MSG_KEY]  # the key event goes to the owner only
    link.tick(2000)  # the USB host's lease runs out: a welcome over BLE takes the board
    hosts.feed(ble_t, wire.encode_welcome(1000), 2001)
    assert hosts.owner is ble_t and link.lease_ok
    hosts.feed(usb_t, wire.encode_status_req(), 2002)
    assert wire.decode_board_refuse(usb.take()[0]) == "in use by a host on Bluetooth"
    hosts.lost(ble_t)
    assert hosts.owner is None and not pairing.authed


def test_forget_needs_the_session() -> None:
    nvm = Nvm()
    HostKeys(nvm).add(KEY_A)
    link, hosts, pairing, usb_t, ble_t, usb, ble = board(nvm)
    hosts.feed(ble_t, tl_auth.encode_forget(), 0)
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_REFUSED and HostKeys(nvm).keys == [KEY_A]
    assert authenticate(hosts, ble_t, ble, KEY_A, 1)[0][0] == wire.PAIR_ACCEPTED
    hosts.feed(ble_t, tl_auth.encode_forget(), 2)
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_FORGOTTEN and HostKeys(nvm).keys == []


def ble_owner(test_input=False):
    """A board whose BLE host (paired, authenticated, welcomed) owns it, as code.py builds it."""
    nvm = Nvm()
    HostKeys(nvm).add(KEY_A)
    parts = board(nvm, test_input)
    link, hosts, pairing, usb_t, ble_t, usb, ble = parts
    authenticate(hosts, ble_t, ble, KEY_A, 0)
    hosts.feed(ble_t, wire.encode_welcome(1000), 1)
    hosts.feed(ble_t, wire.encode_scene(1, [(0, 0, 0, 0), (9, 9, 9, 0)], bytes(10)), 2)
    ble.take()
    usb.take()
    assert hosts.owner is ble_t and link.lease_ok
    return parts


def test_test_input_is_never_taken_over_bluetooth_even_when_turned_on() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = ble_owner(test_input=True)
    before = (link.keys.count, link.keys.dropped, bytes(link.scene.palette), link.scene.version)
    hosts.feed(ble_t, wire.encode_test_key(3, True) + wire.encode_test_key(3, False), 10)
    got = ble.take()
    assert kinds(got) == [wire.MSG_ERROR] * 2 and not usb.take()
    code, about, text = wire.decode_error(got[0])
    assert (code, about) == (wire.ERR_REFUSED, wire.MSG_TEST_KEY) and "Bluetooth" in text
    assert (link.keys.count, link.keys.dropped, bytes(link.scene.palette), link.scene.version) == before


def test_test_input_over_usb_still_works_when_turned_on() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = board(test_input=True)
    hosts.feed(usb_t, wire.encode_welcome(1000), 0)
    usb.take()
    hosts.feed(usb_t, wire.encode_test_key(3, True), 10)
    keys = [wire.decode_key(p) for p in usb.take() if p[0] == wire.MSG_KEY]
    assert [(k[1], k[2]) for k in keys] == [(3, True)] and not ble.take()


def test_a_transport_is_not_wired_unless_said() -> None:
    assert not Transport("Bluetooth", Out().write).wired


def test_status_counts_the_frames_of_the_transport_that_asks() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = ble_owner()
    # noise on the USB cable (a bad CRC, a good hello request) must not show in the BLE host's STATUS
    bad = bytearray(wire.encode_hello_req(1))
    bad[2] ^= 0x55
    hosts.feed(usb_t, bytes(bad) + wire.encode_hello_req(2), 10)
    usb.take()
    ble_bad = bytearray(wire.encode_heartbeat(1, 1000))
    ble_bad[3] ^= 0x55
    hosts.feed(ble_t, bytes(ble_bad), 11)
    hosts.feed(ble_t, wire.encode_status_req(), 12)
    (status,) = ble.take()
    ble_counts = wire.decode_status(status)
    assert (ble_counts["bad_frames"], ble_counts["good_frames"]) == (ble_t.reader.bad, ble_t.reader.good)
    assert ble_counts["bad_frames"] == 1 and ble_counts["good_frames"] == 5  # auth begin and proof, welcome, scene, this request
    assert (usb_t.reader.bad, usb_t.reader.good) == (1, 1)
    link.tick(2000)  # BLE host's lease over: USB welcomes and asks; it gets USB's counters
    hosts.feed(usb_t, wire.encode_welcome(1000), 2001)
    hosts.feed(usb_t, wire.encode_status_req(), 2002)
    usb_counts = wire.decode_status([p for p in usb.take() if p[0] == wire.MSG_STATUS][0])
    assert (usb_counts["bad_frames"], usb_counts["good_frames"]) == (1, 3)


def test_an_oversize_payload_through_a_transport_is_answered_too_large_and_changes_nothing() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = board()
    hosts.feed(usb_t, wire.encode_welcome(1000), 0)
    usb.take()
    version = link.scene.version
    big = bytes((wire.MSG_LOOP,)) + bytes(wire.MAX_PAYLOAD)  # one byte over, good CRC (wire.frame refuses it)
    crc = wire.crc16(big)
    hosts.feed(usb_t, bytes(wire.cobs_encode(bytearray(big) + bytes((crc >> 8, crc & 0xFF)))) + b"\x00", 5)
    (reply,) = usb.take()
    assert wire.decode_error(reply)[:2] == (wire.ERR_TOO_LARGE, wire.MSG_LOOP) and link.scene.version == version


def test_a_bluetooth_handshake_does_not_renew_a_gone_usb_hosts_lease() -> None:
    """After a USB game the USB host leaves; a paired BLE host's handshake (hello requests every
    250 ms, then a welcome) must take the board once USB's lease has run out."""
    nvm = Nvm()
    HostKeys(nvm).add(KEY_A)
    link, hosts, pairing, usb_t, ble_t, usb, ble = board(nvm)
    hosts.feed(usb_t, wire.encode_welcome(1000), 0)
    hosts.feed(usb_t, wire.encode_scene(1, [(0, 0, 0, 0), (9, 9, 9, 0)], bytes(10)), 0)
    usb.take()
    authenticate(hosts, ble_t, ble, KEY_A, 100)
    for now in range(250, 2501, 250):
        hosts.feed(ble_t, wire.encode_hello_req(now), now)
        link.tick(now)
    hellos = ble.take()
    assert kinds(hellos) == [wire.MSG_HELLO] * 10 and not usb.take()
    assert wire.decode_hello(hellos[-1])["nonce"] == 2500
    assert not link.lease_ok  # USB's lease ran out at 1000 ms
    hosts.feed(ble_t, wire.encode_welcome(1000), 2600)
    assert hosts.owner is ble_t and link.lease_ok and not ble.take()


def test_the_owners_hello_request_still_renews_its_lease() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = board()
    hosts.feed(usb_t, wire.encode_welcome(1000), 0)
    for now in range(500, 3001, 500):
        hosts.feed(usb_t, wire.encode_hello_req(now), now)
        link.tick(now)
    assert hosts.owner is usb_t and link.lease_ok


def test_a_usb_host_right_after_a_bluetooth_host_left_is_welcomed() -> None:
    """The Bluetooth link went but the main loop has not read the radio yet (it reads USB first):
    the lease ends with the link, so the USB host's welcome takes the board, never "in use by a
    host on Bluetooth"."""
    link, hosts, pairing, usb_t, ble_t, usb, ble = ble_owner()
    radio = {"connected": True}
    ble_t.alive = lambda: radio["connected"]
    hosts.feed(usb_t, wire.encode_welcome(1000), 10)  # while the Bluetooth host is there: refused
    assert wire.decode_board_refuse(usb.take()[0]) == "in use by a host on Bluetooth"
    radio["connected"] = False  # the central disconnected; hosts.lost has not been called
    hosts.feed(usb_t, wire.encode_welcome(1000), 20)
    got = usb.take()
    assert wire.MSG_BOARD_REFUSE not in kinds(got)
    assert hosts.owner is usb_t and link.lease_ok and not pairing.authed
    hosts.feed(usb_t, wire.encode_status_req(), 21)
    assert kinds(usb.take()) == [wire.MSG_STATUS]
