"""Bluetooth LE session authentication: challenge-response over a fresh board nonce (docs/protocol.md,
"Bluetooth LE: pairing and security"). One implementation for the board and the host (the host
imports this file through the link ``host/tablelight/wire/auth.py``).

After pairing, a host key never crosses the air again. The host asks for a challenge
(AUTH_BEGIN with the authentication version it speaks); the board answers CHALLENGE with 16
random bytes it has never sent before; the host answers AUTH_PROOF: its key's colour code (the
one the board showed on its LEDs at pairing: public, it only says which paired key to try) and
the first 16 bytes of HMAC-SHA256(host key, nonce || CONTEXT). The board compares that with the
proof of each paired key of that code and forgets the nonce whatever the answer, so a recorded
proof is worth nothing later. (The code keeps the board's work to one HMAC, four SHA-256 blocks,
where its port has no hashlib: CircuitPython's nrf port, the Feather nRF52840's, has none.)

Runs on CPython, MicroPython and CircuitPython: SHA-256 from ``hashlib`` where the port has it,
else the small pure-Python one below (CircuitPython builds without hashlib.sha256); HMAC by hand
(RFC 2104), as neither MicroPython nor CircuitPython ships ``hmac``.
"""

try:  # on the board (firmware/lib on the path)
    import tablelight_wire as wire  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # on the host: the same file, linked as tablelight.wire.format
    from tablelight.wire import format as wire  # type: ignore[no-redef, unused-ignore]

AUTH_VERSION = 1  # bump for any change of the exchange below: an older peer then gets a clear refusal
NONCE_SIZE = 16
PROOF_SIZE = 16  # truncated HMAC-SHA256 (RFC 2104 section 5 allows truncation to >= half)
CONTEXT = b"tablelight BLE session v1"  # binds a proof to this use of the key

# board -> host
MSG_CHALLENGE = 0x0B  # u8 auth version, 16-byte nonce
# host -> board
MSG_AUTH_BEGIN = 0x53  # u8 auth version the host speaks
MSG_AUTH_PROOF = 0x54  # 4-byte colour code of the key, 16-byte proof for the last CHALLENGE

_K = (
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2)
_H0 = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
_M = 0xFFFFFFFF


def _rotr(x: int, n: int) -> int:
    return ((x >> n) | (x << (32 - n))) & _M


def sha256_portable(data) -> bytes:
    """SHA-256 (FIPS 180-4) in plain Python, for ports without hashlib.sha256."""
    message = bytearray(data)
    length = len(message) * 8
    message.append(0x80)
    while len(message) % 64 != 56:
        message.append(0)
    for shift in (56, 48, 40, 32, 24, 16, 8, 0):
        message.append((length >> shift) & 0xFF)
    h = list(_H0)
    w = [0] * 64
    for block in range(0, len(message), 64):
        for i in range(16):
            o = block + 4 * i
            w[i] = (message[o] << 24) | (message[o + 1] << 16) | (message[o + 2] << 8) | message[o + 3]
        for i in range(16, 64):
            s0 = _rotr(w[i - 15], 7) ^ _rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            s1 = _rotr(w[i - 2], 17) ^ _rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & _M
        a, b, c, d, e, f, g, hh = h
        for i in range(64):
            t1 = (hh + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ (~e & g)) + _K[i] + w[i]) & _M
            t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) & _M
            hh, g, f, e, d, c, b, a = g, f, e, (d + t1) & _M, c, b, a, (t1 + t2) & _M
        h = [(x + y) & _M for x, y in zip(h, (a, b, c, d, e, f, g, hh))]
    out = bytearray()
    for x in h:
        out += bytes(((x >> 24) & 0xFF, (x >> 16) & 0xFF, (x >> 8) & 0xFF, x & 0xFF))
    return bytes(out)


def _native_sha256():
    try:
        import hashlib

        if hashlib.sha256(b"abc").digest()[:2] == b"\xba\x78":
            return lambda data: hashlib.sha256(data).digest()
    except (ImportError, AttributeError, ValueError):
        pass
    return None


sha256 = _native_sha256() or sha256_portable


def hmac_sha256(key, message, digest=None) -> bytes:
    """HMAC-SHA256 (RFC 2104) over ``digest`` (default: this port's SHA-256)."""
    digest = digest or sha256
    key = bytes(key)
    if len(key) > 64:
        key = digest(key)
    key = key + bytes(64 - len(key))
    inner = bytearray(64)
    outer = bytearray(64)
    for i in range(64):
        inner[i] = key[i] ^ 0x36
        outer[i] = key[i] ^ 0x5C
    return digest(bytes(outer) + digest(bytes(inner) + bytes(message)))


def proof(key, nonce) -> bytes:
    """The host's answer to a challenge: HMAC-SHA256(key, nonce || CONTEXT), truncated."""
    return hmac_sha256(key, bytes(nonce) + CONTEXT)[:PROOF_SIZE]


def same(a, b) -> bool:
    """Equal bytes, compared without stopping at the first difference (timing tells nothing)."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


# --- messages ---------------------------------------------------------------------------------
def encode_auth_begin(version: int = AUTH_VERSION) -> bytes:
    return wire.frame(bytes((MSG_AUTH_BEGIN, version & 0xFF)))


def decode_auth_begin(p) -> int:
    if len(p) != 2:
        raise wire.WireError("auth begin is 2 bytes")
    return p[1]


def encode_challenge(nonce, version: int = AUTH_VERSION) -> bytes:
    if len(nonce) != NONCE_SIZE:
        raise wire.WireError("a nonce is " + str(NONCE_SIZE) + " bytes")
    return wire.frame(bytes((MSG_CHALLENGE, version)) + bytes(nonce))


def decode_challenge(p) -> tuple:
    """(auth version, nonce)"""
    if len(p) != 2 + NONCE_SIZE:
        raise wire.WireError("a challenge is " + str(2 + NONCE_SIZE) + " bytes")
    return p[1], bytes(p[2:])


def encode_forget() -> bytes:
    """FORGET with no body: the board forgets the key this session proved (no key on the air)."""
    return wire.frame(bytes((wire.MSG_FORGET,)))


def encode_auth_proof(code, answer) -> bytes:
    """AUTH_PROOF: the key's colour code (wire.pair_code) and the proof for the challenge."""
    if len(code) != wire.PAIR_CODE_LENGTH or len(answer) != PROOF_SIZE:
        raise wire.WireError("a proof is a " + str(wire.PAIR_CODE_LENGTH) + "-byte code and " + str(PROOF_SIZE)
                             + " bytes")
    return wire.frame(bytes((MSG_AUTH_PROOF,)) + bytes(code) + bytes(answer))


def decode_auth_proof(p) -> tuple:
    """(colour code, proof)"""
    if len(p) != 1 + wire.PAIR_CODE_LENGTH + PROOF_SIZE:
        raise wire.WireError("an auth proof is " + str(1 + wire.PAIR_CODE_LENGTH + PROOF_SIZE) + " bytes")
    return bytes(p[1:1 + wire.PAIR_CODE_LENGTH]), bytes(p[1 + wire.PAIR_CODE_LENGTH:])


def answer(key, nonce) -> bytes:
    """The host's whole AUTH_PROOF frame for ``nonce``."""
    return encode_auth_proof(wire.pair_code(key), proof(key, nonce))
