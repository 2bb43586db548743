"""tablelight wire format, protocol 1 + its extensions: the messages (firmware + host), the ONE implementation.

A payload is a message type (1 byte) + body; this file encodes and decodes every message (the
framing, COBS + CRC16 + 0x00, is tablelight_wire_frame.py: its names are passed on from here, so
``wire.frame``, ``wire.FrameReader`` and ``wire.WireError`` work as before). Byte-level spec:
docs/protocol.md.

This file must run unchanged on CPython 3.11, MicroPython and CircuitPython: no typing module,
no dataclasses/enum/abc, no match, only builtin types in annotations (MicroPython ignores them).
The host imports it as ``tablelight.wire.format`` (a symlink to this file): never copy it.
"""

try:  # on the board (and wherever firmware/lib is on the path): the file next to this one
    from tablelight_wire_frame import (MAX_PAYLOAD, FrameReader, WireError, _need, _put16, _put32, _put_text,  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
                                       _text, _u16, _u32, cobs_decode, cobs_encode, crc16, frame, unframe)
except ImportError:  # on the host: the same file, linked as tablelight.wire.framing
    from tablelight.wire.framing import (MAX_PAYLOAD, FrameReader, WireError, _need, _put16, _put32,  # type: ignore[no-redef, assignment, unused-ignore]  # noqa: F401
                                         _put_text, _text, _u16, _u32, cobs_decode, cobs_encode, crc16, frame, unframe)

PROTOCOL = 1
NARROW_LEDS = 255  # up to this many LEDs, LED numbers are one byte (the original protocol-1 format)
MAX_LEDS = 760  # a full scene (64 colours) of 760 wide LEDs is a 1022-byte payload
MAX_PALETTE = 64
MAX_DICE = 16
MAX_DICE_LEDS = 255

# board -> host
MSG_HELLO = 0x01
MSG_KEY = 0x02
MSG_NEED_SCENE = 0x03
MSG_STATUS = 0x04
MSG_LOOP_REPLY = 0x05
MSG_ERROR = 0x06
# host -> board
MSG_HELLO_REQ = 0x41
MSG_WELCOME = 0x42
MSG_REFUSE = 0x43
MSG_SCENE = 0x44
MSG_DELTA = 0x45
MSG_BRIGHTNESS = 0x46
MSG_DICE = 0x47
MSG_HEARTBEAT = 0x48
MSG_ACK = 0x49
MSG_STATUS_REQ = 0x4A
MSG_LOOP = 0x4B
MSG_TEST_KEY = 0x4C  # test benches only: a key press the board takes as if from its keypad (TL_TEST_INPUT)

# local effects of a palette entry
EFFECT_SOLID = 0
EFFECT_BLINK = 1
EFFECT_PULSE = 2
EFFECT_COUNT = 3

# capability bits in the hello
CAP_EFFECTS = 0x01
CAP_DICE = 0x02
CAP_LIMITER = 0x04
CAP_BLE = 0x08
CAP_WIDE = 0x10  # the firmware drives more than 255 LEDs with two-byte LED numbers (docs/protocol.md)
CAP_TEST_INPUT = 0x20  # the board accepts TEST_KEY (TL_TEST_INPUT = 1: a test bench, never a table)

# NEED_SCENE reasons
NEED_NO_SCENE = 1
NEED_BASE_MISMATCH = 2
NEED_VERSION_MISMATCH = 3

# ERROR codes
ERR_UNKNOWN_TYPE = 1
ERR_MALFORMED = 2
ERR_WRONG_LED_COUNT = 3
ERR_TOO_LARGE = 4
ERR_NOT_NOW = 5
ERR_REFUSED = 6  # a message this board is set up to refuse (TEST_KEY without TL_TEST_INPUT)


def msg_type(payload) -> int:
    return payload[0]


def wide(leds: int) -> bool:
    """True if a board of ``leds`` LEDs uses two-byte LED numbers (more than 255 LEDs)."""
    return leds > NARROW_LEDS


def scene_payload_size(leds: int, colours: int) -> int:
    """Bytes of a SCENE payload for ``leds`` LEDs and a palette of ``colours`` entries."""
    return 4 + 4 * colours + (2 if wide(leds) else 1) + leds


# --- board -> host ---------------------------------------------------------------------------

