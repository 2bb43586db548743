"""Wire-format checks in the portable subset: run by pytest on CPython and by run_all.py under
MicroPython, with the same expectations."""

import tablelight_wire as wire
from prng import Rand


def frames_of(data, chunk: int) -> list:
    reader = wire.FrameReader()
    out = []
    for i in range(0, len(data), chunk):
        out.extend(reader.feed(data[i:i + chunk]))
    return out


def test_crc16_check_value() -> None:
    assert wire.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE check value
    assert wire.crc16(b"") == 0xFFFF


def test_cobs_round_trip_and_no_zero_bytes() -> None:
    rand = Rand(1)
    samples = [b"", b"\x00", b"\x00\x00", b"\x01", bytes(range(1, 255)), bytes(range(1, 256)),
               bytes(range(256)), b"\x11" * 600, b"\x00" * 300]
    for _ in range(60):
        samples.append(rand.bytes(rand.below(700)))
    for data in samples:
        encoded = wire.cobs_encode(data)
        assert b"\x00" not in bytes(encoded)
        assert bytes(wire.cobs_decode(encoded)) == bytes(data)


def test_frame_round_trip() -> None:
    payload = b"\x41\x01\x00\x00\x00\x07"
    data = wire.frame(payload)
    assert data[-1] == 0 and b"\x00" not in data[:-1]
    assert wire.unframe(data[:-1]) == payload


def test_every_byte_position_corruption_is_detected() -> None:
    data = wire.encode_key(513, 7, True, 123456)
    for i in range(len(data) - 1):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[i] ^= flip
            got = frames_of(bytes(bad), 64)
            assert got == [], (i, flip)


def test_stream_in_20_byte_and_1_byte_chunks() -> None:
    msgs = [wire.encode_hello((1, 2, 3), 0x01020304, 55, 51, 7, 600, 1, 0, "feather_nrf52840", "farlander"),
            wire.encode_key(1, 3, True, 1000), wire.encode_scene(1, [(255, 0, 0, 0), (0, 0, 255, 2)], bytes(55)),
            wire.encode_ack(9), wire.encode_loop(bytes(range(256)))]
    stream = b"".join(msgs)
    expected = [wire.unframe(m[:-1]) for m in msgs]
    for chunk in (1, 7, 20, 64, len(stream)):
        assert frames_of(stream, chunk) == expected, chunk


def test_reader_recovers_after_garbage_and_overflow() -> None:
    good = wire.encode_ack(5)
    reader = wire.FrameReader(64)
    assert reader.feed(b"\x07\x99garbage\x00") == []
    assert reader.feed(b"\x55" * 500) == []  # no delimiter for far too long
    assert reader.feed(b"\x00" + good) == [wire.unframe(good[:-1])]
    assert reader.bad == 2 and reader.good == 1


def test_dropped_byte_costs_only_its_frame() -> None:
    a = wire.encode_ack(1)
    b = wire.encode_ack(2)
    c = wire.encode_ack(3)
    stream = a[:2] + a[3:] + b + c  # one byte of the first frame lost
    got = frames_of(stream, 20)
    assert [wire.decode_ack(p) for p in got] == [2, 3]


def test_duplicated_frame_decodes_twice_identically() -> None:
    a = wire.encode_key(4, 1, False, 99)
    got = frames_of(a + a, 20)
    assert len(got) == 2 and wire.decode_key(got[0]) == wire.decode_key(got[1]) == (4, 1, False, 99)


def test_hello_round_trip_and_other_protocol() -> None:
    data = wire.encode_hello((1, 4, 2), 0xCAFEBABE, 55, 51, 7, 600, 12, 4242, "feather_nrf52840", "farlander")
    hello = wire.decode_hello(wire.unframe(data[:-1]))
    assert hello["protocol"] == wire.PROTOCOL and hello["firmware"] == "1.4.2"
    assert hello["boot_id"] == 0xCAFEBABE and hello["leds"] == 55 and hello["keys"] == 51
    assert hello["caps"] == 7 and hello["max_frame"] == 600 and hello["key_seq"] == 12
    assert hello["nonce"] == 4242 and hello["board"] == "feather_nrf52840" and hello["layout"] == "farlander"
    future = wire.frame(bytes((wire.MSG_HELLO, 2, 9, 9, 9, 1, 2)))
    assert wire.decode_hello(wire.unframe(future[:-1])) == {"protocol": 2}


