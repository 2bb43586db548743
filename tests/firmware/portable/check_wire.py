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