def encode_hello(firmware: tuple, boot_id: int, leds: int, keys: int, caps: int, max_frame: int,
                 key_seq: int, nonce: int, board: str, layout: str) -> bytes:
    """HELLO: protocol, firmware (major, minor, patch), boot id, counts, caps, max frame,
    next key sequence number the board will deliver, echoed nonce, board id, layout id."""
    b = bytearray((MSG_HELLO, PROTOCOL, firmware[0], firmware[1], firmware[2]))
    _put32(b, boot_id)
    _put16(b, leds)
    _put16(b, keys)
    _put16(b, caps)
    _put16(b, max_frame)
    _put16(b, key_seq)
    _put16(b, nonce)
    _put_text(b, board)
    _put_text(b, layout)
    return frame(b)


def decode_hello(p) -> dict:
    """The hello as a dict. A hello of another protocol decodes to at least {"protocol": n}."""
    if len(p) < 2 or p[0] != MSG_HELLO:
        raise WireError("not a hello")
    if p[1] != PROTOCOL:
        return {"protocol": p[1]}
    if len(p) < 21:
        raise WireError("hello too short")
    board, i = _text(p, 21)
    layout, i = _text(p, i)
    if i != len(p):
        raise WireError("hello has trailing bytes")
    return {
        "protocol": p[1],
        "firmware": str(p[2]) + "." + str(p[3]) + "." + str(p[4]),
        "boot_id": _u32(p, 5),
        "leds": _u16(p, 9),
        "keys": _u16(p, 11),
        "caps": _u16(p, 13),
        "max_frame": _u16(p, 15),
        "key_seq": _u16(p, 17),
        "nonce": _u16(p, 19),
        "board": board,
        "layout": layout,
    }


def encode_key(seq: int, key: int, pressed: bool, board_ms: int) -> bytes:
    b = bytearray((MSG_KEY,))
    _put16(b, seq)
    b.append(key)
    b.append(1 if pressed else 0)
    _put32(b, board_ms)
    return frame(b)


def decode_key(p) -> tuple:
    """(seq, key, pressed, board_ms)"""
    _need(p, 9, "key event")
    if p[4] > 1:
        raise WireError("key event: bad flags")
    return _u16(p, 1), p[3], p[4] == 1, _u32(p, 5)


def encode_need_scene(have_version: int, reason: int) -> bytes:
    b = bytearray((MSG_NEED_SCENE,))
    _put16(b, have_version)
    b.append(reason)
    return frame(b)


def decode_need_scene(p) -> tuple:
    """(version the board has, reason)"""
    _need(p, 4, "need-scene")
    return _u16(p, 1), p[3]


STATUS_FIELDS = ("has_scene", "version", "brightness", "limit_scale", "estimated_ma", "budget_ma",
                 "bad_frames", "good_frames", "pending_keys", "lease_ok", "uptime_ms", "dropped_keys")


def encode_status(values: tuple) -> bytes:
    """values in STATUS_FIELDS order."""
    b = bytearray((MSG_STATUS, values[0], 0, 0))
    b[2] = (values[1] >> 8) & 0xFF
    b[3] = values[1] & 0xFF
    b.append(values[2])
    b.append(values[3])
    _put16(b, values[4])
    _put16(b, values[5])
    _put32(b, values[6])
    _put32(b, values[7])
    b.append(values[8])
    b.append(values[9])
    _put32(b, values[10])
    _put16(b, values[11])
    return frame(b)


def decode_status(p) -> dict:
    _need(p, 26, "status")
    values = (p[1], _u16(p, 2), p[4], p[5], _u16(p, 6), _u16(p, 8), _u32(p, 10), _u32(p, 14),
              p[18], p[19], _u32(p, 20), _u16(p, 24))
    out = {}
    for i in range(len(STATUS_FIELDS)):
        out[STATUS_FIELDS[i]] = values[i]
    return out


def encode_loop_reply(data) -> bytes:
    return frame(bytes((MSG_LOOP_REPLY,)) + bytes(data))


def encode_error(code: int, about: int, text: str) -> bytes:
    b = bytearray((MSG_ERROR, code, about))
    _put_text(b, text)
    return frame(b)


def decode_error(p) -> tuple:
    """(code, message type it is about, text)"""
    if len(p) < 4:
        raise WireError("error too short")
    text, i = _text(p, 3)
    if i != len(p):
        raise WireError("error has trailing bytes")
    return p[1], p[2], text


# --- host -> board ---------------------------------------------------------------------------

def encode_hello_req(nonce: int) -> bytes:
    b = bytearray((MSG_HELLO_REQ, PROTOCOL))
    _put16(b, nonce)
    return frame(b)


def decode_hello_req(p) -> tuple:
    """(host protocol, nonce)"""
    _need(p, 4, "hello request")
    return p[1], _u16(p, 2)