def test_message_round_trips() -> None:
    def payload(data):
        return wire.unframe(data[:-1])

    assert wire.decode_key(payload(wire.encode_key(65535, 50, True, 0xFFFFFFFF))) == (65535, 50, True, 0xFFFFFFFF)
    assert wire.decode_need_scene(payload(wire.encode_need_scene(77, wire.NEED_BASE_MISMATCH))) == (77, 2)
    assert wire.decode_hello_req(payload(wire.encode_hello_req(999))) == (wire.PROTOCOL, 999)
    assert wire.decode_welcome(payload(wire.encode_welcome(3000))) == 3000
    assert wire.decode_refuse(payload(wire.encode_refuse("layout mismatch"))) == "layout mismatch"
    assert wire.decode_brightness(payload(wire.encode_brightness(200))) == 200
    assert wire.decode_heartbeat(payload(wire.encode_heartbeat(513, 3000))) == (513, 3000)
    assert wire.decode_ack(payload(wire.encode_ack(40000))) == 40000
    assert wire.decode_error(payload(wire.encode_error(3, 0x44, "scene has 54 LEDs"))) == (3, 0x44, "scene has 54 LEDs")
    version, palette, indices = wire.decode_scene(payload(wire.encode_scene(300, [(1, 2, 3, 0), (4, 5, 6, 2)], bytes((0, 1, 1, 0)))))
    assert version == 300 and palette == [(1, 2, 3, 0), (4, 5, 6, 2)] and indices == bytes((0, 1, 1, 0))
    dice = wire.decode_dice(payload(wire.encode_dice((255, 255, 255), 900, 2000, [3, 6], list(range(12)))), 55)
    assert dice == ((255, 255, 255), 900, 2000, bytes((3, 6)), bytes(range(12)))
    status = tuple(range(1, 13))
    assert [wire.decode_status(payload(wire.encode_status(status)))[k] for k in wire.STATUS_FIELDS] == list(status)


def test_typical_move_fits_in_20_bytes() -> None:
    # one territory (two slices of tile 3) changes owner, the turn LEDs of seats 0 and 1 swap
    data = wire.encode_delta(41, [], [(22, 2, 2), (49, 1, 0), (50, 1, 3)])
    assert len(data) <= 20, len(data)


def test_delta_runs_longer_than_255_are_split() -> None:
    p = wire.unframe(wire.encode_delta(1, [], [(0, 255, 1)])[:-1])
    assert wire.check_delta(p, 255) == 1
    try:
        wire.check_delta(p, 254)
        raise AssertionError("run past the last LED accepted")
    except wire.WireError:
        pass


def test_malformed_messages_raise_wire_error() -> None:
    bad = [
        (wire.decode_key, b"\x02\x00\x01\x05"),
        (wire.decode_key, b"\x02\x00\x01\x05\x02\x00\x00\x00\x00"),
        (wire.decode_ack, b"\x49\x00"),
        (wire.decode_refuse, b"\x43\x09ab"),
        (wire.decode_refuse, b"\x43\x02\xff\xfe"),
        (wire.decode_hello, b"\x01\x01\x00"),
        (wire.decode_status, b"\x04\x00"),
        (wire.decode_error, b"\x06\x01"),
        (wire.decode_heartbeat, b"\x48\x00\x01"),
    ]
    for fn, p in bad:
        try:
            fn(p)
        except wire.WireError:
            continue
        raise AssertionError("accepted " + repr(p))
    for p, leds in ((b"\x44\x00\x01\x01\x01\x02\x03\x00\x02\x00\x01", 2),  # index 1, 1-colour palette
                    (b"\x44\x00\x01\x01\x01\x02\x03\x07\x01\x00", 1),  # effect 7
                    (b"\x44\x00\x01\x00\x03\x00\x00\x00", 3),  # indices without a palette
                    (b"\x44\x00\x01\x01\x01\x02\x03\x00\x02\x00\x00", 3)):  # 2 LEDs for a 3-LED board
        try:
            wire.check_scene(p, leds)
        except wire.WireError:
            continue
        raise AssertionError("scene accepted " + repr(p))
    for p in (b"\x45\x00", b"\x45\x00\x01\x05", b"\x45\x00\x01\x36\x02\x00", b"\x45\x00\x01\x00\x01\x40",
              b"\x45\x00\x01\x02\x00\x01\x02\x03\x05"):
        try:
            wire.check_delta(p, 55)
        except wire.WireError:
            continue
        raise AssertionError("delta accepted " + repr(p))


def test_seq_arithmetic_wraps() -> None:
    assert wire.seq_next(65535) == 1 and wire.seq_next(1) == 2
    assert wire.seq_after(2, 1) and not wire.seq_after(1, 2) and wire.seq_after(1, 65535)
    assert not wire.seq_after(5, 5)


def test_fuzz_reader_random_streams_never_crash() -> None:
    rand = Rand(7)
    reader = wire.FrameReader(128)
    for _ in range(300):
        for p in reader.feed(rand.bytes(rand.below(80))):
            assert len(p) >= 1  # only CRC-checked payloads come out
    assert reader.bad > 0


# --- more than 255 LEDs: the wide format (CAP_WIDE) ----------------------------------------------

def _payload(data):
    return wire.unframe(data[:-1])


def _raises(fn, *args) -> None:
    try:
        fn(*args)
    except wire.WireError:
        return
    raise AssertionError("accepted " + repr(args[0]))


