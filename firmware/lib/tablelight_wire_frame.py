"""tablelight wire format, the framing layer: bytes on a transport <-> payloads (firmware + host).

Frame on every transport (USB CDC, BLE UART, pty):  COBS(payload + CRC16) + 0x00
payload = message type (1 byte) + body.  CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of the
payload, big-endian.  Byte-level spec: docs/protocol.md ("Framing"). The messages themselves
(what a payload means) are in tablelight_wire.py, which imports this file and passes its names on.

This file must run unchanged on CPython 3.11, MicroPython and CircuitPython: no typing module,
no dataclasses/enum/abc, no match, only builtin types in annotations (MicroPython ignores them).
The host imports it as ``tablelight.wire.framing`` (a symlink to this file): never copy it.
"""

# Largest payload (before CRC and COBS) this implementation accepts; a board reports its own in
# the hello (max_frame). Firmware before the wide-LED extension accepts 600.
MAX_PAYLOAD = 1024

class WireError(ValueError):
    """A frame or message that does not follow the format (bad COBS, CRC, length or field)."""


def _make_crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, start: int = 0, end: int = -1) -> int:
    """CRC-16/CCITT-FALSE of data[start:end] (end -1 = to the end), without slicing."""
    if end < 0:
        end = len(data)
    crc = 0xFFFF
    table = _CRC_TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def cobs_encode(data) -> bytearray:
    """Consistent Overhead Byte Stuffing: the result holds no 0x00 byte (no delimiter added)."""
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    code = 1
    o = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    return out[:o]


def cobs_decode(data, length: int = -1) -> bytearray:
    """Undo cobs_encode on data[:length]; raises WireError on a malformed block."""
    if length < 0:
        length = len(data)
    out = bytearray(length)
    i = 0
    o = 0
    while i < length:
        code = data[i]
        if code == 0:
            raise WireError("COBS: zero byte inside a frame")
        i += 1
        end = i + code - 1
        if end > length:
            raise WireError("COBS: block runs past the end of the frame")
        while i < end:
            b = data[i]
            if b == 0:
                raise WireError("COBS: zero byte inside a frame")
            out[o] = b
            o += 1
            i += 1
        if code < 0xFF and i < length:
            out[o] = 0
            o += 1
    return out[:o]


def frame(payload) -> bytes:
    """The bytes to put on the wire for one payload: COBS(payload + CRC16) + 0x00."""
    if len(payload) == 0 or len(payload) > MAX_PAYLOAD:
        raise WireError("payload of " + str(len(payload)) + " bytes (1.." + str(MAX_PAYLOAD) + " allowed)")
    crc = crc16(payload)
    body = bytearray(payload)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    encoded = cobs_encode(body)
    encoded.append(0)
    return bytes(encoded)


def unframe(encoded, length: int = -1) -> bytes:
    """The payload of one frame's bytes (COBS part only, without the 0x00); WireError if bad."""
    body = cobs_decode(encoded, length)
    if len(body) < 3:
        raise WireError("frame too short")
    n = len(body) - 2
    if crc16(body, 0, n) != ((body[n] << 8) | body[n + 1]):
        raise WireError("CRC mismatch")
    return bytes(body[:n])


class FrameReader:
    """Splits a byte stream into payloads at 0x00 delimiters; chunk boundaries do not matter.

    Bad frames (COBS, CRC, too long) are dropped and counted in ``bad``: one lost or corrupted
    byte costs at most the frame it is in. Memory is bounded by ``max_frame``.
    """

    def __init__(self, max_frame: int = MAX_PAYLOAD + 8) -> None:
        self.max_frame = max_frame
        self._buf = bytearray(max_frame)
        self._len = 0
        self._overflow = False
        self.bad = 0
        self.good = 0

    def feed(self, data) -> list:
        """Consume bytes; return the list of good payloads completed by them (often empty)."""
        out = []
        buf = self._buf
        for b in data:
            if b == 0:
                if self._overflow:
                    self.bad += 1
                elif self._len:
                    try:
                        out.append(unframe(buf, self._len))
                        self.good += 1
                    except WireError:
                        self.bad += 1
                self._len = 0
                self._overflow = False
            elif self._len < self.max_frame:
                buf[self._len] = b
                self._len += 1
            else:
                self._overflow = True
        return out


# --- small field helpers ---------------------------------------------------------------------

def _u16(p, i: int) -> int:
    return (p[i] << 8) | p[i + 1]


def _u32(p, i: int) -> int:
    return (p[i] << 24) | (p[i + 1] << 16) | (p[i + 2] << 8) | p[i + 3]


def _put16(b: bytearray, v: int) -> None:
    b.append((v >> 8) & 0xFF)
    b.append(v & 0xFF)


def _put32(b: bytearray, v: int) -> None:
    b.append((v >> 24) & 0xFF)
    b.append((v >> 16) & 0xFF)
    b.append((v >> 8) & 0xFF)
    b.append(v & 0xFF)


def _put_text(b: bytearray, text: str) -> None:
    raw = text.encode()
    if len(raw) > 255:
        raise WireError("text longer than 255 bytes")
    b.append(len(raw))
    b.extend(raw)


def _text(p, i: int) -> tuple:
    if i >= len(p):
        raise WireError("missing text")
    n = p[i]
    if i + 1 + n > len(p):
        raise WireError("text runs past the end")
    try:
        return str(bytes(p[i + 1:i + 1 + n]), "utf-8"), i + 1 + n
    except UnicodeError:
        raise WireError("text is not UTF-8")


def _need(p, n: int, what: str) -> None:
    if len(p) != n:
        raise WireError(what + ": " + str(len(p)) + " bytes, expected " + str(n))