def encode_welcome(lease_ms: int) -> bytes:
    b = bytearray((MSG_WELCOME,))
    _put16(b, lease_ms)
    return frame(b)


def decode_welcome(p) -> int:
    _need(p, 3, "welcome")
    return _u16(p, 1)


def encode_refuse(reason: str) -> bytes:
    b = bytearray((MSG_REFUSE,))
    _put_text(b, reason[:255])
    return frame(b)


def decode_refuse(p) -> str:
    text, i = _text(p, 1)
    if i != len(p):
        raise WireError("refuse has trailing bytes")
    return text


def encode_scene(version: int, palette: list, indices) -> bytes:
    """SCENE: version, palette of (r, g, b, effect), one palette index per LED (the LED count,
    the board's, is a u16 when it is over 255: wide format)."""
    if len(palette) > MAX_PALETTE or len(indices) > MAX_LEDS:
        raise WireError("scene too large")
    b = bytearray((MSG_SCENE, 0, 0, len(palette)))
    b[1] = (version >> 8) & 0xFF
    b[2] = version & 0xFF
    for entry in palette:
        b.append(entry[0])
        b.append(entry[1])
        b.append(entry[2])
        b.append(entry[3])
    if wide(len(indices)):
        _put16(b, len(indices))
    else:
        b.append(len(indices))
    b.extend(bytes(indices))
    return frame(b)


def check_scene(p, leds: int) -> int:
    """Validate a SCENE payload for a board of ``leds`` LEDs; return its version.

    Layout: [0]=type [1:3]=version [3]=palette size n, n*4 palette bytes, LED count (u8, or u16
    on a board of more than 255 LEDs), indices (u8 each)."""
    if len(p) < 5:
        raise WireError("scene too short")
    n = p[3]
    if n > MAX_PALETTE:
        raise WireError("scene palette too large")
    at = 4 + 4 * n
    width = 2 if wide(leds) else 1
    if at + width > len(p):
        raise WireError("scene too short for its palette")
    count = _u16(p, at) if width == 2 else p[at]
    at += width
    if len(p) != at + count:
        raise WireError("scene length does not match its LED count")
    if count != leds:
        raise WireError("scene has " + str(count) + " LEDs, board has " + str(leds))
    for i in range(4, 4 + 4 * n, 4):
        if p[i + 3] >= EFFECT_COUNT:
            raise WireError("scene palette: unknown effect")
    for i in range(at, len(p)):
        if p[i] >= n:
            raise WireError("scene: palette index out of range")
    return _u16(p, 1)


def scene_leds(p) -> int:
    """The LED count a SCENE payload says it has, narrow or wide (the two cannot be confused:
    a wide count is over 255, so its first byte is at least 1 and the lengths differ)."""
    if len(p) < 5 or p[3] > MAX_PALETTE:
        raise WireError("scene too short")
    at = 4 + 4 * p[3]
    if at < len(p) and len(p) == at + 1 + p[at]:
        return p[at]
    if at + 2 <= len(p) and len(p) == at + 2 + _u16(p, at) and wide(_u16(p, at)):
        return _u16(p, at)
    raise WireError("scene length does not match its LED count")


def decode_scene(p, leds: int = -1) -> tuple:
    """(version, palette list of (r, g, b, effect), indices bytes). With leds -1 the count is
    taken from the message (then no LED-count check)."""
    if leds < 0:
        leds = scene_leds(p)
    version = check_scene(p, leds)
    at = 4 + 4 * p[3]
    palette = []
    for i in range(4, at, 4):
        palette.append((p[i], p[i + 1], p[i + 2], p[i + 3]))
    return version, palette, bytes(p[at + (2 if wide(leds) else 1):])


def encode_delta(base: int, palette_sets: list, runs: list, leds: int = 0) -> bytes:
    """DELTA against ``base`` (the result is version base+1 mod 65536) for a board of ``leds``
    LEDs (over 255: the first field of every entry is a u16).

    palette_sets: (index, (r, g, b, effect)); runs: (start LED, count, palette index)."""
    w = wide(leds)
    b = bytearray((MSG_DELTA,))
    _put16(b, base)
    for index, entry in palette_sets:
        if w:
            b.append(0)
        b.append(index)
        b.append(0)
        b.append(entry[0])
        b.append(entry[1])
        b.append(entry[2])
        b.append(entry[3])
    for start, count, index in runs:
        if start < 0 or (not w and start + count > NARROW_LEDS):
            raise WireError("delta: run " + str(start) + "+" + str(count) + " needs the board's LED count (wide)")
        while count > 0:
            step = count if count < 255 else 255
            if w:
                _put16(b, start)
            else:
                b.append(start)
            b.append(step)
            b.append(index)
            start += step
            count -= step
    return frame(b)


