"""Which hosts may drive the board over Bluetooth LE: paired host keys, the pairing window, the
colour code and session authentication (docs/protocol.md, "Bluetooth LE").

CircuitPython's _bleio pairs "just works" with any central and cannot tell a stored bond from a
fresh pairing, so the BLE link's encryption keeps strangers from reading or forging the bytes of
a session, and this module decides who gets one:
- A host key (16 random bytes made by the host) is accepted only while the pairing window is open
  (opened by holding the pairing key, key 0, while the board powers up; the LEDs show it) and only
  after someone at the table presses a key while the board shows the key's colour code.
- Accepted keys live in NVM (``microcontroller.nvm``) and survive a reboot; at most MAX_HOSTS.
- A BLE connection gets a session by challenge-response (tl_auth): the board sends a fresh nonce,
  the host proves it holds a stored key without sending it. A nonce answers once.
- A connection that has not authenticated within AUTH_MS (and is not pairing) is to be dropped
  (``overdue``): a silent stranger must not hold the board's one connection.

Pure logic apart from the NVM object passed in: runs on CPython, MicroPython and CircuitPython.
"""

import tablelight_wire as wire
import tl_auth
from tl_ticks import ticks_diff

MAGIC = b"TLK1"
MAX_HOSTS = 8
WINDOW_MS = 120000  # the pairing window stays open this long after power-up
CONFIRM_MS = 60000  # a shown colour code waits this long for a press
BOOT_PRESS_MS = 2000  # a press of the pairing key this soon after power-up opens the window
AUTH_MS = 4000  # a connection that has not authenticated (nor started pairing) by then is dropped
PAIR_KEY = 0
WINDOW_BLUE = (0, 0, 160)


class HostKeys:
    """Paired host keys in NVM: MAGIC, count, then HOST_KEY_SIZE bytes per key."""

    def __init__(self, nvm, offset: int = 0) -> None:
        self.nvm = nvm
        self.offset = offset
        self.keys = []
        o = offset
        if nvm is not None and bytes(nvm[o:o + 4]) == MAGIC and nvm[o + 4] <= MAX_HOSTS:
            size = wire.HOST_KEY_SIZE
            for i in range(nvm[o + 4]):
                at = o + 5 + i * size
                self.keys.append(bytes(nvm[at:at + size]))

    def _save(self) -> None:
        if self.nvm is None:
            return
        blob = bytearray(MAGIC)
        blob.append(len(self.keys))
        for key in self.keys:
            blob += key
        self.nvm[self.offset:self.offset + len(blob)] = blob

    def add(self, key: bytes) -> None:
        if key in self.keys:
            return
        if len(self.keys) >= MAX_HOSTS:
            self.keys.pop(0)  # the oldest pairing makes room
        self.keys.append(key)
        self._save()

    def remove(self, key: bytes) -> bool:
        if key not in self.keys:
            return False
        self.keys.remove(key)
        self._save()
        return True