def test_narrow_format_is_byte_identical_to_protocol_1() -> None:
    # a typical Farlander move: exactly the bytes protocol 1 always sent (16 on the wire)
    move = wire.encode_delta(41, [], [(22, 2, 2), (49, 1, 0), (50, 1, 3)], 55)
    assert _payload(move) == bytes((0x45, 0, 41, 22, 2, 2, 49, 1, 0, 50, 1, 3))
    assert len(move) == 16
    assert _payload(wire.encode_delta(1, [(5, (1, 2, 3, 2))], [], 255)) == bytes((0x45, 0, 1, 5, 0, 1, 2, 3, 2))
    scene = _payload(wire.encode_scene(2, [(9, 8, 7, 0)], bytes(255)))
    assert scene[:9] == bytes((0x44, 0, 2, 1, 9, 8, 7, 0, 255)) and len(scene) == 9 + 255
    dice = _payload(wire.encode_dice((1, 2, 3), 5, 6, [4], [0, 254], 255))
    assert dice[9:] == bytes((4, 2, 0, 254))


def test_wide_scene_round_trip_300_and_600_leds() -> None:
    rand = Rand(3)
    for leds in (256, 300, 600):
        palette = [(i, 255 - i, i * 3 % 256, i % 3) for i in range(64)]
        indices = bytes(rand.below(64) for _ in range(leds))
        data = wire.encode_scene(4242, palette, indices)
        p = _payload(data)
        assert (p[4 + 256] << 8) | p[5 + 256] == leds  # the LED count is a u16
        assert len(p) == wire.scene_payload_size(leds, 64) <= wire.MAX_PAYLOAD
        assert wire.check_scene(p, leds) == 4242
        assert wire.scene_leds(p) == leds
        assert wire.decode_scene(p) == (4242, palette, indices)
        assert wire.decode_scene(p, leds) == (4242, palette, indices)
        assert frames_of(data, 20) == [p]  # through a BLE-sized chunking too
        _raises(wire.check_scene, p, leds - 1)  # another board's count
        _raises(wire.check_scene, p[:-1], leds)


def test_largest_scene_fits_one_payload() -> None:
    palette = [(i, 1, 1, 0) for i in range(wire.MAX_PALETTE)]
    indices = bytes(i % 64 for i in range(wire.MAX_LEDS))
    p = _payload(wire.encode_scene(1, palette, indices))
    assert len(p) <= wire.MAX_PAYLOAD and wire.check_scene(p, wire.MAX_LEDS) == 1
    _raises(wire.encode_scene, 1, palette, indices + b"\x00")


def test_wide_scene_and_narrow_scene_are_not_confused() -> None:
    narrow = _payload(wire.encode_scene(1, [(0, 0, 0, 0)], bytes(255)))
    wide = _payload(wire.encode_scene(1, [(0, 0, 0, 0)], bytes(256)))
    _raises(wire.check_scene, narrow, 300)  # a board of 300 reads a u16 count
    _raises(wire.check_scene, wide, 255)
    assert wire.scene_leds(narrow) == 255 and wire.scene_leds(wide) == 256


def test_wide_delta_round_trip_and_limits() -> None:
    sets = [(63, (1, 2, 3, 1))]
    runs = [(0, 1, 1), (255, 2, 63), (299, 1, 2), (300, 300, 5), (599, 1, 0)]
    p = _payload(wire.encode_delta(7, sets, runs, 600))
    # base, one palette entry (u16 index, 0, rgb, effect) = 7 bytes, runs of 4 bytes (300 LEDs: 255 + 45)
    assert len(p) == 3 + 7 + 4 * 6
    assert p[3:10] == bytes((0, 63, 0, 1, 2, 3, 1)) and p[14:18] == bytes((0x00, 0xFF, 2, 63))
    assert wire.check_delta(p, 600) == 7
    _raises(wire.check_delta, p, 599)  # the last run ends past LED 598
    _raises(wire.encode_delta, 7, [], [(300, 1, 1)])  # no board LED count given: narrow, and 300 does not fit
    move = wire.encode_delta(41, [], [(256, 2, 2), (280, 1, 0), (281, 1, 3)], 300)
    assert len(move) == 19  # a move on a big board: one byte more per run, still <= 20
    for bad in (b"\x45\x00\x01\x00", b"\x45\x00\x01\x01\x2c\x01\x01",  # truncated; run 300..300 on 300
                b"\x45\x00\x01\x00\x40\x00\x01\x02\x03\x00", b"\x45\x00\x01\x00\x01\x00\x01\x02\x03"):
        _raises(wire.check_delta, bad, 300)


def test_wide_dice_round_trip() -> None:
    leds = [254, 255, 256, 599, 300, 301]
    p = _payload(wire.encode_dice((9, 9, 9), 100, 200, [2, 5], leds, 600))
    assert p[11] == 6 and len(p) == 12 + 12  # count u8, then u16 LED numbers
    color, roll, hold, values, raw = wire.decode_dice(p, 600)
    assert (color, roll, hold, values) == ((9, 9, 9), 100, 200, bytes((2, 5)))
    assert wire.dice_led_list(raw, 600) == leds
    _raises(wire.decode_dice, p, 599)  # LED 599 does not exist there
    _raises(wire.decode_dice, p, 255)  # read narrow: the length does not match
    _raises(wire.encode_dice, (1, 1, 1), 1, 1, [1], list(range(256)), 600)  # 255 dice LEDs at most