def check_delta(p, leds: int) -> int:
    """Validate a DELTA payload for ``leds`` LEDs; return its base version. Applies nothing.

    Entries after the 2-byte base: (start, count>0, palette index) is a run of LEDs;
    (palette index, 0, r, g, b, effect) sets a palette entry. The first field of an entry (start
    or palette index) is a u8, or a u16 on a board of more than 255 LEDs (``w`` = 2)."""
    if len(p) < 3:
        raise WireError("delta too short")
    w = 2 if wide(leds) else 1
    i = 3
    n = len(p)
    while i < n:
        if i + w + 2 > n:
            raise WireError("delta: truncated entry")
        first = _u16(p, i) if w == 2 else p[i]
        count = p[i + w]
        if count == 0:
            if i + w + 5 > n:
                raise WireError("delta: truncated palette entry")
            if first >= MAX_PALETTE or p[i + w + 4] >= EFFECT_COUNT:
                raise WireError("delta: bad palette entry")
            i += w + 5
        else:
            if first + count > leds or p[i + w + 1] >= MAX_PALETTE:
                raise WireError("delta: run out of range")
            i += w + 2
    return _u16(p, 1)


def encode_brightness(level: int) -> bytes:
    return frame(bytes((MSG_BRIGHTNESS, level)))


def decode_brightness(p) -> int:
    _need(p, 2, "brightness")
    return p[1]


def encode_dice(color: tuple, roll_ms: int, hold_ms: int, values: list, leds: list, board_leds: int = 0) -> bytes:
    """DICE: the board rolls on ``leds`` (split evenly between the dice) and lands on ``values``.
    On a board of more than 255 LEDs (``board_leds``) each LED number is a u16."""
    if not values or len(values) > MAX_DICE or len(leds) < len(values) or len(leds) > MAX_DICE_LEDS:
        raise WireError("dice: 1..16 values, at least one LED per die, at most 255 LEDs")
    b = bytearray((MSG_DICE, color[0], color[1], color[2]))
    _put16(b, roll_ms)
    _put16(b, hold_ms)
    b.append(len(values))
    b.extend(bytes(values))
    b.append(len(leds))
    if wide(board_leds):
        for led in leds:
            _put16(b, led)
    else:
        b.extend(bytes(leds))
    return frame(b)


def decode_dice(p, leds: int) -> tuple:
    """((r, g, b), roll_ms, hold_ms, values bytes, LED-number bytes) for a board of ``leds`` LEDs;
    the LED numbers stay as sent: one byte each, or two (big-endian) on a wide board."""
    if len(p) < 10:
        raise WireError("dice too short")
    nv = p[8]
    if nv == 0 or nv > MAX_DICE or 9 + nv >= len(p):
        raise WireError("dice: bad value count")
    nl = p[9 + nv]
    w = 2 if wide(leds) else 1
    if len(p) != 10 + nv + w * nl or nl < nv:
        raise WireError("dice: bad LED count")
    for i in range(10 + nv, len(p), w):
        if (_u16(p, i) if w == 2 else p[i]) >= leds:
            raise WireError("dice: LED out of range")
    return ((p[1], p[2], p[3]), _u16(p, 4), _u16(p, 6), bytes(p[9:9 + nv]), bytes(p[10 + nv:]))


def dice_led_list(raw, leds: int) -> list:
    """The LED numbers of decode_dice's LED bytes, as ints."""
    if not wide(leds):
        return list(raw)
    return [_u16(raw, i) for i in range(0, len(raw), 2)]


def encode_heartbeat(version: int, lease_ms: int) -> bytes:
    b = bytearray((MSG_HEARTBEAT,))
    _put16(b, version)
    _put16(b, lease_ms)
    return frame(b)


def decode_heartbeat(p) -> tuple:
    """(host's scene version, lease ms)"""
    _need(p, 5, "heartbeat")
    return _u16(p, 1), _u16(p, 3)


def encode_ack(seq: int) -> bytes:
    b = bytearray((MSG_ACK,))
    _put16(b, seq)
    return frame(b)


def decode_ack(p) -> int:
    _need(p, 3, "ack")
    return _u16(p, 1)


def encode_status_req() -> bytes:
    return frame(bytes((MSG_STATUS_REQ,)))