class Pairing:
    """The BLE transport's gate. ``handle`` takes every payload from BLE and returns True if the
    session may see it; replies go out through ``write`` (the BLE transport's)."""

    def __init__(self, keys: HostKeys, write, random_bytes=None) -> None:
        self.keys = keys
        self.write = write
        if random_bytes is None:
            import os

            random_bytes = os.urandom
        self.random_bytes = random_bytes
        self.nonce = None  # type: bytes | None  # the open challenge of this connection
        self.session_key = None  # type: bytes | None  # the key this connection proved it holds
        self.connected_at = None  # type: int | None  # when the current connection came
        self.booted = self.window_start = self.pending_since = 0
        self.window_open = False
        self.armed = False
        self.authed = False
        self.pending = None  # type: bytes | None  # the host key whose code the board shows
        self.swallowed = []  # type: list  # keys whose press pairing took: their release is not a move

    def start(self, now: int) -> None:
        """The main loop starts: the pairing key, held since power-up, is reported from now on."""
        self.booted = now
        self.armed = True

    # --- the board's side ---
    def boot_key(self, key: int, pressed: bool, now: int) -> bool:
        """A key event; True if pairing consumed it (the session must not see it, nor its release)."""
        if not pressed and key in self.swallowed:
            self.swallowed.remove(key)
            return True
        armed = self.armed
        self.armed = False  # only the first key event after power-up can open the window
        if armed and pressed and key == PAIR_KEY and ticks_diff(now, self.booted) < BOOT_PRESS_MS:
            self.window_open = True
            self.window_start = now
            print("tablelight: Bluetooth pairing window open for", WINDOW_MS // 1000, "s")
            self.swallowed.append(key)
            return True
        if self.pending is not None:
            if pressed:
                self.swallowed.append(key)
                self.keys.add(self.pending)
                self.session_key = self.pending
                self.pending = None
                self.authed = True
                self.window_open = False  # one pairing per window: the LEDs are the game's again
                self.write(wire.encode_pair_state(wire.PAIR_ACCEPTED, None, "paired"))
            return True
        return False

    def tick(self, now: int) -> None:
        if self.window_open and ticks_diff(now, self.window_start) > WINDOW_MS:
            self.window_open = False
        if self.pending is not None and ticks_diff(now, self.pending_since) > CONFIRM_MS:
            self.pending = None
            self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "nobody pressed a key on the board"))

    def disconnected(self) -> None:
        self.authed = False
        self.pending = None
        self.nonce = None
        self.session_key = None
        self.connected_at = None

    def connected(self, now: int) -> None:
        """A new central connected: the authentication clock starts."""
        self.disconnected()
        self.connected_at = now

    def overdue(self, now: int) -> bool:
        """True if the current connection should be dropped: no session after AUTH_MS and no
        pairing under way (a shown colour code waits for a press as long as CONFIRM_MS)."""
        return (self.connected_at is not None and not self.authed and self.pending is None
                and ticks_diff(now, self.connected_at) > AUTH_MS)

    def showing(self) -> bool:
        return self.window_open or self.pending is not None

    def overlay(self, frame, now: int) -> None:
        """Draw the window (LEDs 0-3 pulse blue) or the colour code (LEDs 0-3 in its colours) over
        the rendered frame."""
        if self.pending is not None:
            code = wire.pair_code(self.pending)
            for i in range(wire.PAIR_CODE_LENGTH):
                rgb = wire.PAIR_COLOURS[code[i]][1]
                self._set(frame, i, rgb[0] >> 2, rgb[1] >> 2, rgb[2] >> 2)
        elif self.window_open:
            level = 64 + (now % 1000) * 192 // 1000
            for i in range(wire.PAIR_CODE_LENGTH):
                self._set(frame, i, 0, 0, WINDOW_BLUE[2] * level >> 8)

    @staticmethod
    def _set(frame, led: int, r: int, g: int, b: int) -> None:
        o = led * 3
        if o + 2 < len(frame):
            frame[o] = r
            frame[o + 1] = g
            frame[o + 2] = b

    # --- the host's side ---
    def handle(self, p, now: int) -> bool:
        kind = p[0]
        if kind == wire.MSG_PAIR:
            key = wire.decode_host_key(p)
            if not self.window_open:
                self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "the pairing window is closed: hold key "
                                                  + str(PAIR_KEY) + " while powering the board up"))
            elif key in self.keys.keys:
                self.authed = True
                self.session_key = key
                self.write(wire.encode_pair_state(wire.PAIR_ACCEPTED, None, "already paired"))
            else:
                self.pending = key
                self.pending_since = now
                self.write(wire.encode_pair_state(wire.PAIR_WAITING, wire.pair_code(key),
                                                  "press any key on the board if it shows this code"))
            return False
        if kind == tl_auth.MSG_AUTH_BEGIN:
            version = tl_auth.decode_auth_begin(p)
            if version != tl_auth.AUTH_VERSION:
                self.nonce = None
                self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "this host speaks Bluetooth authentication "
                                                  + str(version) + ", the board " + str(tl_auth.AUTH_VERSION)
                                                  + ": update " + ("the board (tablelight flash over USB)"
                                                                   if version > tl_auth.AUTH_VERSION else "tablelight")))
                return False
            self.nonce = bytes(self.random_bytes(tl_auth.NONCE_SIZE))
            self.write(tl_auth.encode_challenge(self.nonce))
            return False
        if kind == tl_auth.MSG_AUTH_PROOF:
            code, answer = tl_auth.decode_auth_proof(p)
            nonce = self.nonce
            self.nonce = None  # one answer per challenge, right or wrong: a recorded proof is spent
            self.authed = False
            self.session_key = None
            if nonce is not None:
                for key in self.keys.keys:  # only the keys of that colour code: one HMAC, not eight
                    if wire.pair_code(key) == code and tl_auth.same(tl_auth.proof(key, nonce), answer):
                        self.session_key = key
            if self.session_key is not None:
                self.authed = True
                self.write(wire.encode_pair_state(wire.PAIR_ACCEPTED, None, "paired"))
            elif nonce is None:
                self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "no challenge to answer: send AUTH_BEGIN first"))
            else:
                self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None,
                                                  "this host is not paired with the board: run `tablelight pair`"))
            return False
        if kind == wire.MSG_AUTH:  # the host key itself (firmware before 1.2): never again over the air
            self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "this board authenticates by challenge "
                                              "(Bluetooth authentication " + str(tl_auth.AUTH_VERSION)
                                              + ") and no longer takes a host key over the air: update tablelight"))
            return False
        if kind == wire.MSG_FORGET:
            if len(p) != 1:
                raise wire.WireError("forget has no body (it forgets the key this session proved)")
            if self.authed and self.session_key is not None and self.keys.remove(self.session_key):
                self.authed = False
                self.session_key = None
                self.write(wire.encode_pair_state(wire.PAIR_FORGOTTEN, None, "forgotten"))
            else:
                self.write(wire.encode_pair_state(wire.PAIR_REFUSED, None, "not a paired host"))
            return False
        if not self.authed:
            self.write(wire.encode_board_refuse("not paired: run `tablelight pair` (authenticate first: AUTH_BEGIN)"))
            return False
        return True