def encode_loop(data) -> bytes:
    return frame(bytes((MSG_LOOP,)) + bytes(data))


def encode_test_key(key: int, pressed: bool) -> bytes:
    return frame(bytes((MSG_TEST_KEY, key & 0xFF, 1 if pressed else 0)))


def decode_test_key(p) -> tuple:
    """(key, pressed)"""
    _need(p, 3, "test key")
    if p[2] > 1:
        raise WireError("test key: pressed must be 0 or 1")
    return p[1], p[2] == 1


def seq_next(seq: int) -> int:
    """The key sequence number after ``seq``: 1..65535, wrapping past 0 (0 is never used)."""
    return (seq + 1) & 0xFFFF or 1


def seq_after(a: int, b: int) -> bool:
    """True if 16-bit sequence number a comes after b (serial-number arithmetic, RFC 1982)."""
    d = (a - b) & 0xFFFF
    return d != 0 and d < 0x8000


# --- Bluetooth LE pairing and one host at a time (docs/protocol.md, "Bluetooth LE") --------------
# board -> host
MSG_BOARD_REFUSE = 0x09  # text: why this host gets no session ("in use by a host on USB", "not paired")
MSG_PAIR_STATE = 0x0A  # state, the 4-colour code, text
# host -> board (over an encrypted BLE link)
MSG_PAIR = 0x50  # host key (16 bytes): ask to be paired; only while the board's pairing window is open
MSG_AUTH = 0x51  # retired (the host key in clear, firmware before 1.2): refused; sessions use tl_auth
MSG_FORGET = 0x52  # no body: remove the host key this session proved (firmware before 1.2: the key)
CAP_PAIRING = 0x40  # BLE sessions need a paired host key (MSG_PAIR, then tl_auth's challenge)

HOST_KEY_SIZE = 16
PAIR_WAITING = 1  # the board shows the code: press any key on the board to accept
PAIR_ACCEPTED = 2
PAIR_REFUSED = 3
PAIR_FORGOTTEN = 4
PAIR_CODE_LENGTH = 4
# the colour code's colours: (name, (r, g, b)); a code is PAIR_CODE_LENGTH indices into this list
PAIR_COLOURS = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)),
                ("yellow", (255, 200, 0)), ("cyan", (0, 255, 255)), ("magenta", (255, 0, 255)))


def pair_code(key) -> bytes:
    """The colour code both ends show for a host key: PAIR_CODE_LENGTH indices into PAIR_COLOURS."""
    _need(key, HOST_KEY_SIZE, "host key")
    code = bytearray(PAIR_CODE_LENGTH)
    for i in range(PAIR_CODE_LENGTH):
        code[i] = key[i] % len(PAIR_COLOURS)
    return bytes(code)


def encode_board_refuse(reason: str) -> bytes:
    b = bytearray((MSG_BOARD_REFUSE,))
    _put_text(b, reason[:255])
    return frame(b)


def decode_board_refuse(p) -> str:
    text, i = _text(p, 1)
    if i != len(p):
        raise WireError("board refuse has trailing bytes")
    return text


def encode_pair_state(state: int, code, text: str) -> bytes:
    b = bytearray((MSG_PAIR_STATE, state))
    b += bytes(code) if code else bytes(PAIR_CODE_LENGTH)
    _put_text(b, text[:255])
    return frame(b)


def decode_pair_state(p) -> tuple:
    """(state, code bytes, text)"""
    if len(p) < 2 + PAIR_CODE_LENGTH + 1:
        raise WireError("pair state too short")
    if not PAIR_WAITING <= p[1] <= PAIR_FORGOTTEN:
        raise WireError("unknown pair state " + str(p[1]))
    text, i = _text(p, 2 + PAIR_CODE_LENGTH)
    if i != len(p):
        raise WireError("pair state has trailing bytes")
    return p[1], bytes(p[2:2 + PAIR_CODE_LENGTH]), text


def encode_host_key(kind: int, key) -> bytes:
    """MSG_PAIR with a host key (the only message that carries one, once, while pairing)."""
    if len(key) != HOST_KEY_SIZE:
        raise WireError("a host key is " + str(HOST_KEY_SIZE) + " bytes")
    return frame(bytes((kind,)) + bytes(key))


def decode_host_key(p) -> bytes:
    if len(p) != 1 + HOST_KEY_SIZE:
        raise WireError("a host key message is " + str(1 + HOST_KEY_SIZE) + " bytes")
    return bytes(p[1:])
